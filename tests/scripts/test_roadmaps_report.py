"""The report's section "Roadmaps against samples" (scripts/navreport/sections/roadmaps.py) against
the raw rows: prm and prm-star each at two sample counts on a bundled 128 x 128 cave map (few
samples there miss paths, and their no_path rows say why); the section's table must give, per
representation, map and samples, the queries with a path, those solved (A*, smoothing none), the
valid share of the paths found and their mean gap, as results.csv has them, and the build time of
results.build.csv; a run with one sample count per representation has no such section. Which
queries have a path is the candidate rule's (navbench.candidates.path_exists, SPEC §14: an optimum,
exact or the scenario's octile one, or a valid path of any configuration), the one definition of
solved every section uses: a run without the exact optimum (--no-optimum) is judged on the
scenario's octile optimum and on the paths grid8 finds.
Usage: test_roadmaps_report.py NAVBENCH ROOT. Exit 0 = pass, 1 = fail."""
import csv
import html
import os
import re
import subprocess
import sys
import tempfile
from collections import defaultdict

import pandas as pd

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "python"))
from navbench import candidates  # noqa: E402  (the rule: python/navbench/candidates.py)


def run(nb, root, tmp, reps, name, *extra):
    out = os.path.join(tmp, name)
    args = [nb, "run", "--map", os.path.join(root, "datasets/maps/generated/cave-45-128.map"), "--limit", "30",
            "--smoothing", "none,los", "--out", out, "--quiet", *extra]
    for r in reps:
        args += ["--rep", r]
    subprocess.run(args, check=True, stderr=subprocess.DEVNULL)
    subprocess.run([os.path.join(root, "scripts/navpy.sh"), os.path.join(root, "scripts/report.py"), out + ".csv",
                    "--out", os.path.join(tmp, name + "-report"), "--figures", "none"], check=True, stdout=subprocess.DEVNULL)
    with open(os.path.join(tmp, name + "-report/report.html"), encoding="utf-8") as f:
        return out, f.read()


def expected(out):
    want = {}
    groups = defaultdict(list)
    rows = pd.read_csv(out + ".csv", dtype=str, keep_default_na=False)
    has_path = candidates.path_exists(rows.replace("", float("nan")))
    for (_, r), has in zip(rows.iterrows(), has_path):
        if r["smoothing"] == "none" and r["search"] == "astar":
            groups[(r["representation"], r["map"])].append(dict(r, has_path=bool(has)))
    with open(out + ".build.csv") as f:
        for b in csv.DictReader(f):
            m = re.search(r"samples=(\d+)", b["params"])
            if not m:  # grid8, which finds the paths a run without the optimum is judged on
                continue
            samples = int(m.group(1))
            g = groups[(b["representation"], b["map"])]
            has = [r for r in g if r["has_path"]]
            found = [r for r in g if r["status"] == "ok"]
            valid = [r for r in found if r["valid"] == "1"]
            gaps = [float(r["gap"]) for r in valid if r["gap"]]
            want[(b["representation"].split(":")[0], b["map"], samples)] = (
                sum(r["status"] == "ok" for r in has), len(has), 100 * len(valid) / len(found) if found else None,
                100 * sum(gaps) / len(gaps) if gaps else None, float(b["build_ms"]))
    return want


def main() -> int:
    nb, root = sys.argv[1], sys.argv[2]
    tmp = tempfile.mkdtemp(prefix="navbench-roadmaps.")
    reps = ["prm:samples=40", "prm:samples=400", "prm-star:samples=40", "prm-star:samples=400"]
    fails = []
    for name, extra in (("grid", ()), ("no-optimum", ("--no-optimum", "--rep", "grid8"))):
        check_run(nb, root, tmp, reps, name, extra, fails)
    _, single = run(nb, root, tmp, ["prm", "prm-star:samples=100"], "single")
    if "roadmaps-table" in single:
        fails.append("a run with one sample count per representation has a roadmaps section")
    print("\n".join(f"FAIL: {x}" for x in fails) or "ok: the roadmaps tables as in results.csv, with and without the optimum")
    return 1 if fails else 0


def check_run(nb, root, tmp, reps, name, extra, fails):
    out, page = run(nb, root, tmp, reps, name, *extra)
    want = expected(out)
    if extra and any(candidates.path_exists(pd.read_csv(out + ".csv", usecols=["optimal", "status"]))):
        fails.append(f"{name}: the run has an exact optimum")
    fails_before = len(fails)
    start = page.find("<table id='roadmaps-table'>")
    if start < 0:
        fails.append("no roadmaps table")
    got = {}
    for rep, mp, s, solved, has, _, valid, gap, build in re.findall(
            r"<tr><td>(.*?)</td><td>(.*?)</td><td class='num'>(\d+)</td><td class='num'>(\d+) / (\d+)</td>"
            r"<td class='num'>(.*?)</td><td class='num'>(.*?)</td><td class='num'>(.*?)</td><td class='num'>(.*?)</td></tr>",
            page[start:page.find("</table>", start)]):
        got[(html.unescape(rep).split(":")[0], mp, int(s))] = (int(solved), int(has), valid, gap, build)
    if set(got) != set(want):
        fails.append(f"rows {sorted(got)} != {sorted(want)}")
    for k in set(got) & set(want):
        solved, has, valid, gap, build = got[k]
        w = want[k]
        if (solved, has) != w[:2]:
            fails.append(f"{k}: solved {solved} / {has}, results.csv {w[0]} / {w[1]}")
        if w[2] is None or abs(float(valid) - w[2]) > 0.05:
            fails.append(f"{k}: valid {valid} %, results.csv {w[2]}")
        if w[3] is not None and abs(float(gap.rstrip(" %")) - w[3]) > 0.01 * max(1, w[3]):
            fails.append(f"{k}: gap {gap}, results.csv {w[3]:.4f} %")
        if abs(float(build.replace(",", "")) - w[4]) > 0.01 * max(1.0, w[4]):
            fails.append(f"{k}: build {build} ms, results.build.csv {w[4]}")
    if not any(w[0] < w[1] for w in want.values()):
        fails.append(f"{name}: no roadmap missed a path: the test would not show the solved share")
    fails[fails_before:] = [f"{name}: {x}" for x in fails[fails_before:]]
    print(f"{name}: {len(want)} rows (representation, map, samples) checked")


if __name__ == "__main__":
    sys.exit(main())
