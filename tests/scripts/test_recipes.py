#!/usr/bin/env python3
"""The recipes of docs/results.md#recipes: each docs/example/recipe_*.py runs, as the docs show it
(scripts/navpy.sh SCRIPT ...), on a result set that navbench makes here (package_fixture.py), and
writes what it says; every recipe script is in the docs' table and every one the table names exists.

    test_recipes.py NAVBENCH ROOT     exit 0 pass, 1 fail
"""
import csv
import glob
import os
import re
import shutil
import sqlite3
import subprocess
import sys
import tempfile

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, here)
import package_fixture  # noqa: E402
from package_fixture import check, csv_rows, finish  # noqa: E402


def recipe(root, name, *args):
    r = subprocess.run([os.path.join(root, "scripts", "navpy.sh"), os.path.join(root, "docs", "example", name), *args],
                       capture_output=True, text=True, timeout=600)
    check(r.returncode == 0, f"{name} exits 0" + ("" if r.returncode == 0 else f": {r.stderr.strip()[-500:]}"))
    return r


def header(path):
    if not os.path.exists(path):
        return []
    with open(path, newline="", encoding="utf-8") as f:
        return next(csv.reader(f), [])


def main():
    navbench, root = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    docs = open(os.path.join(root, "docs", "results.md"), encoding="utf-8").read()
    named = set(re.findall(r"\(example/(recipe_\w+\.py)\)", docs))
    scripts = {os.path.basename(p) for p in glob.glob(os.path.join(root, "docs", "example", "recipe_*.py"))}
    check(named == scripts and len(scripts) == 5, f"docs/results.md names the five recipe scripts: {sorted(scripts)}")
    tmp = tempfile.mkdtemp(prefix="navbench-recipes.")
    fx = package_fixture.make(navbench, root, os.path.join(tmp, "fx"))
    os.chdir(root)
    db = os.path.join(tmp, "results.db")
    subprocess.run([navbench, "export", fx["sweep"], "--sqlite", db], check=True, capture_output=True)

    r = recipe(root, "recipe_load.py", fx["sweep"], "--db", db)
    check("Int64" in r.stdout and "boolean" in r.stdout and "µs" in r.stdout and "navmesh · los" in r.stdout,
          "recipe_load: typed columns, units, the maps and runs tables, the database read with pandas")

    out = os.path.join(tmp, "size.csv")
    recipe(root, "recipe_time_vs_size.py", fx["sweep"], out)
    got = csv_rows(out) if os.path.exists(out) else []
    cave = [x for x in got if x["map"] == "cave-45-128"]
    check(cave and all(float(x["free_cells"]) == 11033 for x in cave) and len({x["representation"] for x in got}) == 3,
          f"recipe_time_vs_size: median time per map with its free cells ({len(got)} rows)")

    out = os.path.join(tmp, "table.csv")
    recipe(root, "recipe_table_per_collection.py", fx["sweep"], out)
    got = csv_rows(out) if os.path.exists(out) else []
    check({x["collection"] for x in got} == {"generated", "hand"} and {"valid_pct", "gap_mean", "gap_mean_lo"} <= set(header(out)),
          "recipe_table_per_collection: gap and validity per collection and configuration, with intervals")

    out = os.path.join(tmp, "compare.csv")
    r = recipe(root, "recipe_compare.py", fx["sweep"], fx["one"], out)
    got = csv_rows(out) if os.path.exists(out) else []
    check(got and sum(int(x["paired"]) for x in got) > 0 and "query results paired" in r.stdout,
          "recipe_compare: the paired comparison, as navbench compare writes it")

    out = os.path.join(tmp, "figure.pdf")
    recipe(root, "recipe_paper_figure.py", fx["sweep"], out, "--collections", "generated")
    fonts = subprocess.run(["pdffonts", out], capture_output=True, text=True).stdout if shutil.which("pdffonts") else ""
    info = subprocess.run(["pdfinfo", out], capture_output=True, text=True).stdout if shutil.which("pdfinfo") else ""
    width = re.search(r"Page size:\s+([\d.]+)", info)
    check(os.path.exists(out) and "TrueType" in fonts and "Type 3" not in fonts and width and float(width.group(1)) <= 3.4 * 72 + 1,
          f"recipe_paper_figure: a PDF at most one column wide with TrueType fonts ({width.group(1) if width else '?'} pt)")
    con = sqlite3.connect(db)
    check(con.execute("SELECT count(*) FROM queries").fetchone()[0] == len(csv_rows(os.path.join(fx["sweep"], "results.csv"))),
          "the database the load recipe reads holds the sweep's rows")
    return finish(tmp, "recipe")


if __name__ == "__main__":
    sys.exit(main())
