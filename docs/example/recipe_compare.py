#!/usr/bin/env python3
"""Recipe: two runs compared on the queries both ran (docs/results.md#recipes); the same as
`navbench compare A B --csv OUT.csv`.

    scripts/navpy.sh docs/example/recipe_compare.py A B OUT.csv
"""
import sys

import navbench
from navbench.compare import compare, summary_line

a, b = navbench.load(sys.argv[1]), navbench.load(sys.argv[2])
t = compare(a.queries, b.queries, a.builds, b.builds)    # InputError when nothing pairs
print(summary_line(t, sys.argv[1], sys.argv[2]))
t.to_csv(sys.argv[3], index=False)
print(t[["configuration", "paired", "time_ratio", "time_ratio_lo", "time_ratio_hi", "gap_diff"]].to_string(index=False))
