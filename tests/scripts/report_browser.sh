#!/usr/bin/env bash
# The report as a reader sees it: a small real run (build/navbench on the bundled hand-drawn and
# generated maps, two collections, 12 queries per map, two heuristics so the charts facet), path
# pictures of one map, report.py (with --compare against a second run of the same queries), then
# check_report_browser.py in headless Chromium: no console errors, images and charts loaded,
# everything within 1280 px, the ranked table equal to a recomputation from results.csv.
# Also renders the committed fixture (tests/scripts/data/tiny) the same way.
# Usage: report_browser.sh NAVBENCH SOURCE_DIR BUILD_DIR
# Keeps BUILD_DIR/report-screenshot.png (first screen) and BUILD_DIR/report-test/ (the report).
# Exit 0 pass, 1 fail, 77 skipped (no Python with the packages, no chromium/chromedriver/selenium).
set -uo pipefail
nb=$1; src=$2; bld=$3
navpy="$src/scripts/navpy.sh"
out="$bld/report-test"
rm -rf "$out"; mkdir -p "$out/run/paths"
if ! "$navpy" -c 'import scipy, plotly, selenium' >/dev/null 2>&1; then
  echo "SKIP: no Python with scipy, plotly and selenium"; exit 77
fi
if ! command -v chromium >/dev/null 2>&1 || ! [ -x /usr/bin/chromedriver ] && ! command -v chromedriver >/dev/null 2>&1; then
  echo "SKIP: chromium or chromedriver missing"; exit 77
fi
fail=0
step() { local name=$1; shift; if "$@" >"$out/$name.log" 2>&1; then echo "ok:   $name"; else echo "FAIL: $name (exit $?)"; cat "$out/$name.log"; fail=1; fi; }

maps=("$src/datasets/maps/hand" "$src/datasets/maps/generated")
step run_a "$nb" run --map "${maps[@]}" --rep grid8,grid4,quadtree,navmesh,visgraph --smoothing none,los,funnel \
  --heuristic euclidean,octile --limit 12 --paths --out "$out/run/results"
step run_b "$nb" run --map "${maps[@]}" --rep grid8,grid4,quadtree,navmesh,visgraph --smoothing none,los,funnel \
  --heuristic euclidean,octile --limit 12 --out "$out/run_b"
step structure "$nb" structure --map "$src/datasets/maps/generated/maze-4-128.map" --rep grid8,grid4,quadtree,navmesh,visgraph \
  --out "$out/run/maze.structure.csv"
step pathviz "$navpy" "$src/scripts/pathviz.py" --map "$src/datasets/maps/generated/maze-4-128.map" \
  --paths "$out/run/results.paths.csv" --structure "$out/run/maze.structure.csv" --heuristic euclidean \
  --scen-index auto --formats png --out "$out/run/paths"
step report "$navpy" "$src/scripts/report.py" "$out/run/results" --compare "$out/run_b" --out "$out/report"
for f in report.html plotly.min.js summary.csv figures/pareto_all.svg figures/pareto_all.pdf figures/build_vs_size.svg \
         figures/compare_ratios.pdf figures/ecdf_gap.svg figures/cost_time_vs_length.pdf; do
  if [ -s "$out/report/$f" ]; then echo "ok:   report/$f"; else echo "FAIL: report/$f missing"; fail=1; fi
done
if ls "$out/report/paths/"*.png >/dev/null 2>&1; then echo "ok:   path pictures copied"; else echo "FAIL: no path pictures in the report"; fail=1; fi
if grep -Eiq "(src|href)=[\"']?(https?:|//)" "$out/report/report.html"; then echo "FAIL: external link in the report"; fail=1
else echo "ok:   no external links"; fi
step browser "$navpy" "$src/tests/scripts/check_report_browser.py" "$out/report" "$out/run/results.csv" \
  "$bld/report-screenshot.png" --full "$bld/report-fullpage.png"
cat "$out/browser.log"
# A sweep folder (merged results.csv next to units/ and optimum/): each row counted once.
printf '{"maps": ["%s"], "representations": ["grid8", "visgraph"], "smoothing": ["none", "los"], "seed": 1}\n' \
  "$src/datasets/maps/hand" > "$out/sweep.json"
step sweep "$nb" sweep "$out/sweep.json" --out "$out/sweep"
step report_sweep "$navpy" "$src/scripts/report.py" "$out/sweep" --out "$out/sweep-report"
step sweep_rows "$navpy" -c "import pandas as pd, sys
s = pd.read_csv('$out/sweep-report/summary.csv'); r = pd.read_csv('$out/sweep/results.csv')
s = s[s['scope'] == 'all maps']
sys.exit(0 if s['rows'].sum() == len(r) else f'{s.rows.sum()} rows in the report, {len(r)} in the sweep')"
# The committed fixture: legacy 'error ... not applicable' rows, an invalid path, every status.
step report_tiny "$navpy" "$src/scripts/report.py" "$src/tests/scripts/data/tiny" --out "$out/tiny"
step browser_tiny "$navpy" "$src/tests/scripts/check_report_browser.py" "$out/tiny" "$src/tests/scripts/data/tiny.csv" \
  "$out/tiny-screenshot.png"
[ "$fail" -eq 0 ] && echo "report browser checks passed; screenshot: $bld/report-screenshot.png"
exit "$fail"
