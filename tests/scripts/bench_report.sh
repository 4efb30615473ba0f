#!/usr/bin/env bash
# The report's (and the results package's) time and memory against the number of result rows: for
# each ROWS, a result set of that many rows made of renamed copies of SOURCE's rows
# (replicate_results.py, with the column schema), then each command of --what on it, one after the
# other (never two at once: at ten million rows each takes gigabytes):
#
#   tests/scripts/bench_report.sh [--root CHECKOUT] [--what report,stages,load,export] [--clean] SOURCE WORKDIR [ROWS...]
#
#   report  scripts/report.py SET --out SET/report (its default figures, SVG and PDF)
#   stages  the same report run by report_stages.py (a second run): each stage's peak resident
#           memory and seconds, the table printed under the size's line (WHAT.log keeps it)
#   load    navbench.load(SET) and navbench.summarize(queries, builds=builds) (by configuration)
#   export  navbench export SET --sqlite SET/results.db (the database deleted afterwards)
#
# --root: the checkout whose scripts/report.py and python/navbench run (default this one), e.g. an
# older commit's worktree to measure before and after on the same sets (report_stages.py,
# replicate_results.py and tree_memory.py are always this checkout's).
# ROWS default: 1e6 3e6 1e7 (docs/measurements.md, "The report at scale"). SOURCE: a result set or
# sweep folder (e.g. results/default). WORKDIR/rows-N/ keeps each set (reused by a later run;
# --clean deletes it once measured: 2.3 GB at ten million rows), each command's output and logs
# (WHAT.time.log, WHAT.tree.log). Prints one line per size and command: rows, command, wall
# seconds, CPU seconds (user + system, all processes), the largest process's peak resident memory
# (/usr/bin/time -v), and the peak of the whole process tree's memory summed (tree_memory.py: PSS,
# shared pages split between the processes that share them, and RSS, shared pages counted in each
# process), in MiB. Wall and CPU seconds depend on what else runs; memory does not.
# NAVBENCH_REPORT (default CHECKOUT/scripts/report.py) names the report script to measure. For
# stages, peak_MiB is "-": report_stages.py sets the kernel's peak back at each stage boundary.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
what=report
clean=0
croot=$root
while [ $# -gt 0 ]; do
  case "$1" in
    --what) what=${2:?--what needs report, stages, load, export or a list of them}; shift 2 ;;
    --root) croot=$(cd "${2:?--root needs a checkout}" && pwd); shift 2 ;;
    --clean) clean=1; shift ;;
    --) shift; break ;;
    -*) echo "bench_report.sh: unknown option $1" >&2; exit 2 ;;
    *) break ;;
  esac
done
usage="usage: bench_report.sh [--root CHECKOUT] [--what report,stages,load,export] [--clean] SOURCE WORKDIR [ROWS...]"
src=${1:?$usage}
work=${2:?$usage}
shift 2
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(1000000 3000000 10000000)
IFS=, read -r -a whats <<<"$what"
for w in "${whats[@]}"; do
  case "$w" in report|stages|load|export) ;; *) echo "bench_report.sh: --what: $w is not report, stages, load or export" >&2; exit 2 ;; esac
done
report=${NAVBENCH_REPORT:-$croot/scripts/report.py}
navpy="$croot/scripts/navpy.sh"
[ -f "$report" ] && [ -x "$navpy" ] || { echo "bench_report.sh: $croot has no scripts/report.py or scripts/navpy.sh" >&2; exit 2; }
echo "# checkout $croot ($(git -C "$croot" rev-parse --short HEAD 2>/dev/null || echo 'not a git checkout'))"
[ -x /usr/bin/time ] || { echo "bench_report.sh: needs /usr/bin/time (Debian package time)" >&2; exit 2; }
mkdir -p "$work"
printf '%12s %8s %10s %10s %10s %12s %12s\n' rows command wall_s cpu_s peak_MiB tree_pss_MiB tree_rss_MiB
for n in "${sizes[@]}"; do
  n=$(printf '%.0f' "$n")  # 1e6 -> 1000000
  set_dir="$work/rows-$n"
  if [ ! -s "$set_dir/results.csv" ]; then
    "$navpy" "$here/replicate_results.py" "$src" "$n" "$set_dir" --schema >/dev/null
  fi
  for w in "${whats[@]}"; do
    case "$w" in
      report) rm -rf "$set_dir/report"; cmd=("$navpy" "$report" "$set_dir" --out "$set_dir/report") ;;
      stages) rm -rf "$set_dir/report-stages"
        cmd=("$navpy" "$here/report_stages.py" --root "$croot" -- "$set_dir" --out "$set_dir/report-stages") ;;
      load) cmd=("$navpy" -c 'import sys, navbench
res = navbench.load(sys.argv[1])
t = navbench.summarize(res.queries, builds=res.builds)
print(f"{len(res.queries)} rows, {len(t)} configurations")' "$set_dir") ;;
      export) rm -f "$set_dir/results.db"; cmd=("$navpy" -m navbench export "$set_dir" --sqlite "$set_dir/results.db") ;;
    esac
    /usr/bin/time -v "$navpy" "$here/tree_memory.py" --out "$set_dir/$w.tree.log" -- "${cmd[@]}" \
      >"$set_dir/$w.log" 2>"$set_dir/$w.time.log" \
      || { echo "bench_report.sh: $w failed on $n rows (see $set_dir/$w.time.log)" >&2; exit 1; }
    rm -f "$set_dir/results.db"
    tree=$(cat "$set_dir/$w.tree.log")
    awk -v n="$n" -v w="$w" -v tree="$tree" -F': ' '
      /Elapsed \(wall clock\)/ { k = split($2, t, ":"); wall = (k == 3) ? t[1] * 3600 + t[2] * 60 + t[3] : t[1] * 60 + t[2] }
      /User time/ { cpu += $2 } /System time/ { cpu += $2 }
      /Maximum resident set size/ { mem = $2 / 1024 }
      END { split(tree, f, " "); m = (w == "stages") ? "-" : sprintf("%.0f", mem)
            printf "%12d %8s %10.1f %10.1f %10s %12s %12s\n", n, w, wall, cpu, m, f[5], f[3] }' \
      "$set_dir/$w.time.log"
    # report_stages.py's table (from its header line on), indented under the size's line
    [ "$w" != stages ] || sed -n '/^stage /,$s/^/      /p' "$set_dir/$w.log"
  done
  [ "$clean" = 0 ] || rm -rf "$set_dir"
done
