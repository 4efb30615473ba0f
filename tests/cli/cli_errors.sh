#!/usr/bin/env bash
# Bad input gets a clear one-line error and a non-zero exit, never a crash (docs/command-line.md).
# Usage: cli_errors.sh NAVBENCH_BINARY SOURCE_DIR
set -uo pipefail
nb=$1; src=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fails=0; total=0
# expect_error NAME PATTERN ARGS...: exit 2, exactly one line on stderr, matching PATTERN.
expect_error() {
  local name=$1 pat=$2; shift 2
  total=$((total+1))
  "$nb" "$@" >"$tmp/out" 2>"$tmp/err"; local rc=$?
  local lines; lines=$(wc -l <"$tmp/err")
  if [ "$rc" -ne 2 ] || [ "$lines" -ne 1 ] || ! grep -qE -- "$pat" "$tmp/err"; then
    echo "FAIL $name: rc=$rc lines=$lines: $(head -3 "$tmp/err")"; fails=$((fails+1))
  else echo "ok   $name: $(cat "$tmp/err")"; fi
}
m=$src/datasets/maps/hand/l-corridor.map
printf 'type octile\nheight 2\nwidth 3\nmap\n...\n..\n' > "$tmp/short.map"
printf 'type octile\nheight -4\nwidth 3\nmap\n' > "$tmp/neg.map"
printf 'type octile\nheight 99999999\nwidth 99999999\nmap\n' > "$tmp/huge.map"
printf 'garbage\n' > "$tmp/garbled.map"
printf 'type octile\nheight 1\nwidth 3\nmap\n...\n' > "$tmp/ok.map"
printf 'version 7\n' > "$tmp/ok.map.scen"
cp "$tmp/ok.map" "$tmp/badfield.map"; printf 'version 1\n0\tbadfield.map\t3\t1\t0\t0\tx\t0\t2\n' > "$tmp/badfield.map.scen"
cp "$tmp/ok.map" "$tmp/size.map"; printf 'version 1\n0\tsize.map\t4\t1\t0\t0\t2\t0\t2\n' > "$tmp/size.map.scen"
cp "$tmp/ok.map" "$tmp/few.map"; printf 'version 1\n0\tfew.map\t3\t1\t0\t0\t2\n' > "$tmp/few.map.scen"
cp "$tmp/ok.map" "$tmp/frac.map"; printf 'version 1\n0\tfrac.map\t3\t1\t0.5\t0\t2\t0\t2\n' > "$tmp/frac.map.scen"
cp "$tmp/ok.map" "$tmp/empty.map"; : > "$tmp/empty.map.scen"
expect_error short_row 'short\.map:6: row 1 has 2 cells' run --map "$tmp/short.map" --rep grid8 --out "$tmp/r"
expect_error negative_size 'neg\.map:2: height -4 is outside' run --map "$tmp/neg.map" --rep grid8 --out "$tmp/r"
expect_error absurd_size 'huge\.map:2: height 99999999 is outside' run --map "$tmp/huge.map" --rep grid8 --out "$tmp/r"
expect_error garbled_header 'garbled\.map:1: expected .type octile.' run --map "$tmp/garbled.map" --rep grid8 --out "$tmp/r"
expect_error scen_version 'ok\.map\.scen:1: unknown scenario version' run --map "$tmp/ok.map" --rep grid8 --out "$tmp/r"
expect_error scen_field 'badfield\.map\.scen:2: coordinate .x. is not a number' run --map "$tmp/badfield.map" --rep grid8 --out "$tmp/r"
expect_error scen_fields 'few\.map\.scen:2: expected 9 fields' run --map "$tmp/few.map" --rep grid8 --out "$tmp/r"
expect_error scen_size 'size\.map\.scen: query 0: map size 4x1 does not match' run --map "$tmp/size.map" --rep grid8 --out "$tmp/r"
expect_error scen_fractional_cell 'frac\.map\.scen:2: start x 0\.5 is not a whole cell index' run --map "$tmp/frac.map" --rep grid8 --out "$tmp/r"
expect_error scen_empty 'empty\.map\.scen:1: empty scenario file' run --map "$tmp/empty.map" --rep grid8 --out "$tmp/r"
expect_error missing_map 'nope\.map: no such map' run --map "$tmp/nope.map" --rep grid8 --out "$tmp/r"
expect_error unknown_rep "unknown representation 'grid9'" run --map "$m" --rep grid9 --out "$tmp/r"
expect_error rep_comma_rule "a list of names takes no parameters, and a name with parameters is given alone.*--rep prm --rep prm:samples=20000" run --map "$m" --rep prm,prm:samples=20000 --out "$tmp/r"
expect_error unknown_param 'quadtree has no parameter bogus' run --map "$m" --rep quadtree:bogus=1 --out "$tmp/r"
expect_error bad_param 'min=0 is outside' run --map "$m" --rep quadtree:min=0 --out "$tmp/r"
expect_error bad_heuristic "unknown heuristic 'nearest'" run --map "$m" --rep grid8 --heuristic nearest --out "$tmp/r"
expect_error bad_weight 'weight must be a positive number' run --map "$m" --rep grid8 --heuristic euclidean*-1 --out "$tmp/r"
expect_error bad_smoothing "unknown smoothing 'spline'" run --map "$m" --rep grid8 --smoothing spline --out "$tmp/r"
# Weighted maps (docs/terrain.md): the terrain table, cost layers, and the rules between options.
printf 'type costs\nheight 1\nwidth 3\ncosts\n1 2 0.5\n' > "$tmp/low.costs"
printf 'type costs\nheight 2\nwidth 3\ncosts\n1 2 3\n1 1 1\n' > "$tmp/size.costs"
printf 'type costs\nheight 1\nwidth 3\ncosts\n1 2\n' > "$tmp/row.costs"
expect_error terrain_obstacle "--terrain cannot name '@'" run --map "$m" --rep grid8 --terrain @=2 --out "$tmp/r"
expect_error terrain_weight "--terrain weight of 'S' must be a number >= 1, got '0.5'" run --map "$m" --rep grid8 --terrain S=0.5 --out "$tmp/r"
expect_error terrain_item "--terrain item 'S2' is not CHAR=WEIGHT" run --map "$m" --rep grid8 --terrain S2 --out "$tmp/r"
expect_error terrain_twice "--terrain names 'S' twice" run --map "$m" --rep grid8 --terrain S=2,S=3 --out "$tmp/r"
expect_error terrain_and_costs "--terrain and --costs exclude each other" run --map "$m" --rep grid8 --terrain S=2 --costs "$tmp/low.costs" --out "$tmp/r"
expect_error terrain_corner "--terrain needs the center convention" run --map "$m" --rep grid8 --terrain S=2 --convention corner --out "$tmp/r"
expect_error terrain_radius "--terrain with --radius > 0 is not supported" run --map "$m" --rep grid8 --terrain S=2 --radius 0.5 --out "$tmp/r"
expect_error costs_low "low\.costs:5: cost '0\.5' at x 2 is not a number >= 1 or inf" run --map "$tmp/ok.map" --scen "$m.scen" --rep grid8 --costs "$tmp/low.costs" --out "$tmp/r"
expect_error costs_size "size\.costs:3: cost layer is 3x2, the map 3x1" run --map "$tmp/frac.map" --rep grid8 --queries 2 --scen /dev/null --costs "$tmp/size.costs" --out "$tmp/r"
expect_error costs_row "row\.costs:5: row 0 has 2 numbers, width is 3" run --map "$tmp/few.map" --queries 2 --rep grid8 --costs "$tmp/row.costs" --out "$tmp/r"
expect_error costs_missing "nope\.costs: cannot open cost layer" run --map "$m" --rep grid8 --costs "$tmp/nope.costs" --out "$tmp/r"
expect_error costs_polygon "terrain costs need a grid map" run --map "$src/datasets/maps/hand/polygons.wkt" --rep navmesh --costs "$tmp/low.costs" --out "$tmp/r"
expect_error generate_costs_kind "--kind must be inflation or regions, got 'hills'" generate costs --map "$m" --kind hills --out "$tmp/c"
expect_error generate_costs_map "generate costs needs --map" generate costs --out "$tmp/c"
expect_error bad_search "unknown search 'dijkstra' .astar, theta, lazy-theta." run --map "$m" --rep grid8 --search dijkstra --out "$tmp/r"
expect_error empty_search_item "unknown search ''" run --map "$m" --rep grid8 --search theta, --out "$tmp/r"
expect_error bad_limit '--limit: needs a positive integer' run --map "$m" --rep grid8 --limit -3 --out "$tmp/r"
expect_error bad_threads '--threads: needs a positive integer' run --map "$m" --rep grid8 --threads 0 --out "$tmp/r"
expect_error text_threads "--threads: needs a positive integer up to 1024, got '2x'" run --map "$m" --rep grid8 --threads 2x --out "$tmp/r"
expect_error many_threads "--threads: needs a positive integer up to 1024, got '5000'" run --map "$m" --rep grid8 --threads 5000 --out "$tmp/r"
expect_error negative_radius "--radius needs numbers >= 0, got '-0.5'" run --map "$m" --rep grid8 --radius -0.5 --out "$tmp/r"
expect_error text_radius "--radius needs numbers >= 0, got 'abc'" run --map "$m" --rep grid8 --radius abc --out "$tmp/r"
expect_error nan_radius "--radius needs numbers >= 0, got 'nan'" run --map "$m" --rep grid8 --radius nan --out "$tmp/r"
expect_error empty_radius_item "--radius needs numbers >= 0, got ''" run --map "$m" --rep grid8 --radius 0.5, --out "$tmp/r"
expect_error bad_convention '--convention must be center or corner' run --map "$m" --rep grid8 --convention edge --out "$tmp/r"
expect_error corner_lattice_center 'grid8:lattice=corner needs the corner convention' run --map "$m" --rep grid8:lattice=corner --out "$tmp/r"
expect_error pinch_needs_corner 'pinch=allow needs lattice=corner' run --map "$m" --rep grid8:pinch=allow --convention corner --out "$tmp/r"
expect_error pinch_value '--pinch needs forbid or allow' run --map "$m" --rep grid8 --pinch maybe --out "$tmp/r"
expect_error corner_lattice_center_pinch 'grid8:lattice=corner needs the corner convention' run --map "$m" --rep grid8:lattice=corner --pinch allow --out "$tmp/r"
expect_error visgraph_pinch_skip 'pinch=allow does not combine with skip=1' run --map "$m" --rep visgraph:pinch=allow,skip=1 --convention corner --out "$tmp/r"
expect_error reproduce_unknown "unknown reproduction 'bogus'" reproduce bogus
expect_error reproduce_no_name 'reproduce: needs NAME' reproduce
expect_error reproduce_bad_data 'arena2\.map' reproduce uras-koenig-arena2 --data "$tmp/nowhere" --out "$tmp/rep"
expect_error no_out 'run needs --out' run --map "$m" --rep grid8
expect_error unknown_option "unknown option '--frobnicate'" run --map "$m" --rep grid8 --frobnicate --out "$tmp/r"
expect_error unknown_command "unknown command 'fly'" fly
expect_error bad_sweep_config 'not valid JSON' sweep "$tmp/short.map"
expect_error bad_shard '--shard needs K/N' sweep "$src/scripts/sweeps/default.json" --shard 3
printf '{"maps": ["%s"], "dynamic": [{"path": "x.scen", "terrain": "S=2"}], "representations": ["grid8"]}\n' "$m" > "$tmp/dynw.json"
expect_error sweep_dynamic_weights "a dynamic entry takes no weights" sweep "$tmp/dynw.json"
# Changing maps (docs/changing-maps.md#running-a-changing-map): every option a changing map's run
# does not follow is refused with one line, on the command line and in a sweep config alike.
"$nb" generate changes --map "$src/datasets/maps/generated/rooms-16-128.map" --change doors --epochs 3 --queries 3 --seed 2 \
  --out "$tmp/dyn/doors" 2>/dev/null || echo "FAIL generate changes"
