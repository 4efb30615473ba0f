"""Traced rows never enter a timing statistic (docs/traces.md#traced-rows, SPEC §14): a run with
--trace marks the rows of its traced queries with traced = 1, and the report's ranked table
(summary.csv) must take its query times from the other rows only, while the traced rows still
count for solved, valid and gap. Checked three ways on one run (grid8 and navmesh, smoothing none
and funnel, 4 of 12 queries per map traced):
- each configuration's median query time and its n equal those recomputed here, with plain Python,
  from the untraced ok rows of results.csv; its gap's n counts every ok row with a gap;
- the same rows with the traced rows' search_us made a million times larger give the same times;
- the page's missing-data section says how many rows were traced.
Usage: test_traced_rows.py NAVBENCH ROOT. Exit 0 = pass, 1 = fail."""
import csv
import math
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from collections import defaultdict


def label(search, smoothing):  # the configuration label of docs/path-quality.md
    if search == "astar":
        return smoothing
    return search if smoothing == "none" else f"{search} + {smoothing}"


def report(root, prefix, out):
    subprocess.run([os.path.join(root, "scripts/navpy.sh"), os.path.join(root, "scripts/report.py"), prefix + ".csv",
                    "--out", out, "--figures", "none"], check=True, stdout=subprocess.DEVNULL)
    with open(os.path.join(out, "summary.csv")) as f:  # by (representation as in the rows, smoothing label)
        table = {(re.sub(r" \(.*\)$", "", r["representation"]), r["smoothing"]): r for r in csv.DictReader(f)
                 if r["scope"] == "all maps"}
    with open(os.path.join(out, "report.html"), encoding="utf-8") as f:
        return table, f.read()


def main() -> int:
    nb, root = sys.argv[1], sys.argv[2]
    tmp = tempfile.mkdtemp(prefix="navbench-traced.")
    gen = os.path.join(root, "datasets/maps/generated")
    prefix = os.path.join(tmp, "a", "r")
    subprocess.run([nb, "run", "--map", os.path.join(gen, "rooms-16-128.map"), os.path.join(gen, "maze-4-128.map"),
                    "--rep", "grid8,navmesh", "--smoothing", "none,funnel", "--limit", "12", "--trace", "4",
                    "--out", prefix, "--quiet"], check=True)
    fails = []
    with open(prefix + ".csv") as f:
        rows = list(csv.DictReader(f))
    traced = sum(r["traced"] == "1" for r in rows)
    if traced != 2 * 2 * 2 * 4 or sum(r["traced"] == "0" for r in rows) != 2 * 2 * 2 * 8:
        fails.append(f"{traced} traced rows of {len(rows)}, expected 32 of 96 (2 maps x 2 representations x 2 smoothings x 4)")
    times, gaps = defaultdict(list), defaultdict(int)
    for r in rows:
        cfg = (r["representation"], label(r["search"], r["smoothing"]))
        if r["status"] != "ok":
            continue
        gaps[cfg] += r["gap"] != ""
        if r["traced"] == "0":
            times[cfg].append(sum(float(r[k]) for k in ("locate_us", "search_us", "smooth_us")))
    table, page = report(root, prefix, os.path.join(tmp, "ra"))
    for cfg, t in times.items():
        got = table.get(cfg)
        if got is None:
            fails.append(f"{cfg}: not in summary.csv")
            continue
        want = statistics.median(t)
        if int(got["time_median_n"]) != len(t) or not math.isclose(float(got["time_median"]), want, rel_tol=1e-9, abs_tol=1e-9):
            fails.append(f"{cfg}: median query time {got['time_median']} over {got['time_median_n']} rows, "
                         f"the untraced ok rows give {want} over {len(t)}")
        if int(got["gap_mean_n"]) != gaps[cfg]:
            fails.append(f"{cfg}: mean gap over {got['gap_mean_n']} rows, want every ok row with a gap ({gaps[cfg]})")
    # The traced rows' times made absurd: the report's times must not move.
    slow = os.path.join(tmp, "b", "r")
    os.makedirs(os.path.dirname(slow))
    for suffix in (".build.csv", ".meta.json"):
        shutil.copy(prefix + suffix, slow + suffix)
    with open(slow + ".csv", "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0].keys()))
        w.writeheader()
        for r in rows:
            w.writerow({**r, "search_us": f"{float(r['search_us']) * 1e6:.3f}"} if r["traced"] == "1" else r)
    table_b, _ = report(root, slow, os.path.join(tmp, "rb"))
    for cfg, r in table.items():
        for k in ("time_median", "time_p95", "time_median_n", "gap_mean", "solved_pct", "valid_pct"):
            if table_b.get(cfg, {}).get(k) != r[k]:
                fails.append(f"{cfg}: {k} {r[k]} becomes {table_b.get(cfg, {}).get(k)} when the traced rows' times grow")
    if f"{traced} rows are of traced queries" not in page:
        fails.append("the missing-data section does not say how many rows were traced")
    print("\n".join(f"FAIL: {x}" for x in fails) or
          f"ok: {len(times)} configurations, their times from {sum(map(len, times.values()))} untraced rows, {traced} traced rows left out")
    if not fails:
        shutil.rmtree(tmp, ignore_errors=True)
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
