#!/usr/bin/python3
"""Record 20: what `--repetitions` does to single-run times, and how far an identical rerun moves.

docs/results.md ("What the interval covers") says that `navbench compare`'s intervals cover the
choice of queries, not run-to-run noise, and that runs of different `--repetitions` differ by more
than that noise. This measures both on one map: three `navbench run`s of the same queries, one
after the other on one core (taskset -c 0), `--repetitions 1`, then 5, then 1 again; then
`navbench compare R1 R1-again` (the noise: an identical rerun) and `navbench compare R1 R5` (the
effect of repetitions), per configuration the typical per-query time ratio and its 95 % interval.

    /usr/bin/python3 docs/measurements/20-repetitions/run.py [--navbench build/navbench]
        [--map ../shared/datasets/movingai/dao/den520d.map] [--limit 300] [--out results/repetitions]
        [--no-record]

A timing: run it on a quiet machine (it prints the load average first and refuses above
--max-load, default 1.5). It writes docs/measurements/20-repetitions/ratios.csv (the two
comparisons' verdict rows) and the table of docs/measurements/20-repetitions.json from it, then
renders docs/measurements.md; --no-record prints only. The map is den520d from ../shared/datasets
unless --map names another (with its .scen beside it).
"""
import argparse
import csv
import datetime
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
RECORD = os.path.join(ROOT, "docs", "measurements", "20-repetitions.json")
RATIOS = os.path.join(HERE, "ratios.csv")
REPS = ["grid8", "navmesh:merge=1", "visgraph"]


def git(*args):
    return subprocess.run(["git", "-C", ROOT, *args], capture_output=True, text=True).stdout.strip()


def run(cmd):
    print("$", " ".join(cmd), flush=True)
    subprocess.run(cmd, check=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--navbench", default=os.path.join(ROOT, "build", "navbench"))
    ap.add_argument("--map", default=os.path.join(ROOT, "..", "shared", "datasets", "movingai", "dao", "den520d.map"))
    ap.add_argument("--limit", type=int, default=300)
    ap.add_argument("--out", default=os.path.join(ROOT, "results", "repetitions"))
    ap.add_argument("--max-load", type=float, default=1.5)
    ap.add_argument("--no-record", action="store_true")
    a = ap.parse_args()
    if not os.path.exists(a.map):
        sys.exit(f"run.py: no map {a.map} (name one with --map)")
    load = os.getloadavg()[0]
    print(f"load average {load:.2f}")
    if load > a.max_load:
        sys.exit(f"run.py: load average {load:.2f} above --max-load {a.max_load}: not a quiet machine")
    os.makedirs(a.out, exist_ok=True)
    base = ["taskset", "-c", "0", a.navbench, "run", "--map", a.map, "--limit", str(a.limit),
            "--no-optimum", "--quiet"] + [x for r in REPS for x in ("--rep", r)]
    runs = [("r1", 1), ("r5", 5), ("r1-again", 1)]
    for name, n in runs:
        run(base + ["--repetitions", str(n), "--out", os.path.join(a.out, name)])
    rows = []
    for label, other in (("identical rerun (R1 again / R1)", "r1-again"), ("--repetitions 5 / 1", "r5")):
        out_csv = os.path.join(a.out, f"compare-{other}.csv")
        run([a.navbench, "compare", os.path.join(a.out, "r1.csv"), os.path.join(a.out, other + ".csv"),
             "--csv", out_csv])
        with open(out_csv) as f:
            for r in csv.DictReader(f):
                rows.append({"comparison": label, "configuration": r["configuration"], "n": r["time_n"],
                             "ratio": f'{float(r["time_ratio"]):.3f}',
                             "interval": f'{float(r["time_ratio_lo"]):.3f}-{float(r["time_ratio_hi"]):.3f}',
                             "median_a_us": f'{float(r["time_median_a"]):.2f}',
                             "median_b_us": f'{float(r["time_median_b"]):.2f}'})
    for r in rows:
        print(f'{r["comparison"]:34} {r["configuration"]:28} n={r["n"]:>4} ratio {r["ratio"]} [{r["interval"]}]'
              f' medians {r["median_a_us"]} / {r["median_b_us"]} us')
    if a.no_record:
        return 0
    with open(RATIOS, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    commit = git("rev-parse", "--short=7", "HEAD")
    mapname = os.path.basename(a.map)
    cmd = (f"/usr/bin/python3 docs/measurements/20-repetitions/run.py --map {mapname} --limit {a.limit}"
           f" (load {load:.2f}, {datetime.date.today()})")
    rec = {
        "title": "Repetitions and run-to-run noise in single-run times",
        "question": "How far does an identical rerun move `navbench compare`'s time ratio, and how far does "
                    "`--repetitions 5` move it against the default job's single timing?",
        "text": [
            f"Three `navbench run`s of the same {a.limit} scenario queries of {mapname} (grid8, navmesh:merge=1, "
            "visgraph; A*, smoothing none, no optimum), one after the other pinned to one core: `--repetitions 1`, "
            "then 5, then 1 again; `navbench compare` of the first with the third (an identical rerun: the noise "
            "its intervals do not cover) and of the first with the second (the effect of repetitions). The ratio "
            "is the typical per-query time ratio B / A, exp(median log(t_B / t_A)), with its 95 % bootstrap "
            "interval over the queries. docs/results.md ('What the interval covers') cites it."],
        "commands": {"(a)": cmd},
        "tables": [{"caption": "time ratio B / A per configuration (`navbench compare A B`)",
                    "columns": ["comparison", "configuration", "pairs", "ratio", "95 % interval",
                                "median A (µs)", "median B (µs)"],
                    "rows": [{"cells": [r["comparison"], r["configuration"], r["n"], r["ratio"], r["interval"],
                                        r["median_a_us"], r["median_b_us"]], "source": "(a)", "commit": commit}
                             for r in rows]}]}
    with open(RECORD, "w") as f:
        json.dump(rec, f, indent=1, ensure_ascii=False)
        f.write("\n")
    run(["/usr/bin/python3", os.path.join(ROOT, "scripts", "measurements.py")])
    return 0


if __name__ == "__main__":
    sys.exit(main())
