#!/usr/bin/env bash
# Maps people already have (docs/maps.md): each bad ROS map, image, mesh or polygon map given to
# `navbench run` ends it with exit 2, one line on stderr naming the file, and nothing written.
# Usage: map_formats_errors.sh NAVBENCH_BINARY SOURCE_DIR
set -uo pipefail
nb=$1; src=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fails=0; total=0
expect_error() {  # NAME PATTERN MAPFILE: exit 2, one line matching PATTERN, no output files
  local name=$1 pat=$2 map=$3
  total=$((total+1))
  rm -f "$tmp"/r.*
  "$nb" run --map "$map" --queries 3 --rep grid8 --out "$tmp/r" >"$tmp/out" 2>"$tmp/err"; local rc=$?
  local lines; lines=$(wc -l <"$tmp/err")
  if [ "$rc" -ne 2 ] || [ "$lines" -ne 1 ] || ! grep -qE -- "$pat" "$tmp/err" || ls "$tmp"/r.* >/dev/null 2>&1; then
    echo "FAIL $name: rc=$rc lines=$lines: $(head -3 "$tmp/err")"; fails=$((fails+1))
  else echo "ok   $name: $(cat "$tmp/err")"; fi
}
d=$tmp/m; mkdir -p "$d"
printf 'P5\n2 1\n255\n\000\377' > "$d/ok.pgm"
y() { printf '%b' "$2" > "$d/$1.yaml"; echo "$d/$1.yaml"; }
expect_error yaml_no_image "noimage\.yaml: no 'image' field" "$(y noimage 'resolution: 0.05\norigin: [0, 0, 0]\n')"
expect_error yaml_missing_image "missing\.yaml:1: image '.*nope\.pgm' does not exist" "$(y missing 'image: nope.pgm\nresolution: 0.05\norigin: [0, 0, 0]\n')"
expect_error yaml_image_escapes "escape\.yaml:1: 'image' leaves the YAML file's folder" "$(y escape 'image: ../m/ok.pgm\nresolution: 0.05\norigin: [0, 0, 0]\n')"
expect_error yaml_image_url "url\.yaml:1: 'image' is a URL" "$(y url 'image: package://maps/ok.pgm\nresolution: 0.05\norigin: [0, 0, 0]\n')"
expect_error yaml_threshold_range "range\.yaml:4: occupied_thresh 1\.5.* outside \[0, 1\]" "$(y range 'image: ok.pgm\nresolution: 0.05\norigin: [0, 0, 0]\noccupied_thresh: 1.5\n')"
expect_error yaml_free_above "above\.yaml:5: free_thresh 0\.8.* is not below occupied_thresh" "$(y above 'image: ok.pgm\nresolution: 0.05\norigin: [0, 0, 0]\noccupied_thresh: 0.65\nfree_thresh: 0.8\n')"
expect_error yaml_zero_resolution "zero\.yaml:2: 'resolution' must be positive" "$(y zero 'image: ok.pgm\nresolution: 0\norigin: [0, 0, 0]\n')"
expect_error yaml_negative_resolution "neg\.yaml:2: 'resolution' must be positive" "$(y neg 'image: ok.pgm\nresolution: -1\norigin: [0, 0, 0]\n')"
printf 'GIF89a....' > "$d/gif.png"
expect_error image_not_png "gif\.png: not a PNG or binary PGM \(P5\) image" "$d/gif.png"
printf 'P5\n4 4\n255\n\000\000' > "$d/trunc.pgm"
expect_error image_truncated "trunc\.pgm: truncated PGM" "$d/trunc.pgm"
printf 'P5\n0 0\n255\n' > "$d/empty.pgm"
expect_error image_zero "empty\.pgm: " "$d/empty.pgm"
printf 'P5\n1 1\n65535\n\000\000' > "$d/deep.pgm"
expect_error image_16bit_pgm "deep\.pgm: 16-bit PGM .* is not read" "$d/deep.pgm"
# What the formats forbid (docs/maps.md): a maxval of 0, a sample above the maxval, a damaged PNG chunk.
printf 'P5\n2 1\n0\n\000\000' > "$d/maxval0.pgm"
expect_error image_pgm_maxval0 "maxval0\.pgm: PGM maxval 0 outside 1\.\.65535" "$d/maxval0.pgm"
printf 'P5\n2 1\n100\n\000\310' > "$d/above.pgm"
expect_error image_pgm_above_maxval "above\.pgm: PGM sample 200 at pixel \(1, 0\) above the maxval 100" "$d/above.pgm"
printf '\211PNG\r\n\032\n\000\000\000\rIHDR\000\000\000\002\000\000\000\001\010\000\000\000\000\000\000\000\000' > "$d/crc.png"
printf '\000\000\000\000IEND\256B`\202' >> "$d/crc.png"
expect_error image_png_crc "crc\.png: PNG chunk IHDR at byte 8: CRC mismatch" "$d/crc.png"
mesh_head='mesh\n2\n4 2\n0.0 0.0 2 0 -1\n1.5 0.0 3 0 1 -1\n1.5 1.5 2 1 -1\n0.0 1.5 3 -1 1 0\n'
printf "${mesh_head}3 0 1 9 -1 -1 1\n3 1 2 3 0 -1 -1\n" > "$d/vertex.mesh"
expect_error mesh_missing_vertex "vertex\.mesh:8: vertex index 9 out of range" "$d/vertex.mesh"
printf "${mesh_head}3 0 1 3 -1 -1 1 5\n3 1 2 3 0 -1 -1\n" > "$d/nbr.mesh"
expect_error mesh_neighbour_length "nbr\.mesh:8: polygon 0 with 3 vertices needs 6 indices" "$d/nbr.mesh"
printf "${mesh_head}3 0 3 1 -1 1 -1\n3 1 2 3 0 -1 -1\n" > "$d/cw.mesh"
expect_error mesh_clockwise "cw\.mesh:8: polygon 0 is not convex counter-clockwise" "$d/cw.mesh"
printf 'mesh\n2\n4 1\n0 0 2 0 -1\n4 0 2 0 -1\n1 1 2 0 -1\n0 4 2 0 -1\n4 0 1 2 3 -1 -1 -1 -1\n' > "$d/dart.mesh"
expect_error mesh_non_convex "dart\.mesh:8: polygon 0 is not convex counter-clockwise" "$d/dart.mesh"
printf 'poly\n1\n2\n4 0 0 10 0 10 10 0 10\n4 2 2 4 4 4 2 2 4\n' > "$d/bowtie.poly"
expect_error poly_self_intersecting "bowtie\.poly:5: polygon 1 intersects itself" "$d/bowtie.poly"
# The samples run (exit 0) with every representation.
total=$((total+1))
if "$nb" run --map "$src/datasets/maps/formats" --rep grid4,grid8,quadtree,navmesh,navmesh-vertices,visgraph --quiet --out "$tmp/ok" 2>"$tmp/err" &&
   [ "$(grep -c ',ok,' "$tmp/ok.csv")" -gt 0 ]; then echo "ok   samples run"; else echo "FAIL samples: $(head -3 "$tmp/err")"; fails=$((fails+1)); fi
