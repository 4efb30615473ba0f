"""Path pictures and the report on the formats of docs/maps.md (ROS maps, Polyanya meshes).
Usage: test_pathviz_formats.py NAVBENCH ROOT [NAV2_YAML ...]. Exit 0 = pass, 1 = fail, 77 = no
matplotlib or PyYAML/Pillow.

For the bundled ROS sample (office.yaml) and each Nav2 map given: pathviz's reading of the map
(navbench.maps.read_ros_map, map_server's rule in Python) must block exactly the cells navbench
blocked (meta.json's map_frames: occupied + unknown, unknown blocked by default) at the same size;
pathviz must draw a picture of a `navbench run --paths` on it; and the report must show the map in
its "Maps in metres" section with the median lengths times the resolution. For the bundled mesh
(office-cells.mesh): pathviz reads its polygons and draws navmesh-file's paths over them. Then
`pathviz.py --batch FILE --jobs 2` (scripts/run-default's pictures) draws the same pictures, byte for
byte, as one command per line, and a bad line costs its own pictures only: status 2, one line on
stderr naming the problem."""
import csv
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile

FAILURES = []


def check(cond, msg):
    if not cond:
        FAILURES.append(msg)
        print("FAIL", msg)
    return cond


def run(cmd):
    return subprocess.run(cmd, check=True, capture_output=True, text=True)


