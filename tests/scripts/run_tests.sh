#!/usr/bin/env bash
# End-to-end test of the Python result scripts and the Moving AI downloader on the hand-written
# result set in tests/scripts/data (a 12x8 map, 4 representations x 3 smoothing modes, 5 queries
# with every status, one invalid path, plus 10 queries on a second map/collection).
# Runs plots.py, report.py and pathviz.py through scripts/navpy.sh into a temporary directory and
# checks that every expected file exists and is non-empty, that bad input fails with one line,
# and that download_movingai verifies checksums and fails fast when offline.
# Exit 0 = pass, 1 = failure (the temporary directory is kept and named), 77 = skipped (no Python
# with matplotlib and pandas; register with SKIP_RETURN_CODE 77).
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
data="$here/data"
navpy="$root/scripts/navpy.sh"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/navbench-scripts.XXXXXX")
failures=0

fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }
pass() { echo "ok:   $*"; }
nonempty() {  # nonempty FILE...: each exists with size > 0
  local f
  for f in "$@"; do
    if [ -s "$f" ]; then pass "${f#"$tmp"/}"; else fail "missing or empty: ${f#"$tmp"/}"; fi
  done
}
run() {  # run NAME CMD...: the command must exit 0; its output goes to $tmp/NAME.log
  local name=$1; shift
  if "$@" >"$tmp/$name.log" 2>&1; then pass "$name exits 0"; else fail "$name exited $? (see $tmp/$name.log)"; cat "$tmp/$name.log" >&2; fi
}
run_fails() {  # run_fails NAME CODE CMD...: the command must exit CODE and print exactly one line
  local name=$1 code=$2; shift 2
  "$@" >"$tmp/$name.log" 2>&1
  local rc=$?
  if [ "$rc" -ne "$code" ]; then fail "$name: exit $rc, expected $code"; cat "$tmp/$name.log" >&2
  elif [ "$(wc -l < "$tmp/$name.log")" -ne 1 ]; then fail "$name: expected one line of output"; cat "$tmp/$name.log" >&2
  else pass "$name fails with exit $code: $(cat "$tmp/$name.log")"; fi
}
contains() {  # contains FILE TEXT
  if grep -qF -- "$2" "$1"; then pass "${1#"$tmp"/} contains '$2'"; else fail "${1#"$tmp"/} lacks '$2'"; fi
}

if ! "$navpy" -c 'pass' >/dev/null 2>&1; then
  echo "SKIP: $("$navpy" -c pass 2>&1 | tail -n1)"
  exit 77
fi

# --- plots.py: every figure of the report as SVG and PDF ---
run plots "$navpy" "$root/scripts/plots.py" "$data/tiny" --out "$tmp/plots"
for f in pareto_all pareto_open pareto_scripts cost_time_vs_length cost_expansions_vs_length build_vs_size ecdf_gap ecdf_time; do
  nonempty "$tmp/plots/$f.svg" "$tmp/plots/$f.pdf"
done

# --- report.py: one folder, charts + static figures + summary ---
run report "$navpy" "$root/scripts/report.py" "$data/tiny.csv" --out "$tmp/report"
nonempty "$tmp/report/report.html" "$tmp/report/summary.csv" "$tmp/report/plotly.min.js" "$tmp/report/figures/pareto_all.svg"
for f in pareto_all cost_time_vs_length build_vs_size ecdf_gap ecdf_time; do
  contains "$tmp/report/report.html" "<figure id='fig-$f' class='chart'>"
done
contains "$tmp/report/report.html" "<script src='plotly.min.js'></script>"
contains "$tmp/report/report.html" "quadtree:min=1,merge=1"
contains "$tmp/report/report.html" "Invalid paths (1)"
contains "$tmp/report/report.html" "0000000000000000000000000000000000000000 (hand-written test data)"
contains "$tmp/report/report.html" "counted as not_applicable"
contains "$tmp/report/report.html" "figures/pareto_all.pdf"
# --figures: the static copies' formats (the default job writes SVG only); none writes no copies and no links.
run report_svg "$navpy" "$root/scripts/report.py" "$data/tiny.csv" --out "$tmp/report-svg" --figures svg
nonempty "$tmp/report-svg/figures/pareto_all.svg"
if [ -e "$tmp/report-svg/figures/pareto_all.pdf" ]; then fail "--figures svg wrote a PDF"; else pass "--figures svg writes no PDF"; fi
run report_nofig "$navpy" "$root/scripts/report.py" "$data/tiny.csv" --out "$tmp/report-nofig" --figures none
if [ -n "$(ls -A "$tmp/report-nofig/figures")" ] || grep -q "For papers" "$tmp/report-nofig/report.html"; then
  fail "--figures none wrote copies or links"; else pass "--figures none: no copies, no links"; fi
