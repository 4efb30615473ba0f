"""A small result set made by navbench for the results package's tests (test_package.py,
test_export.py, test_compare.py, test_paper_figures.py, test_recipes.py, tests/web/test_plannerarena.py):
shaped like the default job's, in a few seconds.

- OUT/sweep: a sweep over two generated 128x128 grid maps (10 queries each), the hand-drawn polygon
  map, and one grid map again with an inflation cost layer (6 queries): its configurations are
  faceted 'plain map' / 'terrain ...' as the default job's are; grid8, navmesh, visgraph, smoothing
  none and los.
- OUT/one: `navbench run --paths` over one of those maps, plain, all of its 40 queries (the issue's
  "new one-map run" to compare against).

make_default_like() writes a result set that holds what the default job's results hold, for the
recipes (test_recipes.py): misses (no_path rows of prm and recast on queries that have a path),
not_applicable rows (Theta* and the funnel where they cannot run), rows of unknown validity (`valid`
empty), Recast/Detour, a roadmap (prm), a weighted map beside plain ones, and, in a result set of
its own in the same folder (a sweep cannot run a radius on weighted maps), an agent radius; in a
few seconds.

Every number comes from navbench; nothing here is hand-written.
"""
import json
import os
import subprocess

REPS = ["grid8", "navmesh", "visgraph"]
SMOOTHING = ["none", "los"]
ROOMS = "datasets/maps/generated/rooms-16-128.map"
CAVE = "datasets/maps/generated/cave-45-128.map"
POLYGONS = "datasets/maps/hand/polygons.wkt"


def run(cmd, cwd):
    r = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=600)
    if r.returncode:
        raise RuntimeError(f"{' '.join(cmd)} exited {r.returncode}: {r.stderr.strip()[-400:]}")
    return r


def make(navbench: str, root: str, out: str) -> dict:
    """Writes the sweep and the one-map run into out (a fresh folder); returns their paths:
    {'sweep': OUT/sweep, 'one': OUT/one (a PREFIX), 'costs': the cost layer}."""
    os.makedirs(out, exist_ok=True)
    costs = os.path.join(out, "rooms-16-128-inflation")
    run([navbench, "generate", "costs", "--map", ROOMS, "--out", costs], root)
    config = {"maps": [{"path": CAVE, "queries": {"select": "spread", "n": 10}},
                       {"path": ROOMS, "queries": {"select": "spread", "n": 10}},
                       {"path": POLYGONS},
                       {"path": ROOMS, "costs": costs + ".costs", "queries": {"select": "spread", "n": 6}}],
              "representations": REPS, "smoothing": SMOOTHING}
    with open(os.path.join(out, "sweep-config.json"), "w") as f:
        json.dump(config, f, indent=1)
    run([navbench, "sweep", os.path.join(out, "sweep-config.json"), "--out", os.path.join(out, "sweep"), "--jobs", "2",
         "--quiet"], root)
    cmd = [navbench, "run", "--map", ROOMS, "--smoothing", ",".join(SMOOTHING), "--paths", "--out", os.path.join(out, "one")]
    for rep in REPS:
        cmd += ["--rep", rep]
    run(cmd, root)
    return {"sweep": os.path.join(out, "sweep"), "one": os.path.join(out, "one"), "costs": costs + ".costs"}


# recast skips the cave map (a sweep's skip_maps, as the default job skips five maps for it): not
# run there, so not a candidate on the scopes holding the cave (SPEC §14), in the report and in
# navbench.summarize alike.
DEFAULT_LIKE_REPS = ["grid8", "navmesh", "visgraph", {"name": "recast", "skip_maps": ["cave-45-128"]}, "prm"]
DEFAULT_LIKE_NAMES = ["grid8", "navmesh", "visgraph", "recast", "prm"]


def make_default_like(navbench: str, root: str, out: str) -> dict:
    """Writes OUT/results (a folder: the sweep OUT/results/sweep and the run OUT/results/radius),
    and OUT/rerun, a `navbench run` over the sweep's plain rooms map and its queries; returns their
    paths {'results', 'sweep', 'radius', 'rerun'}."""
    os.makedirs(out, exist_ok=True)
    costs = os.path.join(out, "rooms-16-128-inflation")
    run([navbench, "generate", "costs", "--map", ROOMS, "--out", costs], root)
    config = {"maps": [{"path": CAVE, "queries": {"select": "spread", "n": 10}},
                       {"path": ROOMS, "queries": {"select": "spread", "n": 10}},
                       {"path": POLYGONS},
                       {"path": ROOMS, "costs": costs + ".costs", "queries": {"select": "spread", "n": 6}}],
              "representations": DEFAULT_LIKE_REPS, "smoothing": ["none", "los", "funnel"],
              "searches": ["astar", "theta"]}
    with open(os.path.join(out, "default-like.json"), "w") as f:
        json.dump(config, f, indent=1)
    results = os.path.join(out, "results")
    run([navbench, "sweep", os.path.join(out, "default-like.json"), "--out", os.path.join(results, "sweep"), "--jobs", "2",
         "--quiet"], root)
    run([navbench, "run", "--map", CAVE, "--limit", "8", "--rep", "grid8,navmesh,visgraph", "--smoothing", "none,los",
         "--radius", "0.5", "--out", os.path.join(results, "radius")], root)
    # --limit 10 takes the queries "spread" n 10 takes: the sweep's queries of the plain rooms map.
    run([navbench, "run", "--map", ROOMS, "--limit", "10", "--rep", "grid8,navmesh,recast", "--smoothing", "none,los",
         "--out", os.path.join(out, "rerun")], root)
    return {"results": results, "sweep": os.path.join(results, "sweep"), "radius": os.path.join(results, "radius"),
            "rerun": os.path.join(out, "rerun")}


# The tests' shared checks: each prints ok/FAIL and the test ends with finish().
FAILS = []


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what, flush=True)
    if not cond:
        FAILS.append(what)
    return cond


def csv_rows(path):
    """A CSV file's rows as dicts of text (the csv module: no pandas between the file and the check)."""
    import csv
    with open(path, newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def finish(tmp: str, what: str) -> int:
    """Exit status 1 (the files kept in tmp) when a check failed, else 0 (tmp removed)."""
    import shutil
    if FAILS:
        print(f"{len(FAILS)} check(s) failed; files in {tmp}")
        return 1
    shutil.rmtree(tmp, ignore_errors=True)
    print(f"all {what} checks passed")
    return 0
