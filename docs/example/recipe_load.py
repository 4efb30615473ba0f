#!/usr/bin/env python3
"""Recipe: navbench's results in pandas (docs/results.md#recipes).

    scripts/navpy.sh docs/example/recipe_load.py RESULTS [--db FILE]

FILE: a database made by `navbench export RESULTS --sqlite FILE`.
"""
import os
import sqlite3
import sys

import pandas as pd

import navbench

res = navbench.load(sys.argv[1])          # a run PREFIX, a sweep folder, a merged set or shards
q = res.queries                           # one row per query: Int64, boolean, category, string
print(res)
print(q.dtypes[["scen_index", "status", "valid", "expansions", "search_us", "message"]].to_string())
print("units:", {c: q.attrs["units"][c] for c in ("search_us", "length", "gap")})
print(res.maps[["collection", "map", "terrain", "kind", "free_cells"]].to_string(index=False))
print(res.runs[["git_commit", "host", "date"]].to_string(index=False))

if len(sys.argv) > 3 and sys.argv[2] == "--db":   # the same rows from the database (navbench export --sqlite)
    if not os.path.isfile(sys.argv[3]):        # sqlite3.connect would make an empty one
        sys.exit(f"recipe_load.py: no database {sys.argv[3]} (make it with navbench export RESULTS --sqlite FILE)")
    con = sqlite3.connect(sys.argv[3])
    rows = pd.read_sql("SELECT label, map, status, gap, search_us FROM query_rows", con)
    print(rows.groupby("label")["gap"].mean().to_string())
