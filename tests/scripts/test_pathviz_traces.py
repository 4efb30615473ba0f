"""The path pictures' expanded-vertex layer (docs/traces.md, issue 45 point 4).
Usage: test_pathviz_traces.py NAVBENCH ROOT. Exit 0 = pass, 1 = fail, 77 = no matplotlib.

A tiny `navbench run --trace 2 --paths` (maze-4-128, grid8, quadtree and navmesh with A*, grid8 with
Theta*, visgraph answering from its table); then for every traced query pathviz's layer (tracefiles.layer, no rendering) must hold
exactly the trace's expand events, as many as the index's `expand` and the row's `expansions`, the
subplot's title must give that count (visgraph's: its table answer), and the SVG pathviz writes must have a group
expanded-REP with one marker per expanded vertex; with --traces none it must have none."""
import csv
import os
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

FAILURES = []


def check(cond, msg):
    if not cond:
        FAILURES.append(msg)
    return cond


def svg_layers(svg_file):
    """{rep: number of markers} of the groups expanded-REP in an SVG."""
    out = {}
    for g in ET.parse(svg_file).getroot().iter("{http://www.w3.org/2000/svg}g"):
        gid = g.get("id", "")
        if gid.startswith("expanded-"):
            out[gid[len("expanded-"):]] = sum(1 for e in g.iter("{http://www.w3.org/2000/svg}use"))
    return out


def main():
    navbench, root = sys.argv[1], sys.argv[2]
    sys.path.insert(0, os.path.join(root, "scripts"))
    try:
        import matplotlib
        matplotlib.use("Agg")
    except ImportError:
        print("test_pathviz_traces: SKIP (no matplotlib)")
        return 77
    import pathviz
    from navbench import maps as mapfiles
    from navreport.io import results as common
    from navreport.io import traces as tracefiles

    mp = os.path.join(root, "datasets/maps/generated/maze-4-128.map")
    tmp = tempfile.mkdtemp(prefix="pathviz_traces_")
    prefix = os.path.join(tmp, "res")
    subprocess.run([navbench, "run", "--map", mp, "--rep", "grid8", "--rep", "quadtree", "--rep", "navmesh", "--rep", "visgraph",
                    "--search", "astar,theta", "--heuristic", "euclidean", "--limit", "6", "--trace", "2", "--paths",
                    "--out", prefix], check=True, capture_output=True)
    index = tracefiles.index_path(prefix + ".paths.csv")
    rows = tracefiles.read_index(index)
    with open(prefix + ".csv", newline="") as f:
        expansions = {(r["representation"], r["search"], r["scen_index"]): int(r["expansions"])
                      for r in csv.DictReader(f) if r["smoothing"] == "none" and r["status"] == "ok"}
    traced = sorted({int(r["scen_index"]) for r in rows})
    check(len(traced) == 2, f"expected 2 traced queries, index has {traced}")
    m = mapfiles.read_map(mp)
    paths = common.read_paths_csv(prefix + ".paths.csv")
    common.fold_search_frame(paths)
    reps = ["grid8", "quadtree", "navmesh"]
    for idx in traced:
        layers = {rep: tracefiles.layer(rows, index, "maze-4-128", idx, rep, "euclidean") for rep in reps}
        for rep in reps:
            lay = layers[rep]
            if not check(lay is not None, f"query {idx} {rep}: no layer"):
                continue
            want = expansions.get((rep, "astar", str(idx)))
            check(lay["search"] == "astar", f"query {idx} {rep}: layer of {lay['search']}, not A*")
            check(len(lay["points"]) == lay["count"] == want and want > 0,
                  f"query {idx} {rep}: {len(lay['points'])} points, index {lay['count']}, row {want}")
        check([s for s, _ in layers["grid8"]["others"]] == ["theta"], f"query {idx}: grid8's Theta* trace not noted")
        table = tracefiles.layer(rows, index, "maze-4-128", idx, "visgraph", "euclidean")
        check(table is not None and table["answered"] == "table" and not table["points"],
              f"query {idx}: visgraph's table answer not seen as one ({table and table['answered']})")
        fig = pathviz.draw_query(m, idx, reps + ["visgraph"], paths, {}, None, None, 1000, "", 0.0,
                                 dict(layers, visgraph=table))
        check(fig.axes[3].get_title() == "visgraph — answered from its table",
              f"query {idx}: visgraph's title '{fig.axes[3].get_title()}'")
        import matplotlib.pyplot as plt
        for ax, rep in zip(fig.axes, reps):
            check(f"{layers[rep]['count']:,} expanded" in ax.get_title(), f"query {idx} {rep}: title '{ax.get_title()}'")
        plt.close(fig)
        # The script itself: the layer from the index beside the paths file, and none with --traces none.
        for opt, want_layers in (([], True), (["--traces", "none"], False)):
            out = os.path.join(tmp, "pics" + "".join(opt))
            subprocess.run([sys.executable, os.path.join(root, "scripts/pathviz.py"), "--map", mp,
                            "--paths", prefix + ".paths.csv", "--scen-index", str(idx), "--formats", "svg",
                            "--out", out] + opt, check=True, capture_output=True)
            got = svg_layers(os.path.join(out, f"paths_maze-4-128_{idx}.svg"))
            if want_layers:
                for rep in reps:
                    check(got.get(rep) == layers[rep]["count"],
                          f"query {idx} {rep}: SVG layer has {got.get(rep)} markers, trace {layers[rep]['count']}")
            else:
                check(not got, f"query {idx}: --traces none still drew {sorted(got)}")
    for f in FAILURES:
        print("FAIL:", f)
    print(f"test_pathviz_traces: {'FAIL' if FAILURES else 'ok'} ({len(traced)} traced queries, {len(reps)} representations)")
    return 1 if FAILURES else 0


if __name__ == "__main__":
    sys.exit(main())
