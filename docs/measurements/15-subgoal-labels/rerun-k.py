#!/usr/bin/python3
"""Record 15 (k), the comparison that decided issue 66, run again and kept round by round.

Issue 66's bar: navbench's fastest exact grid8 configuration at most 0.7x SGCH-JPD's median query
time on den520d, brc202d and Aurora, in every round. (k) was measured at 5802efd by a script that
lived outside the repository (/work/q/r66.sh) and kept no per-round file. This runs the same
comparison: scripts/rounds, 5 alternating rounds (the --rep order reversed in the even ones), every
scenario query of the three maps, SGCH-JPD (built outside the repository from the GPPC archive's
unmodified classic/2023/2019-SGCH-JPD folder by scripts/gppc-build) beside `subgoal` and
`subgoal:labels=1`, smoothing none, no optimum, both sides batched 256 queries at a time; per query
the best round, then the median over the map's queries, each round's median and its ratio to the
entry's.

    /usr/bin/python3 docs/measurements/15-subgoal-labels/rerun-k.py --entry PROGRAM
        [--navbench build/navbench] [--maps ../shared/datasets/movingai] [--rounds 5]
        [--out results/issue66-k] [--archive-commit SHA] [--no-record [--limit N]]

Build navbench at the commit first (scripts/build release --target navbench: the record names the
source's HEAD, and nothing here can tell a stale binary). A timing: run it on a quiet machine (nothing else running; it says the load before it starts and
refuses above --max-load, default 1.5). It keeps the rounds' results in OUT, and commits nothing
itself; it writes, for the repository,

  docs/measurements/15-subgoal-labels/k-COMMIT/rounds.csv      scripts/rounds' figure: per map and
                                                               representation the combined median,
                                                               each round's median, the ratios
  docs/measurements/15-subgoal-labels/k-COMMIT/rounds-env.csv  each round's wall and CPU time, page
                                                               faults, clock and load
  docs/measurements/15-subgoal-labels/k-COMMIT/run.json        the command, commit, date, machine,
                                                               the entry program's SHA-256

and the table "Issue 66 (k) rerun at COMMIT" of docs/measurements/15-subgoal-labels.json, written
from that rounds.csv (source (l)), then renders docs/measurements.md. COMMIT is the navbench
source's HEAD, which must have no uncommitted change in its C++ (the record names it).
--no-record runs and prints only (with --limit N, N queries a map: a quick check that it runs).
--check (ctest docs_issue66_record) fails when a rerun table differs from its per-round file.
"""
import argparse
import csv
import datetime
import hashlib
import json
import os
import platform
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
RECORD = os.path.join(ROOT, "docs", "measurements", "15-subgoal-labels.json")
MAPS = ["dao/den520d.map", "dao/brc202d.map", "sc1/Aurora.map"]
REF = "gppc:SGCH-JPD"
REPS = ["subgoal", "subgoal:labels=1"]


def git(*args):
    return subprocess.run(["git", "-C", ROOT, *args], capture_output=True, text=True).stdout.strip()


def load_average():
    with open("/proc/loadavg") as f:
        return float(f.read().split()[0])


def sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def run_args(entry, maps, limit=None):
    args = ["--limit", str(limit)] if limit else []
    for m in MAPS:
        args += ["--map", os.path.join(maps, m)]
    args += ["--rep", f"gppc:path={entry},track=classic,name=SGCH-JPD"]
    for r in REPS:
        args += ["--rep", r]
    return args + ["--smoothing", "none", "--no-optimum", "--batch", "256"]


def table(rows, commit, rounds):
    """The record's table from rounds.csv's rows: the columns of (k)'s."""
    def f(v, d):
        return f"{float(v):,.{d}f}"
    out = []
    for r in rows:
        meds = " / ".join(f(r[f"round_{k}_us"], 1) for k in range(1, rounds + 1))
        ratios = " / ".join(f(r[f"ratio_round_{k}"], 2) for k in range(1, rounds + 1))
        out.append({"cells": [r["map"], r["representation"], f"{int(r['queries']):,}", f(r["median_us"], 2), meds,
                              f(r["ratio"], 3), ratios, f(r["ratio_worst"], 2)],
                    "source": "(l)", "commit": commit})
    return {"caption": f"Issue 66 (k) rerun at {commit} (l), written from docs/measurements/15-subgoal-labels/k-{commit}/rounds.csv: "
                       f"per query the best of {rounds} alternating rounds, then the median over the map's queries (us), each "
                       "round's median, the ratio to SGCH-JPD's, combined and per round",
            "columns": ["map", "representation", "queries", "median (us)", "rounds' medians (us)", "ratio", "rounds' ratios",
                        "worst round"],
            "rows": out}


def check():
    """Each rerun table of the record against the rounds.csv it was written from (ctest
    docs_issue66_record): no figure in the table that the committed per-round file does not hold."""
    with open(RECORD) as f:
        tables = [t for t in json.load(f)["tables"] if t.get("caption", "").startswith("Issue 66 (k) rerun at ")]
    bad = 0
    for t in tables:
        commit = t["caption"][len("Issue 66 (k) rerun at "):].split()[0]
        path = os.path.join(HERE, f"k-{commit}", "rounds.csv")
        if not os.path.exists(path):
            print(f"rerun-k: the table of {commit} has no per-round file {os.path.relpath(path, ROOT)}")
            bad += 1
            continue
        with open(path, newline="") as f:
            rows = list(csv.DictReader(f))
        rounds = int(rows[0]["rounds"]) if rows else 0
        if table(rows, commit, rounds) != t:
            print(f"rerun-k: the table of {commit} differs from {os.path.relpath(path, ROOT)}")
            bad += 1
    print(f"rerun-k: {len(tables)} rerun table(s), {bad} not written from their per-round file")
    return 1 if bad else 0


