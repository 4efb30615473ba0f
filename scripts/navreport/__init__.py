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

Every module imports alone; nothing here changes the module search path.
"""
