"""navreport: the navbench report, its figures and the readers of result sets (docs/results.md).

Layers, each importing only from the layers before it (tests/scripts/test_imports.py checks it
and that no import circles):

    io/        results I/O: result sets and their schema, maps, a path's items, errors
    analysis/  numbers: statistics, the rows' codes, ranked tables, verdicts, budgets, the weighted
               maps' costs, the changing maps' updates, two runs compared, formats
    figures/   how to draw (plotly for the page, matplotlib for papers) and the answer's charts
    sections/  one module per section of the page (base.py: what a section gives the page)
    page.py    the sections in page order (the one place that lists and builds them) and the files
    report.py, plots.py   the command lines (scripts/report.py and scripts/plots.py call them)

Every module imports alone; nothing here changes the module search path. The reading of result
sets, the row rules and the statistics are the results package's (python/navbench): a script
started without it on the path (not through scripts/navpy.sh, which puts it there) is sent through
navpy.sh, as one started without matplotlib is (io/errors.py).
"""
import importlib.util as _util
import os as _os
import sys as _sys

if _util.find_spec("navbench") is None:
    _navpy = _os.path.join(_os.path.dirname(_os.path.dirname(_os.path.abspath(__file__))), "navpy.sh")
    if not _os.environ.get("NAVPY_ACTIVE") and _sys.argv and _sys.argv[0].endswith(".py") and _os.access(_navpy, _os.X_OK):
        _os.execv(_navpy, [_navpy, _os.path.abspath(_sys.argv[0])] + _sys.argv[1:])
    raise ImportError("navreport needs the results package python/navbench on the module path: run the script "
                      "through scripts/navpy.sh, or `pip install ./python`")
