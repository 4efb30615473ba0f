#!/usr/bin/python3
"""Record 19's second table: how many queries with a path `prm` and `prm-star` answer in the
default job, per map (docs/prm.md cites it).

The default job (scripts/sweeps/default.json) with its representations replaced by prm and
prm-star at their defaults (2,000 samples, seed 1), A* only, smoothing none: the same maps, the same
queries (the selection depends on the maps and the config's seed, not on the representations), the
same changing map (results/maps/generated512/doors-512.scen). The counts depend only on the seeds,
not on the machine or its load, so this runs anywhere. A query has a path and a path is solved by
the candidate rule's one definition (python/navbench/candidates.py: a finite optimum, not
invalid_query / not_applicable; an `ok` row answers it).

    /usr/bin/python3 docs/measurements/19-prm/default-job.py [--navbench build/navbench]
        [--out results/prm-default] [--results DIR] [--no-record]

makes the default job's generated maps when they are missing (scripts/default-maps), runs the sweep
into OUT (or reads the results of an earlier one, --results DIR: the default job's own results do
too), writes the counts to docs/measurements/19-prm/default-job.csv and the table "prm and prm-star
in the default job" of docs/measurements/19-prm.json (its other tables and text stay), then renders
docs/measurements.md (scripts/measurements.py). --no-record prints the counts only; --check (ctest
docs_prm_record) fails when the record's table differs from what the committed CSV gives.
"""
import argparse
import csv
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "python"))
import pandas as pd  # noqa: E402

from navbench.candidates import pct, summarise  # noqa: E402  (the candidate rule's counts, its one share formatter)

RECORD = os.path.join(ROOT, "docs", "measurements", "19-prm.json")
COUNTS = os.path.join(HERE, "default-job.csv")
CAPTION = "prm and prm-star in the default job (2,000 samples, seed 1; A*, smoothing none): queries with a path answered, per map"
COMMAND = ("/usr/bin/python3 docs/measurements/19-prm/default-job.py: scripts/sweeps/default.json with its representations "
           "replaced by [prm, prm-star], searches [astar], smoothing [none]; the counts by the candidate rule "
           "(python/navbench/candidates.py), written to docs/measurements/19-prm/default-job.csv and this table")
REPS = ["prm", "prm-star"]


def sh(cmd):
    print("default-job: " + " ".join(cmd), file=sys.stderr, flush=True)
    subprocess.run(cmd, cwd=ROOT, check=True)


def run_sweep(navbench, out):
    if not os.path.exists(os.path.join(ROOT, "results", "maps", "generated512", "doors-512.scen")):
        sh(["scripts/default-maps", navbench])
    with open(os.path.join(ROOT, "scripts", "sweeps", "default.json")) as f:
        cfg = json.load(f)
    cfg["comment"] = "made by docs/measurements/19-prm/default-job.py from scripts/sweeps/default.json"
    cfg.update(representations=REPS, searches=["astar"], smoothing=["none"], paths=False, rebuild_baseline=False, output=out)
    os.makedirs(out, exist_ok=True)
    path = os.path.join(out, "config.json")
    with open(path, "w") as f:
        json.dump(cfg, f, indent=1)
    sh([navbench, "sweep", path, "--out", out])


def counts(results):
    """One row per (map, representation): the map's collection, whether it changes, the queries,
    those with a path and the answered among them (static maps: results.csv; the changing map:
    dynamic/results.csv, over all its map states)."""
    out = []
    for name, kind in (("results.csv", "plain"), (os.path.join("dynamic", "results.csv"), "changing")):
        path = os.path.join(results, name)
        if not os.path.exists(path):
            continue
        rows = pd.read_csv(path, low_memory=False)
        rows = rows[rows["representation"].isin(REPS) & (rows["search"] == "astar") & (rows["smoothing"] == "none")]
        # A map that runs plain and weighted (the same name: rooms-32-512, icecrown) is two rows.
        rows = rows.assign(terrain=rows["terrain"].fillna("") if "terrain" in rows.columns else "")
        for (collection, m, terrain), at in rows.groupby(["collection", "map", "terrain"], sort=True):
            s = summarise(at, by="representation")
            for _, r in s.iterrows():
                out.append({"map": m, "collection": collection, "kind": f"weighted ({terrain})" if terrain else kind,
                            "representation": r["representation"], "queries": int(r["applicable"]),
                            "with_path": int(r["with_path"]), "answered": int(r["answered"])})
    if not out:
        sys.exit(f"default-job: no prm or prm-star rows in {results}")
    return out


