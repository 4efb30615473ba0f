#!/usr/bin/env python3
"""What a configuration's representation declares, read from the result sets' meta.json
(python/navbench/capabilities.py) instead of its name: a set whose meta.json carries
"representations" (what navbench writes) is read from it, one written before with the
declarations of that time; the report's labels (outside planners, lattices) and the grid's
free-cell count follow the declarations, so a representation named anything gets them by
declaring them.

    test_capabilities.py
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts"))

import pandas as pd  # noqa: E402

from navbench.capabilities import declarations, declares, representation_name  # noqa: E402
from navbench.maps import grid_vertices  # noqa: E402
from navreport.io import results  # noqa: E402

fails = 0


def check(name, ok):
    global fails
    print(("ok   " if ok else "FAIL ") + name)
    fails += not ok


before = declarations({"set": {"schema": {}}})  # a meta.json written before the field
check("written_before_outside", declares(before, "gppc:astar · none", "outside"))
check("written_before_lattice", declares(before, "grid8:lattice=corner", "lattice"))
check("written_before_not_declared", not declares(before, "visgraph", "lattice"))
# cpd came after 17d5920 and before meta.json carried the declarations: a set of that time holds its rows.
check("written_before_cpd", declares(before, "cpd:threads=2", "table-search") and not declares(before, "cpd", "lattice"))
check("capability_head", declares(before, "grid8", "weights") and declares(before, "grid8", "weights=update"))
check("names", representation_name("grid8 (centre lattice) · los") == "grid8"
      and representation_name("gppc:astar (outside) · none") == "gppc")

# A meta.json that declares: a new representation gets the labels by its declarations, whatever its name.
meta = {"set": {"representations": {"hexes": {"capabilities": ["grid-only", "outside"], "parameters": ["lattice"]},
                                    "grid8": {"capabilities": ["grid-only"], "parameters": []}}}}
now = declarations(meta)
check("declared_in_meta", declares(now, "hexes:x=1", "outside") and declares(now, "hexes", "lattice"))
check("meta_replaces_written_before", not declares(now, "grid8", "lattice"))
results.DECLARED.update(now)
check("outside_label", results.rep_label("hexes:a · none") == "hexes:a (outside) · none")
check("lattice_label", results.lattice_label("hexes:lattice=corner") == "hexes (corner lattice)")
check("no_label_without_declaring", results.lattice_label("grid8:lattice=corner") == "grid8:lattice=corner")
results.DECLARED.update(declarations({}))

# The free cells of a map from a build row on the centre lattice (its params), whatever its name.
build = pd.DataFrame({"map": ["a", "a", "b"], "representation": ["hexes", "quadtree", "hexes"],
                      "params": ["lattice=center,pinch=forbid", "", "lattice=corner"], "vertices": [42.0, 7.0, 99.0]})
check("free_cells_from_centre_lattice", grid_vertices(build) == {"a": 42.0})

print(f"test_capabilities: {fails} failure(s)")
sys.exit(1 if fails else 0)