run_fails report_badfig 2 "$navpy" "$root/scripts/report.py" "$data/tiny.csv" --out "$tmp/report-bad" --figures png
# The ranked table of the hand-written set: grid8/none solved the 5 of its 7 queries that have a path
# (SPEC §14: the no_path query has no optimum, the invalid query no free start); quadtree/los has
# one invalid path, so it is no candidate; visgraph's mean gap is 0; grid4/funnel is not applicable
# (legacy error rows).
run summary_values "$navpy" - "$tmp/report/summary.csv" <<'PYEOF'
import sys, pandas as pd
s = pd.read_csv(sys.argv[1])
s = s[s["scope"] == "all maps"].set_index("config")
assert s.loc["grid8 (centre lattice) · none", "solved_pct"] == 1 and s.loc["grid8 (centre lattice) · none", "solved_pct_n"] == 5, s
assert s.loc["grid8 (centre lattice) · none", "is_candidate"], s
assert s.loc["quadtree:min=1,merge=1 · los", "invalid_paths"] == 1
assert not s.loc["quadtree:min=1,merge=1 · los", "is_candidate"] and s.loc["quadtree:min=1,merge=1 · los", "reason"] == "20.0 % of its paths invalid", s
assert "grid4 (centre lattice) · funnel" not in s.index
assert abs(s.loc["visgraph · none", "gap_mean"]) < 1e-12
assert abs(s.loc["grid4 (centre lattice) · none", "gap_mean"] - 0.3506290303736) < 1e-9
assert s.loc["grid4 (centre lattice) · none", "gap_mean_lo"] <= s.loc["grid4 (centre lattice) · none", "gap_mean"] <= s.loc["grid4 (centre lattice) · none", "gap_mean_hi"]
PYEOF

# --- pathviz.py: a picture per query, on the grid map and on the same map as WKT polygons ---
run pathviz_map "$navpy" "$root/scripts/pathviz.py" --map "$data/tiny.map" --paths "$data/tiny.paths.csv" \
  --out "$tmp/paths_map"
for i in 0 1 2; do nonempty "$tmp/paths_map/paths_tiny_$i.png" "$tmp/paths_map/paths_tiny_$i.svg"; done
run pathviz_wkt "$navpy" "$root/scripts/pathviz.py" --map "$data/tiny.wkt" --paths "$data/tiny" \
  --scen-index 1,3 --rep visgraph --rep "quadtree:min=1,merge=1" --zoom 1 --out "$tmp/paths_wkt" --formats png
nonempty "$tmp/paths_wkt/paths_tiny_1.png" "$tmp/paths_wkt/paths_tiny_3.png"

run pathviz_auto "$navpy" "$root/scripts/pathviz.py" --map "$data/tiny.map" --paths "$data/tiny" --scen-index auto \
  --out "$tmp/paths_auto" --formats png
contains "$tmp/pathviz_auto.log" "pathviz.py: wrote"
if [ "$(ls "$tmp/paths_auto" | wc -l)" -ge 2 ]; then pass "auto picks at least 2 queries"; else fail "auto picked < 2 queries"; fi

# --- robustness: no solved rows, header-only file, a directory of result sets (checked on the page:
# no static figure copies, --figures none, as in --compare below) ---
run plots_edge "$navpy" "$root/scripts/plots.py" "$data/edge.csv" --out "$tmp/plots_edge"
contains "$tmp/plots_edge.log" "skipped pareto_all"
if [ -z "$(ls -A "$tmp/plots_edge")" ]; then pass "plots_edge wrote no figures"; else fail "plots_edge wrote figures"; fi
head -n1 "$data/tiny.csv" > "$tmp/header_only.csv"
run report_empty "$navpy" "$root/scripts/report.py" "$tmp/header_only.csv" "$data/edge" --out "$tmp/report_empty"
nonempty "$tmp/report_empty/report.html"
contains "$tmp/report_empty/report.html" "No configuration solved a query with a known optimum here."
# Paths found, none valid: no candidate, and the verdict says so instead of naming one (SPEC §14).
"$navpy" -c "import pandas as pd; r = pd.read_csv('$data/tiny.csv'); r['valid'] = 0; r.to_csv('$tmp/invalid.csv', index=False)"
run report_invalid "$navpy" "$root/scripts/report.py" "$tmp/invalid.csv" --out "$tmp/report_invalid" --figures none
contains "$tmp/report_invalid/report.html" "No configuration is a candidate here"
mkdir -p "$tmp/sweep"
cp "$data"/tiny.* "$tmp/sweep/" && cp "$data/tiny.csv" "$tmp/sweep/again.csv"
run report_dir "$navpy" "$root/scripts/report.py" "$tmp/sweep" --out "$tmp/report_dir" --figures none
nonempty "$tmp/report_dir/report.html"
for page in "$tmp/report/report.html" "$tmp/report_dir/report.html"; do
  if grep -Eiq "(src|href)=[\"']?(https?:|//|file:)" "$page"; then fail "${page#"$tmp"/} has an external link"
  else pass "${page#"$tmp"/} has no external links"; fi
