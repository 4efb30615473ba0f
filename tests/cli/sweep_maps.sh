#!/usr/bin/env bash
# Sweep config map entries: optional entries skipped when absent, per-entry query selection,
# one map per folder/name key. Usage: sweep_maps.sh NAVBENCH_BINARY SOURCE_DIR
set -uo pipefail
nb=$1; src=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fails=0
pass() { echo "ok   $1"; }
fail() { echo "FAIL $1: $2"; fails=$((fails+1)); }
mkdir -p "$tmp/a/hand" "$tmp/b/hand"
cp "$src/datasets/maps/hand/l-corridor.map" "$src/datasets/maps/hand/l-corridor.map.scen" "$tmp/a/hand/"
cp "$src/datasets/maps/hand/pinch.map" "$src/datasets/maps/hand/pinch.map.scen" "$tmp/a/hand/"
cp "$src/datasets/maps/hand/l-corridor.map" "$src/datasets/maps/hand/l-corridor.map.scen" "$tmp/b/hand/"
# config NAME MAPS_JSON: a one-representation sweep over MAPS_JSON.
config() {
  printf '{"maps": %s, "representations": ["grid8"], "smoothing": ["none"], "seed": 1}\n' "$2" > "$tmp/$1.json"
}
rows() { tail -n +2 "$1" | grep -c "^$2,"; }  # result rows of one map (by name column)

# 1. An optional entry that is absent is skipped with a note; its per-entry selection applies to
#    its own maps only (l-corridor has 5 queries: first 2 of them; pinch keeps all of its 5).
config opt "[{\"path\": \"$tmp/a/hand/l-corridor.map\", \"queries\": {\"select\": \"first\", \"n\": 2}},
              \"$tmp/a/hand/pinch.map\", {\"path\": \"$tmp/nowhere\", \"optional\": true}]"
if "$nb" sweep "$tmp/opt.json" --out "$tmp/o1" --quiet 2>"$tmp/err"; then
  grep -q "optional maps $tmp/nowhere not found, skipped" "$tmp/err" && pass optional_absent_skipped \
    || fail optional_absent_skipped "no note: $(cat "$tmp/err")"
  n1=$(rows "$tmp/o1/results.csv" l-corridor); n2=$(rows "$tmp/o1/results.csv" pinch)
  want2=$(tail -n +2 "$tmp/a/hand/pinch.map.scen" | grep -c .)
  [ "$n1" -eq 2 ] && [ "$n2" -eq "$want2" ] && pass per_entry_queries \
    || fail per_entry_queries "l-corridor $n1 rows (want 2), pinch $n2 (want $want2)"
else fail optional_absent_skipped "exit $?: $(cat "$tmp/err")"; fi