ds=$tmp/dyn/doors.scen
dyn() { expect_error "$1" "$2" run --dynamic "$ds" --rep grid8 --out "$tmp/r" "${@:3}"; }
dyn dynamic_radius '^navbench run: --radius is not supported with --dynamic$' --radius 0.5
dyn dynamic_threads '^navbench run: --threads is not supported with --dynamic$' --threads 2
dyn dynamic_batch "^navbench run: --batch times one thread's queries over maps: not with --threads or --dynamic\$" --batch 2
dyn dynamic_trace '^navbench run: --trace is not supported with --dynamic$' --trace 2
dyn dynamic_trace_cap '^navbench run: --trace-cap is not supported with --dynamic$' --trace-cap 1
dyn dynamic_pinch 'the squeeze rule allow is not supported with --dynamic$' --pinch allow
dyn dynamic_terrain '--terrain is not supported with --dynamic$' --terrain S=2
dyn dynamic_costs '--costs is not supported with --dynamic$' --costs "$tmp/x.costs"
for o in "--limit 3" "--queries 3" "--seed 4" "--save-queries $tmp/q.scen" "--scen $ds" "--unknown free" "--wmax 3" \
         "--occupied-thresh 0.5" "--free-thresh 0.1"; do
  read -r name value <<< "$o"
  pat=$name; [ "${name%-thresh}" != "$name" ] && pat='--occupied-thresh/--free-thresh'
  dyn "dynamic${name//-/_}" "^navbench run: $pat needs --map \(--dynamic runs every query of its scenarios\)\$" "$name" "$value"
