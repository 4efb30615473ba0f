#!/usr/bin/env python3
"""navbench export (docs/results.md#the-results-database, #ompls-benchmark-log) on a result set that
navbench makes here (package_fixture.py).

  test_export.py sqlite NAVBENCH ROOT   the database: sqlite3 and pandas.read_sql read it, its rows are
                                        the CSV files' rows, runs append (several commits in one file, a
                                        run already there skipped), a schema that changes a column's type
                                        and a foreign SQLite file are refused with one line (exit 2), its
                                        tables have exactly the columns docs/results.md lists, and
                                        config_summary holds the report's numbers (its summary.csv: the
                                        same code) and the mean time of the CSV's rows; docs/results.md's
                                        query for "the fastest candidate on a collection" answers it
  test_export.py ompl NAVBENCH ROOT     the OMPL log: OMPL's own ompl_benchmark_statistics (Debian
                                        ompl-demos) turns it into its database without an error, with
                                        one experiment per map, navbench's configurations as planners and
                                        one run per applicable row; exit 77 when the script is missing
Exit 0 pass, 1 fail, 77 skipped.
"""
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

FIXED = ("map", "collection", "terrain", "representation", "search", "heuristic", "smoothing")


def export(navbench, *args):
    return subprocess.run([navbench, "export", *args], capture_output=True, text=True, timeout=600)


def copy_run(prefix, new_prefix, edit):
    """A copy of a run's files under new_prefix whose meta.json edit() changes."""
    for suffix in (".csv", ".build.csv"):
        shutil.copy(prefix + suffix, new_prefix + suffix)
    meta = json.load(open(prefix + ".meta.json"))
    edit(meta)
    json.dump(meta, open(new_prefix + ".meta.json", "w"))


def refused(r, what, word):
    lines = r.stderr.strip().splitlines()
    check(r.returncode == 2 and len(lines) == 1 and word in lines[0],
          f"{what}: exit {r.returncode}, one line: {lines[0] if lines else '(none)'}")


def doc_tables(root):
    """table -> the backticked column names of docs/results.md's table of the database's tables."""
    text = open(os.path.join(root, "docs", "results.md"), encoding="utf-8").read()
    part = text.split("### Tables of the database", 1)[1].split("\n#", 1)[0]
    out = {}
    for line in part.splitlines():
        m = re.match(r"\|\s*`(\w+)`\s*\|([^|]*)\|", line)
        if m:
            out[m.group(1)] = re.findall(r"`(\w+)`", m.group(2))
    return out


