#!/usr/bin/env python3
"""Recipe: median query time against map size, per representation (docs/results.md#recipes).

    scripts/navpy.sh docs/example/recipe_time_vs_size.py RESULTS OUT.csv
"""
import sys

import navbench

res = navbench.load(sys.argv[1])
t = navbench.summarize(res.queries, by=["map", "terrain", "representation", "smoothing"])
t = t.merge(res.maps[["map", "terrain", "free_cells"]].astype({"map": str, "terrain": str}),
            on=["map", "terrain"])
t = t[t["smoothing"] == "none"].sort_values(["representation", "free_cells"])
t[["representation", "map", "free_cells", "time_median", "time_median_lo", "time_median_hi", "time_median_n"]].to_csv(
    sys.argv[2], index=False)
print(t[["representation", "map", "free_cells", "time_median"]].to_string(index=False))
