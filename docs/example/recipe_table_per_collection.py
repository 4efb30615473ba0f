#!/usr/bin/env python3
"""Recipe: gap and validity per collection and configuration, with 95 % intervals; weighted maps
(terrain) and agent radii apart from the plain maps and the point agent (docs/results.md#recipes).

    scripts/navpy.sh docs/example/recipe_table_per_collection.py RESULTS OUT.csv
"""
import sys

import navbench

res = navbench.load(sys.argv[1])
t = navbench.summarize(res.queries, by=["collection", "terrain", "radius", "representation", "search", "smoothing"])
t = t[t["applicable"] > 0]   # a configuration that cannot run there (not_applicable) has no row
cols = ["collection", "terrain", "radius", "representation", "search", "smoothing", "solved_pct", "valid_pct", "valid_pct_n",
        "gap_mean", "gap_mean_lo", "gap_mean_hi", "gap_max", "is_candidate"]
t[cols].to_csv(sys.argv[2], index=False)
print(t[cols].to_string(index=False, float_format=lambda v: f"{v:.4g}"))
