#!/usr/bin/env bash
# navbench reproduce gppc2023-classic / gppc2023-anyangle (docs/reproduce.md) with the repository's
# example entries on its own small maps and a published-statistics file of the real columns made
# here (so CI needs no ../shared): the tables, the published row beside the entry that names it,
# the comparison, meta.json and index.html, memory like for like (peak RSS beside peak RSS, stored
# beside structure bytes); and the one-line errors.
# Usage: reproduce_gppc.sh NAVBENCH_BINARY SOURCE_DIR CLASSIC_ENTRY ANYANGLE_ENTRY
set -uo pipefail
nb=$1; src=$2; classic=$3; anyangle=$4
tmp=$(mktemp -d); trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT  # KEEP=1: keep the folder
fails=0
check() { if eval "$2"; then echo "ok   $1"; else echo "FAIL $1"; fails=$((fails+1)); fi; }
maps="$src/datasets/maps/generated"
# Two rows in the published file's columns (figures of the real file for Warthog-Astar and
# RayScan); the example entries take their names to exercise the matching, nothing more.
mkdir -p "$tmp/pub"
cat > "$tmp/pub/published-statistics.csv" <<CSV
track,entry,queries_solved,optimally_solved,sum_query_time_s,sum_preprocess_time_s,preprocess_storage,max_ram,avg_path_length,avg_subopt,undominated,note
anyangle,RayScan,256000,256000,664.235066619,0.0,0kB,51MB,1001.8031454093864,-,Yes,
classic,Warthog-Astar,256000,256000,23034.600491138,0.0,0kB,1GB,1062.5644965974475,-,No,
classic,2019-SGCH-JPD,256000,255999,59.733187954,0.170299933,162GB,163MB,1062.5645011739043,1.00000015625,No,
CSV
cat > "$tmp/classic.txt" <<CFG
# the example classic entry twice: under a published name (exact) and a year-prefixed one
gppc:path=$classic,track=classic,name=Warthog-Astar
gppc:path=$classic,track=classic,name=SGCH-JPD
map $maps/maze-4-128.map
map $maps/rooms-16-128.map
limit 20
CFG
cat > "$tmp/anyangle.txt" <<CFG
gppc:path=$anyangle,track=anyangle,name=RayScan
map $maps/rooms-16-128.map
limit 20
CFG

"$nb" reproduce --list > "$tmp/list" 2>&1
check list_names_all '[ "$(grep -c -e "^uras-koenig-arena2 " -e "^gppc2023-classic " -e "^gppc2023-anyangle " "$tmp/list")" -eq 3 ]'

"$nb" reproduce gppc2023-classic --config "$tmp/classic.txt" --data "$tmp/pub" --out "$tmp/c" > "$tmp/c.md" 2> "$tmp/c.err"
check classic_exit '[ $? -eq 0 ] || [ -s "$tmp/c.md" ]'
check classic_files '[ -s "$tmp/c/table.md" ] && [ -s "$tmp/c/index.html" ] && [ -s "$tmp/c/meta.json" ] && [ -s "$tmp/c/run/results.csv" ]'
check classic_stdout_is_table 'cmp -s "$tmp/c.md" "$tmp/c/table.md"'
# The competition's column set, each entry's measured row beside its published one.
check classic_columns 'grep -q "^| entry | source | solved | optimally solved | total query time (s) | mean query time (ms) | preprocessing (s) | stored / structure | peak RSS | mean path length | mean suboptimality |" "$tmp/c.md"'
check classic_entry_measured 'grep -q "^| gppc:Warthog-Astar | measured | 40 / 40 | 40 |" "$tmp/c.md"'
check classic_entry_published 'grep -A1 "^| gppc:Warthog-Astar | measured" "$tmp/c.md" | grep -q "^| Warthog-Astar | published | 256000 / 256000 | 256000 | 23034.600 | 89.9789 |"'
check classic_prefixed_match 'grep -A1 "^| gppc:SGCH-JPD | measured" "$tmp/c.md" | grep -q "^| 2019-SGCH-JPD | published | 256000 / 256000 | 255999 |"'
check classic_own_reps 'grep -q "^| subgoal | measured | 40 / 40 | 40 |" "$tmp/c.md" && grep -q "^| grid8 | measured | 40 / 40 | 40 |" "$tmp/c.md"'
# Published ratio: Warthog-Astar 89.98 ms over SGCH-JPD's 0.2333 ms = 385.62, rank 2 of 2.
check classic_compare 'grep -q "^| gppc:Warthog-Astar | [0-9.]* | [0-9.]* | [0-9] | 89.9789 | 385.62 | 2 |" "$tmp/c.md"'
check classic_meta 'python3 -c "import json,sys; j=json.load(open(sys.argv[1])); c=j[\"config\"]; assert c[\"reproduce\"]==\"gppc2023-classic\" and c[\"convention\"]==\"center\" and len(c[\"rows\"])==4" "$tmp/c/meta.json"'
# Memory like for like (SPEC §14): stored / structure bytes are the entry's stored_bytes or our
# memory_bytes, summed over the maps; peak RSS the entry's peak_rss_bytes, or for our own the peak
# their own navbench process printed on each map (run/memory-REP-MAP.err), the largest; never a sum.
memory_rule() {  # OUT: the meta.json rows against run/results.build.csv and the memory notes
  python3 - "$1" <<'PY'
import csv, glob, json, os, re, sys
out = sys.argv[1]
rows = json.load(open(os.path.join(out, "meta.json")))["config"]["rows"]
build = list(csv.DictReader(open(os.path.join(out, "run/results.build.csv"))))
bad = []
for r in rows:
    rep = r["representation"]
    b = [x for x in build if x["representation"] == rep]
    entry = rep.startswith("gppc:")
    at_rest = sum(float(x["stored_bytes"] if entry else x["memory_bytes"]) for x in b)
    if entry:
        peak = max(float(x["peak_rss_bytes"]) for x in b)
    else:
        notes = glob.glob(os.path.join(out, "run", f"memory-{rep}-*.err"))
        mib = [float(m.group(1)) for f in notes for m in [re.search(r"peak RSS ([0-9.]+) MiB", open(f).read())] if m]
        peak = max(mib) * 2 ** 20 if len(mib) == len(notes) and notes else None
    if not b or r["stored_or_structure_bytes"] != at_rest or peak is None or abs(r["peak_rss_bytes"] - peak) > 1:
        bad.append(f"{rep}: stored/structure {r['stored_or_structure_bytes']} (want {at_rest}), peak {r['peak_rss_bytes']} (want {peak})")
    if not entry and not (r["peak_rss_bytes"] > at_rest):  # a whole process holds more than its structure
        bad.append(f"{rep}: peak RSS {r['peak_rss_bytes']} not above its structure's {at_rest} bytes")
if bad:
    print("\n".join(bad))
sys.exit(1 if bad else 0)
PY
}
check classic_memory_like_for_like 'memory_rule "$tmp/c"'
# Both sides batched alike: the entries are sent 256 queries at a time, navbench's own are timed
# 256 at a time (the run's meta.json and the table's text say so).
check classic_batched_alike 'python3 -c "import json,sys; assert json.load(open(sys.argv[1]))[\"config\"][\"batch\"] == 256" "$tmp/c/run/results.meta.json" && grep -q "both sides batched alike" "$tmp/c.md"'
check classic_html 'grep -q "<th> mean suboptimality" "$tmp/c/index.html" && grep -q "<td> Warthog-Astar " "$tmp/c/index.html"'