def check_documented(db, root, meta):
    con = sqlite3.connect(db)
    docs = doc_tables(root)
    schema = {c["name"] for c in meta["schema"]["results"]}
    build_schema = {c["name"] for c in meta["schema"]["build"]}
    for table, cols in docs.items():
        have = [r[1] for r in con.execute(f"PRAGMA table_info({table})")]
        if table == "queries":
            want = set(cols) | (schema - set(FIXED))
        elif table == "builds":
            want = set(cols) | (build_schema - {"map", "representation", "terrain"})
        elif table == "query_rows":
            want = set(cols) | {r[1] for r in con.execute("PRAGMA table_info(queries)")}
        else:
            want = set(cols)
        check(set(have) == want, f"docs/results.md lists table {table}'s columns"
              + ("" if set(have) == want else f" (database {sorted(set(have) - want)}, docs {sorted(want - set(have))})"))
    tables = {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type IN ('table', 'view')")}
    check(tables == set(docs), f"the database's tables and views are those docs/results.md lists: {sorted(tables)}")


def check_summary(db, root, fx, tmp):
    """config_summary's rows of the sweep's 'all maps' scope against the report's summary.csv of the
    same scope (the estimates, the shares and the candidate rule), and one mean time against the
    CSV rows."""
    import statistics
    rep_dir = os.path.join(tmp, "report")
    r = subprocess.run([os.path.join(root, "scripts", "navpy.sh"), os.path.join(root, "scripts", "report.py"), fx["sweep"],
                        "--out", rep_dir, "--figures", "none"], capture_output=True, text=True, timeout=600)
    if not check(r.returncode == 0, f"report.py on the sweep {r.stderr.strip()[-300:]}"):
        return
    report = {}
    for x in csv_rows(os.path.join(rep_dir, "summary.csv")):
        if x["scope"] == "all maps":
            report[(x["representation"].split(" (")[0], x["smoothing"], x["facet"])] = x
    con = sqlite3.connect(db)
    run_id = con.execute("SELECT run_id FROM runs WHERE result_set = ?", (os.path.abspath(os.path.join(fx["sweep"], "results")),)).fetchone()
    rows = con.execute("SELECT c.representation, c.smoothing, s.terrain, s.time_median, s.time_mean, s.gap_mean, "
                       "s.valid_share, s.solved_share, s.is_candidate, s.reason FROM config_summary s "
                       "JOIN configurations c USING (config_id) WHERE s.scope = 'all maps' AND s.run_id = ?",
                       (run_id[0] if run_id else -1,)).fetchall()
    bad, compared = [], 0
    for rep_name, smoothing, terrain, t_med, t_mean, gap, valid, solved, cand, reason in rows:
        x = report.get((rep_name, smoothing, "plain map" if not terrain else f"terrain {terrain}"))
        if x is None:
            continue
        compared += 1
        for name, got, want in (("time_median", t_med, x["time_median"]), ("gap_mean", gap, x["gap_mean"]),
                                ("valid_share", valid, x["valid_share"]), ("solved_share", solved, x["solved_share"])):
            w = float(want) if want else math.nan
            g = math.nan if got is None else got
            if not (math.isclose(g, w, rel_tol=1e-12) or (math.isnan(g) and math.isnan(w))):
                bad.append(f"{rep_name} · {smoothing} {terrain} {name}: {g} vs report {w}")
        if bool(cand) != (x["is_candidate"] == "True") or (reason or "") != x["reason"]:
            bad.append(f"{rep_name} · {smoothing} {terrain}: candidate {cand} {reason!r} vs report {x['is_candidate']} {x['reason']!r}")
    check(compared == len(report) == len(rows) > 0 and not bad, f"config_summary equals the report's summary.csv on "
          f"{compared} of {len(report)} configurations ({len(rows)} rows)" + (f": {bad[:3]}" if bad else ""))
    csv_times = [sum(float(x[c] or 0) for c in ("locate_us", "search_us", "smooth_us"))
                 for x in csv_rows(os.path.join(fx["sweep"], "results.csv"))
                 if x["representation"] == "navmesh" and x["smoothing"] == "los" and x["status"] == "ok" and not x["terrain"]]
    got = con.execute("SELECT s.time_mean FROM config_summary s JOIN configurations c USING (config_id) WHERE s.run_id = ? "
                      "AND s.scope = 'all maps' AND c.label = 'navmesh · los' AND s.terrain = ''",
                      (run_id[0] if run_id else -1,)).fetchone()
    check(got is not None and math.isclose(got[0], statistics.mean(csv_times), rel_tol=1e-12),
          f"config_summary: navmesh · los's mean query time is the mean over its solved rows ({got})")
    docs = open(os.path.join(root, "docs", "results.md"), encoding="utf-8").read()
    query = re.search(r"```sql\n(SELECT configurations.label.*?)```", docs, re.S)
    answer = con.execute(query.group(1).replace("'sc1'", "'generated'")).fetchall() if query else []
    fastest = [(x[0], x[1]) for x in con.execute(
        "SELECT c.label, s.time_median FROM config_summary s JOIN configurations c USING (config_id) WHERE s.scope = "
        "'generated' AND s.terrain = '' AND s.radius IS NULL AND s.is_candidate = 1").fetchall() if x[1] is not None]
    check(query and len(answer) == 1 and fastest and answer[0][1] == min(t for _, t in fastest),
          f"docs/results.md's query for the fastest candidate, on the collection generated: {answer}")


def sqlite_mode(navbench, root, fx, tmp):
    import pandas as pd
    db = os.path.join(tmp, "results.db")
    sweep_rows = csv_rows(os.path.join(fx["sweep"], "results.csv"))
    one_rows = csv_rows(fx["one"] + ".csv")
    r = export(navbench, "--sqlite", db, fx["sweep"])
    check(r.returncode == 0, f"export --sqlite of the sweep: {r.stdout.strip()} {r.stderr.strip()}")
    out = subprocess.run(["sqlite3", db, "SELECT count(*) FROM queries"], capture_output=True, text=True)
    check(out.stdout.strip() == str(len(sweep_rows)), f"sqlite3 reads it: {out.stdout.strip()} query rows, as results.csv")
    r = export(navbench, "--sqlite", db, fx["one"], fx["sweep"])
    check(r.returncode == 0 and "1 run(s) added" in r.stdout and "1 already there" in r.stdout,
          f"appending: the new run added, the sweep already there skipped ({r.stdout.strip()})")
    copy_run(fx["one"], os.path.join(tmp, "later"), lambda m: m.update(git_commit="f" * 40))
    r = export(navbench, "--sqlite", db, os.path.join(tmp, "later"))
    con = sqlite3.connect(db)
    commits = con.execute("SELECT count(DISTINCT git_commit) FROM runs").fetchone()[0]
    check(r.returncode == 0 and commits == 2, f"a run of another commit appends: {commits} commits in one database")
    df = pd.read_sql("SELECT * FROM query_rows WHERE result_set = ?", con, params=(os.path.abspath(fx["one"]),))
    check(len(df) == len(one_rows), f"pandas.read_sql of the view query_rows: the one-map run's {len(df)} rows")
    bad = 0
    by_key = {(x["representation"], x["smoothing"], x["scen_index"]): x for x in one_rows}
    for _, x in df.iterrows():
        src = by_key[(x["representation"], x["smoothing"], str(x["scen_index"]))]
        for col in ("gap", "search_us", "length"):
            a = float(src[col]) if src[col] else math.nan
            b = x[col] if x[col] is not None else math.nan
            bad += not ((math.isnan(a) and (b is None or math.isnan(b))) or a == b)
        bad += (src["status"] != x["status"]) + (int(src["expansions"]) != x["expansions"])
    check(bad == 0, f"every value read back equals the CSV's ({bad} differ)")
    before = con.execute("SELECT count(*) FROM runs").fetchone()[0]

    def retype(m):
        for c in m["schema"]["results"]:
            if c["name"] == "gap":
                c["type"] = "text"
    copy_run(fx["one"], os.path.join(tmp, "retyped"), retype)
    refused(export(navbench, "--sqlite", db, os.path.join(tmp, "retyped")), "a schema giving gap another type", "incompatible")
    check(con.execute("SELECT count(*) FROM runs").fetchone()[0] == before, "the refused run left the database as it was")
    other = os.path.join(tmp, "other.db")
    sqlite3.connect(other).execute("CREATE TABLE t (x)")
    refused(export(navbench, "--sqlite", other, fx["one"]), "an SQLite file navbench did not write", "did not write")
    refused(export(navbench, fx["one"]), "neither --sqlite nor --ompl", "--sqlite")
    check_documented(db, root, json.load(open(fx["one"] + ".meta.json")))
    check_summary(db, root, fx, tmp)


def ompl_mode(navbench, root, fx, tmp):
    script = shutil.which("ompl_benchmark_statistics")
    if script is None:
        print("SKIP: ompl_benchmark_statistics not found (Debian package ompl-demos; scripts/setup installs it)")
        return 77
    logs = os.path.join(tmp, "ompl")
    r = export(navbench, "--ompl", logs, fx["sweep"])
    check(r.returncode == 0, f"export --ompl: {r.stdout.strip()} {r.stderr.strip()}")
    files = sorted(os.path.join(logs, f) for f in os.listdir(logs))
    db = os.path.join(tmp, "ompl.db")
    r = subprocess.run([script, *files, "-d", db], capture_output=True, text=True, timeout=600)
    check(r.returncode == 0 and "Traceback" not in r.stderr and "rror" not in r.stderr,
          f"ompl_benchmark_statistics turns the {len(files)} logs into its database (exit {r.returncode}) {r.stderr.strip()[-300:]}")
    con = sqlite3.connect(db)
    rows = csv_rows(os.path.join(fx["sweep"], "results.csv"))
    applicable = [x for x in rows if x["status"] != "not_applicable"]
    maps = {(x["collection"], x["map"], x["terrain"]) for x in rows}
    n_exp = con.execute("SELECT count(*) FROM experiments").fetchone()[0]
    check(n_exp == len(maps), f"one experiment per map (and terrain): {n_exp}")
    planners = {r[0] for r in con.execute("SELECT DISTINCT name FROM plannerConfigs")}
    want = {f"{x['representation']} · {x['smoothing']}" for x in applicable}
    check(planners == want, f"the planners are navbench's configurations: {sorted(planners)}")
    n_runs = con.execute("SELECT count(*) FROM runs").fetchone()[0]
    check(n_runs == len(applicable), f"one run per applicable result row: {n_runs}")
    solved = con.execute("SELECT sum(solved) FROM runs").fetchone()[0]
    check(solved == sum(x["status"] == "ok" for x in rows), f"solved runs = ok rows: {solved}")
    cols = {r[1] for r in con.execute("PRAGMA table_info(runs)")}
    check({"time", "solved", "length", "valid", "clearance", "turning", "gap", "status"} <= cols,
          "run properties time, solved, length, valid, clearance, turning (and gap, status)")
    total = sum(sum(float(x[c] or 0) for c in ("locate_us", "search_us", "smooth_us")) for x in applicable) / 1e6
    got = con.execute("SELECT sum(time) FROM runs").fetchone()[0]
    check(math.isclose(got, total, rel_tol=1e-6), f"time is locate + search + smooth in seconds: {got:.6g} s in all")
    version = con.execute("SELECT DISTINCT version FROM experiments").fetchall()
    meta = json.load(open(os.path.join(fx["sweep"], "results.meta.json")))
    check(version == [(f"navbench {meta['git_commit'][:12]}" + ("-dirty" if meta.get("git_dirty") else ""),)],
          f"the experiments' version is navbench's commit: {version}")
    return 0


def main():
    mode, navbench, root = sys.argv[1], os.path.abspath(sys.argv[2]), os.path.abspath(sys.argv[3])
    tmp = tempfile.mkdtemp(prefix=f"navbench-export-{mode}.")
    fx = package_fixture.make(navbench, root, os.path.join(tmp, "fx"))
    code = sqlite_mode(navbench, root, fx, tmp) if mode == "sqlite" else ompl_mode(navbench, root, fx, tmp)
    if code == 77:
        return 77
    return finish(tmp, f"{mode} export")


if __name__ == "__main__":
    sys.exit(main())
