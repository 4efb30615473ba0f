#!/usr/bin/env python3
"""The results package python/navbench (docs/results.md#the-python-package) on a result set that
navbench makes here (package_fixture.py):

- navbench.load returns the schema's types (int -> Int64, bool -> boolean, text -> category, message
  -> string), every column of the schema (navbench.load.COLUMNS, which equals a fresh run's schema:
  those the file lacks all missing), a unit for every number column of the schema, and the same rows as the CSV files,
  whether it is given the sweep folder, its results.csv, a run PREFIX, or the folder of a sharded
  sweep's shards and merged results; the maps table's free cells equal the map file's passable
  cells counted here; the runs table holds the commit of meta.json;
- navbench.summarize, grouped as the report groups, gives the report's own numbers (its
  summary.csv): one implementation of the row rules;
- navbench.select keeps a subset and refuses a name that matches nothing;
- the real-time columns: typed, missing in a file written before them, summarize's medians, grid8's
  three equal to its query, cpd's first move before its whole path, compare's ratio, the SQLite
  summary's medians (check_realtime);
- `pip install ./python` into a venv (--system-site-packages for Debian's pandas; offline, so
  --no-build-isolation) gives a navbench that loads the results from any folder.

    test_package.py NAVBENCH ROOT        exit 0 pass, 1 fail
"""
import math
import os
import subprocess
import sys
import tempfile

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, here)
import package_fixture  # noqa: E402
from package_fixture import check, csv_rows, finish  # noqa: E402


def check_types(res, meta):
    import pandas as pd
    want = {"int": "Int64", "float": "float64", "bool": "boolean"}
    q = res.queries
    bad = []
    for c in meta["schema"]["results"]:
        name, typ = c["name"], c["type"]
        if name not in q.columns:
            continue
        got = str(q[name].dtype)
        expect = want.get(typ, "string" if name == "message" else "category")
        if got != expect:
            bad.append(f"{name}: {got}, want {expect}")
    check(not bad, "load: every column in the schema's type" + (f" ({'; '.join(bad)})" if bad else ""))
    from navbench.load import COLUMNS, UNITS
    for kind in ("results", "build"):
        schema = {c["name"]: c["type"] for c in meta["schema"][kind]}
        check(COLUMNS[kind] == schema, f"navbench.load.COLUMNS[{kind!r}] is a fresh run's schema" +
              ("" if COLUMNS[kind] == schema else f" (differs: {sorted(set(COLUMNS[kind].items()) ^ set(schema.items()))})"))
    absent = [c for c in COLUMNS["results"] if c not in q.columns]
    check(not absent, f"load: every column of the schema, those the file lacks all missing{': not ' + str(absent) if absent else ''}")
    numbers = [c["name"] for kind in ("results", "build") for c in meta["schema"][kind] if c["type"] != "text"]
    missing = [n for n in numbers if n not in UNITS]
    check(not missing, f"every number column of the schema has a unit (navbench.load.UNITS){': ' + str(missing) if missing else ''}")
    check(q.attrs["units"].get("search_us") == "µs" and q.attrs["units"].get("length") == "map units",
          "units in the table's attrs (search_us µs, length map units)")
    check(isinstance(q["status"].dtype, pd.CategoricalDtype) and set(q["status"].cat.categories) <= {
        "ok", "no_path", "invalid_query", "error", "not_applicable"}, "status is a category of the five statuses")


def check_inputs(navbench_py, fx, root, tmp):
    """The same rows from every kind of input."""
    import navbench
    n_csv = len(csv_rows(os.path.join(fx["sweep"], "results.csv")))
    check(len(navbench.load(fx["sweep"]).queries) == n_csv, f"load(sweep folder): {n_csv} rows, as results.csv")
    check(len(navbench.load(os.path.join(fx["sweep"], "results.csv")).queries) == n_csv, "load(results.csv)")
    check(len(navbench.load(fx["one"]).queries) == len(csv_rows(fx["one"] + ".csv")), "load(run PREFIX)")
    shards = os.path.join(tmp, "shards")
    for k in (1, 2):
        package_fixture.run([navbench_py, "sweep", os.path.join(tmp, "fx", "sweep-config.json"), "--shard", f"{k}/2",
                             "--out", os.path.join(shards, f"shard-{k}"), "--quiet", "--jobs", "1"], root)
    package_fixture.run([navbench_py, "merge", os.path.join(shards, "shard-1"), os.path.join(shards, "shard-2"), "--out",
                         os.path.join(shards, "merged")], root)
    r = navbench.load(shards)
    check(len(r.queries) == n_csv and len(r.runs) == 1, f"load(folder of shards): its merged {len(r.queries)} rows, one run")