# The mesh of the sample grid's free cells has the grid's free space: visgraph's length on the
# mesh (query points = the scenario's (x, y)) equals the grid's with --convention corner, query by query.
total=$((total+1))
f=$src/datasets/maps/formats
if "$nb" run --map "$f/office-grid.map" --convention corner --rep visgraph --quiet --out "$tmp/og" 2>"$tmp/err" &&
   "$nb" run --map "$f/office-cells.mesh" --rep visgraph --quiet --out "$tmp/om" 2>>"$tmp/err" &&
   python3 - "$tmp/og.csv" "$tmp/om.csv" <<'PY'
import csv, sys
g, m = (list(csv.DictReader(open(p))) for p in sys.argv[1:3])
assert len(g) == len(m) == 20, (len(g), len(m))
for a, b in zip(g, m):
    assert a["status"] == b["status"] == "ok" and b["valid"] == "1", (a["status"], b["status"])
    assert abs(float(a["length"]) - float(b["length"])) <= 1e-9 * float(a["length"]), (a["length"], b["length"])
PY
then echo "ok   mesh of the sample = its grid (corner): 20 equal visgraph lengths"
else echo "FAIL mesh of the sample: $(head -3 "$tmp/err")"; fails=$((fails+1)); fi
# navmesh-file searches the sample mesh on its own polygons: every funnel path ok, valid and no
# shorter than visgraph's; on a grid map, and on the mesh at a radius (the map shrunk: no longer
# the polygons' union), it is skipped with a one-line note and no rows.
total=$((total+1))
if "$nb" run --map "$f/office-cells.mesh" --rep navmesh-file,visgraph --smoothing none,funnel --quiet --out "$tmp/nf" 2>"$tmp/err" &&
   python3 - "$tmp/nf.csv" <<'PY' &&
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
opt = {r["scen_index"]: float(r["length"]) for r in rows if r["representation"] == "visgraph" and r["smoothing"] == "none"}
fun = [r for r in rows if r["representation"] == "navmesh-file" and r["smoothing"] == "funnel"]
assert len(fun) == len(opt) == 20, (len(fun), len(opt))
for r in fun:
    assert r["status"] == "ok" and r["valid"] == "1", r
    assert float(r["length"]) >= opt[r["scen_index"]] * (1 - 1e-9), (r["length"], opt[r["scen_index"]])
