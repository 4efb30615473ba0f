#!/usr/bin/env python3
"""Figures for papers and subsets (docs/results.md#figures-for-papers, #subsets) on a result set that
navbench makes here (package_fixture.py):

- `pdffonts` finds no Type 3 font in any PDF that plots.py (--paper), report.py (its figures/) or
  pathviz.py writes;
- plots.py --paper single writes one panel per file (one axes in each SVG), 3.4 in (244.8 pt) wide
  and at most 4 in tall, among them query time against map size (time_vs_size); --paper double
  7 in (504 pt), and --width/--font alone; text 8 pt;
- every configuration drawn distinct: in each paper figure no two named series share a colour and
  marker pair, every line is marked with its marker, every search and smoothing label has its own
  marker, and navbench.style gives 40 names 40 colours;
- with --collections, every figure's title names the subset, and the report's first scope too;
- the Pareto figures' static copies carry each configuration's name next to its point;
- bad figure options end with one line, exit 2.

    test_paper_figures.py NAVBENCH ROOT     exit 0 pass, 1 fail, 77 skipped (no pdffonts)
"""
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, here)
import package_fixture  # noqa: E402
from package_fixture import check, finish  # noqa: E402


def script(root, name, *args):
    return subprocess.run([os.path.join(root, "scripts", "navpy.sh"), os.path.join(root, "scripts", name), *args],
                          capture_output=True, text=True, timeout=900)


def type3(pdfs):
    """The PDFs whose fonts include a Type 3 font (pdffonts' type column)."""
    bad = []
    for f in pdfs:
        out = subprocess.run(["pdffonts", f], capture_output=True, text=True).stdout
        if "Type 3" in out:
            bad.append(os.path.basename(f))
    return bad


def page_width(pdf):
    out = subprocess.run(["pdfinfo", pdf], capture_output=True, text=True).stdout
    m = re.search(r"Page size:\s+([\d.]+) x", out)
    return float(m.group(1)) if m else -1


def page_height(pdf):
    out = subprocess.run(["pdfinfo", pdf], capture_output=True, text=True).stdout
    m = re.search(r"Page size:\s+[\d.]+ x ([\d.]+)", out)
    return float(m.group(1)) if m else 1e9


def text(pdf):
    return " ".join(subprocess.run(["pdftotext", pdf, "-"], capture_output=True, text=True).stdout.split())


DISTINCT = r"""
import sys
sys.path.insert(0, sys.argv[2])
from navbench import style
from navreport.analysis import rows
from navreport.analysis.analyse import analyse
from navreport.figures.draw import LABEL_ORDER, Style, smoothing_marker
from navreport.figures.paper import paper_figures
from navreport.page import build_sections
from navreport.sections.base import Context
a = analyse(rows.load([sys.argv[1]]), seed=1)
figs = [f for s in build_sections(Context(analysis=a, inputs=[sys.argv[1]], map_dirs=[])) for f in s.figures()]
look = Style(width_in=style.PAPER_WIDTHS["single"], font_pt=style.PAPER_FONT)
bad, n = [], 0
for f in paper_figures(figs, look, a.reps, style.PAPER_MAX_HEIGHT["single"]):
    p = f.panels[0]
    pairs = {}
    for s in p.series:
        if not len(s.x) or not isinstance(s.marker, str) or s.name not in a.reps:
            continue
        pairs.setdefault(s.name, set()).add((s.color, s.marker))
        if s.kind != "markers" and s.dash is None and not s.marks:
            bad.append(f"{f.stem}: line {s.name} unmarked")
    one = {k: v for k, v in pairs.items() if len(v) == 1}
    if len(set().union(*one.values()) if one else set()) != len(one):
        bad.append(f"{f.stem}: two representations share colour and marker: {one}")
    n += len(one)
marks = [smoothing_marker(x) for x in LABEL_ORDER]
if len(set(marks)) != len(marks):
    bad.append(f"labels share markers: {marks}")
many = style.styles([f"config {i}" for i in range(40)])
if len({c for c, _ in many.values()}) != 40 or len(set(many.values())) != 40:
    bad.append("navbench.style.styles: 40 names do not get 40 colours")
print("ok" if not bad else "; ".join(bad[:5]), n)
"""