done
sweep_dyn() {  # sweep_dyn NAME PATTERN JSON-KEYS: a config of the scenario and grid8 with those keys
  printf '{"dynamic": ["%s"], "representations": ["grid8"], %s}\n' "$ds" "$3" > "$tmp/$1.json"
  expect_error "$1" "$2" sweep "$tmp/$1.json" --out "$tmp/sw"
}
sweep_dyn sweep_dynamic_radii "sweep config: 'radii' is not supported with 'dynamic'\$" '"radii": [0.5]'
sweep_dyn sweep_dynamic_trace "sweep config: 'trace' is not supported with 'dynamic'\$" '"trace": 2'
sweep_dyn sweep_dynamic_trace_cap "sweep config: 'trace_cap_mb' is not supported with 'dynamic'\$" '"trace_cap_mb": 2'
sweep_dyn sweep_dynamic_pinch "the squeeze rule allow is not supported with 'dynamic'\$" '"pinch": "allow"'
sweep_dyn sweep_dynamic_queries "sweep config: 'queries' needs 'maps' \('dynamic' runs every query" '"queries": {"select": "first", "n": 2}'
sweep_dyn sweep_dynamic_random "sweep config: 'queries' needs 'maps'" '"queries": {"random": 5}'
sweep_dyn sweep_dynamic_seed "sweep config: 'seed' needs 'maps'" '"seed": 7'
printf '{"dynamic": [{"path": "%s", "unknown": "free"}], "representations": ["grid8"]}\n' "$ds" > "$tmp/dynu.json"
expect_error sweep_dynamic_entry_unknown "a dynamic entry reads no occupancy image" sweep "$tmp/dynu.json" --out "$tmp/sw"
# ... and with "maps" beside "dynamic", the query selection is the maps': accepted.
printf '{"maps": ["%s"], "dynamic": ["%s"], "representations": ["grid8"], "queries": {"select": "first", "n": 2}, "seed": 7}\n' \
  "$m" "$ds" > "$tmp/dynmaps.json"
