"""python -m navbench: the command lines behind `navbench export` and `navbench compare`
(docs/command-line.md#export, docs/command-line.md#compare). Bad input is one line on stderr and
exit status 2."""
from __future__ import annotations

import argparse
import os
import sys

from navbench.errors import InputError
from navbench.subset import add_arguments


class _Parser(argparse.ArgumentParser):
    """argparse with its errors as one line (an InputError: 'navbench export: ...', exit 2)."""

    def error(self, message):
        raise InputError(message)


def export_main(argv) -> int:
    ap = _Parser(prog="navbench export", description=(
        "Write result sets into one SQLite database (appending to FILE when it exists) and/or as OMPL benchmark "
        "logs (docs/results.md#the-results-database)."))
    ap.add_argument("results", nargs="+", help="result-set PREFIX, PREFIX.csv, sweep folder or folder of shards")
    ap.add_argument("--sqlite", metavar="FILE", help="the database to create or append to")
    ap.add_argument("--ompl", metavar="DIR", help="write OMPL benchmark logs (one per map) into DIR")
    ap.add_argument("--map-files", action="append", default=[], metavar="PATH",
                    help="map files or folders for the maps table's sizes, besides those the runs' meta.json names")
    add_arguments(ap)
    args = ap.parse_args(argv)
    if not args.sqlite and not args.ompl:
        raise InputError("give --sqlite FILE, --ompl DIR or both")
    if args.sqlite:
        from navbench.database import export_sqlite
        if args.maps or args.collections or args.reps:
            raise InputError("--maps, --collections and --reps apply to --ompl only: the database holds whole runs "
                             "(select in SQL)")
        done = export_sqlite(args.sqlite, args.results, maps=args.map_files)
        print(f"navbench export: {args.sqlite}: {done['runs']} run(s) added ({done['queries']} query rows, "
              f"{done['builds']} build rows, {done['summary']} rows of config_summary), {done['skipped']} already there")
    if args.ompl:
        from navbench import load, select
        from navbench.ompl import export_ompl
        res = select(load(args.results, maps=args.map_files), args.maps, args.collections, args.reps)
        written = export_ompl(args.ompl, res)
        print(f"navbench export: {len(written)} OMPL log(s) in {args.ompl} "
              f"(ompl_benchmark_statistics {os.path.join(args.ompl, '*.log')} -d FILE.db)")
    return 0


def compare_main(argv) -> int:
    ap = _Parser(prog="navbench compare", description=(
        "Pair the same queries (map, collection, start and goal, convention, terrain, radius, epoch) of two runs per "
        "configuration, or of two configurations (--a, --b; of one run, or one of each run): per configuration "
        "one verdict line, the typical time ratio B / A with its 95 % interval, Holm-corrected p and n, then the "
        "table (docs/results.md#comparing-two-runs)."))
    ap.add_argument("a", help="run A: result-set PREFIX, PREFIX.csv or folder")
    ap.add_argument("b", nargs="?", help="run B (default: run A, with --a and --b: two configurations of one run)")
    ap.add_argument("--a", dest="config_a", metavar="CONFIG", help="the configuration of A, as the report writes it "
                    "('navmesh · none', 'grid8 (centre lattice) · los · plain map') or a representation alone when it "
                    "has one configuration")
    ap.add_argument("--b", dest="config_b", metavar="CONFIG", help="the configuration of B, compared with --a's")
    ap.add_argument("--csv", metavar="FILE", help="write the table as CSV (default: print it); the report's section "
                    "'Two runs compared' (scripts/report.py A --compare B) shows the same table")
    ap.add_argument("--seed", type=int, default=1, help="bootstrap seed (default 1)")
    ap.add_argument("--boot", type=int, default=None, help="bootstrap resamples (default 1000)")
    add_arguments(ap)
    args = ap.parse_args(argv)
    if args.boot is not None and args.boot < 100:
        raise InputError("--boot: use at least 100 resamples")
    if (args.config_a is None) != (args.config_b is None):
        raise InputError("give both --a CONFIG and --b CONFIG, or neither")
    if args.b is None and args.config_a is None:
        raise InputError("give run B, or --a CONFIG and --b CONFIG (two configurations of run A)")
    import pandas as pd
    from navbench import compare, load, select
    from navbench.subset import check_known, parse_list
    name_b = args.b if args.b is not None else args.a
    la = load(args.a)
    lb = load(args.b) if args.b is not None else la
    cols = [c for c in ("map", "collection", "representation") if c in la.queries.columns and c in lb.queries.columns]
    check_known(pd.concat([la.queries[cols].astype(str), lb.queries[cols].astype(str)]), parse_list(args.maps),
                parse_list(args.collections), parse_list(args.reps))
    ra = select(la, args.maps, args.collections, args.reps, check=False)
    rb = select(lb, args.maps, args.collections, args.reps, check=False) if args.b is not None else ra
    t = compare.compare(ra.queries, rb.queries, ra.builds, rb.builds, seed=args.seed, boot=args.boot,
                        config_a=args.config_a, config_b=args.config_b)
    print(compare.summary_line(t, args.a, name_b))
    for _, r in t.iterrows():
        print(compare.verdict_line(r))
    print(f"navbench compare: {compare.INTERVAL_NOTE} (docs/results.md#comparing-two-runs)")
    if args.csv:
        t.to_csv(args.csv, index=False)
        print(f"navbench compare: wrote {args.csv}")
    else:
        cols = ["configuration", "paired", "unpaired_a", "unpaired_b", "time_ratio", "time_ratio_lo", "time_ratio_hi",
                "time_p_holm", "gap_diff", "gap_diff_lo", "gap_diff_hi"]
        print(t[cols].to_string(index=False, float_format=lambda v: f"{v:.4g}"))
    return 0


COMMANDS = {"export": export_main, "compare": compare_main}


def main(argv=None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or argv[0] not in COMMANDS:
        print(f"usage: python -m navbench {{{','.join(COMMANDS)}}} ... (navbench export --help, navbench compare --help)",
              file=sys.stderr)
        return 2
    name = argv.pop(0)
    try:
        return COMMANDS[name](argv)
    except InputError as e:
        print(f"navbench {name}: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # the output piped into a reader that stopped (head): nothing more to say
        sys.stderr.close()
        return 0
