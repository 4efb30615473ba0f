#!/usr/bin/env python3
"""Every figure of the report as SVG and PDF (and PNG) for papers:

    scripts/navpy.sh scripts/plots.py RESULTS... --out DIR [--formats svg,pdf,png]

The command line of navreport/plots.py; the figures are the report's (navreport/).
"""
from navreport.io.errors import require_plotting, run_main

require_plotting("plots.py", extra=("scipy", "plotly"))

from navreport import plots  # noqa: E402

if __name__ == "__main__":
    run_main("plots.py", plots.main)
