#!/usr/bin/env python3
"""The navbench report: which representation, at what cost — one folder that opens from disk.

    scripts/navpy.sh scripts/report.py RESULTS... --out DIR [--compare RESULTS_B...]
        [--title TEXT] [--seed N] [--maps DIR_OR_FILE ...] [--paths-dir DIR]

The command line of navreport/report.py (its docstring and --help say the rest); the package
navreport/ holds the reading, the analysis, the figures and the sections.
"""
from navreport.io.errors import require_plotting, run_main

require_plotting("report.py", extra=("scipy", "plotly"))

from navreport import report  # noqa: E402

if __name__ == "__main__":
    run_main("report.py", report.main)
