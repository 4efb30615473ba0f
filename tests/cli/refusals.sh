#!/usr/bin/env bash
# A refusal leaves nothing behind (docs/results.md#result-files): a run, a changing-map run or a
# sweep that exits with 2 because of its input prints one line naming the file and the rule, and
# leaves no result files — whether it is refused while reading (a PGM whose maxval is 0) or after
# its files were opened (a map without free space to draw queries from).
# Usage: refusals.sh NAVBENCH_BINARY
set -uo pipefail
nb=$1
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fails=0; total=0
# refused NAME PATTERN OUTPUTS ARGS...: exit 2, one line on stderr matching PATTERN, and none of the
# space-separated OUTPUTS (files or folders) exists afterwards.
refused() {
  local name=$1 pat=$2 outputs=$3; shift 3
  total=$((total+1))
  "$nb" "$@" >"$tmp/out" 2>"$tmp/err"; local rc=$?
  local lines left=""
  lines=$(wc -l <"$tmp/err")
  for f in $outputs; do [ -e "$f" ] && left="$left $f"; done
  if [ "$rc" -ne 2 ] || [ "$lines" -ne 1 ] || ! grep -qE -- "$pat" "$tmp/err" || [ -n "$left" ]; then
    echo "FAIL $name: rc=$rc lines=$lines left:${left:- nothing}: $(head -3 "$tmp/err")"; fails=$((fails+1))
  else echo "ok   $name: $(cat "$tmp/err")"; fi
}
results() { echo "$1.csv $1.build.csv $1.meta.json $1.paths.csv $1.updates.csv $1.unrun.csv"; }

# The held-out PGM: maxval 0 (the format wants 1..65535), read before anything is written.
printf 'P5\n3 2\n0\n\0\0\0\0\0\0' > "$tmp/maxval0.pgm"
refused pgm_maxval0 'maxval0\.pgm: PGM maxval 0 outside 1\.\.65535' "$(results "$tmp/o")" \
  run --map "$tmp/maxval0.pgm" --queries 3 --rep grid8 --out "$tmp/o"
# A valid map with no free cell: refused when the queries are drawn, after the run opened its files.
printf 'type octile\nheight 2\nwidth 3\nmap\n@@@\n@@@\n' > "$tmp/blocked.map"
refused no_free_space 'blocked\.map: no free space to draw queries from' "$(results "$tmp/o")" \
  run --map "$tmp/blocked.map" --queries 3 --rep grid8 --paths --out "$tmp/o"
# The same over the files of an earlier run with that prefix: they go too (a refused run's files
# would look like an empty result).
printf 'type octile\nheight 1\nwidth 3\nmap\n...\n' > "$tmp/ok.map"
"$nb" run --map "$tmp/ok.map" --queries 2 --rep grid8 --quiet --out "$tmp/again" 2>/dev/null || { echo "FAIL first run"; fails=$((fails+1)); }
refused no_free_space_again 'blocked\.map: no free space' "$(results "$tmp/again")" \
  run --map "$tmp/blocked.map" --queries 3 --rep grid8 --out "$tmp/again"
# In a subfolder the run would have made.
refused no_free_space_subfolder 'blocked\.map: no free space' "$(results "$tmp/sub/o")" \
  run --map "$tmp/blocked.map" --queries 3 --rep grid8 --out "$tmp/sub/o"
# Sweeps: refused while reading (the folder is never made) and in a unit (the folder it made goes).
printf '{"maps": ["%s"], "representations": ["grid8"], "queries": {"random": 3}}\n' "$tmp/maxval0.pgm" > "$tmp/pgm.json"
refused sweep_pgm_maxval0 'maxval0\.pgm: PGM maxval 0' "$tmp/sweep-pgm" sweep "$tmp/pgm.json" --out "$tmp/sweep-pgm" --quiet
printf '{"maps": ["%s"], "representations": ["grid8"], "queries": {"random": 3}}\n' "$tmp/blocked.map" > "$tmp/blocked.json"
refused sweep_no_free_space 'blocked\.map: no free space' "$tmp/sweep-blocked" sweep "$tmp/blocked.json" --out "$tmp/sweep-blocked" --quiet --jobs 1
echo "$((total - fails))/$total refusals leave nothing behind"
[ "$fails" -eq 0 ]
