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


def lengths(path, rep="visgraph", smoothing="none"):
    return {r["scen_index"]: r for r in csv.DictReader(open(path))
            if r["representation"] == rep and r["smoothing"] == smoothing}


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
        common = ["--limit", limit, "--quiet", "--no-optimum"]
        done = lambda prefix: os.path.exists(prefix + ".csv") and os.path.getsize(prefix + ".csv") > 0  # a rerun keeps them
        if not done(m_out):
            subprocess.run([nb, "run", "--map", mesh, "--scen", grid + ".scen", "--rep", "visgraph,navmesh-file",
                            "--smoothing", "none,funnel"] + common + ["--out", m_out], check=True)
        if not done(g_out):
            subprocess.run([nb, "run", "--map", grid, "--convention", "corner", "--rep", "visgraph"] + common + ["--out", g_out], check=True)
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
        # navmesh-file with the funnel on the mesh's own polygons, against visgraph's optimum.
        f, gaps, fbad = lengths(m_out + ".csv", "navmesh-file", "funnel"), [], 0
        for i, r in m.items():
            if r["status"] != "ok":
                continue
            a = f.get(i)
            if a is None or a["status"] != "ok" or a["valid"] != "1" or float(a["length"]) < float(r["length"]) * (1 - 1e-9):
                fbad += 1
                continue
            gaps.append(float(a["length"]) / max(1e-300, float(r["length"])) - 1 if float(r["length"]) > 0 else 0.0)
        bad += fbad
        gap_text = ("navmesh-file+funnel: %d/%d valid, gap mean %.4f %% max %.4f %%" %
                    (len(gaps), len(gaps) + fbad, 100 * sum(gaps) / len(gaps), 100 * max(gaps))) if gaps else "navmesh-file: no path"
        print("%s %s/%s: %d queries, %d ok on both, max relative difference %.3g, statuses %s; %s" %
              ("ok  " if bad == 0 else "FAIL", coll, name, len(g), n, worst, sorted(statuses), gap_text), flush=True)
        ok &= bad == 0
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
