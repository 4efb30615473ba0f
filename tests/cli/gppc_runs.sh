#!/usr/bin/env bash
# A competition entry (docs/outside-planners.md) in `navbench run`: the build row's `entry` columns
# (filled for the entry only), --threads 2 with an entry process per thread and rows equal to one
# thread's, --repetitions and --threads batched as the first pass is, and a changing map on which the entry is preprocessed again for every map state
# (its repetitions batched too).
# The misbehaving entry in a run beside grid8: each misbehaviour costs its query a row with status
# error or valid = 0, the run exits 0, grid8's rows are intact, and on a map where PreprocessMap or
# PrepareForSearch dies (a crash, a hang past prepare_ms, an exception) every query of the entry is
# an error row with the reason.
# Usage: gppc_runs.sh NAVBENCH_BINARY SOURCE_DIR ANYANGLE_ENTRY_PROGRAM MISBEHAVING_ENTRY_PROGRAM
set -uo pipefail
nb=$1; src=$2; entry=$3; bad=$4
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fails=0
check() { if eval "$2"; then echo "ok   $1"; else echo "FAIL $1"; fails=$((fails+1)); fi; }
map=$src/datasets/maps/generated/rooms-16-128.map
rep() { echo "gppc:path=$entry,track=anyangle,name=vis,log=$tmp/$1.log"; }
col() { head -1 "$1" | tr , '\n' | grep -nx "$2" | cut -d: -f1; }  # a column's number by its name

for t in 1 2; do
  "$nb" run --map "$map" --rep "$(rep t$t)" --rep grid8 --convention corner --limit 30 --threads "$t" --out "$tmp/t$t" --quiet ||
    echo "FAIL run --threads $t"
