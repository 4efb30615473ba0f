"""The navbench report: which representation, at what cost — one folder that opens from disk.

    scripts/navpy.sh scripts/report.py RESULTS... --out DIR [--compare RESULTS_B...]
        [--title TEXT] [--seed N] [--map-files DIR_OR_FILE ...] [--paths-dir DIR] [--figures svg,pdf|none]
        [--maps NAMES] [--collections NAMES] [--reps NAMES] [--accept-invalid PCT] [--accept-unsolved PCT]

RESULTS are result-set PREFIXes, PREFIX.csv files or sweep directories (docs/results.md); a folder holding
the shard folders of a sharded sweep is read through its merged/ results (navbench merge). Writes
DIR/report.html (interactive plotly charts; plotly.min.js copied next to it, no network),
DIR/figures/<figure>.svg|.pdf (matplotlib, for papers; --figures chooses the formats, each a
redrawing of every chart, about half the report's time on the default job), DIR/paths/*.png (the path pictures found
in the results folder's paths/ directory), DIR/summary.csv (the ranked table, all scopes).

First screen: the verdict in one sentence, one table per facet (plain maps, weighted maps, ...)
whose rows are the Pareto front's points with median query time, mean gap (or cost gap), valid %,
solved %, build time and memory per map, the budget answers as marked columns, and the compact
Pareto chart beside them. Only candidates (SPEC §14, python/navbench/candidates.py: every path valid,
every query that has a path answered) stand on the fronts, in the verdict, the budgets and the
ranking; right below each front table, the facet's other configurations ("Not candidates") with
both shares and why. --accept-invalid PCT / --accept-unsolved PCT widen the rule, and the page says so. Then every configuration's chart with intervals, the ranked table (seeded bootstrap
intervals, n per value, best per column marked) and paired verdicts (Wilcoxon signed-rank on the
same queries, Holm-corrected); each collection folded; then cost as the work grows, ECDFs, path
pictures, missing data, and the run metadata last, long sections folded.
With --compare, a section compares the two runs: per configuration the ratio of medians (B / A)
with 95 % intervals.

At scale: only the result columns the report uses are parsed, 256 k rows at a time, into
one set of columns (text as categorical codes); configurations and scopes are located by
integer codes rather than by filtering the rows; a large sample's resampled statistics are drawn
from their distribution (python/navbench/stats.py), so that cost does not grow with the rows; the
worker processes (bootstraps, static figures) are forked before the rows are read. Ten million
rows take about 2.4 GB (tests/scripts/bench_report.sh measures it, docs/measurements.md records it).
"""
from __future__ import annotations

import argparse
import os

import pandas as pd

