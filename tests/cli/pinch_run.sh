#!/usr/bin/env bash
# navbench run --pinch allow (SPEC §11; docs/maps.md, the squeeze rule) on a seeded random grid:
# the column pinch only under allow; the build rows say which representation follows the rule
# (grid8:lattice=corner and visgraph take pinch=allow, grid8 on the centre lattice runs as it is);
# per query the optimum with squeezing is at most the one without, shorter on some; visgraph under
# allow equals that optimum; every path is valid under the run's rule.
# Usage: pinch_run.sh NAVBENCH_BINARY
set -uo pipefail
nb=$1
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
"$nb" generate random --width 40 --height 40 --density 30 --seed 5 --out "$tmp/r40" >/dev/null 2>&1 || { echo "FAIL generate"; exit 1; }
map=$(ls "$tmp"/r40*.map | head -1)
for rule in forbid allow; do
  "$nb" run --map "$map" --queries 60 --seed 2 --convention corner --pinch $rule --quiet \
    --rep grid8 --rep grid8:lattice=corner --rep visgraph --search astar,theta --out "$tmp/$rule" || { echo "FAIL run $rule"; exit 1; }
done
python3 - "$tmp" <<'PY'
import csv, sys
t = sys.argv[1]
fails = 0
def check(name, ok):
    global fails
    print(("ok   " if ok else "FAIL ") + name)
    fails += not ok
f = list(csv.DictReader(open(f"{t}/forbid.csv")))
a = list(csv.DictReader(open(f"{t}/allow.csv")))
check("no_pinch_column_under_forbid", "pinch" not in f[0])
check("pinch_column_allow", all(r["pinch"] == "allow" for r in a))
b = {r["representation"]: r for r in csv.DictReader(open(f"{t}/allow.build.csv"))}
check("build_rule_grid8_centre", b["grid8"]["pinch"] == "forbid" and "pinch=allow" not in b["grid8"]["params"])
check("build_rule_corner_lattice", b["grid8:lattice=corner"]["pinch"] == "allow" and "pinch=allow" in b["grid8:lattice=corner"]["params"])
check("build_rule_visgraph", b["visgraph"]["pinch"] == "allow")
opt_f = {r["scen_index"]: float(r["optimal"]) for r in f if r["optimal"]}
opt_a = {r["scen_index"]: float(r["optimal"]) for r in a if r["optimal"]}
check("optimum_allow_le_forbid", all(opt_a[k] <= opt_f[k] + 1e-9 for k in opt_f if k in opt_a) and len(opt_f) >= 40)
check("optimum_allow_shorter_somewhere", sum(opt_a[k] < opt_f[k] - 1e-9 for k in opt_f if k in opt_a) > 0)
vis = [r for r in a if r["representation"] == "visgraph" and r["status"] == "ok"]
check("visgraph_allow_equals_optimum", len(vis) == len(opt_a) and all(abs(float(r["length"]) - float(r["optimal"])) <= 1e-9 for r in vis))
check("all_valid", all(r["valid"] == "1" for r in a + f if r["status"] == "ok"))
sys.exit(1 if fails else 0)
PY
