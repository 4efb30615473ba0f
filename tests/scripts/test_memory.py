#!/usr/bin/env python3
"""The report's and the results package's memory per result row (issue 83: a 10-million-row
report took 11.3 GB), on a made-up result set of 200,000 rows with long texts: the memory a step
allocates above what it had (tracemalloc, which counts NumPy's arrays), per row, under a bound well
above what the step needs and well below what the ways that scaled with the rows took:

- per-row text of a categorical (astype(str): fixed-width NumPy strings as wide as the longest
  value) in the report's Missing data (messages), its representation labels, the package's
  message column, its maps table and its statuses;
- a selection of rows of the whole frame (every column copied) in Maps in metres;
- the typed table built beside the read one (navbench.load held both);
- every query row as Python objects at once (navbench export --sqlite), and every column of a
  collection's rows copied for its config_summary;
- worker processes forked while the parent holds the rows (each counts them as its own).

tests/scripts/bench_report.sh measures the whole report and the package at millions of rows
(docs/measurements.md). Exit 0 = pass, 1 = failure. Run through scripts/navpy.sh.

    test_memory.py [--root CHECKOUT]     (another checkout's code, e.g. to see the test fail)
"""
import argparse
import dataclasses
import json
import os
import sys
import tempfile
import tracemalloc

here = os.path.dirname(os.path.abspath(__file__))
ap = argparse.ArgumentParser()
ap.add_argument("--root", default=os.path.dirname(os.path.dirname(here)))
ARGS = ap.parse_args()
sys.path[:0] = [os.path.join(ARGS.root, "scripts"), os.path.join(ARGS.root, "python"), here]
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

import schema_fixture  # noqa: E402

N = 200_000
LONG = "x" * 300  # a long message (an outside planner's exception text, a Recast miss)
failures = []


def check(cond, what):
    print(("ok:   " if cond else "FAIL: ") + what)
    if not cond:
        failures.append(what)


def per_row(fn, *args):
    """(result, bytes per row that fn allocated above what was allocated when it started)."""
    before = tracemalloc.get_traced_memory()[0]
    tracemalloc.reset_peak()
    out = fn(*args)
    return out, (tracemalloc.get_traced_memory()[1] - before) / N


def make(prefix: str) -> None:
    """N result rows on 40 maps (one a ROS map with a scale, for Maps in metres), 4
    representations (one with a long name, grid8 relabelled with its lattice), 2 smoothings;
    a fifth of the rows unsolved with a 300-character message."""
    rng = np.random.default_rng(1)
    maps = [f"a-map-with-a-rather-long-file-name-{k:02d}" for k in range(39)] + ["depot"]
    colls = ["generated"] * 39 + ["ros"]
    reps = ["grid8", "navmesh:merge=1", "quadtree:min=1,merge=1,max_depth=12,leaf_capacity=4", "visgraph"]
    m = rng.integers(0, len(maps), N)
    status = np.where(rng.random(N) < 0.8, "ok", np.where(rng.random(N) < 0.7, "no_path", "not_applicable"))
    ok = status == "ok"
    opt = rng.uniform(10, 500, N)
    length = np.where(ok, opt * rng.uniform(1, 1.2, N), np.nan)
    df = pd.DataFrame({
        "map": np.array(maps)[m], "collection": np.array(colls)[m], "scen_index": rng.integers(0, 2000, N),
        "bucket": rng.integers(0, 50, N), "representation": np.array(reps)[rng.integers(0, 4, N)],
        "heuristic": "euclidean", "smoothing": np.array(["none", "los"])[rng.integers(0, 2, N)],
        "convention": "center", "sx": rng.integers(0, 512, N), "sy": rng.integers(0, 512, N),
        "gx": rng.integers(0, 512, N), "gy": rng.integers(0, 512, N), "status": status, "length": length,
        "optimal": opt, "octile_optimal": opt * 1.02, "gap": length / opt - 1, "valid": np.where(ok, 1, np.nan),
        "expansions": rng.integers(1, 10_000, N), "path_points": np.where(ok, 5, np.nan),
        "locate_us": rng.uniform(0, 5, N), "search_us": rng.lognormal(3, 1, N), "smooth_us": rng.uniform(0, 2, N),
        "raw_length": length, "raw_valid": np.where(ok, 1, np.nan), "generated": rng.integers(1, 20_000, N),
        "message": np.where(ok, "", LONG)})
    df.to_csv(prefix + ".csv", index=False)
    pd.DataFrame({"map": maps * 4, "representation": [r for r in reps for _ in maps], "params": "",
                  "build_ms": 1.0, "vertices": 100, "edges": 300, "memory_bytes": 1000}).to_csv(prefix + ".build.csv",
                                                                                                 index=False)
    with open(prefix + ".meta.json", "w", encoding="utf-8") as f:
        json.dump({"schema": schema_fixture.SCHEMA, "seed": 1, "git_commit": "0" * 40, "date": "2026-01-01",
                   "map_frames": {"ros/depot": {"resolution": 0.05, "origin": [0, 0], "width": 512, "height": 512}}}, f)


def _worker_rss(_):
    with open("/proc/self/status") as f:
        return next(int(line.split()[1]) for line in f if line.startswith("VmRSS")) * 1024


