"""The report's "Missed paths with a reason" table (scripts/navreport/sections/missing.py) against the
raw rows: recast on an open 24 x 24 map whose cost layer changes weight from every cell to the next
(a checkerboard of 4 weights), where Recast's watershed partition makes no region (docs/recast.md),
so every row of both searches is a missed path whose message says so; the table must list each
(representation, search, map with its cost layer, message) with the number of no_path rows results.csv has for it.
Usage: test_missed_paths_report.py NAVBENCH ROOT. Exit 0 = pass, 1 = fail."""
import csv
import html
import os
import re
import subprocess
import sys
import tempfile
from collections import Counter


def main() -> int:
    nb, root = sys.argv[1], sys.argv[2]
    tmp = tempfile.mkdtemp(prefix="navbench-missed.")
    m, costs = os.path.join(tmp, "open24.map"), os.path.join(tmp, "checker.costs")
    with open(m, "w") as f:
        f.write("type octile\nheight 24\nwidth 24\nmap\n" + ("." * 24 + "\n") * 24)
    with open(costs, "w") as f:
        f.write("type costs\nheight 24\nwidth 24\ncosts\n" +
                "".join(" ".join(str(10 + x % 2 + 2 * (y % 2)) for x in range(24)) + "\n" for y in range(24)))
    out = os.path.join(tmp, "r")
    subprocess.run([nb, "run", "--map", m, "--costs", costs, "--queries", "5", "--seed", "2", "--rep", "recast,grid8",
                    "--search", "astar,detour", "--smoothing", "none,funnel", "--out", out, "--quiet"],
                   check=True, stderr=subprocess.DEVNULL)
    subprocess.run([os.path.join(root, "scripts/navpy.sh"), os.path.join(root, "scripts/report.py"), out + ".csv",
                    "--out", os.path.join(tmp, "report"), "--figures", "none"], check=True, stdout=subprocess.DEVNULL)
    fails = []
    want = Counter()
    with open(out + ".csv") as f:
        for r in csv.DictReader(f):
            if r["status"] == "no_path" and r["message"]:
                where = r["map"] + (f" · terrain {r['terrain']}" if r.get("terrain") else "")  # a weighted map names its layer
                want[(r["representation"], r["search"], where, r["message"])] += 1
    if not want or not all("Recast's regions hold 0 of 576 walkable voxels" in k[3] for k in want):
        fails.append(f"the run's missed paths are not the ones expected: {dict(want)}")
    with open(os.path.join(tmp, "report/report.html"), encoding="utf-8") as f:
        page = f.read()
    start = page.find("Missed paths with a reason")
    if start < 0:
        fails.append("no 'Missed paths with a reason' table")
    table = page[start:page.find("</table>", start)]
    got = Counter()
    for rep, search, mp, msg, n in re.findall(r"<tr><td>(.*?)</td><td>(.*?)</td><td>(.*?)</td><td>(.*?)</td>"
                                              r"<td class='num'>(\d+)</td></tr>", table):
        got[tuple(html.unescape(v) for v in (rep, search, mp, msg))] += int(n)
    if got != want:
        fails.append(f"table {dict(got)} != rows {dict(want)}")
    print("\n".join(f"FAIL: {x}" for x in fails) or f"ok: {sum(want.values())} missed paths, {len(want)} groups (representation, search, map, message), as in results.csv")
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
