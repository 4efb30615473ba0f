"""Search traces (SPEC §12, docs/traces.md) against the rows they trace.
Usage: test_traces.py NAVBENCH ROOT [--large | --aurora-structure]. Exit 0 = pass, 1 = fail, 77 = skipped.

Default: `navbench run --trace` on bundled maps over grid8, quadtree, navmesh, visgraph (table
answers) and visgraph:table=0 with A*, and grid8 with Theta* and Lazy Theta*. Every trace must be
valid against the posthoc search-trace format (a schema written from its documentation, checked by
hand below: no PyPI), its expand events must equal the row's `expansions`, its generate events the
row's `generated`, its end event's path the row's path (paths.csv, smoothing none, same points),
every parent must be generated before its child, a table answer must say so and hold no expansions,
an unreachable goal's trace must end with no path, and a trace cut at --trace-cap must stay valid,
under the cap, with a note, and a sweep's shards merged must carry every unit's traces. The rows of
a traced query carry traced = 1, every other row of the run 0 (docs/traces.md#traced-rows). Every trace
opens with its structure layer (the event `structure`), whose segments must be those `navbench
structure` writes for the representation, within half the cap (cut there with a note).
--large: grid8 A* on Aurora's longest scenario query (../shared/datasets/movingai/sc1/Aurora.map):
the trace is written in bounded memory (peak RSS with the trace within 16 MiB of the run without,
while the file is far larger) and its size is printed.
--aurora-structure: grid8 on Aurora (millions of moves) traced with --trace-cap 8: the structure
layer is cut at half the cap with a note, the file stays under the cap, the search's events follow,
and the peak RSS stays within 16 MiB of the untraced run's (the layer is streamed, never held)."""
import csv
import json
import os
import re
import subprocess
import sys
import tempfile

FAILURES = []


def check(cond, msg):
    if not cond:
        FAILURES.append(msg)
    return cond


# --- the posthoc search-trace format (https://posthoc.pathfinding.ai/docs/search-trace, version
# 1.4.0 as docs/traces.md pins it): an object with "version": "1.4.0" and an "events" list of
# objects, each with a string "type"; "id" and "pId" (null, a number or a string) link an event to
# its parent; g, f and x, y are numbers; optional "views" is an object of lists of primitives, each
# an object naming its primitive or view in "$"; optional "pivot" an object.
def schema_errors(doc):
    errs = []
    if not isinstance(doc, dict):
        return ["not an object"]
    if doc.get("version") != "1.4.0":
        errs.append("version is not '1.4.0'")
    if not isinstance(doc.get("events"), list):
        return errs + ["no events list"]
    views = doc.get("views", {})
    if not isinstance(views, dict):
        errs.append("views is not an object")
    else:
        for name, items in views.items():
            if not isinstance(items, list) or not all(isinstance(i, dict) and isinstance(i.get("$"), str) for i in items):
                errs.append(f"view {name} is not a list of primitives with '$'")
    if "pivot" in doc and not isinstance(doc["pivot"], dict):
        errs.append("pivot is not an object")
    ident = (int, str, type(None))
    for k, e in enumerate(doc["events"]):
        if not isinstance(e, dict) or not isinstance(e.get("type"), str):
            errs.append(f"event {k}: not an object with a string type")
            continue
        for key in ("id", "pId"):
            if key in e and not isinstance(e[key], ident):
                errs.append(f"event {k}: {key} is not null, a number or a string")
        for key in ("g", "h", "f", "x", "y"):
            if key in e and e[key] is not None and not isinstance(e[key], (int, float)):
                errs.append(f"event {k}: {key} is not a number")
        if "points" in e and not all(isinstance(p, dict) and {"x", "y"} <= set(p) for p in e["points"]):
            errs.append(f"event {k}: points are not {{x, y}} objects")
    return errs