total=$((total+1))
if "$nb" sweep "$tmp/dynmaps.json" --out "$tmp/dynmaps" --quiet 2>"$tmp/err" && [ "$(tail -n +2 "$tmp/dynmaps/results.csv" | wc -l)" -eq 2 ] \
   && [ "$(tail -n +2 "$tmp/dynmaps/dynamic/results.csv" | wc -l)" -eq "$(grep -c '^Q ' "$ds")" ]; then echo "ok   sweep_dynamic_with_maps_selection"
else echo "FAIL sweep_dynamic_with_maps_selection: $(head -3 "$tmp/err")"; fails=$((fails+1)); fi
# What combines with --dynamic is followed: --paths writes a path per ok row; --repetitions 3
# gives the same rows (timing columns 21-23 and 32-34 aside) as one run.
total=$((total+1))
if "$nb" run --dynamic "$ds" --rep grid8,navmesh --smoothing none,funnel --paths --out "$tmp/dp" --quiet 2>"$tmp/err" \
   && "$nb" run --dynamic "$ds" --rep grid8,navmesh --smoothing none,funnel --paths --repetitions 3 --out "$tmp/dr" --quiet 2>>"$tmp/err" \
   && [ "$(grep -c ',ok,' "$tmp/dp.csv")" -gt 10 ] \
   && [ "$(tail -n +2 "$tmp/dp.paths.csv" | wc -l)" -eq "$(grep -c ',ok,' "$tmp/dp.csv")" ] \
   && cmp -s <(cut -d, -f1-20,24-31,35- "$tmp/dp.csv") <(cut -d, -f1-20,24-31,35- "$tmp/dr.csv") && cmp -s "$tmp/dp.paths.csv" "$tmp/dr.paths.csv"; then
  echo "ok   dynamic_paths_repetitions"
else echo "FAIL dynamic_paths_repetitions: $(head -3 "$tmp/err")"; fails=$((fails+1)); fi
# Two cost layers of one file name on one map (the rows name a layer by its file name): refused.
mkdir -p "$tmp/la" "$tmp/lb" && "$nb" generate costs --map "$m" --kind regions --seed 1 --out "$tmp/la/x" 2>/dev/null && cp "$tmp/la/x.costs" "$tmp/lb/x.costs"
printf '{"maps": [{"path": "%s", "costs": "%s"}, {"path": "%s", "costs": "%s"}], "representations": ["grid8"]}\n' "$m" "$tmp/la/x.costs" "$m" "$tmp/lb/x.costs" > "$tmp/twolayers.json"
expect_error sweep_two_layers_one_name "are both cost layers 'x\.costs'" sweep "$tmp/twolayers.json"
expect_error bad_generate 'unknown option' generate maze --bogus 3 --out "$tmp/g"
# Every error names its subcommand on one line.
for c in run sweep merge generate structure list; do
  expect_error "${c}_unknown_option" "^navbench $c: unknown option '--bogus'\$" $c --bogus