def check_tables(res, meta, root):
    check(len(res.runs) == 1 and res.runs["git_commit"].iat[0] == meta["git_commit"], "runs: the commit of meta.json")
    m = res.maps.set_index(["map", "terrain"])
    with open(os.path.join(root, package_fixture.CAVE), encoding="latin-1") as f:
        lines = f.read().splitlines()
    free = sum(sum(ch in ".GS" for ch in row) for row in lines[4:])
    check(m.loc[("cave-45-128", ""), "free_cells"] == free, f"maps: cave-45-128 has {free} free cells, as its file")
    check(m.loc[("cave-45-128", ""), "kind"] == "grid" and m.loc[("polygons", ""), "kind"] == "polygon",
          "maps: kinds grid and polygon")
    check(len(res.maps) == 4 and ("rooms-16-128", "rooms-16-128-inflation.costs") in m.index,
          "maps: one row per map and terrain (rooms plain and weighted)")
    check(int(m.loc[("rooms-16-128", "rooms-16-128-inflation.costs"), "queries"]) == 6, "maps: queries per map")


def check_summarize(res, fx, root, tmp):
    """summarize grouped as the report groups gives the report's summary.csv (the estimates and n)."""
    import navbench
    from navbench.subset import rep_base
    out = os.path.join(tmp, "report")
    r = subprocess.run([os.path.join(root, "scripts", "navpy.sh"), os.path.join(root, "scripts", "report.py"), fx["sweep"],
                        "--out", out, "--figures", "none"], capture_output=True, text=True, timeout=600)
    if not check(r.returncode == 0, "report.py on the sweep"):
        print(r.stderr)
        return
    report = [x for x in csv_rows(os.path.join(out, "summary.csv")) if x["scope"] == "all maps"]
    t = navbench.summarize(res.queries, by=["representation", "smoothing", "terrain"], builds=res.builds)
    t["facet"] = ["plain map" if not v else f"terrain {v}" for v in t["terrain"]]
    compared, bad = 0, []
    for row in report:
        hit = t[(t["representation"].map(rep_base) == rep_base(row["representation"])) &
                (t["smoothing"] == row["smoothing"]) & (t["facet"] == row["facet"])]
        if len(hit) != 1:
            bad.append(f"{row['config']}: {len(hit)} matching groups")
            continue
        for k in ("solved_pct", "valid_pct", "time_median", "time_p95", "gap_mean", "gap_p95", "gap_max", "build_ms", "memory"):
            a, b = float(row[k]) if row[k] else math.nan, float(hit[k].iat[0])
            if not (math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12) or (math.isnan(a) and math.isnan(b))):
                bad.append(f"{row['config']} {k}: report {a}, summarize {b}")
            n = k + "_n"
            if row.get(n) and int(float(row[n])) != int(hit[n].iat[0]):
                bad.append(f"{row['config']} {n}: report {row[n]}, summarize {hit[n].iat[0]}")
        compared += 1
    check(compared == len(report) > 0 and not bad,
          f"summarize equals the report's summary.csv on {compared} configurations" + (f": {bad[:3]}" if bad else ""))


def check_select(res):
    import navbench
    s = navbench.select(res, collections="hand")
    check(set(s.queries["map"].astype(str)) == {"polygons"} and set(s.builds["map"].astype(str)) == {"polygons"},
          "select(collections=hand): the polygon map's rows and builds only")
    s = navbench.select(res, reps="grid8", maps=["cave-45-128"])
    check(set(s.queries["representation"].astype(str)) == {"grid8"} and len(s.queries) == 20,
          "select(reps=grid8, maps=cave-45-128): 10 queries x 2 smoothing modes")
    try:
        navbench.select(res, maps="no-such-map")
        check(False, "select of an unknown map raises")
    except navbench.InputError as e:
        check("no-such-map" in str(e), f"select of an unknown map: {e}")


