"""navbench: navbench's result sets in Python (docs/results.md#the-python-package).

    import navbench
    res = navbench.load("results/default")          # typed tables: queries, builds, maps, runs
    table = navbench.summarize(res.queries, by=["representation", "smoothing"], builds=res.builds)

load finds result sets as the report does (a run PREFIX, a sweep folder, a merged set, a folder of
shards); summarize computes the report's statistics with the report's row rules (navbench.rules,
which the report itself calls); compare pairs two runs' queries; export writes the SQLite database
and OMPL's benchmark log. `python -m navbench` is the command line behind `navbench export` and
`navbench compare`.
"""
from navbench.errors import InputError  # noqa: F401
from navbench.load import Results, UNITS, load  # noqa: F401
from navbench.subset import select  # noqa: F401
from navbench.summarize import summarize  # noqa: F401

__version__ = "0.1.0"