done
expect_error run_missing_value "^navbench run: --out needs a value" run --map "$m" --rep grid8 --out --quiet
expect_error run_stray_argument "^navbench run: unexpected argument 'stray'" run --map "$m" --rep grid8 stray --out "$tmp/r"
expect_error sweep_two_configs "^navbench sweep: unexpected argument 'b\.json'" sweep a.json b.json
expect_error merge_no_out "^navbench merge: merge needs SHARD_DIR" merge "$tmp"
expect_error generate_no_kind "^navbench generate: generate needs a kind" generate --out "$tmp/g"
expect_error structure_no_map "^navbench structure: structure needs --map" structure --rep grid8 --out "$tmp/s.csv"
expect_error generate_wkt_map_seed "^navbench generate: --vertices is not an option of 'generate wkt --map'" generate wkt --map "$m" --vertices 5 --out "$tmp/w"
expect_error generate_wkt_range "^navbench generate: polygon map: vertices must be in 3\.\.1024" generate wkt --vertices 2 --out "$tmp/w"
expect_error generate_vertices_elsewhere "^navbench generate: --vertices is an option of 'generate wkt'" generate random --vertices 5 --out "$tmp/w"
# --help / -h of each subcommand: exit 0, usage on stdout naming the subcommand, every option listed.
expect_help() {
  local name=$1; shift; local opts=$1; shift
  for h in --help -h; do
    total=$((total+1))
    "$nb" $name $h >"$tmp/out" 2>"$tmp/err"; local rc=$? missing=""
    for o in $opts; do grep -qE -- "(^| |,)$o( |\$)" "$tmp/out" || missing="$missing $o"; done
    if [ "$rc" -ne 0 ] || [ -s "$tmp/err" ] || ! grep -q "Usage: navbench $name" "$tmp/out" || [ -n "$missing" ]; then
      echo "FAIL help_$name$h: rc=$rc missing:$missing $(head -2 "$tmp/err")"; fails=$((fails+1))
    else echo "ok   help_$name$h"; fi
  done
}
expect_help run "--map --scen --rep --smoothing --heuristic --convention --limit --queries --seed --save-queries --repetitions --batch --threads --radius --paths --checkopt --no-optimum --quiet --out"
expect_help sweep "CONFIG --out --jobs --shard --threads --quiet"
expect_help merge "SHARD_DIR --out"
expect_help generate "KIND --width --height --density --room --corridor --obstacles --seed --queries --out"
expect_help structure "--map --rep --out"
expect_help list ""
# help even among other (wrong) arguments, and the top level lists every subcommand.
total=$((total+1))
if "$nb" run --bogus --help >"$tmp/out" 2>"$tmp/err" && grep -q "Usage: navbench run" "$tmp/out"; then echo "ok   help_with_bad_option"
else echo "FAIL help_with_bad_option"; fails=$((fails+1)); fi
for h in --help -h help; do
  total=$((total+1))
  "$nb" $h >"$tmp/out" 2>"$tmp/err"; rc=$?; missing=""
  for c in run sweep merge generate structure list; do grep -qE "^  $c " "$tmp/out" || missing="$missing $c"; done
  if [ "$rc" -ne 0 ] || [ -n "$missing" ]; then echo "FAIL top_help$h: rc=$rc missing:$missing"; fails=$((fails+1))
  else echo "ok   top_help$h"; fi
done
# funnel on a representation without a corridor: not_applicable rows (docs/results.md#query-status), exit 0.
total=$((total+1))
if "$nb" run --map "$m" --rep grid8,navmesh --smoothing none,funnel --limit 2 --out "$tmp/fun" --quiet 2>"$tmp/err" \
   && [ "$(grep -c ',grid8,euclidean,funnel,.*,not_applicable,' "$tmp/fun.csv")" -eq 2 ] \
   && [ "$(grep -c ',navmesh,euclidean,funnel,.*,ok,' "$tmp/fun.csv")" -eq 2 ] && ! grep -q ',error,' "$tmp/fun.csv"; then
  echo "ok   funnel_not_applicable"