def check_traced(navbench_py, root, tmp):
    """A traced query's rows (--trace, docs/traces.md#traced-rows) have no time in summarize (the
    one rule of query times), and still count for solved and gap."""
    import statistics
    import navbench
    prefix = os.path.join(tmp, "traced")
    package_fixture.run([navbench_py, "run", "--map", package_fixture.ROOMS, "--rep", "grid8", "--trace", "3",
                         "--out", prefix], root)
    q = navbench.load(prefix).queries
    check(str(q["traced"].dtype) == "boolean" and int(q["traced"].sum()) > 0, f"traced: boolean, {int(q['traced'].sum())} rows")
    t = navbench.summarize(q, by=["smoothing"]).set_index("smoothing")
    bad = []
    for s, rows in ((s, [x for x in csv_rows(prefix + ".csv") if x["smoothing"] == s]) for s in t.index
                    if t.loc[s, "applicable"] > 0):
        times = [sum(float(x[c] or 0) for c in ("locate_us", "search_us", "smooth_us")) for x in rows
                 if x["status"] == "ok" and x["traced"] != "1"]
        solved = sum(x["status"] == "ok" for x in rows)
        if not (math.isclose(t.loc[s, "time_median"], statistics.median(times), rel_tol=1e-9)
                and t.loc[s, "time_median_n"] == len(times) and t.loc[s, "solved_pct_n"] == len(rows) and solved > len(times)):
            bad.append(s)
    check(not bad, f"summarize: the median time of the untraced solved rows, solved over every row{': not ' + str(bad) if bad else ''}")


def check_realtime(navbench_py, root, tmp):
    """The real-time columns (SPEC §15, docs/results.md#real-time-columns) through the package: load
    types them (µs), a file written before them loads with them missing; summarize's medians are
    the CSV's over the solved rows; grid8 answers in one call (its three columns its query time),
    cpd in pieces (its first move before its whole path), and compare pairs them; the SQLite
    export's config_summary holds the medians."""
    import csv
    import sqlite3
    import statistics
    import navbench
    from navbench.compare import compare
    gen = os.path.join(tmp, "rt-map")
    package_fixture.run([navbench_py, "generate", "rooms", "--width", "48", "--height", "48", "--room", "12", "--seed", "81",
                         "--queries", "60", "--out", gen], root)
    prefix = os.path.join(tmp, "realtime")
    package_fixture.run([navbench_py, "run", "--map", gen + ".map", "--rep", "grid8", "--rep", "cpd", "--smoothing", "none",
                         "--no-optimum", "--out", prefix], root)
    q = navbench.load(prefix).queries
    check(all(str(q[c].dtype) == "float64" and q.attrs["units"].get(c) == "µs" for c in
              ("first_move_us", "first20_us", "max_step_us")), "load: the real-time columns as float64 in µs")
    rows = csv_rows(prefix + ".csv")
    ok = [x for x in rows if x["status"] == "ok"]
    g8 = [x for x in ok if x["representation"] == "grid8"]
    one_call = all(abs(float(x[c]) - float(x["locate_us"]) - float(x["search_us"])) <= 0.0015
                   for x in g8 for c in ("first_move_us", "first20_us", "max_step_us"))
    check(len(g8) > 30 and one_call, f"grid8's {len(g8)} ok rows: first_move_us = first20_us = max_step_us = locate_us + search_us")
    cpd = [x for x in ok if x["representation"] == "cpd"]
    pieces = [x for x in cpd if float(x["length"]) > 25]
    check(len(pieces) > 10 and all(float(x["first_move_us"]) < float(x["first20_us"]) < float(x["locate_us"]) + float(x["search_us"])
                                   for x in pieces), f"cpd's {len(pieces)} paths longer than 25: first move < first 20 < query")
    t = navbench.summarize(q, by=["representation"], boot=20).set_index("representation")
    bad = [(r, c) for r, xs in (("grid8", g8), ("cpd", cpd)) for c in ("first_move", "first20", "max_step")
           if not math.isclose(t.loc[r, c + "_median"], statistics.median(float(x[c + "_us"]) for x in xs), rel_tol=1e-9)]
    check(not bad, f"summarize: first_move_median, first20_median, max_step_median are the ok rows' medians{': not ' + str(bad) if bad else ''}")
    c = compare(q, q, config_a="grid8", config_b="cpd", boot=20).iloc[0]
    check(c["first_move_n"] == c["paired"] > 0 and c["first_move_ratio"] < c["time_ratio"],
          f"compare: the first move paired on every query ({c['first_move_n']} of {c['paired']}), its ratio "
          f"{c['first_move_ratio']:.3g} below the query time's {c['time_ratio']:.3g}")
    # A file written before the columns: the same rows without them.
    old = os.path.join(tmp, "before")
    with open(prefix + ".csv") as f, open(old + ".csv", "w", newline="") as out:
        r = csv.DictReader(f)
        keep = [n for n in r.fieldnames if n not in ("first_move_us", "first20_us", "max_step_us")]
        w = csv.DictWriter(out, keep, extrasaction="ignore")
        w.writeheader()
        w.writerows(r)
    for ext in (".build.csv", ".unrun.csv"):
        if os.path.exists(prefix + ext):
            with open(prefix + ext) as f, open(old + ext, "w") as out:
                out.write(f.read())
    qo = navbench.load(old).queries
    to = navbench.summarize(qo, by=["representation"], boot=20)
    check(qo["first_move_us"].isna().all() and to["first_move_median"].isna().all() and len(qo) == len(q),
          "a file written before the columns loads with them missing (NaN), its medians NaN")
    db = os.path.join(tmp, "realtime.sqlite")
    r = subprocess.run([navbench_py, "export", prefix, "--sqlite", db], capture_output=True, text=True, cwd=root, timeout=600)
    got = sqlite3.connect(db).execute("SELECT COUNT(*) FROM config_summary WHERE first_move_median > 0").fetchone()[0] \
        if r.returncode == 0 else 0
    check(got > 0, f"export --sqlite: config_summary holds first_move_median ({got} rows) {r.stderr.strip()[-200:]}")