done
b=$tmp/t1.build.csv
check build_header '[ "$(head -1 "$b" | cut -d, -f8-)" = "preprocess_ms,prepare_ms,stored_bytes,peak_rss_bytes" ]'
entry_row=$(grep '^rooms-16-128,gppc:vis,' "$b"); grid_row=$(grep '^rooms-16-128,grid8,' "$b")
# The example writes FILENAME.corners (16 bytes a corner) in PreprocessMap: stored_bytes > 0; its peak memory is a few MB.
check entry_columns_filled "echo '$entry_row' | awk -F, '{exit !(\$(NF-3) > 0 && \$(NF-2) > 0 && \$(NF-1) > 0 && \$NF > 1000000 && \$NF < 1000000000)}'"
check own_columns_empty '[ "$(echo "$grid_row" | rev | cut -d, -f1-4 | rev)" = ",,," ]'
check no_entry_columns_without_entry '"$nb" run --map "$map" --rep grid8 --limit 2 --out "$tmp/own" --quiet && ! grep -q preprocess_ms "$tmp/own.build.csv"'
strip() { cut -d, --complement -f"$(col "$1" locate_us),$(col "$1" search_us),$(col "$1" smooth_us),$(col "$1" first_move_us),$(col "$1" first20_us),$(col "$1" max_step_us)" "$1"; }
check threads_rows_equal 'diff <(strip "$tmp/t1.csv") <(strip "$tmp/t2.csv") >/dev/null'
check threads_all_ok '[ "$(grep -c ",gppc:vis,.*,ok," "$tmp/t2.csv")" -eq 30 ]'
# PrepareForSearch prints its corner count: once (after the option check's probe on a 1 x 1 map)
# with one thread, in two processes with two.
check one_process_per_thread '[ "$(grep -c "411 corners" "$tmp/t1.log")" -eq 1 ] && [ "$(grep -c "411 corners" "$tmp/t2.log")" -eq 2 ]'
# Repetitions and threads are batched as the first pass is (docs/outside-planners.md#4-what-is-measured-and-how):
# navbench's lines in the log say how many queries went to the entry together; none went alone.
sent() { awk '/^navbench: [0-9]+ queries sent together$/ {n += $2} /^navbench: 1 query sent alone$/ {n++; alone++}
              END {print n + 0, alone + 0}' "$1"; }
check first_pass_batched '[ "$(sent "$tmp/t1.log")" = "30 0" ]'
check threads_batched '[ "$(sent "$tmp/t2.log")" = "30 0" ]'
for rt in "3 1" "2 2"; do
  read -r n t <<< "$rt"
  "$nb" run --map "$map" --rep "$(rep r${n}t$t)" --rep grid8 --convention corner --limit 30 --repetitions "$n" --threads "$t" \
    --out "$tmp/r${n}t$t" --quiet || echo "FAIL run --repetitions $n --threads $t"
done
check repetitions_batched '[ "$(sent "$tmp/r3t1.log")" = "90 0" ]'
check repetitions_threads_batched '[ "$(sent "$tmp/r2t2.log")" = "60 0" ]'
# More threads than queries: an entry process only for the threads that answer (3 queries: 3 processes).
"$nb" run --map "$map" --rep "$(rep t8)" --convention corner --limit 3 --threads 8 --out "$tmp/t8" --quiet || echo "FAIL run --threads 8"
check no_idle_entry_processes '[ "$(grep -c "411 corners" "$tmp/t8.log")" -eq 3 ] && [ "$(sent "$tmp/t8.log")" = "3 3" ]'
check repetitions_rows_equal 'diff <(strip "$tmp/t1.csv") <(strip "$tmp/r3t1.csv") >/dev/null && diff <(strip "$tmp/t1.csv") <(strip "$tmp/r2t2.csv") >/dev/null'

"$nb" generate changes --map "$map" --epochs 3 --seed 5 --out "$tmp/dyn" >/dev/null 2>&1
"$nb" run --dynamic "$tmp/dyn.scen" --rep "$(rep dyn)" --convention corner --out "$tmp/d" --quiet || echo "FAIL dynamic run"
d=$tmp/d.csv
rows=$(grep -c ',gppc:vis,' "$d")
# Every map state's answers valid and optimal (gap 0): the entry saw each state's map, not the first.
check dynamic_valid_optimal "[ $rows -ge 30 ] && awk -F, -v s=$(col "$d" status) -v v=$(col "$d" valid) -v g=$(col "$d" gap) \
  'NR > 1 && !(\$s == \"ok\" && \$v == 1 && \$g < 1e-9 && \$g > -1e-9) {bad++} END {exit bad > 0}' '$d'"
epochs=$(tail -n +2 "$d" | awk -F, -v e="$(col "$d" epoch)" '{print $e}' | sort -u | wc -l)
builds=$(grep -c "corners" "$tmp/dyn.log")
# The probe, the first build, and one PreprocessMap + PrepareForSearch per update (one per epoch).
check preprocessed_per_epoch "[ $epochs -ge 3 ] && [ $builds -eq \$((1 + 1 + $epochs)) ]"
check corner_counts_change '[ "$(grep corners "$tmp/dyn.log" | sort -u | wc -l)" -ge 3 ]'
# --repetitions on a changing map (docs/changing-maps.md#running-a-changing-map): each map state's
# queries go to the entry together with their repetitions, and the rows equal one run's.
"$nb" run --dynamic "$tmp/dyn.scen" --rep "$(rep dynr)" --convention corner --repetitions 3 --out "$tmp/dr" --quiet ||
  echo "FAIL dynamic run --repetitions 3"
check dynamic_repetitions_batched '[ "$(sent "$tmp/dynr.log")" = "$((3 * rows)) 0" ] && diff <(strip "$d") <(strip "$tmp/dr.csv") >/dev/null'

# A free 12 x 12 map; query k starts at (k, 6): entries/misbehaving/misbehaving.cpp's behaviour k.
mkdir -p "$tmp/maps"
{ printf 'type octile\nheight 12\nwidth 12\nmap\n'; for _ in $(seq 12); do echo '............'; done; } > "$tmp/maps/free.map"
{ echo 'version 1'; for k in $(seq 0 11); do printf '0\tfree.map\t12\t12\t%d\t6\t%d\t9\t3\n' "$k" "$k"; done; } > "$tmp/maps/free.map.scen"
for w in 3 5 7; do  # PreprocessMap crashes (3 wide), PrepareForSearch throws (5 wide), PreprocessMap hangs (7 wide)
  { printf 'type octile\nheight 3\nwidth %d\nmap\n' "$w"; for _ in 1 2 3; do printf '%*s\n' "$w" '' | tr ' ' .; done; } > "$tmp/maps/w$w.map"
  printf 'version 1\n0\tw%d.map\t%d\t3\t0\t0\t2\t2\t2.8284271247\n0\tw%d.map\t%d\t3\t0\t2\t2\t0\t2.8284271247\n' \
    "$w" "$w" "$w" "$w" > "$tmp/maps/w$w.map.scen"
done
"$nb" run --map "$tmp/maps" --rep "gppc:path=$bad,track=anyangle,name=bad,query_ms=1500,prepare_ms=1500,memory_mb=48,log=$tmp/bad.log" --rep grid8 \
  --convention corner --out "$tmp/bad" --quiet 2> "$tmp/bad.err"
rc=$?
check misbehaving_run_exit_0 '[ $rc -eq 0 ]'
r=$tmp/bad.csv
status_of() { awk -F, -v k="$1" -v s="$(col "$r" status)" -v v="$(col "$r" valid)" -v i="$(col "$r" scen_index)" \
  -v rep="$(col "$r" representation)" '$1 == "free" && $rep == "gppc:bad" && $i == k {print $s $v}' "$r"; }
got=$(for k in $(seq 0 11); do printf '%s ' "$(status_of $k)"; done)
# straight, crash, abort, exception, hang, memory, NaN, outside, wrong start, too long, unfinished, wrong goal
check misbehaving_rows '[ "$got" = "ok1 error error error error error error ok0 ok0 error error ok0 " ]'
check grid8_rows_intact '[ "$(grep -c ",grid8,.*,ok," "$r")" -eq 18 ]'
# Where the entry's preprocessing dies: each of the map's 2 queries an error row with the reason, a note on stderr.
died() {  # map, reason: the entry's rows on the map, as "status|message" lines
  awk -F, -v s="$(col "$r" status)" -v m="$(col "$r" message)" -v rep="$(col "$r" representation)" \
    -v map="$1" '$1 == map && $rep == "gppc:bad" {print $s "|" $m}' "$r"
}
died_ok() { [ "$(died "$1" | wc -l)" -eq 2 ] && [ "$(died "$1" | grep -c "^error|$2")" -eq 2 ] && grep -q "gppc:bad failed on $1: $2" "$tmp/bad.err"; }
check preprocess_crash_rows 'died_ok w3 "gppc entry failed in PreprocessMap: entry"'
check preprocess_hang_rows 'died_ok w7 "gppc entry failed in PreprocessMap: time limit of 1500 ms exceeded"'
check prepare_throws_rows 'died_ok w5 "gppc entry failed in PrepareForSearch: entry"'
check grid8_rows_where_entry_died '[ "$(grep -c "^w[357],.*,grid8,.*,ok," "$r")" -eq 6 ]'
check entry_output_in_log_only 'grep -q "misbehaving entry: query from x = 11" "$tmp/bad.log" && ! grep -q "misbehaving entry" "$r" "$tmp/bad.err"'
[ "$fails" -eq 0 ]
