"""The report's "Terrain costs" table (report_terrain.py) against the raw rows (docs/terrain.md). Runs
navbench on a bundled map weighted by a generated cost layer, builds the report, and recomputes from
results.csv alone (plain csv, not the report's code): per configuration the number of ok paths and
the mean of cost_gap (cost / optimal_cost - 1, the Steiner-point reference) must equal the table's,
and cost_gap must be cost / optimal_cost - 1 with optimal_cost <= octile_optimal_cost.
Usage: test_terrain_report.py NAVBENCH ROOT. Exit 0 = pass, 1 = fail."""
import csv
import os
import re
import subprocess
import sys
import tempfile
from collections import defaultdict


def label(search, smoothing):  # the configuration label of docs/path-quality.md
    if search == "astar":
        return smoothing
    return search if smoothing == "none" else f"{search} + {smoothing}"


def main() -> int:
    nb, root = sys.argv[1], sys.argv[2]
    tmp = tempfile.mkdtemp(prefix="navbench-terrain.")
    m = os.path.join(root, "datasets/maps/generated/rooms-16-128.map")
    subprocess.run([nb, "generate", "costs", "--map", m, "--kind", "regions", "--seed", "5", "--out",
                    os.path.join(tmp, "rooms")], check=True, stderr=subprocess.DEVNULL)
    out = os.path.join(tmp, "r")
    subprocess.run([nb, "run", "--map", m, "--costs", os.path.join(tmp, "rooms.costs"), "--rep", "grid8,quadtree,navmesh",
                    "--search", "astar,theta", "--smoothing", "none,los", "--limit", "30", "--out", out, "--quiet"],
                   check=True, stderr=subprocess.DEVNULL)
    subprocess.run([os.path.join(root, "scripts/navpy.sh"), os.path.join(root, "scripts/report.py"), out + ".csv",
                    "--out", os.path.join(tmp, "report"), "--figures", "none"], check=True, stdout=subprocess.DEVNULL)
    fails = []
    sums = defaultdict(lambda: [0, 0.0])
    with open(out + ".csv") as f:
        for r in csv.DictReader(f):
            if r["status"] != "ok" or not r["cost"] or not r["optimal_cost"]:
                continue
            cost, ref, octile = float(r["cost"]), float(r["optimal_cost"]), float(r["octile_optimal_cost"])
            if abs(float(r["cost_gap"]) - (cost / ref - 1)) > 1e-9:
                fails.append(f"query {r['scen_index']}: cost_gap {r['cost_gap']} is not cost / optimal_cost - 1")
            if ref > octile * (1 + 1e-9):
                fails.append(f"query {r['scen_index']}: optimal_cost {ref} above octile_optimal_cost {octile}")
            if cost / ref - 1 < -0.001:
                fails.append(f"query {r['scen_index']}: {r['representation']} beats the reference by more than 0.1 %")
            rep = r["representation"] + (" (centre lattice)" if r["representation"] in ("grid4", "grid8") else "")  # the report names the lattice
            s = sums[f"{rep} · {label(r['search'], r['smoothing'])}"]
            s[0] += 1
            s[1] += cost / ref - 1
    with open(os.path.join(tmp, "report/report.html"), encoding="utf-8") as f:
        page = f.read()
    if "id='terrain'" not in page or "id='terrain-table'" not in page:
        fails.append("no Terrain costs section")
    table = page[page.find("id='terrain-table'"):]
    table = table[:table.find("</table>")]
    # configuration, valid %, solved % (SPEC §14), costed paths, maps, mean cost above the reference
    rows = re.findall(r"<tr[^>]*><td>(.*?)</td>(?:<td class='num[^']*'>[^<]*</td>){2}<td class='num'>(\d+)</td>"
                      r"<td class='num'>\d+</td><td class='num' data-value='([^']*)'>", table)
    for cfg, n, value in rows:
        cfg = cfg.replace("&#x27;", "'")
        if cfg not in sums:
            fails.append(f"terrain-table row '{cfg}' is no configuration of the rows")
            continue
        k, total = sums[cfg]
        if int(n) != k:
            fails.append(f"{cfg}: {n} ok paths in the table, {k} in results.csv")
        if abs(float(value) - total / k) > 1e-9:
            fails.append(f"{cfg}: mean {value}, recomputed {total / k}")
    if len(rows) != len(sums) or not rows:
        fails.append(f"{len(rows)} terrain-table rows for {len(sums)} configurations with costs")
    if "grid8 (centre lattice) · theta" not in sums:
        fails.append("no Theta* rows on the weighted map")
    for msg in fails:
        print("FAIL:", msg)
    print(f"{len(rows)} configurations checked" if not fails else f"kept: {tmp}")
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
