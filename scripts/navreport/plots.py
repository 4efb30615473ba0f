"""Every figure of the report (Pareto charts, what the configurations cost, cost vs work, build vs
map size, ECDFs and the optional sections' charts) as files for papers:

    scripts/navpy.sh scripts/plots.py RESULTS... --out DIR [--formats svg,pdf,png]
        [--paper single|double] [--width IN|single|double] [--font PT]
        [--maps NAMES] [--collections NAMES] [--reps NAMES]

writes DIR/<stem>.<fmt>. A figure with no data is skipped with a note on stderr. PDFs embed
TrueType fonts (navbench.style). --paper: figures for a two-column page, 3.4 in (single) or 7 in
(double) wide with 8 pt text, PDF unless --formats says otherwise, every configuration drawn with a
colour and a marker of its own (figures/paper.py); --paper single writes one panel per file
(DIR/<stem>-<panel>.<fmt>), each at most 4 in tall; --width and --font set either alone. --maps,
--collections, --reps: the figures of that subset, titled with it.
"""
from __future__ import annotations

import argparse
import os

from navbench import style, subset
from navreport.analysis import rows
from navreport.analysis.analyse import analyse
from navreport.figures.draw import Style, save_static_all
from navreport.figures.paper import paper_figures
from navreport.io import results as common
from navreport.io import workers
from navreport.page import build_sections
from navreport.sections.base import Context


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("results", nargs="+", help="result-set PREFIX, PREFIX.csv or directory")
    ap.add_argument("--out", required=True, help="output directory (created)")
    ap.add_argument("--formats", default=None, help="comma-separated: svg, pdf, png (default svg,pdf; with --paper pdf)")
    ap.add_argument("--seed", type=int, default=1, help="bootstrap seed (default 1)")
    ap.add_argument("--paper", choices=sorted(style.PAPER_WIDTHS), help="a two-column page's figure: single (3.4 in) or "
                    f"double (7 in) column wide, {style.PAPER_FONT:g} pt text")
    ap.add_argument("--width", help="figure width: inches, or single / double (default: the report's 1180 px layout)")
    ap.add_argument("--font", type=float, help="base text size in points (default: the report's; --paper: 8)")
    ap.add_argument("--map-files", action="append", default=[], metavar="PATH",
                    help="map file or folder, to read map sizes (repeatable)")
    subset.add_arguments(ap)
    args = ap.parse_args()
    formats = style.formats(args.formats or ("pdf" if args.paper else "svg,pdf"))
    width = args.width or args.paper
    font = args.font if args.font is not None else (style.PAPER_FONT if args.paper else None)
    if font is not None and not 4 <= font <= 30:
        raise common.InputError(f"--font: {font:g} pt is outside 4..30")
    look = Style(width_in=style.width_inches(width) if width else None, font_pt=font)
    workers.start()  # before the rows are read (navreport/io/workers.py)
    data = rows.load(args.results)
    scope_name = common.apply_subset(data, args)
    analysis = analyse(data, seed=args.seed, subset=scope_name)
    ctx = Context(analysis=analysis, inputs=args.results, map_dirs=args.map_files)
    figures = [f for s in build_sections(ctx) for f in s.figures()]
    if look.paper():  # every configuration its own colour and marker; one column: a panel a file, 4 in at most
        figures = paper_figures(figures, look, analysis.reps, style.PAPER_MAX_HEIGHT.get(args.paper))
    os.makedirs(args.out, exist_ok=True)
    written = sum(len(v) for v in save_static_all(figures, args.out, formats, style=look).values())
    for stem, reason in analysis.skipped:
        common.note(f"plots.py: skipped {stem}: {reason}")
    print(f"plots.py: wrote {written} file(s) to {args.out}")
    return 0
