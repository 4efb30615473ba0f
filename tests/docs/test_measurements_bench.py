#!/usr/bin/python3
"""scripts/measurements.py --bench (ctest docs_measurements_bench, label unit): the update table's
rows rewritten from Google Benchmark JSON runs. On a copy of docs/measurements/02-updates.json with
two made-up runs: a row whose benchmarks are all in the runs gets "update / rebuild (ratio)" as the
range over the runs, keeps the explanation after its ratio and takes the commit; a row with a
benchmark missing from the runs keeps its cells and commit."""
import json
import os
import shutil
import sys
import tempfile

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
import measurements  # noqa: E402

AURORA, ARENA = "switch_sc1_Aurora_TheFrozenSea", "dao_arena2"


def bench(name, update_us, rebuild_us):
    return {"name": name, "update_median_us": update_us, "rebuild_median_us": rebuild_us, "ratio": rebuild_us / update_us}


def main():
    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        record = os.path.join(tmp, "02-updates.json")
        shutil.copy(os.path.join(ROOT, "docs", "measurements", "02-updates.json"), record)
        with open(record, encoding="utf-8") as f:
            before = {r["cells"][0]: r for r in json.load(f)["tables"][0]["rows"]}
        runs = [[bench(f"update/grid8/{AURORA}", 400.0, 2000.0), bench(f"update/grid8/{ARENA}", 2.5, 75.0),
                 bench(f"update/navmesh:merge=1/{AURORA}", 40000.0, 100000.0), bench(f"update/navmesh:merge=1/{ARENA}", 400.0, 1700.0),
                 bench(f"update/quadtree/{AURORA}", 2300.0, 11000.0)],
                [bench(f"update/grid8/{AURORA}", 420.0, 2300.0), bench(f"update/grid8/{ARENA}", 2.5, 75.0),
                 bench(f"update/navmesh:merge=1/{AURORA}", 40000.0, 100000.0), bench(f"update/navmesh:merge=1/{ARENA}", 400.0, 1700.0)]]
        files = []
        for i, run in enumerate(runs):
            files.append(os.path.join(tmp, f"run{i}.json"))
            with open(files[-1], "w") as f:
                json.dump({"benchmarks": run}, f)
        changed = measurements.import_bench("abc1234", files, record)
        with open(record, encoding="utf-8") as f:
            after = {r["cells"][0]: r for r in json.load(f)["tables"][0]["rows"]}
        expect = {
            "grid8": ["400–420 µs / 2–2.3 ms (5.0–5.5x)", "2.5 µs / 75 µs (30x)"],
            "navmesh:merge=1": ["40 ms / 100 ms (2.5x: cells and graph derived again)", "400 µs / 1.7 ms (4.2x)"],
        }
        for rep, cells in expect.items():
            if after[rep]["cells"][1:] != cells or after[rep]["commit"] != "abc1234":
                failures.append(f"{rep}: {after[rep]['cells'][1:]} at {after[rep]['commit']}, expected {cells} at abc1234")
        # quadtree's arena2 benchmark is in no run (its Aurora one only in the first): unchanged
        for rep in ("quadtree", "navmesh", "subgoal:levels=16"):
            if after[rep] != before[rep]:
                failures.append(f"{rep}: changed without all its benchmarks in the runs")
        if changed != 2:
            failures.append(f"{changed} rows changed, expected 2")
    for f in failures:
        print("FAIL:", f)
    print("measurements --bench:", "FAILED" if failures else "ok")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