else echo "FAIL funnel_not_applicable: $(cat "$tmp/err")"; fails=$((fails+1)); fi
# --threads 3: the same rows in the same order as one thread, timing columns (21-23) aside.
total=$((total+1))
if "$nb" run --map "$m" --rep grid8,visgraph --smoothing none,los --out "$tmp/t1" --quiet 2>"$tmp/err" \
   && "$nb" run --map "$m" --rep grid8,visgraph --smoothing none,los --threads 3 --out "$tmp/t3" --quiet 2>>"$tmp/err" \
   && [ "$(wc -l <"$tmp/t1.csv")" -gt 2 ] && cmp -s <(cut -d, -f1-20,24-31,35- "$tmp/t1.csv") <(cut -d, -f1-20,24-31,35- "$tmp/t3.csv"); then
  echo "ok   threads_same_rows"
else echo "FAIL threads_same_rows: $(cat "$tmp/err")"; fails=$((fails+1)); fi
# --radius 0 (docs/radius.md): every result bit for bit as without the option, timing columns (21-23) and
# build times aside; the rows only gain the column radius (last; before points in paths.csv).
total=$((total+1))
g=$src/datasets/maps/generated/cave-45-128.map
all=grid4,grid8,quadtree,navmesh,navmesh-vertices,subgoal,visgraph
if "$nb" run --map "$g" --rep $all --smoothing none,los,funnel --limit 25 --paths --out "$tmp/p0" --quiet 2>"$tmp/err" \
   && "$nb" run --map "$g" --rep $all --smoothing none,los,funnel --limit 25 --paths --radius 0 --out "$tmp/r0" --quiet 2>>"$tmp/err" \
   && [ "$(wc -l <"$tmp/p0.csv")" -gt 100 ] && ! grep -q ',error,' "$tmp/p0.csv" \
   && cmp -s <(cut -d, -f1-20,24-31,35- "$tmp/p0.csv") <(sed -e '1s/,radius$//' -e '2,$s/,0$//' "$tmp/r0.csv" | cut -d, -f1-20,24-31,35-) \
   && [ "$(tail -n +2 "$tmp/r0.csv" | grep -vc ',0$')" -eq 0 ] \
   && cmp -s "$tmp/p0.paths.csv" <(sed -e '1s/,radius,/,/' -e '2,$s/^\(\([^,]*,\)\{7\}\)0,/\1/' "$tmp/r0.paths.csv") \
   && cmp -s <(sed -E 's/,[0-9]+\.[0-9]{3},/,T,/' "$tmp/p0.build.csv") \
             <(sed -E -e '1s/,radius$//' -e '2,$s/,0$//' -e 's/,[0-9]+\.[0-9]{3},/,T,/' "$tmp/r0.build.csv"); then
  echo "ok   radius_zero_same_results"
else echo "FAIL radius_zero_same_results: $(cat "$tmp/err")"; fails=$((fails+1)); fi
# --radius 0.5: octile_optimal empty, visgraph paths valid and optimal (gap 0), arcs in paths.csv.
total=$((total+1))
if "$nb" run --map "$g" --rep grid8,visgraph --limit 25 --paths --radius 0.5 --out "$tmp/r5" --quiet 2>"$tmp/err" \
   && [ "$(grep -c ',visgraph,euclidean,none,.*,ok,' "$tmp/r5.csv")" -gt 10 ] \
   && [ "$(awk -F, 'NR > 1 && $16 != "" { n++ } END { print n + 0 }' "$tmp/r5.csv")" -eq 0 ] \
   && [ "$(awk -F, 'NR > 1 && $5 == "visgraph" && $13 == "ok" && ($18 != 1 || ($17 > 1e-9 || $17 < -1e-9)) { n++ } END { print n + 0 }' "$tmp/r5.csv")" -eq 0 ] \
   && grep -q '^cave-45-128,[0-9]*,visgraph,euclidean,none,center,astar,0.5,.*;@' "$tmp/r5.paths.csv"; then
  echo "ok   radius_visgraph_exact"
else echo "FAIL radius_visgraph_exact: $(cat "$tmp/err")"; fails=$((fails+1)); fi
# --queries N with --radius: the random queries are drawn valid for each radius (no invalid_query).
total=$((total+1))
cp "$g" "$tmp/noscen.map"  # no scenario next to it: --queries draws random ones
if "$nb" run --map "$tmp/noscen.map" --queries 30 --seed 3 --rep grid8,visgraph --radius 1.5 --out "$tmp/rq" --quiet 2>"$tmp/err" \
   && [ "$(tail -n +2 "$tmp/rq.csv" | wc -l)" -eq 60 ] && ! grep -q ',invalid_query,' "$tmp/rq.csv" \
   && [ "$(grep -c ',visgraph,euclidean,none,.*,ok,' "$tmp/rq.csv")" -gt 0 ]; then
  echo "ok   radius_random_queries_valid"
