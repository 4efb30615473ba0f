#!/usr/bin/env bash
# scripts/gppc-build on folders laid out like the competition archive's entries, made from the
# repository's own example entries: Entry.cpp, Entry.h, GPPC.h, a competition driver main.cpp
# (which must be replaced: it does not compile) and the entry's own build files (a Makefile and a
# compile.sh that calls make; the any-angle one a compile.sh that calls the compiler). The programs
# answer every query through navbench; the errors are one line with a non-zero status.
# Usage: gppc_build.sh NAVBENCH_BINARY SOURCE_DIR
set -uo pipefail
nb=$1; src=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
export TMPDIR=$tmp  # the scratch folders too, so that the test leaves nothing behind
fails=0
check() { if eval "$2"; then echo "ok   $1"; else echo "FAIL $1"; fails=$((fails+1)); fi; }
build=$src/scripts/gppc-build

# entry_folder DIR TRACK EXAMPLE_SOURCE: an archive-like entry folder.
entry_folder() {
  mkdir -p "$1"
  cp "$3" "$1/Entry.cpp"
  cp "$src/harness/gppc/include/Entry.h" "$src/harness/gppc/include/$2/GPPC.h" "$1/"
  printf '#error "the competition driver: gppc-build must put navbench'"'"'s host here"\n' > "$1/main.cpp"
}
entry_folder "$tmp/classic" classic "$src/entries/classic_astar/classic_astar.cpp"
printf 'CXXFLAGS = -O2 -std=c++17\nrun: Entry.cpp main.cpp\n\t$(CXX) $(CXXFLAGS) -o run Entry.cpp main.cpp\n' > "$tmp/classic/Makefile"
printf '#!/bin/bash\nmkdir -p index_data\nmake\n' > "$tmp/classic/compile.sh"
entry_folder "$tmp/anyangle" anyangle "$src/entries/anyangle_visibility/anyangle_visibility.cpp"
printf '#!/bin/bash\ng++ -O2 -std=c++17 -o run *.cpp\n' > "$tmp/anyangle/compile.sh"

"$build" "$tmp/classic" "$tmp/bin/classic" --track classic > "$tmp/out.txt" 2>&1
check classic_built '[ -x "$tmp/bin/classic" ] && grep -q "gppc-build: .*classic (classic)" "$tmp/out.txt"'
check source_untouched 'grep -q "#error" "$tmp/classic/main.cpp" && [ ! -e "$tmp/classic/run" ]'
check no_scratch_left '[ -z "$(ls -d "$tmp"/gppc-build.* 2>/dev/null)" ]'
"$build" "$tmp/anyangle" "$tmp/bin/anyangle" --track anyangle > "$tmp/out.txt" 2>&1
check anyangle_built '[ -x "$tmp/bin/anyangle" ]'

# The host compiles under the oldest standard an archive entry's build asks for (-std=c++11).
for t in classic anyangle; do
  check host_cxx11_$t 'g++ -std=c++11 -Wall -Werror -fsyntax-only -I "$src/harness/gppc/include/$t" -I "$src/harness/gppc/include" -I "$src" "$src/harness/gppc/host_main.cpp"'
done

# The programs through navbench: every query answered, the classic lengths optimal, the any-angle
# paths valid at the corner convention.
map=$src/datasets/maps/generated/rooms-16-128.map
"$nb" run --map "$map" --rep "gppc:path=$tmp/bin/classic,track=classic,name=c" --limit 40 \
  --out "$tmp/rc" --quiet > /dev/null 2>&1
rows() { awk -F, -v col="$2" 'NR==1{for(i=1;i<=NF;i++) if($i==col) c=i; next} {print $c}' "$1.csv"; }
# classic: the length equals the scenario file's (octile_optimal, printed to 8 decimals).
octile_equal() { awk -F, 'NR==1{for(i=1;i<=NF;i++) c[$i]=i; next}
  {d=$c["length"]-$c["octile_optimal"]; if(d<0)d=-d; if($c["status"]=="ok" && $c["valid"]==1 && d<1e-6) n++} END{print n+0}' "$1.csv"; }
check classic_rows '[ "$(rows "$tmp/rc" status | grep -c "^ok$")" -eq 40 ] && [ "$(octile_equal "$tmp/rc")" -eq 40 ]'
"$nb" run --map "$map" --rep "gppc:path=$tmp/bin/anyangle,track=anyangle,name=a" --convention corner --limit 40 \
  --out "$tmp/ra" --quiet > /dev/null 2>&1
check anyangle_rows '[ "$(rows "$tmp/ra" status | grep -c "^ok$")" -eq 40 ] && [ "$(rows "$tmp/ra" valid | grep -c "^1$")" -eq 40 ]'

# Errors: one line, non-zero status.
one_line_error() {  # NAME PATTERN ARGS...
  local name=$1 pattern=$2; shift 2
  "$build" "$@" > "$tmp/err.txt" 2>&1; local rc=$?
  check "$name" '[ $rc -ne 0 ] && [ "$(wc -l < "$tmp/err.txt")" -eq 1 ] && grep -q -- "$pattern" "$tmp/err.txt"'
}
one_line_error wrong_track "declares the classic track" "$tmp/classic" "$tmp/bin/x" --track anyangle
one_line_error wrong_track_anyangle "declares the anyangle track" "$tmp/anyangle" "$tmp/bin/x" --track classic
one_line_error bad_track "classic or anyangle" "$tmp/classic" "$tmp/bin/x" --track grid
mkdir -p "$tmp/empty"; cp "$tmp/classic/GPPC.h" "$tmp/empty/"
one_line_error no_entry_cpp "no Entry.cpp" "$tmp/empty" "$tmp/bin/x" --track classic
cp -a "$tmp/classic" "$tmp/broken"; echo 'this is not C++' >> "$tmp/broken/Entry.cpp"
one_line_error build_fails "build failed .*log: .*build.log" "$tmp/broken" "$tmp/bin/x" --track classic
log=$(sed -n 's/.*log: //p' "$tmp/err.txt")
check build_log_kept '[ -f "$log" ] && grep -q "not C++" "$log"'
check failed_build_no_program '[ ! -e "$tmp/bin/x" ]'
[ "$fails" -eq 0 ]