def main():
    if sys.argv[1:] == ["--check"]:
        return check()
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--entry", required=True, help="SGCH-JPD built by scripts/gppc-build (outside the repository)")
    p.add_argument("--navbench", default=os.path.join(ROOT, "build", "navbench"))
    p.add_argument("--maps", default=os.path.join(ROOT, "..", "shared", "datasets", "movingai"))
    p.add_argument("--rounds", type=int, default=5)
    p.add_argument("--out", default=os.path.join(ROOT, "results", "issue66-k"))
    p.add_argument("--archive-commit", default="", help="the GPPC archive's commit the entry was built from (recorded)")
    p.add_argument("--max-load", type=float, default=1.5, help="refuse to start above this load average")
    p.add_argument("--no-record", action="store_true")
    p.add_argument("--limit", type=int, help="N queries a map, with --no-record only (a check that it runs)")
    a = p.parse_args()
    if a.limit and not a.no_record:
        p.error("--limit is for a check that it runs (--no-record): the record's figure is over every scenario query")
    for path, what in [(a.entry, "the entry"), (a.navbench, "navbench")] + [(os.path.join(a.maps, m), "a map") for m in MAPS]:
        if not os.path.exists(path):
            sys.exit(f"rerun-k: {what} {path} not found")
    if os.path.realpath(a.entry).startswith(os.path.realpath(ROOT) + os.sep):
        sys.exit("rerun-k: the entry is built outside the repository (scripts/gppc-build ENTRY_DIR /elsewhere/sgch-jpd --track classic)")
    commit = git("rev-parse", "--short=7", "HEAD")
    if git("status", "--porcelain", "--untracked-files=no", "--", "algorithms", "harness", "datasets", "base") and not a.no_record:
        sys.exit("rerun-k: the C++ sources have uncommitted changes: commit first, the record names the commit")
    load = load_average()
    print(f"rerun-k: load average {load:.2f} before the rounds", file=sys.stderr)
    if load > a.max_load:
        sys.exit(f"rerun-k: load average {load:.2f} is above {a.max_load}: a timing wants a quiet machine (--max-load)")
    if os.path.exists(a.out):
        sys.exit(f"rerun-k: {a.out} exists: give a fresh --out (scripts/rounds --summarise {a.out} reads one again)")
    cmd = [sys.executable, os.path.join(ROOT, "scripts", "rounds"), "--navbench", a.navbench, "--rounds", str(a.rounds),
           "--ref", REF, "--out", a.out, "--", *run_args(a.entry, a.maps, a.limit)]
    started = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    print("rerun-k: " + " ".join(cmd), file=sys.stderr, flush=True)
    subprocess.run(cmd, check=True)
    with open(os.path.join(a.out, "rounds.csv"), newline="") as f:
        rows = list(csv.DictReader(f))
    want = {(os.path.splitext(os.path.basename(m))[0], r) for m in MAPS for r in [REF] + REPS}
    got = {(r["map"], r["representation"]) for r in rows}
    if want - got:
        sys.exit(f"rerun-k: rounds.csv lacks {sorted(want - got)} (a failed build or query: see {a.out}/round-*)")
    if a.no_record:
        return 0
    keep = os.path.join(HERE, f"k-{commit}")
    os.makedirs(keep, exist_ok=True)
    for name in ("rounds.csv", "rounds-env.csv"):
        shutil.copy(os.path.join(a.out, name), os.path.join(keep, name))
    with open(os.path.join(keep, "run.json"), "w") as f:
        json.dump({"command": " ".join(cmd), "commit": git("rev-parse", "HEAD"), "started": started,
                   "load_before": load, "machine": platform.node(), "cpu": next(
                       (l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), ""),
                   "cores": os.cpu_count(), "entry": os.path.abspath(a.entry), "entry_sha256": sha256(a.entry),
                   "archive": "gppc-dev/algorithm-archive classic/2023/2019-SGCH-JPD", "archive_commit": a.archive_commit},
                  f, indent=1)
        f.write("\n")
    with open(RECORD) as f:
        rec = json.load(f)
    rec.setdefault("commands", {})["(l)"] = (
        "/usr/bin/python3 docs/measurements/15-subgoal-labels/rerun-k.py --entry SGCH-JPD (scripts/gppc-build "
        "ARCHIVE/classic/2023/2019-SGCH-JPD OUTSIDE/sgch-jpd --track classic): scripts/rounds --rounds 5 --ref gppc:SGCH-JPD -- "
        "--map den520d.map --map brc202d.map --map Aurora.map --rep gppc:path=ENTRY,track=classic,name=SGCH-JPD --rep subgoal "
        "--rep subgoal:labels=1 --smoothing none --no-optimum --batch 256; per-round files in the folder k-COMMIT beside rerun-k.py")
    new = table(rows, commit, a.rounds)
    rec["tables"] = [t for t in rec["tables"] if not t.get("caption", "").startswith(f"Issue 66 (k) rerun at {commit} ")] + [new]
    with open(RECORD, "w") as f:
        json.dump(rec, f, indent=1, ensure_ascii=False)
        f.write("\n")
    subprocess.run(["/usr/bin/python3", os.path.join(ROOT, "scripts", "measurements.py")], check=True)
    print(f"rerun-k: wrote {os.path.relpath(keep, ROOT)}/ and the table (l) of {os.path.relpath(RECORD, ROOT)}; "
          "write what it shows into the record's text, then commit them")
    return 0


if __name__ == "__main__":
    sys.exit(main())
