#!/usr/bin/env python3
"""How the polygon code grows with the map (docs/measurements.md, issue 64): runs the Google Benchmark
binary's polygon_growth/* cases (harness/bench/bench_polygons.cpp), each in a process of its own so
that /usr/bin/time gives its peak resident memory, and fits the exponent b of time = a * n^b (least
squares on log-log, with its 95 % interval) per part against the map's polygon vertices n (the grid
build against its free space's ring vertices).

Usage: scripts/polygon_growth.py BUILD_DIR OUT.json [--max N] [--parts free_space,visgraph,...]
Prints one line per case; OUT.json holds the cases and the fits (the record's figures and the cost
section's figure read it: scripts/navreport/sections/cost.py).
Times are the benchmark's CPU time per iteration (ms); under load the exponents hold, not the figures.
"""
import argparse
import json
import math
import os
import re
import subprocess
import sys
import tempfile

SIZES = {"free_space": [1000, 3000, 10000, 30000, 100000, 300000, 1000000],
         "visgraph": [1000, 3000, 10000, 30000, 100000, 300000, 1000000],
         "navmesh": [1000, 3000, 10000, 30000, 100000, 300000, 1000000],
         "visgraph_grid": [128, 256, 512, 1024, 2048]}


def run_case(binary, part, size):
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "b.json")
        cmd = ["/usr/bin/time", "-f", "%M", binary, f"--benchmark_filter=^polygon_growth/{part}/{size}/",
               f"--benchmark_out={out}", "--benchmark_out_format=json"]
        p = subprocess.run(cmd, capture_output=True, text=True)
        if p.returncode != 0:
            raise SystemExit(f"{part}/{size}: {p.stderr.strip().splitlines()[-1:]}")
        rss_kb = int(p.stderr.strip().splitlines()[-1])
        with open(out) as f:
            bench = [b for b in json.load(f)["benchmarks"] if b.get("run_type", "iteration") == "iteration"][0]
    scale = {"ms": 1.0, "us": 1e-3, "ns": 1e-6, "s": 1e3}[bench["time_unit"]]
    return {"part": part, "size": size, "vertices": bench["vertices"], "corners": bench.get("corners"),
            "edges": bench.get("edges"), "memory_kb": bench.get("memory_kb"), "cpu_ms": bench["cpu_time"] * scale,
            "real_ms": bench["real_time"] * scale, "iterations": bench["iterations"], "peak_rss_kb": rss_kb}


def fit(xs, ys):
    """Least squares of log y = log a + b log x: b and its 95 % interval (t quantile, n - 2 dof)."""
    lx, ly = [math.log(x) for x in xs], [math.log(y) for y in ys]
    n = len(lx)
    mx, my = sum(lx) / n, sum(ly) / n
    sxx = sum((x - mx) ** 2 for x in lx)
    b = sum((x - mx) * (y - my) for x, y in zip(lx, ly)) / sxx
    if n <= 2:
        return {"exponent": b, "ci95": None, "points": n}
    resid = sum((y - my - b * (x - mx)) ** 2 for x, y in zip(lx, ly))
    se = math.sqrt(resid / (n - 2) / sxx)
    t = {1: 12.71, 2: 4.30, 3: 3.18, 4: 2.78, 5: 2.57, 6: 2.45, 7: 2.36, 8: 2.31}.get(n - 2, 2.0)
    return {"exponent": b, "ci95": [b - t * se, b + t * se], "points": n}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("build_dir")
    ap.add_argument("out")
    ap.add_argument("--max", type=int, default=1000000, help="largest polygon map (vertices)")
    ap.add_argument("--parts", default="free_space,visgraph,navmesh,visgraph_grid")
    a = ap.parse_args()
    binary = os.path.join(a.build_dir, "navbench_bench")
    cases = []
    for part in a.parts.split(","):
        for size in SIZES[part]:
            if part != "visgraph_grid" and size > a.max:
                continue
            c = run_case(binary, part, size)
            print(f"{part:14s} {size:>8d}  n={c['vertices']:>9.0f}  cpu {c['cpu_ms']:10.1f} ms  "
                  f"rss {c['peak_rss_kb'] / 1024:8.1f} MB", flush=True)
            cases.append(c)
    fits = {}
    for part in sorted({c["part"] for c in cases}):
        pts = [c for c in cases if c["part"] == part]
        fits[part] = {"time": fit([c["vertices"] for c in pts], [c["cpu_ms"] for c in pts]),
                      "memory": fit([c["vertices"] for c in pts], [c["peak_rss_kb"] for c in pts])}
        print(f"{part}: time ~ n^{fits[part]['time']['exponent']:.2f}, peak memory ~ n^{fits[part]['memory']['exponent']:.2f}")
    with open(a.out, "w") as f:
        json.dump({"cases": cases, "fits": fits}, f, indent=1)


if __name__ == "__main__":
    sys.exit(main())
