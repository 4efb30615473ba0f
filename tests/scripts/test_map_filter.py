#!/usr/bin/env python3
"""Reading one map's rows of a sweep's CSV (navbench.files.read_table(maps=...), what the
path pictures use): the rows kept are exactly the whole file's rows of that map, also when a
quoted field holds commas, quotes or line breaks, when a map's name is a prefix of another's, and
when the first field itself is quoted; a file whose first column is not `map` is read whole.
Exit 0 = pass, 1 = failure. Run through scripts/navpy.sh (needs pandas)."""
import os
import sys
import tempfile

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "..", "..", "scripts"))

from navbench import files as results  # noqa: E402  (the readers, python/navbench/files.py)

failures = []


def check(cond, what):
    print(("ok:   " if cond else "FAIL: ") + what)
    if not cond:
        failures.append(what)


text = (
    "map,scen_index,representation,message\n"
    "den520d,0,grid8,\n"
    "den520d2,1,grid8,a prefix of another name\n"
    "den520d,2,grid8,\"a message, with a comma\"\n"
    "other,3,grid8,\"two lines\nden520d,99,fake,a continuation that looks like a row\"\n"
    "den520d,4,visgraph,\"a \"\"quoted\"\" word\nand a second line\"\n"
    "\"den520d\",5,grid4,quoted first field\n"
    "other,6,grid4,\n"
    "den520d,7,grid4,last\n"
)
schema = results._schema_of(["map", "scen_index", "representation", "message"], {"map", "representation", "message"})
with tempfile.TemporaryDirectory() as tmp:
    path = os.path.join(tmp, "rows.csv")
    with open(path, "w", encoding="utf-8", newline="") as f:
        f.write(text)
    whole = results.read_table(path, "table", schema)
    part = results.read_table(path, "table", schema, maps=["den520d"])
    check(len(whole) == 8, f"the whole file has 8 records ({len(whole)})")
    mine = whole[whole["map"] == "den520d"]
    got = part[part["map"] == "den520d"]
    check(sorted(got["scen_index"]) == sorted(mine["scen_index"]) == [0, 2, 4, 5, 7],
          f"den520d's records: {sorted(got['scen_index'])}")
    check(set(part["map"]) <= {"den520d"}, f"no other map's record parsed: {sorted(set(part['map']))}")
    check(list(got.sort_values("scen_index")["message"]) == list(mine.sort_values("scen_index")["message"]),
          "their fields, line breaks and quotes included, as read whole")
    none = results.read_table(path, "table", schema, maps=["absent"])
    check(len(none) == 0 or set(none["map"]) == {"den520d"}, "a map not there: no rows (but a quoted first field)")
    other = os.path.join(tmp, "other.csv")
    with open(other, "w", encoding="utf-8") as f:
        f.write("name,map\nx,den520d\ny,other\n")
    s2 = results._schema_of(["name", "map"], {"name", "map"})
    check(len(results.read_table(other, "table", s2, maps=["den520d"])) == 2, "first column not `map`: read whole")

print(f"{len(failures)} failure(s)")
sys.exit(1 if failures else 0)