def commit(results):
    """The commit of the navbench that made the results (their meta.json), refused when its source
    tree had uncommitted changes: the record names the commit."""
    with open(os.path.join(results, "results.meta.json")) as f:
        meta = json.load(f)
    if meta.get("git_dirty") or not meta.get("git_commit"):
        sys.exit(f"default-job: {results} was made by a navbench whose source had uncommitted changes (or no commit)")
    return meta["git_commit"][:7]


def table(rows, at):
    """The record's table from the counts: one row per map, both roadmaps side by side."""
    by_map = {}  # one row per map: the queries with a path (the same for both), each one's answered
    for r in rows:
        m = by_map.setdefault((r["kind"] == "changing", r["collection"], r["map"], r["kind"]), {"with_path": r["with_path"]})
        if m["with_path"] != r["with_path"]:
            sys.exit(f"default-job: {r['map']}: prm and prm-star see different queries with a path")
        m[r["representation"]] = r["answered"]
    return {"caption": CAPTION,
            "columns": ["map", "collection", "kind", "queries with a path", "`prm` answered", "`prm-star` answered"],
            "rows": [{"cells": [m, collection, kind, f"{v['with_path']:,}"] +
                      [f"{v[rep]:,} ({share(v[rep], v['with_path'])} %)" if rep in v else "not run" for rep in REPS],
                      "source": "(e)", "commit": at}
                     for (_, collection, m, kind), v in sorted(by_map.items())]}


def write(rows, at):
    with open(COUNTS, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=["map", "collection", "kind", "representation", "queries", "with_path", "answered", "commit"])
        w.writeheader()
        for r in rows:
            w.writerow({**r, "commit": at})
    with open(RECORD) as f:
        rec = json.load(f)
    rec.setdefault("commands", {})["(e)"] = COMMAND
    rec["tables"] = [t for t in rec.get("tables", []) if t.get("caption") != CAPTION] + [table(rows, at)]
    with open(RECORD, "w") as f:
        json.dump(rec, f, indent=1, ensure_ascii=False)
        f.write("\n")
    subprocess.run(["/usr/bin/python3", os.path.join(ROOT, "scripts", "measurements.py")], check=True)


def share(a, b):
    return pct(a / b) if b else "—"


def check():
    """The record's table against the committed counts (ctest docs_prm_record): no figure in the
    table that default-job.csv does not hold."""
    with open(COUNTS, newline="") as f:
        saved = list(csv.DictReader(f))
    rows = [{**r, **{k: int(r[k]) for k in ("queries", "with_path", "answered")}} for r in saved]
    commits = {r["commit"] for r in saved}
    with open(RECORD) as f:
        got = [t for t in json.load(f).get("tables", []) if t.get("caption") == CAPTION]
    if len(commits) != 1 or not got or got[0] != table(rows, commits.pop()):
        print("default-job: record 19's table (e) differs from docs/measurements/19-prm/default-job.csv (run default-job.py again)")
        return 1
    print(f"default-job: record 19's table (e) equals the counts of default-job.csv ({len(saved)} rows)")
    return 0


def main():
    if sys.argv[1:] == ["--check"]:
        sys.exit(check())
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--navbench", default="build/navbench")
    p.add_argument("--out", default="results/prm-default")
    p.add_argument("--results", help="read an earlier sweep's results instead of running one")
    p.add_argument("--no-record", action="store_true")
    a = p.parse_args()
    results = a.results
    if not results:
        run_sweep(a.navbench, a.out)
        results = a.out
    results = os.path.join(ROOT, results) if not os.path.isabs(results) else results
    rows = counts(results)
    for r in rows:
        print(f"{r['collection']}/{r['map']} ({r['kind']}) {r['representation']}: {r['answered']} of {r['with_path']} "
              f"({share(r['answered'], r['with_path'])} %)")
    for rep in REPS:
        for what, keep in (("plain maps", lambda k: k == "plain"), ("weighted maps", lambda k: k.startswith("weighted")),
                           ("plain and weighted", lambda k: k != "changing")):
            sel = [r for r in rows if r["representation"] == rep and keep(r["kind"])]
            a_, w_ = sum(r["answered"] for r in sel), sum(r["with_path"] for r in sel)
            print(f"{rep}, {what}: {a_} of {w_} ({share(a_, w_)} %)")
    if not a.no_record:
        write(rows, commit(results))


if __name__ == "__main__":
    main()
