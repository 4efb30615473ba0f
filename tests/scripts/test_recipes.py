#!/usr/bin/env python3
"""The recipes of docs/results.md#recipes: each docs/example/recipe_*.py runs, as the docs show it
(scripts/navpy.sh SCRIPT ...; with Debian's /usr/bin/python3 and its pandas where it exists, the
Python CI has), on a result set that navbench makes here and that holds what the default job's
results hold (package_fixture.make_default_like: misses, not_applicable rows, rows of unknown
validity, Recast/Detour, a roadmap, a weighted map, an agent radius), and writes what it says:

- the per-collection table's solved and valid shares equal those counted here from the CSV files
  with the csv module (the row rules of docs/results.md#which-rows-each-statistic-uses);
- time against size: each map with its free cells, the weighted map and the radius as rows of
  their own; also on the radius run alone, whose file has no terrain column;
- a result set written before columns existed (columns cut from the file, no schema in its
  meta.json) loads with those columns missing and the recipes run on it;
- the paper figure: a PDF at most 3.5 in wide and 4 in tall with TrueType fonts only;
- every recipe script is in the docs' table and every one the table names exists.

    test_recipes.py NAVBENCH ROOT     exit 0 pass, 1 fail
"""
import csv
import glob
import json
import math
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

PATH_COLUMNS = ("optimal", "octile_optimal", "optimal_cost", "octile_optimal_cost")


def recipe(root, name, *args):
    env = dict(os.environ)
    if os.path.exists("/usr/bin/python3"):
        env["NAVBENCH_PYTHON"] = "/usr/bin/python3"  # Debian's pandas (1.5 on Debian 12), as in CI
    r = subprocess.run([os.path.join(root, "scripts", "navpy.sh"), os.path.join(root, "docs", "example", name), *args],
                       capture_output=True, text=True, timeout=600, env=env)
    check(r.returncode == 0, f"{name} {' '.join(os.path.basename(a) for a in args)} exits 0" +
          ("" if r.returncode == 0 else f": {r.stderr.strip()[-600:]}"))
    return r


def header(path):
    if not os.path.exists(path):
        return []
    with open(path, newline="", encoding="utf-8") as f:
        return next(csv.reader(f), [])


def rows_of(folder):
    """The rows of every result set under folder (the sweep's results.csv and the radius run)."""
    out = csv_rows(os.path.join(folder, "sweep", "results.csv"))
    return out + csv_rows(os.path.join(folder, "radius.csv"))


def has_path(x):
    finite = any(x.get(c, "") not in ("", "nan", "inf") and math.isfinite(float(x[c])) for c in PATH_COLUMNS)
    return finite and x["status"] not in ("invalid_query", "not_applicable")


def check_fixture(rows):
    """The result set holds what the default job's does (else the recipes' test proves less)."""
    shape = {
        "misses (a query with a path, not answered)": sum(has_path(x) and x["status"] != "ok" for x in rows),
        "not_applicable rows": sum(x["status"] == "not_applicable" for x in rows),
        "rows of unknown validity": sum(x["valid"] == "" for x in rows),
        "recast rows": sum(x["representation"] == "recast" for x in rows),
        "prm rows": sum(x["representation"] == "prm" for x in rows),
        "weighted-map rows": sum(x.get("terrain", "") != "" for x in rows),
        "rows with a radius": sum(x.get("radius", "") not in ("", "0") for x in rows)}
    check(all(shape.values()), f"the result set holds what the default job's does: {shape}")


def shares(rows):
    """(collection, terrain, radius, representation, search, smoothing) -> (solved share, valid share)."""
    acc = {}
    for x in rows:
        if x["status"] == "not_applicable":
            continue
        radius = x.get("radius", "")
        k = (x["collection"], x.get("terrain", ""), "" if radius == "" else float(radius), x["representation"],
             x["search"], x["smoothing"])
        a = acc.setdefault(k, [0, 0, 0, 0])
        if has_path(x):
            a[0] += 1
            a[1] += x["status"] == "ok"
        if x["status"] == "ok":
            a[2] += 1
            a[3] += x["valid"] == "1"
    return {k: (a[1] / a[0] if a[0] else math.nan, a[3] / a[2] if a[2] else math.nan) for k, a in acc.items()}


