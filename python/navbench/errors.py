"""How navbench's Python code fails: InputError, a missing or malformed input, which the command
lines (python -m navbench, the report's scripts) print as one line with exit status 2; and notes on
stderr. The lowest module of the package: it imports nothing of it."""
from __future__ import annotations

import sys


class InputError(Exception):
    """A missing or malformed input file; the scripts print it as one line and exit 2."""


def note(msg: str) -> None:
    print(msg, file=sys.stderr)
