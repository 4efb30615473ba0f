#!/usr/bin/env python3
"""Recipe: gap and validity per collection and configuration, with 95 % intervals
(docs/results.md#recipes).

    scripts/navpy.sh docs/example/recipe_table_per_collection.py RESULTS OUT.csv
"""
import sys

import navbench

res = navbench.load(sys.argv[1])
t = navbench.summarize(res.queries, by=["collection", "representation", "smoothing"])
cols = ["collection", "representation", "smoothing", "solved_pct", "valid_pct", "valid_pct_n",
        "gap_mean", "gap_mean_lo", "gap_mean_hi", "gap_max"]
t[cols].to_csv(sys.argv[2], index=False)
print(t[cols].to_string(index=False, float_format=lambda v: f"{v:.4g}"))
