#!/usr/bin/env python3
"""The column schema the results writer puts into meta.json (key "schema"), written by hand for
result sets made before it did, so the scripts' schema path can be tested on them:

    schema_fixture.py META.json...     adds "schema" to each file that lacks one (in place)

Keep it equal to the writer's table (harness/results); it is test data, the scripts never read
this file.
"""
import json
import sys


def _cols(spec: str) -> list:
    """'name:type[:group] ...' -> schema entries (group core unless given)."""
    out = []
    for item in spec.split():
        name, typ, *group = item.split(":")
        out.append({"name": name, "type": typ, "group": group[0] if group else "core"})
    return out


SCHEMA = {
    "results": _cols("map:text collection:text scen_index:int bucket:int representation:text heuristic:text "
                     "smoothing:text convention:text sx:float sy:float gx:float gy:float status:text length:float "
                     "optimal:float octile_optimal:float gap:float valid:bool expansions:int path_points:int "
                     "locate_us:float search_us:float smooth_us:float raw_length:float raw_valid:bool generated:int "
                     "message:text radius:float:radius epoch:int:epoch"),
    "build": _cols("map:text representation:text params:text build_ms:float vertices:int edges:int "
                   "memory_bytes:int radius:float:radius"),
    "paths": _cols("map:text scen_index:int representation:text heuristic:text smoothing:text convention:text "
                   "radius:float:radius points:text"),
    "updates": _cols("map:text representation:text epoch:int patches:int cells_changed:int update_us:float "
                     "rebuild_us:float"),
}


def main(paths) -> int:
    for p in paths:
        with open(p, encoding="utf-8") as f:
            meta = json.load(f)
        if "schema" in meta:
            continue
        meta["schema"] = SCHEMA
        with open(p, "w", encoding="utf-8") as f:
            json.dump(meta, f, indent=2)
            f.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
