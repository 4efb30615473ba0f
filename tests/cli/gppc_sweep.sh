#!/usr/bin/env bash
# A sweep with a competition entry (docs/outside-planners.md), killed (kill -9) midway and resumed,
# equals the uninterrupted sweep; the entry's rows are all answered and valid.
# Usage: gppc_sweep.sh NAVBENCH_BINARY SOURCE_DIR ENTRY_PROGRAM (a classic-track entry)
set -uo pipefail
nb=$1; src=$2; entry=$3
tmp=$(mktemp -d); trap 'kill -9 $pid 2>/dev/null; rm -rf "$tmp"' EXIT
pid=0; fails=0
check() { if eval "$2"; then echo "ok   $1"; else echo "FAIL $1"; fails=$((fails+1)); fi; }
cat > "$tmp/sweep.json" <<JSON
{"maps": ["$src/datasets/maps/generated"], "representations": ["gppc:path=$entry,track=classic,name=example", "grid8"],
 "queries": {"select": "spread", "n": 60}, "seed": 3,
 "comment": "repetitions make each unit slow enough for the kill to land mid-sweep", "repetitions": 20}
JSON
# Results without the timing columns (locate_us, search_us, smooth_us are 21-23; first_move_us, first20_us,
# max_step_us 32-34).
strip() { cut -d, --complement -f21-23,32-34 "$1"; }
units() { ls "$tmp/killed/units/" 2>/dev/null | grep -v -e '\.build\.csv$' -e '\.paths\.csv$' | grep -c '\.csv$' || true; }

"$nb" sweep "$tmp/sweep.json" --out "$tmp/full" --jobs 1 --quiet
check full_run '[ -s "$tmp/full/results.csv" ]'
n_entry=$(grep -c ",gppc:example," "$tmp/full/results.csv")
# The merged build rows carry the entry's columns (the group `entry`), empty for grid8.
check build_entry_columns '[ "$(head -1 "$tmp/full/results.build.csv" | cut -d, -f8-)" = "preprocess_ms,prepare_ms,stored_bytes,peak_rss_bytes" ] &&
  grep ",gppc:example," "$tmp/full/results.build.csv" | grep -qv ",,,\$" && grep ",grid8," "$tmp/full/results.build.csv" | grep -q ",,,\$"'
check entry_rows_ok '[ "$n_entry" -ge 150 ] && [ "$(grep ",gppc:example," "$tmp/full/results.csv" | grep -c ",ok,")" -eq "$n_entry" ]'

"$nb" sweep "$tmp/sweep.json" --out "$tmp/killed" --jobs 1 --quiet & pid=$!
for _ in $(seq 1 1200); do
  [ "$(units)" -ge 2 ] && break
  sleep 0.05
done
kill -9 "$pid" 2>/dev/null; wait "$pid" 2>/dev/null
done_units=$(units)
check killed_midway "[ $done_units -ge 2 ] && [ $done_units -lt 10 ] && [ ! -e $tmp/killed/results.csv ]"
"$nb" sweep "$tmp/sweep.json" --out "$tmp/killed" --jobs 2 --quiet
check resumed_equals_full 'diff <(strip "$tmp/full/results.csv") <(strip "$tmp/killed/results.csv") >/dev/null'
check resumed_build_header 'cmp <(head -1 "$tmp/full/results.build.csv") <(head -1 "$tmp/killed/results.build.csv")'
[ "$fails" -eq 0 ]
