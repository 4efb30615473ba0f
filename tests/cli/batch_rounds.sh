#!/usr/bin/env bash
# navbench run --batch N (navbench's own queries timed N at a time back to back, then judged, as an
# entry's batches: docs/command-line.md) and scripts/rounds (alternating rounds, per query the best
# round, the median, each round's ratio: docs/outside-planners.md). On a seeded random grid:
# - --batch 7 with --repetitions 2, two smoothings and --paths gives the rows and paths of --batch 1
#   (every column but the times), for representations with and without a search of their own;
# - --batch with --threads 2 is refused with one line;
# - scripts/rounds --rounds 3 runs three rounds, the --rep order reversed in round 2, and writes
#   rounds.csv: one line per representation, the reference's ratio 1 in every round, each
#   combined median at most every round's median (the per-query best of the rounds), and
#   rounds-env.csv: each round's time, page faults and resident set.
# Usage: batch_rounds.sh NAVBENCH_BINARY SOURCE_DIR
set -uo pipefail
nb=$1 src=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
"$nb" generate random --width 48 --height 48 --density 25 --seed 3 --queries 40 --out "$tmp/r48" >/dev/null 2>&1 || { echo "FAIL generate"; exit 1; }
map=$(ls "$tmp"/r48*.map | head -1)
reps=(--rep subgoal:labels=1 --rep subgoal --rep grid8 --rep visgraph)
for b in 1 7; do
  "$nb" run --map "$map" "${reps[@]}" --smoothing none,los --repetitions 2 --batch $b --paths --quiet --out "$tmp/b$b" \
    || { echo "FAIL run --batch $b"; exit 1; }
done
fails=0
if "$nb" run --map "$map" --rep grid8 --batch 4 --threads 2 --out "$tmp/x" >/dev/null 2>"$tmp/err"; then
  echo "FAIL batch_with_threads_refused: exit 0"; fails=$((fails+1))
elif [ "$(wc -l <"$tmp/err")" -ne 1 ] || ! grep -q -- "--batch" "$tmp/err"; then
  echo "FAIL batch_with_threads_refused: $(head -2 "$tmp/err")"; fails=$((fails+1))
else echo "ok   batch_with_threads_refused"; fi
/usr/bin/python3 "$src/scripts/rounds" --rounds 3 --ref grid8 --navbench "$nb" --out "$tmp/rounds" -- \
  --map "$map" "${reps[@]}" --smoothing none --quiet >"$tmp/rounds.out" 2>"$tmp/rounds.err" \
  || { echo "FAIL rounds: $(tail -2 "$tmp/rounds.err")"; exit 1; }
python3 - "$tmp" "$fails" <<'PY'
import csv, json, sys
t, fails = sys.argv[1], int(sys.argv[2])
def check(name, ok):
    global fails
    print(("ok   " if ok else "FAIL ") + name)
    fails += not ok
timing = {"locate_us", "search_us", "smooth_us", "first_move_us", "first20_us", "max_step_us"}
a = list(csv.DictReader(open(f"{t}/b1.csv")))
b = list(csv.DictReader(open(f"{t}/b7.csv")))
check("batch_same_rows", len(a) == len(b) > 300 and all({k: v for k, v in x.items() if k not in timing} ==
                                                       {k: v for k, v in y.items() if k not in timing} for x, y in zip(a, b)))
check("batch_rows_answered", sum(r["status"] == "ok" for r in b) > 200)
check("batch_same_paths", open(f"{t}/b1.paths.csv").read() == open(f"{t}/b7.paths.csv").read())
check("batch_in_description", json.load(open(f"{t}/b7.meta.json"))["config"]["batch"] == 7)
order = [json.load(open(f"{t}/rounds/round-{k}.meta.json")) for k in (1, 2, 3)]
def reps_of(m):
    return m["config"]["representations"]
check("rounds_alternate", reps_of(order[0]) == reps_of(order[2]) == list(reversed(reps_of(order[1]))))
lines = list(csv.DictReader(open(f"{t}/rounds/rounds.csv")))
check("rounds_one_line_each", sorted(l["representation"] for l in lines) == sorted(["subgoal:labels=1", "subgoal", "grid8", "visgraph"]))
ref = [l for l in lines if l["representation"] == "grid8"]
check("rounds_reference_ratio_1", ref and all(abs(float(ref[0][f"ratio_round_{k}"]) - 1) < 1e-9 for k in (1, 2, 3)))
check("rounds_best_at_most_each_round", all(float(l["median_us"]) <= min(float(l[f"round_{k}_us"]) for k in (1, 2, 3)) + 1e-9
                                            for l in lines))
env = list(csv.DictReader(open(f"{t}/rounds/rounds-env.csv")))
check("rounds_env", [e["round"] for e in env] == ["1", "2", "3"] and [e["reps_reversed"] for e in env] == ["0", "1", "0"]
      and all(float(e["wall_s"]) > 0 and int(e["minor_faults"]) > 0 and int(e["max_rss_kb"]) > 0 for e in env))
check("rounds_ratio_worst", all(abs(float(l["ratio_worst"]) - max(float(l[f"ratio_round_{k}"]) for k in (1, 2, 3))) < 1e-3
                                for l in lines))
sys.exit(1 if fails else 0)
PY