else echo "FAIL radius_random_queries_valid: $(cat "$tmp/err")"; fails=$((fails+1)); fi
# --rep several times, and one value with parameters holding commas (docs/command-line.md).
total=$((total+1))
if "$nb" run --map "$m" --rep grid8,grid4 --rep quadtree:min=1,merge=1 --limit 2 --out "$tmp/reps" --quiet 2>"$tmp/err" \
   && [ "$(cut -d, -f1-4 --complement "$tmp/reps.csv" | grep -c '^grid8,')" -eq 2 ] \
   && [ "$(grep -c ',grid4,' "$tmp/reps.csv")" -eq 2 ] && [ "$(grep -c ',"quadtree:min=1,merge=1",' "$tmp/reps.csv")" -eq 2 ]; then
  echo "ok   rep_repeated"
else echo "FAIL rep_repeated: $(cat "$tmp/err")"; fails=$((fails+1)); fi
# A scenario whose start is blocked: that query is invalid_query, the run goes on (exit 0).
printf 'type octile\nheight 1\nwidth 3\nmap\n.@.\n' > "$tmp/blk.map"
printf 'version 1\n0\tblk.map\t3\t1\t1\t0\t0\t0\t1\n0\tblk.map\t3\t1\t0\t0\t0\t0\t0\n' > "$tmp/blk.map.scen"
if "$nb" run --map "$tmp/blk.map" --rep grid8 --out "$tmp/blk" --quiet 2>"$tmp/err" \
   && grep -q ',invalid_query,' "$tmp/blk.csv" && grep -q ',ok,' "$tmp/blk.csv"; then echo "ok   blocked_start"
else echo "FAIL blocked_start: $(cat "$tmp/err")"; fails=$((fails+1)); fi
total=$((total+1))
# A scenario line whose goal lies outside the map: that query is invalid_query (message "goal
# outside the map") on every representation, and the rest of the file runs (exit 0).
printf 'version 1\n0\tblk.map\t3\t1\t0\t0\t9\t0\t9\n0\tblk.map\t3\t1\t2\t0\t2\t0\t0\n' > "$tmp/out.scen"
if "$nb" run --map "$tmp/blk.map" --scen "$tmp/out.scen" --rep grid8,visgraph --out "$tmp/outside" --quiet 2>"$tmp/err" \
   && [ "$(grep -c ',invalid_query,.*goal outside the map' "$tmp/outside.csv")" -eq 2 ] \
   && [ "$(grep -c ',ok,' "$tmp/outside.csv")" -eq 2 ]; then echo "ok   scenario_point_outside_map"
else echo "FAIL scenario_point_outside_map: $(cat "$tmp/err")"; fails=$((fails+1)); fi
total=$((total+1))
# A missed path says what Recast's mesh left out: on a cost layer whose weight changes every cell
# (a checkerboard of 4 weights) the watershed partition makes no region, and every row of both
# searches is no_path with the count of walkable voxels in no region (docs/recast.md).
{ printf 'type octile\nheight 24\nwidth 24\nmap\n'; for y in $(seq 24); do printf '%.0s.' $(seq 24); echo; done; } > "$tmp/open24.map"
{ printf 'type costs\nheight 24\nwidth 24\ncosts\n'; for y in $(seq 0 23); do
    for x in $(seq 0 23); do printf '%s ' "$((10 + x % 2 + 2 * (y % 2)))"; done; echo; done; } > "$tmp/checker.costs"