# 2. A required entry that is absent fails with one line.
config req "[\"$tmp/a/hand/pinch.map\", \"$tmp/nowhere\"]"
"$nb" sweep "$tmp/req.json" --out "$tmp/o2" --quiet 2>"$tmp/err"; rc=$?
[ "$rc" -eq 2 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q "nowhere: no such map" "$tmp/err" && pass required_absent_fails \
  || fail required_absent_fails "rc=$rc: $(cat "$tmp/err")"

# 3. Two files with the same folder/name: the optional one is skipped, two required ones are refused.
config dup_opt "[\"$tmp/a/hand\", {\"path\": \"$tmp/b/hand\", \"optional\": true}]"
if "$nb" sweep "$tmp/dup_opt.json" --out "$tmp/o3" --quiet 2>"$tmp/err" && grep -q "skipped: hand/l-corridor is already in the sweep" "$tmp/err" \
   && [ "$(rows "$tmp/o3/results.csv" l-corridor)" -eq "$(tail -n +2 "$tmp/a/hand/l-corridor.map.scen" | grep -c .)" ]; then
  pass duplicate_optional_skipped
else fail duplicate_optional_skipped "$(cat "$tmp/err")"; fi
config dup_req "[\"$tmp/a/hand\", \"$tmp/b/hand\"]"
"$nb" sweep "$tmp/dup_req.json" --out "$tmp/o4" --quiet 2>"$tmp/err"; rc=$?
[ "$rc" -eq 2 ] && grep -q "are both hand/l-corridor" "$tmp/err" && pass duplicate_required_refused \
  || fail duplicate_required_refused "rc=$rc: $(cat "$tmp/err")"
# The same file reached twice (a folder and the file itself) runs once, as before.
config twice "[\"$tmp/a/hand\", \"$tmp/a/hand/pinch.map\"]"
"$nb" sweep "$tmp/twice.json" --out "$tmp/o5" --quiet 2>"$tmp/err" \
  && [ "$(rows "$tmp/o5/results.csv" pinch)" -eq "$(tail -n +2 "$tmp/a/hand/pinch.map.scen" | grep -c .)" ] && pass same_file_once \
  || fail same_file_once "$(cat "$tmp/err")"

# 4. Bad entries: one line each.
for case in 'unknown_key|[{"path": "x", "optinal": true}]|unknown key .optinal. in a map entry' \
            'no_path|[{"optional": true}]|a map entry needs "path"' \
            'bad_optional|[{"path": "x", "optional": "yes"}]|optional. must be true or false' \
            'bad_queries|[{"path": "x", "queries": {"select": "spread"}}]|queries.n must be positive' \
            "all_absent|[{\"path\": \"$tmp/none1\", \"optional\": true}]|no map found"; do
  IFS='|' read -r name maps pat <<<"$case"
  config "$name" "$maps"
  "$nb" sweep "$tmp/$name.json" --out "$tmp/o_$name" --quiet 2>"$tmp/err"; rc=$?
  # one line, after the note on an absent optional entry
  [ "$rc" -eq 2 ] && [ "$(grep -vc 'not found, skipped' "$tmp/err")" -eq 1 ] && grep -qE -- "$pat" "$tmp/err" && pass "$name" \
    || fail "$name" "rc=$rc: $(cat "$tmp/err")"
done

# 5. "radii" (docs/radius.md): one unit per (map, representation, radius), rows and build rows with the
#    column radius, and the rows of R = 0 equal those of a sweep without radii (timing aside).
printf '{"maps": ["%s"], "representations": ["grid8", "visgraph"], "smoothing": ["none"], "radii": [0, 0.5]}\n' \
  "$tmp/a/hand/l-corridor.map" > "$tmp/radii.json"
printf '{"maps": ["%s"], "representations": ["grid8", "visgraph"], "smoothing": ["none"]}\n' \
  "$tmp/a/hand/l-corridor.map" > "$tmp/plain.json"
if "$nb" sweep "$tmp/radii.json" --out "$tmp/or" --quiet --jobs 2 2>"$tmp/err" && "$nb" sweep "$tmp/plain.json" --out "$tmp/op" --quiet 2>>"$tmp/err"; then
  nq=$(tail -n +2 "$tmp/a/hand/l-corridor.map.scen" | grep -c .)
  head -1 "$tmp/or/results.csv" | grep -q ',message,search,los_checks,clearance,turn,first_move_us,first20_us,max_step_us,radius$' && [ "$(head -1 "$tmp/or/results.build.csv" | grep -c ',radius$')" -eq 1 ] \
    && [ "$(ls "$tmp/or/units" | grep -c '__r0\.5\.csv$')" -eq 2 ] && [ "$(ls "$tmp/or/units" | grep -c '__r0\.csv$')" -eq 2 ] \
    && [ "$(tail -n +2 "$tmp/or/results.csv" | grep -c ',0\.5$')" -eq $((2 * nq)) ] \
    && cmp -s <(cut -d, -f1-20,24-31,35- "$tmp/op/results.csv") \
              <(sed -e '1s/,radius$//' "$tmp/or/results.csv" | grep -v ',0\.5$' | sed -e '2,$s/,0$//' | cut -d, -f1-20,24-31,35-) \
    && pass sweep_radii || fail sweep_radii "$(head -3 "$tmp/or/results.csv")"
else fail sweep_radii "exit: $(cat "$tmp/err")"; fi
# A weighted map entry (docs/terrain.md): the terrain columns on every row, filled on the weighted
# map's rows only; the shards of the same sweep merge into the same file.
"$nb" generate costs --map "$tmp/a/hand/pinch.map" --kind regions --seed 3 --out "$tmp/pinch" 2>/dev/null
# The same map also runs plain: its rows leave the terrain columns empty (units and optimum apart).
printf '{"maps": [{"path": "%s", "costs": "%s"}, "%s", "%s"], "representations": ["grid8", "navmesh", "subgoal"], "smoothing": ["none", "los"]}\n' \
  "$tmp/a/hand/pinch.map" "$tmp/pinch.costs" "$tmp/a/hand/l-corridor.map" "$tmp/a/hand/pinch.map" > "$tmp/terrain.json"
if "$nb" sweep "$tmp/terrain.json" --out "$tmp/ot" --quiet --jobs 1 2>"$tmp/err" \
   && "$nb" sweep "$tmp/terrain.json" --out "$tmp/os1" --shard 1/2 --quiet 2>>"$tmp/err" \
   && "$nb" sweep "$tmp/terrain.json" --out "$tmp/os2" --shard 2/2 --quiet 2>>"$tmp/err" \
   && "$nb" merge "$tmp/os1" "$tmp/os2" --out "$tmp/om" 2>>"$tmp/err"; then
  head -1 "$tmp/ot/results.csv" | grep -q ',turn,first_move_us,first20_us,max_step_us,terrain,cost,raw_cost,octile_optimal_cost,optimal_cost,cost_gap$' \
    && [ "$(tail -n +2 "$tmp/ot/results.csv" | grep '^pinch,' | grep -c ',pinch\.costs,')" -gt 0 ] \
    && [ "$(tail -n +2 "$tmp/ot/results.csv" | grep '^pinch,' | grep -c ',pinch\.costs,')" -eq \
         "$(tail -n +2 "$tmp/ot/results.csv" | grep '^pinch,' | grep -c ',,,,$')" ] \
    && [ "$(tail -n +2 "$tmp/ot/results.csv" | grep '^pinch,' | grep -v ',pinch\.costs,' | grep ',subgoal,' | grep -c ',ok,')" -gt 0 ] \
    && [ "$(tail -n +2 "$tmp/ot/results.csv" | grep '^l-corridor,' | grep -c ',,,,$')" -eq "$(rows "$tmp/ot/results.csv" l-corridor)" ] \
    && [ "$(tail -n +2 "$tmp/ot/results.csv" | grep '^pinch,' | grep -c ',navmesh,.*,ok,')" -gt 0 ] \
    && [ "$(tail -n +2 "$tmp/ot/results.csv" | grep '^pinch,' | grep ',pinch\.costs,' | grep ',subgoal,' | grep -c ',not_applicable,')" -eq \
         "$(tail -n +2 "$tmp/ot/results.csv" | grep '^pinch,' | grep ',pinch\.costs,' | grep -c ',grid8,')" ] \
    && [ "$(tail -n +2 "$tmp/ot/results.csv" | grep '^pinch,' | grep ',pinch\.costs,' | grep -c ',subgoal,')" -gt 0 ] \
    && [ "$(tail -n +2 "$tmp/ot/results.csv" | grep '^l-corridor,' | grep ',subgoal,' | grep -c ',ok,')" -gt 0 ] \
    && [ "$(grep -c '^pinch,subgoal,' "$tmp/ot/results.build.csv")" -eq 1 ] \
    && ! grep -q 'skipping subgoal' "$tmp/err" \
    && cmp -s <(cut -d, -f1-20,24-31,35- "$tmp/ot/results.csv" | sort) <(cut -d, -f1-20,24-31,35- "$tmp/om/results.csv" | sort) \
    && pass sweep_terrain || fail sweep_terrain "$(head -3 "$tmp/ot/results.csv"; cat "$tmp/err")"
else fail sweep_terrain "exit: $(cat "$tmp/err")"; fi
# 6. Why a representation has no rows on a map (docs/results.md#maps-not-run): the sweep records its
#    entry's skip_maps, the build's refusal of a map kind and a declared cap, in each unit and merged
#    (sharded and merged alike); `navbench run` records the refusals too.
cp "$src/datasets/maps/hand/polygons.wkt" "$src/datasets/maps/hand/polygons.wkt.scen" "$tmp/a/hand/"
printf '{"maps": ["%s", "%s", {"path": "%s", "costs": "%s"}], "representations": ["grid8", {"name": "navmesh", "skip_maps": ["l-corridor"]}, {"name": "visgraph", "params": {"max_nodes": [1]}}], "smoothing": ["none"], "queries": {"select": "first", "n": 2}}
' \
  "$tmp/a/hand/l-corridor.map" "$tmp/a/hand/polygons.wkt" "$tmp/a/hand/pinch.map" "$tmp/pinch.costs" > "$tmp/unrun.json"
want_unrun=$(printf '%s\n' 'l-corridor,hand,navmesh,center,skip_maps' 'polygons,hand,grid8,center,kind' 'pinch,hand,visgraph:max_nodes=1,center,cap' | sort)
unrun_of() { tail -n +2 "$1" | cut -d, -f1-5 | sort; }
if "$nb" sweep "$tmp/unrun.json" --out "$tmp/ou" --quiet 2>"$tmp/err" \
   && "$nb" sweep "$tmp/unrun.json" --out "$tmp/ou1" --shard 1/2 --quiet 2>>"$tmp/err" \
   && "$nb" sweep "$tmp/unrun.json" --out "$tmp/ou2" --shard 2/2 --quiet 2>>"$tmp/err" \
   && "$nb" merge "$tmp/ou1" "$tmp/ou2" --out "$tmp/oum" 2>>"$tmp/err" \
   && "$nb" run --map "$tmp/a/hand/polygons.wkt" --rep grid8,navmesh --limit 2 --quiet --out "$tmp/ur" 2>>"$tmp/err"; then
  head -1 "$tmp/ou/results.unrun.csv" | grep -qx 'map,collection,representation,convention,reason,message,terrain' \
    && [ "$(unrun_of "$tmp/ou/results.unrun.csv")" = "$want_unrun" ] \
    && [ "$(unrun_of "$tmp/oum/results.unrun.csv")" = "$want_unrun" ] \
    && grep -q '^pinch,hand,visgraph:max_nodes=1,center,cap,.*above max_nodes=1.*,pinch\.costs$' "$tmp/ou/results.unrun.csv" \
    && grep -q '^polygons,hand,grid8,center,kind,grid8 needs a grid map,$' "$tmp/ou/results.unrun.csv" \
    && ! grep -q '^l-corridor,navmesh,' "$tmp/ou/results.csv" && [ ! -e "$tmp/ou/units/hand__l-corridor__center__navmesh.csv" ] \
    && [ "$(tail -n +2 "$tmp/ur.unrun.csv")" = 'polygons,hand,grid8,center,kind,grid8 needs a grid map' ] \
    && pass unrun_records || fail unrun_records "$(cat "$tmp/ou/results.unrun.csv" "$tmp/oum/results.unrun.csv" "$tmp/ur.unrun.csv" "$tmp/err" 2>&1)"
else fail unrun_records "exit: $(cat "$tmp/err")"; fi
echo "$((14 - fails)) passed, $fails failed"
[ "$fails" -eq 0 ]
