#!/usr/bin/env python3
"""Figures for papers and subsets (docs/results.md#figures-for-papers, #subsets) on a result set that
navbench makes here (package_fixture.py):

- `pdffonts` finds no Type 3 font in any PDF that plots.py (--paper), report.py (its figures/) or
  pathviz.py writes;
- plots.py --paper single writes PDFs 3.4 in (244.8 pt) wide, --paper double 7 in (504 pt), and
  --width/--font alone; text 8 pt;
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


def text(pdf):
    return " ".join(subprocess.run(["pdftotext", pdf, "-"], capture_output=True, text=True).stdout.split())


def main():
    navbench, root = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    if not (shutil.which("pdffonts") and shutil.which("pdfinfo") and shutil.which("pdftotext")):
        print("SKIP: pdffonts/pdfinfo/pdftotext not found (Debian poppler-utils; scripts/setup installs it)")
        return 77
    tmp = tempfile.mkdtemp(prefix="navbench-figures.")
    fx = package_fixture.make(navbench, root, os.path.join(tmp, "fx"))
    os.chdir(root)
    single = os.path.join(tmp, "single")
    r = script(root, "plots.py", fx["sweep"], "--out", single, "--paper", "single", "--collections", "generated")
    pdfs = sorted(glob.glob(os.path.join(single, "*.pdf")))
    check(r.returncode == 0 and len(pdfs) >= 5, f"plots.py --paper single --collections generated: {len(pdfs)} PDFs {r.stderr.strip()[-300:]}")
    check(not type3(pdfs), f"no Type 3 font in the paper PDFs{': ' + str(type3(pdfs)) if type3(pdfs) else ''}")
    widths = {round(page_width(f), 1) for f in pdfs}
    check(widths == {244.8}, f"every --paper single PDF is 3.4 in (244.8 pt) wide: {widths}")
    untitled = [os.path.basename(f) for f in pdfs if "collection generated" not in text(f)]
    check(not untitled, f"every figure's title names the subset{': not ' + str(untitled) if untitled else ''}")
    names = [f"{rep} · {s}" for rep in ("navmesh", "visgraph") for s in package_fixture.SMOOTHING]
    f = os.path.join(single, "pareto_all.pdf")
    missing = [n for n in names if n not in text(f)] if os.path.exists(f) else names
    check(not missing, f"pareto_all: each point carries its configuration's name{': missing ' + str(missing) if missing else ''}")
    # The compact chart names the points its page numbers (the front's and the budgets'), not the grey others.
    f = os.path.join(single, "front_all.pdf")
    named = [n for n in names if n in text(f)] if os.path.exists(f) else []
    check("navmesh · none" in named and len(named) >= 3, f"front_all: its points carry names, not the page's row numbers ({named})")
    double = os.path.join(tmp, "double")
    r = script(root, "plots.py", fx["sweep"], "--out", double, "--paper", "double", "--formats", "pdf,svg,png",
               "--reps", "navmesh")
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