def main():
    navbench, root = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    if not (shutil.which("pdffonts") and shutil.which("pdfinfo") and shutil.which("pdftotext")):
        print("SKIP: pdffonts/pdfinfo/pdftotext not found (Debian poppler-utils; scripts/setup installs it)")
        return 77
    tmp = tempfile.mkdtemp(prefix="navbench-figures.")
    fx = package_fixture.make(navbench, root, os.path.join(tmp, "fx"))
    os.chdir(root)
    single = os.path.join(tmp, "single")
    r = script(root, "plots.py", fx["sweep"], "--out", single, "--paper", "single", "--collections", "generated",
               "--formats", "pdf,svg")
    pdfs = sorted(glob.glob(os.path.join(single, "*.pdf")))
    check(r.returncode == 0 and len(pdfs) >= 5, f"plots.py --paper single --collections generated: {len(pdfs)} PDFs {r.stderr.strip()[-300:]}")
    check(not type3(pdfs), f"no Type 3 font in the paper PDFs{': ' + str(type3(pdfs)) if type3(pdfs) else ''}")
    widths = {round(page_width(f), 1) for f in pdfs}
    check(widths == {244.8}, f"every --paper single PDF is 3.4 in (244.8 pt) wide: {widths}")
    tall = {os.path.basename(f): round(page_height(f) / 72, 2) for f in pdfs if page_height(f) > 4 * 72}
    check(not tall, f"every --paper single PDF is at most 4 in tall (tallest {max(page_height(f) for f in pdfs) / 72:.2f} in)"
          + (f": not {tall}" if tall else ""))
    axes = {os.path.basename(f): len(re.findall(r'<g id="axes_\d+"', open(f, encoding="utf-8").read()))
            for f in glob.glob(os.path.join(single, "*.svg"))}
    check(axes and set(axes.values()) == {1}, f"one panel per file: {len(axes)} SVGs of one axes each"
          + ("" if set(axes.values()) == {1} else f" (not: { {k: v for k, v in axes.items() if v != 1} })"))
    f = os.path.join(single, "time_vs_size.pdf")
    check(os.path.exists(f) and "map size (free cells, log)" in text(f) and "median query time" in text(f),
          "time_vs_size: the median query time against the map's free cells")
    untitled = [os.path.basename(f) for f in pdfs if "collection generated" not in text(f)]
    check(not untitled, f"every figure's title names the subset{': not ' + str(untitled) if untitled else ''}")
    names = [f"{rep} · {s}" for rep in ("navmesh", "visgraph") for s in package_fixture.SMOOTHING]
    pareto = " ".join(text(f) for f in glob.glob(os.path.join(single, "pareto_all*.pdf")))
    missing = [n for n in names if n not in pareto]
    check(pareto and not missing, f"pareto_all: each point carries its configuration's name{': missing ' + str(missing) if missing else ''}")
    # The compact chart names the points its page numbers (the front's and the budgets'), not the grey others.
    front = " ".join(text(f) for f in glob.glob(os.path.join(single, "front_all*.pdf")))
    named = [n for n in names if n in front]
    check("navmesh · none" in named and len(named) >= 3, f"front_all: its points carry names, not the page's row numbers ({named})")
    r = subprocess.run([os.path.join(root, "scripts", "navpy.sh"), "-c", DISTINCT, fx["sweep"], os.path.join(root, "scripts")],
                       capture_output=True, text=True, timeout=600)
    check(r.stdout.startswith("ok ") and int(r.stdout.split()[1]) > 0, f"every configuration its own colour and marker in "
          f"every paper figure: {r.stdout.strip()} {r.stderr.strip()[-300:]}")
    double = os.path.join(tmp, "double")
    # One map's figures (the page size and the formats are what is checked; --paper single above drew them all).
    r = script(root, "plots.py", fx["sweep"], "--out", double, "--paper", "double", "--formats", "pdf,svg,png",
               "--reps", "navmesh", "--maps", "cave-45-128")
    check(r.returncode == 0 and {round(page_width(f), 1) for f in glob.glob(os.path.join(double, "*.pdf"))} == {504.0}
          and glob.glob(os.path.join(double, "*.svg")) and glob.glob(os.path.join(double, "*.png")),
          "--paper double: 7 in (504 pt) PDFs, and SVG and PNG as asked")
    sized = os.path.join(tmp, "sized")
    r = script(root, "plots.py", fx["sweep"], "--out", sized, "--width", "5", "--font", "9", "--formats", "pdf",
               "--maps", "cave-45-128")
    check(r.returncode == 0 and {round(page_width(f), 1) for f in glob.glob(os.path.join(sized, "*.pdf"))} == {360.0},
          "--width 5 --font 9: 5 in (360 pt) PDFs")
    rep = os.path.join(tmp, "report")
    r = script(root, "report.py", fx["sweep"], "--out", rep, "--collections", "generated", "--figures", "pdf")
    page = open(os.path.join(rep, "report.html"), encoding="utf-8").read() if r.returncode == 0 else ""
    check(r.returncode == 0 and not type3(glob.glob(os.path.join(rep, "figures", "*.pdf"))),
          "report.py's figures: no Type 3 font")
    check("The answer: collection generated" in page and "Collection hand" not in page,
          "report.py --collections generated: the answer names the subset, the hand-drawn maps' collection is left out")
    pics = os.path.join(tmp, "pictures")
    r = script(root, "pathviz.py", "--map", package_fixture.ROOMS, "--paths", fx["one"] + ".paths.csv", "--scen-index", "0",
               "--formats", "pdf", "--out", pics)
    check(r.returncode == 0 and glob.glob(os.path.join(pics, "*.pdf")) and not type3(glob.glob(os.path.join(pics, "*.pdf"))),
          "pathviz.py --formats pdf: no Type 3 font")
    for args, word in ((["--width", "50"], "outside"), (["--formats", "bmp"], "bmp"), (["--collections", "nope"], "nope")):
        r = script(root, "plots.py", fx["sweep"], "--out", os.path.join(tmp, "bad"), *args)
        lines = r.stderr.strip().splitlines()
        check(r.returncode == 2 and len(lines) == 1 and word in lines[0], f"plots.py {' '.join(args)}: one line, exit 2: "
              f"{lines[0] if lines else ''}")
    return finish(tmp, "figure")


if __name__ == "__main__":
    sys.exit(main())