done
run sweep_rows "$navpy" -c "import pandas as pd, sys; s = pd.read_csv('$tmp/report_dir/summary.csv'); s = s[s['scope'] == 'all maps']; sys.exit(int(s['rows'].sum() != 112))"
# --compare: the same rows against themselves -> every ratio 1.
run report_compare "$navpy" "$root/scripts/report.py" "$data/tiny" --compare "$data/tiny" --out "$tmp/report_cmp" --figures none
contains "$tmp/report_cmp/report.html" "Two runs compared"
contains "$tmp/report_cmp/report.html" "<b>×1.000</b>"

# --- reading result sets: the column schema, chunks, sweep and shard folders (test_inputs.py) ---
run inputs "$navpy" "$here/test_inputs.py"
# The benchmark's replicas: N rows of renamed copies of a result set.
run replicate "$navpy" "$here/replicate_results.py" "$data/tiny" 150 "$tmp/replica" --schema
run replica_rows "$navpy" -c "import pandas as pd, json, sys
r = pd.read_csv('$tmp/replica/results.csv'); b = pd.read_csv('$tmp/replica/results.build.csv')
m = json.load(open('$tmp/replica/results.meta.json'))
sys.exit(0 if len(r) == 150 and {'tiny', 'tiny~1', 'tiny~2', 'open', 'open~1'} <= set(r['map'])
         and {'tiny~1', 'tiny~2'} <= set(b['map']) and 'schema' in m else 1)"

# --- bad input: one line, exit 2 ---
run_fails plots_missing 2 "$navpy" "$root/scripts/plots.py" "$tmp/no_such_prefix" --out "$tmp/x"
run_fails pathviz_wrong_map 2 "$navpy" "$root/scripts/pathviz.py" --map "$data/tiny.map" \
  --paths "$data/tiny" --scen-index 99 --out "$tmp/x"
printf 'type octile\nheight 2\nwidth 3\nmap\n...\n..\n' > "$tmp/short.map"
run_fails pathviz_bad_map 2 "$navpy" "$root/scripts/pathviz.py" --map "$tmp/short.map" --paths "$data/tiny" --out "$tmp/x"
# navpy.sh falls through an unusable NAVBENCH_PYTHON to a working interpreter.
run navpy_fallthrough env NAVBENCH_PYTHON=/bin/false "$navpy" -c "import matplotlib"

# --- download_movingai: checksums enforced, --record, offline failure ---
dl="$root/scripts/download_movingai"
mkdir -p "$tmp/zsrc/maps/sub" "$tmp/zsrc/scen" "$tmp/zips"
cp "$data/tiny.map" "$tmp/zsrc/maps/sub/toy.map"
printf 'version 1\n0\ttoy.map\t12\t8\t1\t3\t8\t3\t9.24264069\n' > "$tmp/zsrc/scen/toy.map.scen"
(cd "$tmp/zsrc" && "$navpy" -m zipfile -c "$tmp/zips/toy-map.zip" maps && "$navpy" -m zipfile -c "$tmp/zips/toy-scen.zip" scen)
sums="$tmp/sums.sha256"
printf '# test checksums\n' > "$sums"
run_fails dl_no_checksum 3 "$dl" --dest "$tmp/dl" --from "$tmp/zips" --checksums "$sums" toy
run dl_record "$dl" --dest "$tmp/dl" --from "$tmp/zips" --checksums "$sums" --record toy
nonempty "$tmp/dl/toy/toy.map" "$tmp/dl/toy/toy.map.scen"
if [ "$(grep -c 'toy-.*\.zip$' "$sums")" -eq 2 ]; then pass "--record wrote 2 checksums"; else fail "--record did not write 2 checksums"; fi
run dl_verified "$dl" --dest "$tmp/dl2" --from "$tmp/zips" --checksums "$sums" toy
nonempty "$tmp/dl2/toy/toy.map" "$tmp/dl2/toy/toy.map.scen"
echo "tampered" >> "$tmp/zips/toy-scen.zip"
run_fails dl_mismatch 3 "$dl" --dest "$tmp/dl3" --from "$tmp/zips" --checksums "$sums" --record toy
if [ -z "$(ls -A "$tmp/dl3")" ]; then pass "a bad archive leaves --dest empty"; else fail "a bad archive left files in --dest"; fi
start=$(date +%s)
run_fails dl_offline 2 "$dl" --dest "$tmp/dl4" --base-url http://127.0.0.1:9 --checksums "$sums" toy
if [ $(( $(date +%s) - start )) -le 15 ]; then pass "offline failure within 15 s"; else fail "offline failure took too long"; fi

if [ "$failures" -gt 0 ]; then
  echo "$failures check(s) failed; outputs kept in $tmp" >&2
  exit 1
fi
rm -rf "$tmp"
echo "all script checks passed"
