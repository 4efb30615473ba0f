"""How the report's scripts fail and start: InputError (a missing or malformed input, printed as
one line with exit status 2), notes on stderr, and the check for the plotting packages that sends
a script through scripts/navpy.sh when this Python lacks them. The lowest module of the package:
it imports nothing of it."""
from __future__ import annotations

import os
import sys

# scripts/navpy.sh: finds a Python with matplotlib, pandas, scipy and plotly.
NAVPY = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "navpy.sh")


from navbench.errors import InputError, note  # noqa: F401  (the results package's: one class for both)


def require_plotting(script: str, extra=()) -> None:
    """Imports matplotlib (Agg), pandas and the modules named in extra (report.py: scipy,
    plotly), or re-runs the script through navpy.sh, which finds a Python that has them; prints
    one clear line and exits when there is none."""
    import importlib
    try:
        import matplotlib  # noqa: F401
        import pandas  # noqa: F401
        for mod in extra:
            importlib.import_module(mod)
    except ImportError as e:
        # NAVPY_ACTIVE is set by navpy.sh: re-running through it again would loop.
        if not os.environ.get("NAVPY_ACTIVE") and os.access(NAVPY, os.X_OK):
            os.execv(NAVPY, [NAVPY, os.path.abspath(sys.argv[0])] + sys.argv[1:])
        sys.exit(f"{script}: this Python ({sys.executable}) cannot import {e.name}; "
                 "install the Debian packages python3-matplotlib python3-pandas python3-scipy python3-plotly python3-yaml "
                 "or set NAVBENCH_PYTHON")
    import matplotlib
    matplotlib.use("Agg")


def run_main(script: str, main) -> None:
    """Runs main(); an InputError becomes one line on stderr and exit status 2."""
    try:
        sys.exit(main())
    except InputError as e:
        print(f"{script}: {e}", file=sys.stderr)
        sys.exit(2)