def main():
    navbench, root = sys.argv[1], sys.argv[2]
    nav2 = sys.argv[3:]
    sys.path.insert(0, os.path.join(root, "scripts"))
    try:
        import matplotlib  # noqa: F401
        import PIL  # noqa: F401
        import yaml  # noqa: F401
    except ImportError as e:
        print(f"test_pathviz_formats: SKIP ({e})")
        return 77
    from navbench import maps as mapfiles
    tmp = tempfile.mkdtemp(prefix="pathviz_formats_")
    fmt = os.path.join(root, "datasets/maps/formats")
    pathviz = [os.path.join(root, "scripts/navpy.sh"), os.path.join(root, "scripts/pathviz.py")]
    for yaml_path in [os.path.join(fmt, "office.yaml")] + nav2:
        name = os.path.splitext(os.path.basename(yaml_path))[0]
        prefix = os.path.join(tmp, name)
        run([navbench, "run", "--map", yaml_path, "--queries", "4", "--seed", "3", "--rep", "grid8,navmesh,visgraph",
             "--smoothing", "none,funnel", "--paths", "--quiet", "--out", prefix])
        frames = json.load(open(prefix + ".meta.json"))["map_frames"]
        frame = next(f for k, f in frames.items() if k.endswith("/" + name))
        m = mapfiles.read_map(yaml_path)
        blocked = int(m.blocked.sum())
        want = frame["cells"]["occupied"] + frame["cells"]["unknown"]
        check((m.width, m.height) == (frame["width"], frame["height"]), f"{name}: size {m.width}x{m.height} vs {frame}")
        check(blocked == want, f"{name}: pathviz blocks {blocked} cells, navbench {want}")
        out = os.path.join(tmp, name + "-pics")
        run(pathviz + ["--map", yaml_path, "--paths", prefix + ".paths.csv", "--scen-index", "0", "--formats", "png", "--out", out])
        pics = [f for f in os.listdir(out) if f.endswith(".png")] if os.path.isdir(out) else []
        check(len(pics) == 1 and os.path.getsize(os.path.join(out, pics[0])) > 5000, f"{name}: path picture {pics}")
        # The report: the map in metres, its median lengths times the resolution.
        rep = os.path.join(tmp, name + "-report")
        run(pathviz[:1] + [os.path.join(root, "scripts/report.py"), prefix, "--out", rep, "--paths-dir", out, "--boot", "200", "--figures", "none"])
        page = open(os.path.join(rep, "report.html"), encoding="utf-8").read()
        check("id='metres'" in page, f"{name}: no Maps in metres section")
        with open(prefix + ".csv", newline="") as f:
            lengths = [float(r["length"]) for r in csv.DictReader(f)
                       if r["representation"] == "visgraph" and r["smoothing"] == "none" and r["status"] == "ok"]
        if check(lengths, f"{name}: no visgraph path"):
            med = statistics.median(lengths)
            row = re.search(r"<td>visgraph</td><td>none</td><td class='num'>(\d+)</td><td class='num'>([\d,.]+)</td>"
                            r"<td class='num'>([\d,.]+)</td>", page)
            if check(row, f"{name}: no visgraph row in Maps in metres"):
                metres = float(row.group(3).replace(",", ""))
                check(abs(metres - med * frame["resolution"]) <= 0.0051 * max(1.0, metres),
                      f"{name}: {metres} m shown, median {med} x {frame['resolution']}")
        check(os.path.isfile(os.path.join(rep, "paths", pics[0] if pics else "none")), f"{name}: the report has no path picture")
        print(f"ok   {name}: {m.width}x{m.height}, {blocked} blocked cells as navbench, picture and metres in the report")
    # The mesh: pathviz reads its polygons and draws navmesh-file's paths.
    mesh = os.path.join(fmt, "office-cells.mesh")
    prefix = os.path.join(tmp, "office-cells")
    run([navbench, "run", "--map", mesh, "--rep", "navmesh-file,visgraph", "--smoothing", "none,funnel", "--limit", "4",
         "--paths", "--quiet", "--out", prefix])
    pm = mapfiles.read_map(mesh)
    with open(mesh) as f:
        polygons = int(f.read().split()[3])
    check(len(pm.walkable) == polygons, f"office-cells: {len(pm.walkable)} polygons read, the file has {polygons}")
    out = os.path.join(tmp, "mesh-pics")
    run(pathviz + ["--map", mesh, "--paths", prefix + ".paths.csv", "--scen-index", "0", "--formats", "png", "--out", out])
    pics = [f for f in os.listdir(out) if f.endswith(".png")] if os.path.isdir(out) else []
    check(len(pics) == 1, f"office-cells: path picture {pics}")
    print("ok   office-cells.mesh: %d polygons, picture drawn" % polygons)
    # Batch mode: the office picture and the mesh picture as two lines of one batch, then with a bad
    # line (a map that does not exist) between them.
    office = os.path.join(fmt, "office.yaml")
    lines = [["--map", office, "--paths", os.path.join(tmp, "office.paths.csv"), "--scen-index", "0", "--formats", "png"],
             ["--map", mesh, "--paths", prefix + ".paths.csv", "--scen-index", "0", "--formats", "png"]]
    singles = {}
    for d in ("office-pics", "mesh-pics"):
        for f in os.listdir(os.path.join(tmp, d)):
            singles[f] = open(os.path.join(tmp, d, f), "rb").read()
    import shlex
    for name, extra in (("batch", []), ("batch-bad", [["--map", os.path.join(tmp, "missing.map"), "--paths", prefix]])):
        out = os.path.join(tmp, name + "-pics")
        bfile = os.path.join(tmp, name + ".txt")
        with open(bfile, "w") as f:
            f.write("# pictures\n")
            for words in [lines[0]] + extra + [lines[1]]:
                f.write(shlex.join(words + ["--out", out]) + "\n\n")
        r = subprocess.run(pathviz + ["--batch", bfile, "--jobs", "2"], capture_output=True, text=True)
        drawn = {f: open(os.path.join(out, f), "rb").read() for f in os.listdir(out)} if os.path.isdir(out) else {}
        check(drawn == singles, f"{name}: drew {sorted(drawn)}, one command per line {sorted(singles)} "
              f"(same bytes: {[f for f in drawn if drawn[f] == singles.get(f)]})")
        errors = [e for e in r.stderr.splitlines() if e.startswith("pathviz.py: ") and "wrote" not in e]
        if extra:
            check(r.returncode == 2 and len(errors) == 1 and "missing.map" in errors[0],
                  f"{name}: status {r.returncode}, stderr {r.stderr!r}")
        else:
            check(r.returncode == 0 and not errors, f"{name}: status {r.returncode}, stderr {r.stderr!r}")
    print("ok   pathviz --batch: the same pictures as one command per line; a bad line fails alone (status 2)")
    print(f"pictures and reports in {tmp}")
    return 1 if FAILURES else 0


if __name__ == "__main__":
    sys.exit(main())
