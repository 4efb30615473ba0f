#!/usr/bin/env python3
"""The published Polyanya meshes against the grid maps they were made from (docs/maps.md).

For each mesh in MESH_DIR (../shared/datasets/meshes: dao/, sc1/, street/), runs `navbench run
--rep visgraph` on the mesh with the grid map's scenario (query points = the scenario's (x, y), as
Polyanya reads them) and on the grid map with --convention corner, and requires the two
visibility-graph lengths (exact Euclidean optima) to agree within 1e-9 x length on every query.
Usage: mesh_optimum_check.py NAVBENCH MESH_DIR MOVINGAI_DIR OUT_DIR [--limit N]"""
import csv
import glob
import os
import subprocess
import sys


def lengths(path):
    return {r["scen_index"]: r for r in csv.DictReader(open(path)) if r["representation"] == "visgraph"}


def main():
    nb, mesh_dir, grid_dir, out = sys.argv[1:5]
    limit = sys.argv[sys.argv.index("--limit") + 1] if "--limit" in sys.argv else "50"
    os.makedirs(out, exist_ok=True)
    ok = True
    for mesh in sorted(glob.glob(os.path.join(mesh_dir, "*", "*.mesh"))):
        coll, name = os.path.basename(os.path.dirname(mesh)), os.path.basename(mesh)[:-5]
        base = name.replace("-merged", "")
        grid = next((g for g in glob.glob(os.path.join(grid_dir, coll, "*.map")) if os.path.basename(g)[:-4].lower() == base.lower()), None)
        if grid is None:
            print("skip %s: no grid map" % mesh)
            continue
        m_out, g_out = os.path.join(out, coll + "-" + name + "-mesh"), os.path.join(out, coll + "-" + base + "-grid")
        common = ["--rep", "visgraph", "--limit", limit, "--quiet", "--no-optimum"]
        done = lambda prefix: os.path.exists(prefix + ".csv") and os.path.getsize(prefix + ".csv") > 0  # a rerun keeps them
        if not done(m_out):
            subprocess.run([nb, "run", "--map", mesh, "--scen", grid + ".scen"] + common + ["--out", m_out], check=True)
        if not done(g_out):
            subprocess.run([nb, "run", "--map", grid, "--convention", "corner"] + common + ["--out", g_out], check=True)
        m, g = lengths(m_out + ".csv"), lengths(g_out + ".csv")
        worst, bad, n, statuses = 0.0, 0, 0, set()
        for i, r in g.items():
            a, b = r, m[i]
            statuses.add((a["status"], b["status"]))
            if a["status"] != b["status"]:
                bad += 1
                continue
            if a["status"] != "ok":
                continue
            n += 1
            la, lb = float(a["length"]), float(b["length"])
            worst = max(worst, abs(la - lb) / max(1.0, la))
            if abs(la - lb) > 1e-9 * max(1.0, la):
                bad += 1
            if b["valid"] != "1":
                bad += 1
        print("%s %s/%s: %d queries, %d ok on both, max relative difference %.3g, statuses %s" %
              ("ok  " if bad == 0 else "FAIL", coll, name, len(g), n, worst, sorted(statuses)), flush=True)
        ok &= bad == 0
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