def same(a, b):
    return (math.isnan(a) and math.isnan(b)) or abs(a - b) < 1e-12


def check_table(path, rows):
    want = shares(rows)
    got = csv_rows(path) if os.path.exists(path) else []
    bad = []
    for x in got:
        k = (x["collection"], x["terrain"], "" if x["radius"] == "" else float(x["radius"]), x["representation"],
             x["search"], x["smoothing"])
        solved = float(x["solved_pct"]) if x["solved_pct"] else math.nan
        valid = float(x["valid_pct"]) if x["valid_pct"] else math.nan
        if k not in want or not (same(solved, want[k][0]) and same(valid, want[k][1])):
            bad.append(f"{k}: {solved}, {valid}, want {want.get(k)}")
    check(got and not bad and len(got) == len(want),
          f"recipe_table_per_collection: solved and valid shares per collection, terrain, radius and configuration as "
          f"counted from the CSVs ({len(got)} rows, {len(want)} wanted)" + (f": {bad[:4]}" if bad else ""))


def older(src_prefix, dst_prefix, cut):
    """A copy of a run as a navbench before the columns cut existed would write it: without them,
    and without the schema in its meta.json."""
    with open(src_prefix + ".csv", newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    names = [c for c in rows[0] if c not in cut]
    with open(dst_prefix + ".csv", "w", newline="", encoding="utf-8") as f:
        w = csv.DictWriter(f, fieldnames=names, extrasaction="ignore")
        w.writeheader()
        w.writerows(rows)
    shutil.copy(src_prefix + ".build.csv", dst_prefix + ".build.csv")
    meta = json.load(open(src_prefix + ".meta.json"))
    meta.pop("schema", None)
    json.dump(meta, open(dst_prefix + ".meta.json", "w"))


def main():
    navbench, root = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    docs = open(os.path.join(root, "docs", "results.md"), encoding="utf-8").read()
    named = set(re.findall(r"\(example/(recipe_\w+\.py)\)", docs))
    scripts = {os.path.basename(p) for p in glob.glob(os.path.join(root, "docs", "example", "recipe_*.py"))}
    check(named == scripts and len(scripts) == 5, f"docs/results.md names the five recipe scripts: {sorted(scripts)}")
    tmp = tempfile.mkdtemp(prefix="navbench-recipes.")
    fx = package_fixture.make_default_like(navbench, root, os.path.join(tmp, "fx"))
    rows = rows_of(fx["results"])
    check_fixture(rows)
    os.chdir(root)
    db = os.path.join(tmp, "results.db")
    subprocess.run([navbench, "export", fx["results"], "--sqlite", db], check=True, capture_output=True)

    r = recipe(root, "recipe_load.py", fx["results"], "--db", db)
    check("Int64" in r.stdout and "boolean" in r.stdout and "µs" in r.stdout and "navmesh · los" in r.stdout,
          "recipe_load: typed columns, units, the maps and runs tables, the database read with pandas")

    out = os.path.join(tmp, "size.csv")
    recipe(root, "recipe_time_vs_size.py", fx["results"], out)
    got = csv_rows(out) if os.path.exists(out) else []
    cave = [x for x in got if x["map"] == "cave-45-128"]
    weighted = [x for x in got if x["terrain"]]
    radius = [x for x in got if x["radius"] == "0.5"]
    check(cave and all(float(x["free_cells"]) == 11033 for x in cave) and weighted and radius and
          {x["representation"] for x in got} == set(package_fixture.DEFAULT_LIKE_NAMES),
          f"recipe_time_vs_size: median time per map with its free cells, the weighted map and the radius apart "
          f"({len(got)} rows, {len(weighted)} weighted, {len(radius)} with a radius)")
    out = os.path.join(tmp, "size-radius.csv")
    recipe(root, "recipe_time_vs_size.py", fx["radius"], out)
    check("terrain" not in header(fx["radius"] + ".csv") and os.path.exists(out) and len(csv_rows(out)) == 3,
          "recipe_time_vs_size on a run whose file has no terrain column: its 3 configurations")

    out = os.path.join(tmp, "table.csv")
    recipe(root, "recipe_table_per_collection.py", fx["results"], out)
    check({"valid_pct", "gap_mean", "gap_mean_lo", "is_candidate"} <= set(header(out)), "recipe_table_per_collection: "
          "gap and validity with intervals, and the candidate rule")
    check_table(out, rows)

    # SPEC §14 in the package as in the report: recast was not run on the cave (the sweep's
    # skip_maps), so it is no candidate over the sweep's maps, from load's records alone.
    probe = subprocess.run([os.path.join(root, "scripts", "navpy.sh"), "-c", (
        "import sys, navbench; res = navbench.load(sys.argv[1]); "
        "t = navbench.summarize(res.queries, by=['representation', 'search', 'smoothing', 'terrain']); "
        "t = t[(t['representation'] == 'recast') & (t['search'] == 'astar') & (t['smoothing'] == 'none') & (t['terrain'] == '')]; "
        "print(len(t), bool(t['is_candidate'].iloc[0]), t['unrun_maps'].iloc[0], '|', t['reason'].iloc[0])"),
        fx["sweep"]], capture_output=True, text=True, env={**os.environ, "NAVBENCH_PYTHON": "/usr/bin/python3"})
    check(probe.stdout.startswith("1 False ('cave-45-128',) |") and "not run" in probe.stdout,
          f"summarize: recast, skipped on the cave by the sweep, is no candidate over the sweep's maps: "
          f"{probe.stdout.strip()} {probe.stderr.strip()[-300:]}")

    out = os.path.join(tmp, "compare.csv")
    r = recipe(root, "recipe_compare.py", fx["sweep"], fx["rerun"], out)
    got = csv_rows(out) if os.path.exists(out) else []
    check(got and sum(int(x["paired"]) for x in got) > 0 and "paired" in r.stdout,
          "recipe_compare: the paired comparison, as navbench compare writes it")

    for name, extra in (("figure.pdf", ()), ("figure-generated.pdf", ("--collections", "generated"))):
        out = os.path.join(tmp, name)
        recipe(root, "recipe_paper_figure.py", fx["results"], out, *extra)
        fonts = subprocess.run(["pdffonts", out], capture_output=True, text=True).stdout if shutil.which("pdffonts") else ""
        info = subprocess.run(["pdfinfo", out], capture_output=True, text=True).stdout if shutil.which("pdfinfo") else ""
        size = re.search(r"Page size:\s+([\d.]+) x ([\d.]+)", info)
        check(os.path.exists(out) and "TrueType" in fonts and "Type 3" not in fonts and size and
              float(size.group(1)) <= 3.5 * 72 and float(size.group(2)) <= 4 * 72,
              f"recipe_paper_figure {' '.join(extra)}: a PDF at most 3.5 x 4 in with TrueType fonts only "
              f"({size.group(1) + ' x ' + size.group(2) if size else '?'} pt)")

    old = os.path.join(tmp, "old")
    os.makedirs(old)
    cut = ("search", "los_checks", "clearance", "turn", "radius")
    older(fx["radius"], os.path.join(old, "run"), cut)
    probe = subprocess.run([os.path.join(root, "scripts", "navpy.sh"), "-c", (
        "import sys, navbench; q = navbench.load(sys.argv[1]).queries; "
        "print(all(c in q.columns and q[c].isna().all() for c in sys.argv[2:]), str(q['search'].dtype))"),
        os.path.join(old, "run"), "los_checks", "clearance", "turn", "radius"], capture_output=True, text=True)
    check(probe.stdout.split()[:1] == ["True"], f"load: a file without {', '.join(cut)} (no schema) has them, all "
          f"missing: {probe.stdout.strip()} {probe.stderr.strip()[-300:]}")
    recipe(root, "recipe_table_per_collection.py", os.path.join(old, "run"), os.path.join(tmp, "old-table.csv"))
    recipe(root, "recipe_time_vs_size.py", os.path.join(old, "run"), os.path.join(tmp, "old-size.csv"))
    con = sqlite3.connect(db)
    check(con.execute("SELECT count(*) FROM queries").fetchone()[0] == len(rows),
          "the database the load recipe reads holds the result set's rows")
    return finish(tmp, "recipe")


if __name__ == "__main__":
    sys.exit(main())