def structure_errors(name, path, doc):
    """The structure layer (docs/traces.md#the-structure-layer): the first event, type structure,
    segments a flat list x1, y1, x2, y2, ... of `drawn` segments out of `total`, as navbench.structure
    states; whole unless cut, and cut only at half the cap, then followed by a note. The header and
    the layer (the file's first two lines) stay within half the cap but for the layer's closing
    fields."""
    ev = doc["events"]
    first = ev[0] if ev else {}
    if first.get("type") != "structure":
        return [f"{name}: the first event is not the structure layer"]
    errs = []
    seg = first.get("segments")
    st = doc["navbench"].get("structure", {})
    if not (isinstance(seg, list) and len(seg) % 4 == 0 and all(isinstance(v, (int, float)) for v in seg)):
        return [f"{name}: the structure's segments are not a flat list of numbers, four a segment"]
    if not (len(seg) // 4 == first.get("drawn") == st.get("drawn") and first.get("total") == st.get("segments")):
        errs.append(f"{name}: structure drawn {len(seg) // 4} / {first.get('drawn')} / {st.get('drawn')}, "
                    f"total {first.get('total')} / {st.get('segments')}")
    with open(path, "rb") as f:
        head = len(f.readline()) + len(f.readline())
    cap = doc["navbench"]["cap_bytes"]
    if head > cap // 2 + 64:
        errs.append(f"{name}: the structure layer ends at byte {head}, over half the cap ({cap // 2})")
    note = ev[1] if len(ev) > 1 else {}
    if st.get("truncated"):
        if not (first["drawn"] < first["total"] and note.get("type") == "note"
                and note.get("text", "").startswith("structure layer cut at")):
            errs.append(f"{name}: a cut structure layer without a note, or holding every segment")
        if head < cap // 2 - 256:
            errs.append(f"{name}: the structure layer was cut at byte {head}, well before half the cap ({cap // 2})")
    elif first["drawn"] != first["total"]:
        errs.append(f"{name}: the structure layer holds {first['drawn']} of {first['total']} segments, not cut")
    return errs


def structure_matches(nb, tmp, map_file, rep, trace_file):
    """The trace's structure layer against `navbench structure --map M --rep R` (the viewer's and the
    path pictures' source of segments): the same segments, each within 1e-6; grids, quadtrees and
    meshes always draw some (a visibility graph's skip graph may have no edge: visgraph:table=0 on
    maze-4-128)."""
    out = os.path.join(tmp, "structure.csv")
    p = subprocess.run([nb, "structure", "--map", map_file, "--rep", rep, "--out", out], capture_output=True, text=True)
    if not check(p.returncode == 0, f"navbench structure {rep}: {p.stderr.strip()}"):
        return
    want = sorted(tuple(round(float(r[k]), 6) for k in ("x1", "y1", "x2", "y2")) for r in csv.DictReader(open(out)))
    seg = json.load(open(trace_file))["events"][0].get("segments", [])
    got = sorted(tuple(round(float(v), 6) for v in seg[i:i + 4]) for i in range(0, len(seg), 4))
    check((len(want) > 0 or rep.startswith("visgraph")) and got == want, f"{os.path.basename(trace_file)}: its structure layer ({len(got)} segments) "
                                         f"is not navbench structure's ({len(want)})")


def run(nb, args, out):
    p = subprocess.run([nb, "run", *args, "--out", out], capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"navbench run {' '.join(args)} failed: {p.stderr.strip()}")
    return p.stderr


def key(r):
    return (r["map"], r["scen_index"], r["representation"], r["heuristic"], r["search"])


def check_run(prefix):
    """Every trace of the run against its row; returns the number of traces checked."""
    rows = {key(r): r for r in csv.DictReader(open(prefix + ".csv")) if r["smoothing"] == "none"}
    paths = {}
    if os.path.exists(prefix + ".paths.csv"):
        for r in csv.DictReader(open(prefix + ".paths.csv")):
            if r["smoothing"] == "none":
                paths[(r["map"], r["scen_index"], r["representation"], r["heuristic"])] = r["points"]
    tdir = os.path.join(os.path.dirname(prefix), "traces")
    index = list(csv.DictReader(open(os.path.join(tdir, os.path.basename(prefix) + ".traces.csv"))))
    for t in index:
        name = t["file"]
        row = rows.get(key(t))
        if not check(row is not None, f"{name}: no row"):
            continue
        doc = json.load(open(os.path.join(tdir, name)))
        for e in schema_errors(doc):
            FAILURES.append(f"{name}: {e}")
        FAILURES.extend(structure_errors(name, os.path.join(tdir, name), doc))
        ev = doc["events"]
        counts = {}
        for e in ev:
            counts[e["type"]] = counts.get(e["type"], 0) + 1
        end = ev[-1]
        check(end["type"] == "end", f"{name}: the last event is not end")
        check(end["status"] == row["status"], f"{name}: end status {end['status']} != row {row['status']}")
        check(os.path.getsize(os.path.join(tdir, name)) == int(t["bytes"]), f"{name}: size differs from the index")
        nb = doc["navbench"]
        if nb["truncated"]:  # a cut trace: the counts it states, not the events it kept
            check(counts.get("expand", 0) < nb["events"]["expand"] or counts.get("generate", 0) < nb["events"]["generate"],
                  f"{name}: cut but holds every event")
            counts = dict(nb["events"])
        if end.get("answered") == "table":
            check(counts.get("expand", 0) == 0 and counts.get("generate", 0) == 0, f"{name}: a table answer holds a search")
            check("table" in end.get("note", ""), f"{name}: a table answer does not say so")
        else:
            check(counts.get("expand", 0) == int(row["expansions"]),
                  f"{name}: {counts.get('expand', 0)} expand events, row expansions {row['expansions']}")
            check(counts.get("generate", 0) == int(row["generated"]),
                  f"{name}: {counts.get('generate', 0)} generate events, row generated {row['generated']}")
        check(nb["events"].get("expand", 0) == int(row["expansions"]) or end.get("answered") == "table",
              f"{name}: navbench.events.expand differs from the row")
        # Parents: every pId was generated (or is the source) before the event naming it.
        seen = set()
        for k, e in enumerate(ev):
            if e["type"] in ("source", "generate"):
                if e.get("pId") is not None:
                    check(e["pId"] in seen, f"{name}: event {k} ({e['type']} {e['id']}) has parent {e['pId']} not generated before")
                seen.add(e["id"])
            elif e["type"] in ("update", "expand", "close"):
                check(e["id"] in seen, f"{name}: event {k} {e['type']}s {e['id']}, never generated")
                if e.get("pId") is not None:
                    check(e["pId"] in seen, f"{name}: event {k} ({e['type']} {e['id']}) has parent {e['pId']} not generated before")
        if row["status"] == "ok":
            want = paths.get((row["map"], row["scen_index"], row["representation"], row["heuristic"]))
            got = end.get("path")
            if check(got is not None and want is not None, f"{name}: no path to compare"):
                # a path with arcs (docs/radius.md): its points, the arcs' centres (`@`) left out
                pts = [tuple(map(float, p.split())) for p in want.split(";") if not p.startswith("@")]
                check(len(pts) == len(got) and all(abs(a[0] - b["x"]) <= 1e-9 and abs(a[1] - b["y"]) <= 1e-9
                                                   for a, b in zip(pts, got)),
                      f"{name}: the end event's path differs from the row's")
        else:
            check("path" not in end, f"{name}: a {row['status']} query's trace ends with a path")
    traced_rows_errors(prefix, index)
    return index


def traced_rows_errors(prefix, index):
    """The column `traced` (docs/traces.md#traced-rows): 1 on every row (each smoothing) of a
    traced query, 0 on every other row of the same run."""
    rows = list(csv.DictReader(open(prefix + ".csv")))
    if not check(rows and "traced" in rows[0], f"{prefix}.csv: a run with --trace has no column traced"):
        return
    want = {key(t) for t in index}
    for r in rows:
        marked = r["traced"]
        check(marked == ("1" if key(r) in want else "0"),
              f"{prefix}.csv: {key(r)} {r['smoothing']}: traced {marked!r}, its query was{'' if key(r) in want else ' not'} traced")
    check(any(r["traced"] == "0" for r in rows) or len(want) == len({key(r) for r in rows}),
          f"{prefix}.csv: no untraced row to tell apart")


def default_checks(nb, root, tmp):
    gen = os.path.join(root, "datasets/maps/generated")
    maps = [os.path.join(gen, m) for m in ("rooms-16-128.map", "maze-4-128.map")]
    prefix = os.path.join(tmp, "a", "run")
    run(nb, ["--map", *maps, "--rep", "grid8,quadtree,navmesh,visgraph", "--rep", "visgraph:table=0", "--limit", "6",
             "--trace", "3", "--paths", "--quiet"], prefix)
    index = check_run(prefix)
    check(len(index) == 2 * 5 * 3, f"{len(index)} traces, expected 30 (2 maps x 5 representations x 3 queries)")
    check(any(t["representation"] == "visgraph" and json.load(open(os.path.join(tmp, "a/traces", t["file"])))["events"][-1]
              .get("answered") == "table" for t in index), "no visgraph table answer traced")
    # The structure layer is the representation's drawing: each representation's on each map.
    for m in maps:
        name = os.path.splitext(os.path.basename(m))[0]
        for rep in ("grid8", "quadtree", "navmesh", "visgraph", "visgraph:table=0"):
            t = next((t for t in index if t["map"] == name and t["representation"] == rep), None)
            if check(t is not None, f"no trace of {rep} on {name}"):
                structure_matches(nb, tmp, m, rep, os.path.join(tmp, "a/traces", t["file"]))
    prefix = os.path.join(tmp, "b", "run")
    run(nb, ["--map", maps[0], "--rep", "grid8", "--search", "theta,lazy-theta", "--limit", "4", "--trace", "4",
             "--paths", "--quiet"], prefix)
    index = check_run(prefix)
    ups = sum(json.load(open(os.path.join(tmp, "b/traces", t["file"])))["navbench"]["events"]["update"] for t in index)
    check(len(index) == 8, f"{len(index)} Theta* traces, expected 8")
    check(ups > 0, "Theta*'s traces hold no parent change (update events)")
    # Without --trace the rows have no column traced (the group is only in traced runs).
    prefix = os.path.join(tmp, "u", "run")
    run(nb, ["--map", maps[0], "--rep", "grid8", "--limit", "2", "--quiet"], prefix)
    check("traced" not in open(prefix + ".csv").readline().strip().split(","), "an untraced run has the column traced")
    # A disc agent: grid8 on the shrunk map, visgraph's tangent graph (paths with arcs).
    prefix = os.path.join(tmp, "r", "run")
    run(nb, ["--map", maps[0], "--rep", "grid8,visgraph", "--radius", "0.5", "--limit", "4", "--trace", "2", "--paths",
             "--quiet"], prefix)
    check(len(check_run(prefix)) == 4, "radius 0.5: not 4 traces")
    # An unreachable goal: two-areas' left strip to its right part.
    two = os.path.join(tmp, "two-areas.map")
    with open(os.path.join(root, "datasets/maps/hand/two-areas.map")) as f, open(two, "w") as g:
        g.write(f.read())
    with open(two + ".scen", "w") as g:
        g.write("version 1\n0\ttwo-areas.map\t8\t5\t0\t0\t7\t0\t0\n")
    prefix = os.path.join(tmp, "c", "run")
    run(nb, ["--map", two, "--rep", "grid8,navmesh", "--rep", "visgraph:table=0", "--trace", "1", "--paths",
             "--no-optimum", "--quiet"], prefix)
    index = check_run(prefix)
    for t in index:
        end = json.load(open(os.path.join(tmp, "c/traces", t["file"])))["events"][-1]
        check(t["status"] == "no_path" and "path" not in end, f"{t['file']}: the unreachable goal's trace ends with a path")
    # The size cap: a long grid8 query cut at 20 kB, still valid, with a note, counts kept.
    prefix = os.path.join(tmp, "d", "run")
    run(nb, ["--map", maps[1], "--rep", "grid8", "--limit", "2", "--trace", "2", "--trace-cap", "0.02", "--paths",
             "--quiet"], prefix)
    index = check_run(prefix)
    cut = [t for t in index if t["truncated"] == "1"]
    if check(cut, "no trace was cut at 20 kB"):
        doc = json.load(open(os.path.join(tmp, "d/traces", cut[0]["file"])))
        check(any(e["type"] == "note" and "cut at" in e["text"] for e in doc["events"]), "a cut trace has no note")
        check(int(cut[0]["bytes"]) < 20972 + 4096 + 64 * len(doc["events"][-1].get("path", [])),
              f"a cut trace is {cut[0]['bytes']} bytes, over its cap")
        check(doc["navbench"]["truncated"] and doc["navbench"]["dropped_events"] > 0, "a cut trace does not say what was left out")
        # maze-4-128's grid8 moves (over 100 kB) cut at half the cap; the search's events after it
        check(doc["navbench"]["structure"]["truncated"], "maze-4-128's grid8 structure layer was not cut at 10 kB")
        check(any(e["type"] == "expand" for e in doc["events"]), "a cut structure layer left no room for the search")


def sweep_checks(nb, root, tmp):
    """The sweep key `trace`: two shards merged carry every unit's traces and their index."""
    gen = os.path.join(root, "datasets/maps/generated")
    cfg = os.path.join(tmp, "sweep.json")
    with open(cfg, "w") as f:
        json.dump({"maps": [os.path.join(gen, "rooms-16-128.map"), os.path.join(gen, "maze-4-128.map")],
                   "representations": ["grid8", "navmesh"], "queries": {"select": "spread", "n": 4}, "trace": 2,
                   "paths": True}, f)
    for k in (1, 2):
        p = subprocess.run([nb, "sweep", cfg, "--out", os.path.join(tmp, f"s{k}"), "--shard", f"{k}/2", "--jobs", "1", "--quiet"],
                           capture_output=True, text=True)
        check(p.returncode == 0, f"sweep shard {k}: {p.stderr.strip()}")
    p = subprocess.run([nb, "merge", os.path.join(tmp, "s1"), os.path.join(tmp, "s2"), "--out", os.path.join(tmp, "m")],
                       capture_output=True, text=True)
    if check(p.returncode == 0, f"merge: {p.stderr.strip()}"):
        index = check_run(os.path.join(tmp, "m", "results"))
        check(len(index) == 2 * 2 * 2, f"the merged set lists {len(index)} traces, expected 8")


def large_check(nb, root, tmp):
    aurora = os.path.join(root, "../shared/datasets/movingai/sc1/Aurora.map")
    if not os.path.exists(aurora):
        print("test_traces: no Aurora map; skipped")
        sys.exit(77)
    lines = open(aurora + ".scen").read().splitlines()
    longest = max(lines[1:], key=lambda l: float(l.split("\t")[8]))
    scen = os.path.join(tmp, "long.scen")
    open(scen, "w").write("version 1\n" + longest.replace("maps/sc1/", "") + "\n")
    rss = {}
    for mode in ("plain", "traced"):
        extra = ["--trace", "1", "--trace-cap", "4096"] if mode == "traced" else []
        err = run(nb, ["--map", aurora, "--scen", scen, "--rep", "grid8", "--no-optimum", "--paths", *extra],
                  os.path.join(tmp, mode, "run"))
        rss[mode] = float(re.search(r"peak RSS ([0-9.]+) MiB", err).group(1))
    index = check_run(os.path.join(tmp, "traced", "run"))
    size = int(index[0]["bytes"])
    print(f"test_traces: Aurora grid8 A*, query {index[0]['scen_index']}: {index[0]['expand']} expansions, "
          f"trace {size / 2**20:.1f} MiB, peak RSS {rss['traced']:.1f} MiB traced vs {rss['plain']:.1f} MiB plain")
    check(size > 64 * 2**20, f"the long query's trace is only {size} bytes")
    check(rss["traced"] - rss["plain"] < 16, f"tracing raised peak RSS by {rss['traced'] - rss['plain']:.1f} MiB")


def aurora_structure_check(nb, root, tmp):
    aurora = os.path.join(root, "../shared/datasets/movingai/sc1/Aurora.map")
    if not os.path.exists(aurora):
        print("test_traces: no Aurora map; skipped")
        sys.exit(77)
    rss, cap = {}, 8
    for mode in ("plain", "traced"):
        extra = ["--trace", "1", "--trace-cap", str(cap)] if mode == "traced" else []
        err = run(nb, ["--map", aurora, "--rep", "grid8", "--limit", "1", "--no-optimum", "--paths", *extra],
                  os.path.join(tmp, mode, "run"))
        rss[mode] = float(re.search(r"peak RSS ([0-9.]+) MiB", err).group(1))
    index = check_run(os.path.join(tmp, "traced", "run"))
    if not check(len(index) == 1, f"{len(index)} Aurora traces, expected 1"):
        return
    path = os.path.join(tmp, "traced", "traces", index[0]["file"])
    doc = json.load(open(path))
    st = doc["navbench"]["structure"]
    size = os.path.getsize(path)
    print(f"test_traces: Aurora grid8 structure layer {st['drawn']:,} of {st['segments']:,} segments at a cap of {cap} MiB; "
          f"file {size / 2**20:.2f} MiB; peak RSS {rss['traced']:.1f} MiB traced vs {rss['plain']:.1f} MiB plain")
    check(st["truncated"] and st["segments"] > 1_000_000 and 0 < st["drawn"] < st["segments"],
          f"Aurora's grid8 structure layer not cut at {cap} MiB: {st}")
    check(size <= cap * 2**20 + 4096 + 64 * len(doc["events"][-1].get("path", [])), f"the trace is {size} bytes, over its cap")
    check(any(e["type"] == "expand" for e in doc["events"]), "no search events after the structure layer")
    check(rss["traced"] - rss["plain"] < 16, f"tracing raised peak RSS by {rss['traced'] - rss['plain']:.1f} MiB")


def main():
    nb, root = sys.argv[1], sys.argv[2]
    with tempfile.TemporaryDirectory() as tmp:
        if "--large" in sys.argv:
            large_check(nb, root, tmp)
        elif "--aurora-structure" in sys.argv:
            aurora_structure_check(nb, root, tmp)
        else:
            default_checks(nb, root, tmp)
            sweep_checks(nb, root, tmp)
    for f in FAILURES[:40]:
        print("FAIL:", f)
    print(f"test_traces: {len(FAILURES)} failures")
    return 1 if FAILURES else 0


if __name__ == "__main__":
    sys.exit(main())
