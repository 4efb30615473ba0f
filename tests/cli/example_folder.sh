#!/usr/bin/env bash
# A representation folder added at configure time, with no line changed elsewhere: the docs' example
# folder (docs/example/tiles: the class, registration.cpp, one CMake line), which tests/CMakeLists.txt
# adds to the test build only. The programs that link it (navbench-example, the battery programs)
# list it, build it, run every battery on it and hand it to a sweep's "every" only if it is not
# opt-in (it declares kOptIn); the docs check sees it missing from the docs' lists; the main
# program (navbench) knows nothing of it.
# Usage: example_folder.sh NAVBENCH NAVBENCH_EXAMPLE BATTERY_PROGRAM SOURCE_DIR
set -uo pipefail
nb=$1; ex=$2; battery=$3; src=$4
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fails=0
check() { if eval "$2"; then echo "ok   $1"; else echo "FAIL $1"; fails=$((fails+1)); fi; }

"$ex" list > "$tmp/list" 2>&1
check listed 'grep -qx "representation tiles docs example: 4-connected CSR tile graph" "$tmp/list"'
check capabilities_declared 'grep -qx "capabilities tiles radius=shrunk-map,grid-only,point-vertices,segment-edges" "$tmp/list"'
check parameter_declared 'grep -q "^parameter tiles links integer 1 \[1,4\]" "$tmp/list"'
check opt_in_declared 'grep -qx "opt-in tiles" "$tmp/list"'
check main_program_without_it '! "$nb" list | grep -q "^representation tiles "'
# The same registrations besides: every representation of navbench's list is in the example's.
check same_registrations_besides '[ "$("$nb" list | grep -c "^representation ")" -eq $(($(grep -c "^representation " "$tmp/list") - 1)) ]'
map=$src/datasets/maps/hand/l-corridor.map
"$ex" run --map "$map" --rep tiles --smoothing none,funnel --out "$tmp/run" --quiet > /dev/null 2>&1
check runs '[ "$(grep -c ",tiles,.*,ok," "$tmp/run.csv")" -gt 0 ] && ! grep -q ",tiles,.*,error," "$tmp/run.csv"'
# Every battery has cases for it, and they pass.
"$battery" --gtest_list_tests > "$tmp/cases" 2>&1
check in_the_batteries '[ "$(grep -c "tiles" "$tmp/cases")" -ge 10 ]'
"$battery" --gtest_filter='*Conformance*tiles*' > "$tmp/battery.log" 2>&1
check battery_passes '[ "$(sed -n "s/^\[  PASSED  \] \([0-9]*\) tests\?\.$/\1/p" "$tmp/battery.log")" -ge 5 ] && ! grep -q "FAILED" "$tmp/battery.log"'
# The docs check sees it, missing from each page's list.
/usr/bin/python3 "$src/tests/docs/check_rep_lists.py" "$ex" "$src" > "$tmp/docs" 2>&1; docs_status=$?
check docs_check_sees_it '[ $docs_status = 1 ] && grep -q "\`tiles\` (navbench list) missing from its representation list" "$tmp/docs"'
check docs_check_nothing_else '[ "$(grep -vc "\`tiles\` (navbench list) missing" "$tmp/docs")" = 0 ]'
# A sweep's "every": the registered representations not declared opt-in (tiles is), no name given.
cat > "$tmp/every.json" <<JSON
{"maps": ["$map"], "representations": [{"every": true, "searches": ["astar"]}], "smoothing": ["none"],
 "queries": {"select": "all", "random": 2}, "output": "$tmp/sweep"}
JSON
"$ex" sweep "$tmp/every.json" --jobs 2 --quiet > "$tmp/sweep.log" 2>&1
# (a map from a mesh file is the one kind the grid map does not give: those entries skip it; and
# navbench's own opt-in ones, its `opt-in NAME` lines, are left out as tiles is)
reps() {
  "$1" list | awk '$1 == "opt-in" {opt[$2] = 1} $1 == "capabilities" && $3 !~ /mesh-only/ {c[$2] = 1}
                   END {for (n in c) if (!(n in opt)) print n}' | sort
}
got=$(cut -d, -f"$(head -1 "$tmp/sweep/results.csv" | tr , '\n' | grep -nx representation | cut -d: -f1)" "$tmp/sweep/results.csv" | tail -n +2 | sort -u)
check sweep_every_leaves_out_opt_in '[ "$got" = "$(reps "$nb")" ]'
echo "example_folder: $fails failure(s)"
[ $fails = 0 ]