def report_checks(prefix: str) -> None:
    from navreport.analysis import rows
    from navreport.analysis.analyse import analyse
    from navreport.io import results as common
    from navreport.sections import metres, missing
    from navreport.sections.base import Context
    data = rows.load([prefix])
    # Each bound below is well above what the step takes now; the figure after it is what the
    # step took at 17d5920 (bytes a row, these rows).
    _, b = per_row(common.label_representations, data.rows, data.build)
    check(b < 32, f"report: representations labelled once per distinct name: {b:.0f} bytes a row (< 32; was 417)")
    a = analyse(data)
    ctx = Context(analysis=a, inputs=[prefix])
    sec, b = per_row(missing.build, ctx)
    check(b < 150, f"report: Missing data reads each distinct message once: {b:.0f} bytes a row (< 150; was 2,425)")
    check("Missed paths with a reason" in sec[0].blocks[0].html, "report: Missing data lists the messages")
    sec, b = per_row(metres.build, ctx)
    check(b < 60, f"report: Maps in metres takes four columns of the ok rows: {b:.0f} bytes a row (< 60; was 365)")
    check(bool(sec) and "depot" in sec[0].blocks[0].html, "report: Maps in metres shows the ROS map")


def package_checks(prefix: str) -> None:
    import importlib
    from navbench import database, files, maps as mapfiles
    # The modules (navbench.load and navbench.summarize are also the package's functions).
    loadmod, summarize = importlib.import_module("navbench.load"), importlib.import_module("navbench.summarize")
    schema = files.schema_for(prefix + ".csv")
    df = files.read_results_csv(prefix + ".csv", schema=schema)
    types = loadmod._types(schema, "results", df)
    typed, b = per_row(loadmod._typed, df, types)
    size = typed.memory_usage(deep=False).sum() / N
    check(b < 0.5 * size, f"package: load types the table column by column, each read column let go: {b:.0f} bytes "
                          f"a row (< half the typed table's {size:.0f}; was 2,466)")
    check(typed["message"].isna().sum() == int(typed["status"].astype(str).eq("ok").sum())
          and typed["message"].dropna().eq(LONG).all(), "package: message is <NA> where empty, the text elsewhere")
    res = loadmod.load(prefix)
    _, b = per_row(mapfiles.maps_table, res.queries, res.builds, res.meta, [], [])
    check(b < 55, f"package: the maps table counts queries on integer codes, in place, hashed: {b:.0f} bytes a row "
              "(< 55; was 371, and 77 with eight-byte temporaries and a sort of the pairs)")
    _, b = per_row(summarize.statuses, res.queries)
    check(b < 80, f"package: statuses, each distinct status and message read once: {b:.0f} bytes a row (< 80; "
                  "was 3,694)")
    _, b = per_row(summarize.row_arrays, res.queries)
    check(b < 62, f"package: the rows' statistics arrays (query time summed in place, statuses off the categories): "
                  f"{b:.0f} bytes a row (< 62; was 3,694, and 75 with a copy per part and the statuses' text)")
    # summarize groups on integer codes (the frame of the key columns as objects it grouped with pandas
    # stayed beside the rows until the end: 0.3 GB at ten million rows); the same groups, in pandas' order.
    by = summarize.default_by(res.queries) + ["message"]
    if hasattr(summarize, "_group_positions"):
        keys = pd.DataFrame({c: res.queries[c].astype(object).where(res.queries[c].notna(), None) for c in by})
        want, got = keys.groupby(by, sort=False, dropna=False).indices, summarize._group_positions(res.queries, by)
        del keys
        check(list(map(repr, want)) == list(map(repr, got))  # the keys in order (a missing one is NaN in both)
              and all(np.array_equal(np.sort(w), g) for w, g in zip(want.values(), got.values())),
              f"package: summarize's {len(got)} groups by {', '.join(by)} as pandas' groupby gives them, in its order")
    # summarize by configuration and facet (as the export's config_summary): the candidate rule's rows
    # as categorical codes, not an object per row; its groups' positions and text let go before the rule.
    cfg_by = ["representation", "search", "heuristic", "smoothing", "convention", "terrain", "radius"]
    _, b = per_row(lambda: summarize.summarize(res.queries, by=[c for c in cfg_by if c in res.queries.columns],
                                               builds=res.builds, absent=res.absent))
    check(b < 91, f"package: summarize by configuration and facet: {b:.0f} bytes a row (< 91; was 189, and 97 with "
                  "np.unique's sort of the keys and the facets' positions)")
    real_load = loadmod.load
    # The export's own memory, apart from reading the rows (a copy of res each time: the export lets
    # the rows go before it reads the summaries' columns again, here the same rows).
    loadmod.load = lambda inputs, maps=None, columns=None: dataclasses.replace(res)
    try:
        with tempfile.TemporaryDirectory() as tmp:
            done, b = per_row(database.export_sqlite, os.path.join(tmp, "r.db"), [prefix])
    finally:
        loadmod.load = real_load
    check(done["queries"] == N, "package: export wrote every query row")
    check(b < 400, f"package: export --sqlite makes SQLite values of a slice of rows at a time and summarizes a "
                   f"collection's rows of the columns summarize reads: {b:.0f} bytes a row (< 400; was 756, and 438 "
                   "with config_summary's copy of every column of a collection's rows)")


def worker_checks() -> None:
    from navreport.io import workers
    before = _worker_rss(None)
    with workers.started(jobs=2):
        big = np.ones(200 * 2 ** 20 // 8)  # 200 MiB read after the workers started
        rss = workers.pool_map(_worker_rss, [0, 1])
        del big
    check(max(rss) < before + 100 * 2 ** 20,
          f"workers forked before the rows are read: {max(rss) / 2 ** 20:.0f} MiB each, the parent "
          f"{before / 2 ** 20:.0f} MiB when they started and 200 MiB more when they worked")


def main() -> int:
    tracemalloc.start()
    with tempfile.TemporaryDirectory() as tmp:
        prefix = os.path.join(tmp, "big")
        make(prefix)
        report_checks(prefix)
        package_checks(prefix)
    tracemalloc.stop()
    worker_checks()
    print(f"{len(failures)} failure(s)" if failures else "all memory checks passed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
