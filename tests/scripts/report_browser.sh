#!/usr/bin/env bash
# The report as a reader sees it: a small real run (build/navbench on the bundled hand-drawn and
# generated maps, two collections, 12 queries per map, two heuristics so the charts facet), path
# pictures of one map, report.py (with --compare against a second run of the same queries), then
# check_report_browser.py in headless Chromium: no console errors, images and charts loaded,
# everything within 1280 px, the ranked table equal to a recomputation from results.csv.
# Also renders the committed fixture (tests/scripts/data/tiny.*) the same way.
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
step report_sweep "$navpy" "$src/scripts/report.py" "$out/sweep" --out "$out/sweep-report" --figures none
step sweep_rows "$navpy" -c "import pandas as pd, sys
s = pd.read_csv('$out/sweep-report/summary.csv'); r = pd.read_csv('$out/sweep/results.csv')
s = s[s['scope'] == 'all maps']
sys.exit(0 if s['rows'].sum() == len(r) else f'{s.rows.sum()} rows in the report, {len(r)} in the sweep')"
# Changing maps and many agents: a seeded change scenario of a bundled map (grid8 updates in place,
# quadtree rebuilds) with the rebuild baseline, and a thread-scaling run, reported together; the
# update table must equal a recomputation from updates.csv, and the page pass the browser checks.
dyn="$out/dyn"; mkdir -p "$dyn"
step changes "$nb" generate changes --map "$src/datasets/maps/generated/rooms-16-128.map" --change doors --epochs 6 \
  --queries 4 --seed 3 --out "$out/dyn-src/doors"
step run_dyn "$nb" run --dynamic "$out/dyn-src/doors.scen" --rep grid8,quadtree --smoothing none,los --heuristic octile \
  --checkopt --rebuild-baseline --out "$dyn/doors"
step threads "$src/scripts/thread-scaling" --navbench "$nb" --map "$src/datasets/maps/generated/maze-4-128.map" \
  --rep grid8 --rep visgraph --threads 1,2 --limit 40 --out "$dyn"
step report_dyn "$navpy" "$src/scripts/report.py" "$dyn" --out "$out/dyn-report" --figures none
for text in "<section id='dynamic'>" "<figure id='fig-update_vs_cells' class='chart'>" "<section id='threads'>" \
            "<figure id='fig-threads' class='chart'>" "id='updates-table'"; do
  if grep -qF -- "$text" "$out/dyn-report/report.html"; then echo "ok:   dyn report has $text"
  else echo "FAIL: dyn report lacks $text"; fail=1; fi
done
step update_values "$navpy" - "$dyn/doors.updates.csv" "$out/dyn-report/update_summary.csv" "$dyn/threads.csv" <<'PYEOF'
import sys, pandas as pd
u, s, t = pd.read_csv(sys.argv[1]), pd.read_csv(sys.argv[2]).set_index("representation"), pd.read_csv(sys.argv[3])
assert sorted(s.index) == ["grid8", "quadtree"], s.index
for rep, g in u.groupby("representation"):
    assert s.loc[rep, "updates"] == len(g) > 0, (rep, len(g))
    assert abs(s.loc[rep, "update_median"] - g["update_us"].median()) < 1e-9, rep
    assert abs(s.loc[rep, "rebuild_median"] - g["rebuild_us"].median()) < 1e-9, rep
    assert abs(s.loc[rep, "ratio_median"] - (g["rebuild_us"] / g["update_us"]).median()) < 1e-9, rep
    assert s.loc[rep, "update_median_lo"] <= s.loc[rep, "update_median"] <= s.loc[rep, "update_median_hi"], rep
assert sorted(set(zip(t["representation"], t["threads"]))) == [("grid8", 1), ("grid8", 2), ("visgraph", 1), ("visgraph", 2)], t
assert (t["queries"] == 40).all() and (t["queries_per_s"] > 0).all() and (t["peak_rss_bytes"] > 1 << 20).all(), t
PYEOF
step browser_dyn "$navpy" "$src/tests/scripts/check_report_browser.py" "$out/dyn-report" "$dyn/doors.csv" \
  "$out/dyn-screenshot.png"
# The committed fixture: legacy 'error ... not applicable' rows, an invalid path, every status.
step report_tiny "$navpy" "$src/scripts/report.py" "$src/tests/scripts/data/tiny" --out "$out/tiny" --figures none
step browser_tiny "$navpy" "$src/tests/scripts/check_report_browser.py" "$out/tiny" "$src/tests/scripts/data/tiny.csv" \
  "$out/tiny-screenshot.png"
[ "$fail" -eq 0 ] && echo "report browser checks passed; screenshot: $bld/report-screenshot.png"
exit "$fail"
