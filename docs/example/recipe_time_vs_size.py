#!/usr/bin/env python3
"""Recipe: median query time against map size (free cells), per configuration without smoothing
(docs/results.md#recipes). A weighted map (its terrain) and an agent radius are rows of their own.

    scripts/navpy.sh docs/example/recipe_time_vs_size.py RESULTS OUT.csv
"""
import sys

import navbench

res = navbench.load(sys.argv[1])
t = navbench.summarize(res.queries, by=["map", "terrain", "radius", "representation", "search", "smoothing"])
t = t.merge(res.maps[["map", "terrain", "free_cells"]].astype({"map": str, "terrain": str}),
            on=["map", "terrain"])
t = t[(t["smoothing"] == "none") & (t["applicable"] > 0)].sort_values(["representation", "search", "free_cells"])
cols = ["representation", "search", "map", "terrain", "radius", "free_cells", "time_median", "time_median_lo", "time_median_hi",
        "time_median_n"]
t[cols].to_csv(sys.argv[2], index=False)
print(t[cols[:7]].to_string(index=False))