if "$nb" run --map "$tmp/open24.map" --costs "$tmp/checker.costs" --queries 3 --seed 1 --rep recast --search astar,detour \
     --out "$tmp/checker" --quiet 2>"$tmp/err" \
   && [ "$(grep -c "no_path,.*(Recast's regions hold 0 of 576 walkable voxels, 0.0 %)" "$tmp/checker.csv")" -eq 6 ]; then
  echo "ok   recast_unreached_note"
else echo "FAIL recast_unreached_note: $(cat "$tmp/err") $(cut -c1-300 "$tmp/checker.csv" 2>/dev/null | head -3)"; fails=$((fails+1)); fi
total=$((total+1))
# An error quotes what the file held: a byte that is not text is written \xNN (the line stays
# printable ASCII or UTF-8, one line), and a quoted line of thousands of characters is shortened in
# its middle, keeping the file:line and the reason.
printf 'type costs\nheight 1\nwidth 3\ncosts\n1 \272\001 2\n' > "$tmp/bin.costs"
expect_error costs_binary_byte "bin\.costs:5: cost '\\\\xba\\\\x01' at x 1 is not a number" run --map "$tmp/ok.map" --scen "$m.scen" --rep grid8 --costs "$tmp/bin.costs" --out "$tmp/r"
if LC_ALL=C grep -q '[^[:print:]]' "$tmp/err"; then echo "FAIL costs_binary_byte: a raw byte on stderr"; fails=$((fails+1)); fi
{ printf 'type '; head -c 20000 /dev/zero | tr '\0' 'y'; printf '\nheight 1\nwidth 3\nmap\n...\n'; } > "$tmp/long.map"
expect_error long_line_shortened "long\.map:1: map type 'yyy.*\[\.\.\. [0-9]+ bytes \.\.\.\] yyy+' is not supported \(only octile\)$" run --map "$tmp/long.map" --rep grid8 --out "$tmp/r"
if [ "$(wc -c <"$tmp/err")" -gt 1000 ]; then echo "FAIL long_line_shortened: $(wc -c <"$tmp/err") bytes"; fails=$((fails+1)); fi
# A map whose file name is not UTF-8 (a folder named in Latin-1): run and sweep complete, their
# JSON files parse (the name's byte replaced there, \xNN in the CSV), and a re-run resumes.
lat="$tmp/lat"; mkdir -p "$lat/m"; name=$(printf 'caf\351')
cp "$m" "$lat/m/$name.map"; sed "s/l-corridor\.map/$name.map/" "$m.scen" > "$lat/m/$name.map.scen"
printf '{"maps": ["%s/m"], "representations": ["grid8"]}' "$lat" > "$lat/s.json"
if "$nb" run --map "$lat/m/$name.map" --rep grid8 --out "$lat/r" --quiet 2>"$tmp/err" \
   && "$nb" sweep "$lat/s.json" --out "$lat/sw" 2>>"$tmp/err" >/dev/null && "$nb" sweep "$lat/s.json" --out "$lat/sw" 2>>"$tmp/err" >/dev/null \
   && python3 -c 'import json, sys; [json.load(open(f, encoding="utf-8")) for f in sys.argv[1:]]' "$lat/r.meta.json" "$lat/sw/sweep.json" "$lat/sw/results.meta.json" \
   && grep -q '^caf\\xe9,m,' "$lat/sw/results.csv"; then echo "ok   latin1_file_name"
else echo "FAIL latin1_file_name: $(tail -2 "$tmp/err")"; fails=$((fails+1)); fi
total=$((total+1))
# generate wkt --map: the grid's free space as a polygon map answers the grid's queries (corner
# convention) with the same exact lengths; a seeded polygon map runs with random queries.
if "$nb" generate wkt --map "$m" --out "$tmp/wkt/corridor" 2>"$tmp/err" \
   && "$nb" run --map "$m" --convention corner --rep visgraph --out "$tmp/wg" --quiet 2>>"$tmp/err" \
   && "$nb" run --map "$tmp/wkt/corridor.wkt" --scen "$m.scen" --rep visgraph --out "$tmp/wp" --quiet 2>>"$tmp/err" \
   && "$nb" generate wkt --obstacles 20 --vertices 7 --seed 3 --out "$tmp/wkt/seeded" 2>>"$tmp/err" \
   && "$nb" run --map "$tmp/wkt/seeded.wkt" --queries 5 --rep visgraph,navmesh,quadtree --out "$tmp/ws" --quiet 2>>"$tmp/err" \
   && python3 - "$tmp/wg.csv" "$tmp/wp.csv" "$tmp/ws.csv" <<'PY'
import csv, sys
lengths = [[(r["scen_index"], r["status"], r["length"]) for r in csv.DictReader(open(f))] for f in sys.argv[1:3]]
assert lengths[0] == lengths[1] and lengths[0], "grid and WKT lengths differ"
rows = list(csv.DictReader(open(sys.argv[3])))
assert len(rows) == 15 and all(r["valid"] == "1" for r in rows if r["status"] == "ok"), "seeded polygon map"
PY
then echo "ok   generate_wkt_round_trip"
else echo "FAIL generate_wkt_round_trip: $(tail -2 "$tmp/err")"; fails=$((fails+1)); fi
total=$((total+1))
echo "$((total - fails)) passed, $fails failed"
[ "$fails" -eq 0 ]
