#!/usr/bin/env bash
# An interrupted sweep (kill -9) loses nothing it wrote, and its resumed result equals an
# uninterrupted run's; shards merged equal the whole; merge refuses mixed configs.
# Usage: sweep_resume.sh NAVBENCH_BINARY SOURCE_DIR
set -uo pipefail
nb=$1; src=$2
tmp=$(mktemp -d); trap 'kill -9 $pid 2>/dev/null; rm -rf "$tmp"' EXIT
pid=0; fails=0
check() { if eval "$2"; then echo "ok   $1"; else echo "FAIL $1"; fails=$((fails+1)); fi; }
cat > "$tmp/sweep.json" <<JSON
{"maps": ["$src/datasets/maps/generated"], "representations": ["grid8", "grid4", "quadtree"],
 "smoothing": ["none", "los"], "queries": {"select": "all"}, "seed": 3, "paths": true,
 "comment": "repetitions make each unit slow enough for the kill to land mid-sweep", "repetitions": 40}
JSON
sed 's/"seed": 3/"seed": 4/' "$tmp/sweep.json" > "$tmp/other.json"
# Results without the timing columns (locate_us, search_us, smooth_us are 21-23; first_move_us, first20_us,
# max_step_us 32-34).
strip() { cut -d, --complement -f21-23,32-34 "$1"; }

"$nb" sweep "$tmp/sweep.json" --out "$tmp/full" --jobs 1 --quiet
check full_run '[ -s "$tmp/full/results.csv" ] && [ "$(wc -l < "$tmp/full/results.csv")" -gt 100 ]'

# Kill -9 the same sweep once some (not all) units are written, then resume.
"$nb" sweep "$tmp/sweep.json" --out "$tmp/killed" --jobs 1 --quiet & pid=$!
for _ in $(seq 1 600); do
  n=$(ls "$tmp/killed/units/" 2>/dev/null | grep -v -e '\.build\.csv$' -e '\.paths\.csv$' | grep -c '\.csv$' || true)
  [ "$n" -ge 3 ] && break
  sleep 0.05
done
kill -9 "$pid" 2>/dev/null; wait "$pid" 2>/dev/null
done_units=$(ls "$tmp/killed/units/" | grep -v -e '\.build\.csv$' -e '\.paths\.csv$' | grep -c '\.csv$')
check killed_midway '[ "$done_units" -ge 3 ] && [ "$done_units" -lt 12 ] && [ ! -e "$tmp/killed/results.csv" ]'
"$nb" sweep "$tmp/sweep.json" --out "$tmp/killed" --jobs 2 --quiet
check resumed_equals_full 'diff <(strip "$tmp/full/results.csv") <(strip "$tmp/killed/results.csv") >/dev/null'
check resumed_build_rows '[ "$(wc -l < "$tmp/full/results.build.csv")" -eq "$(wc -l < "$tmp/killed/results.build.csv")" ]'
check resumed_paths_equal 'diff "$tmp/full/results.paths.csv" "$tmp/killed/results.paths.csv" >/dev/null'

# Shards 1/2 and 2/2, merged, equal the whole; a shard of another config is refused.
"$nb" sweep "$tmp/sweep.json" --out "$tmp/s1" --shard 1/2 --jobs 1 --quiet
"$nb" sweep "$tmp/sweep.json" --out "$tmp/s2" --shard 2/2 --jobs 1 --quiet
check shard_partial '[ ! -e "$tmp/s1/results.csv" ]'
"$nb" merge "$tmp/s1" "$tmp/s2" --out "$tmp/merged" 2>/dev/null
check merged_equals_full 'diff <(strip "$tmp/full/results.csv") <(strip "$tmp/merged/results.csv") >/dev/null'
"$nb" merge "$tmp/s1" --out "$tmp/m1" 2>/dev/null; rc=$?
check merge_incomplete_refused '[ $rc -ne 0 ]'
"$nb" sweep "$tmp/other.json" --out "$tmp/o1" --shard 1/2 --jobs 1 --quiet
"$nb" merge "$tmp/s1" "$tmp/o1" --out "$tmp/m2" 2>"$tmp/err"; rc=$?
check merge_mixed_refused '[ $rc -eq 2 ] && grep -q "differs" "$tmp/err"'
"$nb" sweep "$tmp/other.json" --out "$tmp/full" --quiet 2>"$tmp/err"; rc=$?
check resume_other_config_refused '[ $rc -eq 2 ] && grep -q "different sweep config" "$tmp/err"'

# Dynamic scenarios (docs/changing-maps.md) in a sweep: units of their own, merged into OUT/dynamic/ (rows with
# epoch, updates.csv); shards merged equal the whole; a killed unit's partial files are dropped.
"$nb" generate changes --map "$src/datasets/maps/generated/rooms-16-128.map" --change doors --epochs 4 --queries 3 \
  --seed 5 --out "$tmp/doors" >/dev/null
cat > "$tmp/dyn.json" <<JSON
{"maps": ["$src/datasets/maps/hand/l-corridor.map"], "dynamic": ["$tmp/doors.scen"], "rebuild_baseline": true,
 "representations": ["grid8", "quadtree"], "smoothing": ["none", "los"], "seed": 1}
JSON
"$nb" sweep "$tmp/dyn.json" --out "$tmp/dfull" --jobs 2 --quiet
check dyn_merged '[ -s "$tmp/dfull/dynamic/results.csv" ] && head -1 "$tmp/dfull/dynamic/results.csv" | grep -q ",epoch$" &&
  [ "$(wc -l < "$tmp/dfull/dynamic/results.updates.csv")" -eq $((1 + 2 * 5)) ] && [ -s "$tmp/dfull/results.csv" ]'
"$nb" sweep "$tmp/dyn.json" --out "$tmp/ds1" --shard 1/2 --jobs 1 --quiet
"$nb" sweep "$tmp/dyn.json" --out "$tmp/ds2" --shard 2/2 --jobs 1 --quiet
"$nb" merge "$tmp/ds1" "$tmp/ds2" --out "$tmp/dmerged" 2>/dev/null
ustrip() { cut -d, -f1-5 "$1"; }  # updates.csv without update_us, rebuild_us
check dyn_shards_merged 'diff <(strip "$tmp/dfull/dynamic/results.csv") <(strip "$tmp/dmerged/dynamic/results.csv") >/dev/null &&
  diff <(ustrip "$tmp/dfull/dynamic/results.updates.csv") <(ustrip "$tmp/dmerged/dynamic/results.updates.csv") >/dev/null'
rm "$tmp/ds1/units/"dynamic__*; echo "partial" > "$tmp/ds1/units/dynamic__doors__center__grid8.part.csv"
"$nb" sweep "$tmp/dyn.json" --out "$tmp/ds1" --jobs 2 --quiet
check dyn_resumed 'diff <(strip "$tmp/dfull/dynamic/results.csv") <(strip "$tmp/ds1/dynamic/results.csv") >/dev/null &&
  ! ls "$tmp/ds1/units/" | grep -q "\.part\."'
echo "$((14 - fails)) passed, $fails failed"
[ "$fails" -eq 0 ]
