#!/usr/bin/env bash
# The report's time and memory against the number of result rows: for each ROWS, a result set of
# that many rows made of renamed copies of SOURCE's rows (replicate_results.py, with the column
# schema), then scripts/report.py on it under /usr/bin/time -v, one after the other.
#
#   tests/scripts/bench_report.sh SOURCE WORKDIR [ROWS...]      (default ROWS: 1e5 1e6 1e7)
#
# SOURCE: a result set or sweep folder (e.g. results/default). WORKDIR/rows-N/ keeps each set
# (reused by a later run), its report and time.log. Prints one line per size: rows, wall seconds,
# CPU seconds (user + system, all processes), peak resident memory of the largest process (MiB).
# NAVBENCH_REPORT (default scripts/report.py) names the report script to measure.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
src=${1:?usage: bench_report.sh SOURCE WORKDIR [ROWS...]}
work=${2:?usage: bench_report.sh SOURCE WORKDIR [ROWS...]}
shift 2
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(100000 1000000 10000000)
report=${NAVBENCH_REPORT:-$root/scripts/report.py}
navpy="$root/scripts/navpy.sh"
[ -x /usr/bin/time ] || { echo "bench_report.sh: needs /usr/bin/time (Debian package time)" >&2; exit 2; }
mkdir -p "$work"
printf '%12s %10s %10s %10s\n' rows wall_s cpu_s peak_MiB
for n in "${sizes[@]}"; do
  set_dir="$work/rows-$n"
  if [ ! -s "$set_dir/results.csv" ]; then
    "$navpy" "$here/replicate_results.py" "$src" "$n" "$set_dir" --schema >/dev/null
  fi
  rm -rf "$set_dir/report"
  /usr/bin/time -v "$navpy" "$report" "$set_dir" --out "$set_dir/report" >"$set_dir/report.log" 2>"$set_dir/time.log" \
    || { echo "bench_report.sh: the report failed on $n rows (see $set_dir/time.log)" >&2; exit 1; }
  awk -v n="$n" -F': ' '
    /Elapsed \(wall clock\)/ { k = split($2, t, ":"); wall = (k == 3) ? t[1] * 3600 + t[2] * 60 + t[3] : t[1] * 60 + t[2] }
    /User time/ { cpu += $2 } /System time/ { cpu += $2 }
    /Maximum resident set size/ { mem = $2 / 1024 }
    END { printf "%12d %10.1f %10.1f %10.0f\n", n, wall, cpu, mem }' "$set_dir/time.log"
done