"$nb" reproduce gppc2023-anyangle --config "$tmp/anyangle.txt" --data "$tmp/pub" --out "$tmp/a" > "$tmp/a.md" 2> "$tmp/a.err"
check anyangle_entry 'grep -q "^| gppc:RayScan | measured | 20 / 20 | 20 |" "$tmp/a.md"'
check anyangle_published 'grep -A1 "^| gppc:RayScan | measured" "$tmp/a.md" | grep -q "^| RayScan | published | 256000 / 256000 |"'
check anyangle_visgraph 'grep -q "^| visgraph | measured | 20 / 20 | 20 |" "$tmp/a.md"'
check anyangle_corner 'grep -q "corner convention" "$tmp/a.md"'
check anyangle_memory_like_for_like 'memory_rule "$tmp/a"'

# A peak that cannot be measured is named, not a blank: grid8's process on maze-4-128 cannot write
# its rows (a folder stands where its results.csv goes), so its peak RSS cell, stderr and meta.json
# say why; the other rows keep theirs.
cat > "$tmp/one.txt" <<CFG
gppc:path=$classic,track=classic,name=Warthog-Astar
map $maps/maze-4-128.map
limit 5
CFG
mkdir -p "$tmp/m/run/memory-grid8-maze-4-128.csv"
"$nb" reproduce gppc2023-classic --config "$tmp/one.txt" --data "$tmp/pub" --out "$tmp/m" > "$tmp/m.md" 2> "$tmp/m.err"
check missing_peak_exit '[ $? -eq 0 ]'
check missing_peak_named 'grep -q "^| grid8 | measured | 5 / 5 | 5 | .* | not measured (maze-4-128: its navbench run exited [1-9][0-9]* (.*memory-grid8-maze-4-128.err)) |" "$tmp/m.md"'
check missing_peak_stderr 'grep -q "grid8.s peak RSS not measured: maze-4-128: its navbench run exited" "$tmp/m.err"'
check missing_peak_meta 'python3 -c "import json,sys; r={x[\"representation\"]: x for x in json.load(open(sys.argv[1]))[\"config\"][\"rows\"]}; assert r[\"grid8\"][\"peak_rss_missing\"].startswith(\"maze-4-128: \") and r[\"subgoal\"][\"peak_rss_missing\"] == \"\" and r[\"subgoal\"][\"peak_rss_bytes\"] > 0" "$tmp/m/meta.json"'
check missing_peak_others_kept 'grep -q "^| subgoal | measured | 5 / 5 | 5 | .*B | [0-9.]*MB | " "$tmp/m.md"'

# One-line errors, exit status 2.
one_line() { "$nb" "$@" > /dev/null 2> "$tmp/e"; local s=$?; [ $s -eq 2 ] && [ "$(wc -l < "$tmp/e")" -eq 1 ]; }
check err_no_config 'one_line reproduce gppc2023-classic --data "$tmp/pub" --out "$tmp/x" && grep -q "needs --config" "$tmp/e"'
check err_wrong_track 'one_line reproduce gppc2023-anyangle --config "$tmp/classic.txt" --data "$tmp/pub" --out "$tmp/x" && grep -q "is not a track=anyangle entry" "$tmp/e"'
echo "bogus line" > "$tmp/bad.txt"
check err_bad_line 'one_line reproduce gppc2023-classic --config "$tmp/bad.txt" --data "$tmp/pub" --out "$tmp/x" && grep -q "bad.txt:1: expected" "$tmp/e"'
check err_unknown 'one_line reproduce gppc2024 --out "$tmp/x" && grep -q "unknown reproduction" "$tmp/e"'
[ "$fails" -eq 0 ] || { cat "$tmp/c.err" "$tmp/a.err" "$tmp/m.err"; exit 1; }