from navbench import candidates, stats, subset
from navreport.analysis import rows
from navreport.analysis.analyse import analyse
from navreport.io import results as common, workers
from navreport.page import write_report
from navreport.sections.base import Context


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("results", nargs="+", help="result-set PREFIX, PREFIX.csv or directory (run A)")
    ap.add_argument("--out", required=True, help="output folder (created)")
    ap.add_argument("--compare", nargs="+", metavar="RESULTS_B", help="a second run: ratios of medians B / A")
    ap.add_argument("--title", default="navbench report")
    ap.add_argument("--seed", type=int, default=1, help="bootstrap seed (default 1)")
    ap.add_argument("--boot", type=int, default=stats.N_BOOT,
                    help=f"bootstrap resamples per interval (default {stats.N_BOOT}; fewer is faster, coarser)")
    ap.add_argument("--map-files", action="append", default=[], metavar="PATH",
                    help="map file or folder, to read map sizes (repeatable; besides the maps the runs' meta.json names)")
    subset.add_arguments(ap)
    ap.add_argument("--paths-dir", action="append", default=[], help="folder of path pictures (default RESULTS/paths)")
    ap.add_argument("--dynamic", nargs="+", default=[], metavar="RESULTS_DYN",
                    help="result sets of dynamic runs (run --dynamic, with PREFIX.updates.csv): shown in "
                         "'Changing maps' only, not mixed into the answer")
    ap.add_argument("--figures", default="svg,pdf",
                    help="formats of the static copy of every chart in DIR/figures: svg, pdf, both (the "
                         "default) or none; each is a matplotlib redrawing of every chart")
    ap.add_argument("--threads", nargs="+", default=[], metavar="DIR",
                    help="folders holding a threads.csv of scripts/thread-scaling (a results folder's own is found)")
    ap.add_argument("--accept-invalid", type=float, default=0.0, metavar="PCT",
                    help="widen the candidates (SPEC §14): a configuration with up to PCT %% of its paths invalid may "
                         "stand on the fronts, in the verdict and the budgets (default 0: every path valid); the page says so")
    ap.add_argument("--accept-unsolved", type=float, default=0.0, metavar="PCT",
                    help="likewise for the queries that have a path: up to PCT %% of them missed (default 0)")
    args = ap.parse_args()
    for name in ("accept_invalid", "accept_unsolved"):
        v = getattr(args, name)
        if not 0 <= v <= 100:
            raise common.InputError(f"--{name.replace('_', '-')}: give a percentage from 0 to 100, not {v:g}")
    widening = candidates.Widening(invalid_pct=args.accept_invalid, unsolved_pct=args.accept_unsolved)
    if args.boot < 100:
        raise common.InputError("--boot: use at least 100 resamples")
    stats.N_BOOT = args.boot
    # The workers (bootstraps, static figures) are forked now, before the rows are read: forked
    # later, each would count the rows' memory as its own (navreport/io/workers.py).
    workers.start()
    figures = [f.strip().lower() for f in args.figures.split(",") if f.strip()]
    if figures == ["none"]:
        figures = []
    elif not figures or any(f not in ("svg", "pdf") for f in figures):
        raise common.InputError("--figures: use svg, pdf, svg,pdf or none")
    data = rows.load(args.results, coordinates=bool(args.compare))  # --compare pairs queries by start and goal
    scope_name = common.apply_subset(data, args)
    extra = []
    # A sweep folder's dynamic scenarios (OUT/dynamic/, docs/changing-maps.md) go to "Changing maps" by themselves.
    folders = [common.resolve_folder(r) for r in args.results if os.path.isdir(r)]
    dyn = list(args.dynamic) + [os.path.join(r, "dynamic") for r in folders
                                if os.path.isfile(os.path.join(r, "sweep.json"))
                                and os.path.isfile(os.path.join(r, "dynamic", "results.csv"))]
    if dyn:
        extra.append(rows.load(dyn))
    for d in args.threads:
        if not os.path.isfile(os.path.join(d, "threads.csv")):
            raise common.InputError(f"{d}: holds no threads.csv (write one with scripts/thread-scaling --out {d})")
        extra.append(common.ResultData(rows=pd.DataFrame(), build=pd.DataFrame(),
                                       threads=common.read_threads_csv(os.path.join(d, "threads.csv"))))
    a = analyse(data, seed=args.seed, dynamic=extra, widening=widening, subset=scope_name)
    compare = None
    if args.compare:
        b = rows.load(args.compare, coordinates=True)
        common.apply_subset(b, args)
        compare = (analyse(b, seed=args.seed, widening=widening, subset=scope_name), " ".join(args.results),
                   " ".join(args.compare))
    ctx = Context(analysis=a, inputs=args.results, map_dirs=args.map_files, path_dirs=args.paths_dir, compare=compare)
    page = write_report(ctx, args.out, args.title, figures=tuple(figures))
    print(f"report.py: wrote {os.path.join(args.out, 'report.html')} ({len(page) // 1024} KiB), figures/, summary.csv")
    return 0


if __name__ == "__main__":
    common.run_main("report.py", main)
