"""Every figure of the report (Pareto charts, what the configurations cost, cost vs work, build vs
map size, ECDFs and the optional sections' charts) as files for papers:

    scripts/navpy.sh scripts/plots.py RESULTS... --out DIR [--formats svg,pdf,png]

writes DIR/<stem>.<fmt>. A figure with no data is skipped with a note on stderr.
"""
from __future__ import annotations

import argparse
import os

from navreport.analysis import rows
from navreport.analysis.analyse import analyse
from navreport.figures.draw import save_static_all
from navreport.io import results as common
from navreport.page import build_sections
from navreport.sections.base import Context


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("results", nargs="+", help="result-set PREFIX, PREFIX.csv or directory")
    ap.add_argument("--out", required=True, help="output directory (created)")
    ap.add_argument("--formats", default="svg,pdf", help="comma-separated: svg, pdf, png (default svg,pdf)")
    ap.add_argument("--seed", type=int, default=1, help="bootstrap seed (default 1)")
    args = ap.parse_args()
    formats = [f.strip().lower() for f in args.formats.split(",") if f.strip()]
    bad = [f for f in formats if f not in ("png", "svg", "pdf")]
    if bad or not formats:
        raise common.InputError(f"--formats: unsupported format(s) {','.join(bad) or '(none)'}; use svg,pdf,png")
    analysis = analyse(rows.load(args.results), seed=args.seed)
    figures = [f for s in build_sections(Context(analysis=analysis, inputs=args.results)) for f in s.figures()]
    os.makedirs(args.out, exist_ok=True)
    written = sum(len(v) for v in save_static_all(figures, args.out, formats).values())
    for stem, reason in analysis.skipped:
        common.note(f"plots.py: skipped {stem}: {reason}")
    print(f"plots.py: wrote {written} file(s) to {args.out}")
    return 0
