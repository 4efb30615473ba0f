#!/usr/bin/env python3
"""Recipe: two runs compared on the queries both ran (the same map, start and goal, convention,
terrain, radius and epoch; docs/results.md#recipes): the same as `navbench compare A B --csv OUT.csv`.

    scripts/navpy.sh docs/example/recipe_compare.py A B OUT.csv
"""
import sys

import navbench
from navbench.compare import INTERVAL_NOTE, compare, summary_line, verdict_line

a, b = navbench.load(sys.argv[1]), navbench.load(sys.argv[2])
t = compare(a.queries, b.queries, a.builds, b.builds)    # InputError when nothing pairs
# two configurations of one run: compare(a.queries, a.queries, config_a="navmesh · none", config_b="navmesh · funnel")
print(summary_line(t, sys.argv[1], sys.argv[2]))
for _, row in t.iterrows():
    print(verdict_line(row))                              # ratio B / A, 95 % interval, Holm p, n
print(INTERVAL_NOTE)
t.to_csv(sys.argv[3], index=False)