PY
   "$nb" run --map "$f/office-grid.map" --rep navmesh-file,grid8 --quiet --out "$tmp/ng" 2>"$tmp/err2" &&
   [ "$(grep -c 'skipping navmesh-file on office-grid: navmesh-file needs a map read from a navigation mesh' "$tmp/err2")" -eq 1 ] &&
   ! grep -q ',navmesh-file,' "$tmp/ng.csv" &&
   "$nb" run --map "$f/office-cells.mesh" --rep navmesh-file:erode=centre --rep visgraph --radius 0.2 --quiet --out "$tmp/nr" 2>"$tmp/err3" &&
   grep -q "skipping navmesh-file.*not its mesh's" "$tmp/err3"; then
  echo "ok   navmesh-file: 20 valid funnel paths on the sample mesh, skipped on a grid and at a radius"
else echo "FAIL navmesh-file: $(head -3 "$tmp/err" "$tmp/err2" "$tmp/err3" 2>/dev/null)"; fails=$((fails+1)); fi
# A ROS map in scale mode carries its own costs: run and sweep rows get the terrain columns, and
# meta.json records how the map was read.
cp "$src/datasets/maps/formats/office.pgm" "$d/"
printf 'image: office.pgm\nmode: scale\nresolution: 0.05\norigin: [1, 2, 0]\nnegate: 0\noccupied_thresh: 0.9\nfree_thresh: 0.1\n' > "$d/scale.yaml"
printf '{"maps": ["%s"], "representations": ["grid8", "visgraph"], "queries": {"select": "all", "random": 4}, "output": "%s"}\n' \
  "$d/scale.yaml" "$tmp/sweep" > "$tmp/sweep.json"
total=$((total+1))
if "$nb" run --map "$d/scale.yaml" --queries 4 --rep grid8 --quiet --out "$tmp/scale" 2>"$tmp/err" &&
   head -1 "$tmp/scale.csv" | grep -q ',terrain,cost,raw_cost,octile_optimal_cost,optimal_cost,cost_gap' &&
   grep -q '"resolution": 0.05' "$tmp/scale.meta.json" && grep -q '"between": 18' "$tmp/scale.meta.json" &&
   "$nb" sweep "$tmp/sweep.json" --jobs 1 --quiet 2>>"$tmp/err" &&
   head -1 "$tmp/sweep/results.csv" | grep -q ',terrain,cost,' && grep -q "\"map_frames\"" "$tmp/sweep/results.meta.json" && grep -q "\"mode\": \"scale\"" "$tmp/sweep/results.meta.json"; then
  echo "ok   scale-mode map: terrain columns in run and sweep, frame in meta.json"
else echo "FAIL scale-mode map: $(head -3 "$tmp/err")"; fails=$((fails+1)); fi
total=$((total+1))
"$nb" run --map "$d/scale.yaml" --queries 4 --rep grid8 --radius 0.5 --out "$tmp/rad" >/dev/null 2>"$tmp/err"; rc=$?
if [ "$rc" -eq 2 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q 'scale.yaml: a weighted map takes no --radius' "$tmp/err" && ! ls "$tmp"/rad.* >/dev/null 2>&1; then
  echo "ok   scale_radius: $(cat "$tmp/err")"
else echo "FAIL scale_radius: rc=$rc $(head -3 "$tmp/err")"; fails=$((fails+1)); fi
echo "$((total-fails))/$total passed"
[ "$fails" -eq 0 ]