def check_pip(root, fx, tmp):
    venv = os.path.join(tmp, "venv")
    subprocess.run(["/usr/bin/python3", "-m", "venv", "--system-site-packages", venv], check=True, timeout=300)
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "NAVPY_ACTIVE")}
    r = subprocess.run([os.path.join(venv, "bin", "pip"), "install", "--no-index", "--no-build-isolation", "--quiet",
                        os.path.join(root, "python")], capture_output=True, text=True, env=env, timeout=600)
    if not check(r.returncode == 0, "pip install --no-build-isolation ./python into a venv"):
        print(r.stdout[-2000:], r.stderr[-2000:])
        return
    code = ("import navbench, sys; r = navbench.load(sys.argv[1]); "
            "print(navbench.__file__); print(len(r.queries))")
    r = subprocess.run([os.path.join(venv, "bin", "python"), "-c", code, fx["sweep"]], capture_output=True, text=True,
                       env=env, cwd=tmp, timeout=300)
    lines = r.stdout.split()
    check(r.returncode == 0 and len(lines) == 2 and lines[0].startswith(venv) and
          int(lines[1]) == len(csv_rows(os.path.join(fx["sweep"], "results.csv"))),
          f"the installed package (in the venv, not the checkout) loads the sweep: {r.stdout.strip()} {r.stderr.strip()[-300:]}")


def main():
    import json
    navbench_py, root = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    import navbench
    tmp = tempfile.mkdtemp(prefix="navbench-package.")
    fx = package_fixture.make(navbench_py, root, os.path.join(tmp, "fx"))
    os.chdir(root)  # meta.json names the maps from where navbench ran
    meta = json.load(open(os.path.join(fx["sweep"], "results.meta.json")))
    res = navbench.load(fx["sweep"])
    check_types(res, meta)
    check_inputs(navbench_py, fx, root, tmp)
    check_tables(res, meta, root)
    check_summarize(res, fx, root, tmp)
    check_select(res)
    check_traced(navbench_py, root, tmp)
    check_realtime(navbench_py, root, tmp)
    check_pip(root, fx, tmp)
    return finish(tmp, "package")


if __name__ == "__main__":
    sys.exit(main())
