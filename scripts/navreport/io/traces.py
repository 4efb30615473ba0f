"""The expanded vertices of traced queries (docs/traces.md) for the path pictures: the index
`traces/NAME.traces.csv` beside `PREFIX.csv` written by `navbench run --trace N`, and each trace's
`expand` events' points (a grid cell's centre, a portal's midpoint, a corner: the vertex's x, y)."""
from __future__ import annotations

import csv
import json
import os

from navreport.io.errors import InputError

# The search whose trace a subplot draws when several searches of one representation were traced:
# A* first (the row the raw path is), then the any-angle ones.
SEARCH_ORDER = ("astar", "theta", "lazy-theta")


def index_path(paths_file: str) -> str:
    """traces/NAME.traces.csv beside PREFIX.paths.csv (NAME: the last part of PREFIX)."""
    prefix = paths_file[:-len(".paths.csv")] if paths_file.endswith(".paths.csv") else paths_file
    return os.path.join(os.path.dirname(prefix), "traces", os.path.basename(prefix) + ".traces.csv")


def read_index(path: str) -> list[dict]:
    """The index's rows; a one-line error when it lacks the columns pathviz needs."""
    need = {"map", "scen_index", "representation", "heuristic", "search", "radius", "file", "expand",
            "truncated"}
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
        missing = need - set(rows[0]) if rows else set()
    if missing:
        raise InputError(f"{path}: not a traces index (missing {', '.join(sorted(missing))})")
    return rows


def _radius(text: str) -> float:
    try:
        return float(text)
    except ValueError:
        return 0.0


def pick(rows: list[dict], map_name: str, idx: int, rep: str, heuristic: str, radius=None) -> list[dict]:
    """The index rows of one subplot (map, query, representation, heuristic, radius), A* first;
    not the searches that do not apply to the representation (their traces hold no search)."""
    out = [r for r in rows if r.get("status") != "not_applicable" and r["map"] == map_name and r["representation"] == rep and r["heuristic"] == heuristic
           and r["scen_index"].strip() == str(idx) and (radius is None or _radius(r["radius"]) == radius)]
    return sorted(out, key=lambda r: SEARCH_ORDER.index(r["search"]) if r["search"] in SEARCH_ORDER else 99)


def expanded_points(trace_file: str):
    """x, y of every `expand` event written in the trace (a cut trace: those before the cap), and how
    the query was answered (the end event's `answered`: search, table or none; docs/traces.md)."""
    try:
        with open(trace_file) as f:
            doc = json.load(f)
    except (OSError, ValueError) as e:
        raise InputError(f"{trace_file}: not a readable trace ({e})")
    events = doc.get("events") if isinstance(doc, dict) else None
    if not isinstance(events, list):
        raise InputError(f"{trace_file}: no events list (not a posthoc search trace)")
    pts = [(float(e["x"]), float(e["y"])) for e in events
           if isinstance(e, dict) and e.get("type") == "expand" and "x" in e and "y" in e]
    ends = [e for e in events if isinstance(e, dict) and e.get("type") == "end"]
    return pts, str(ends[-1].get("answered", "search")) if ends else "search"


def layer(rows: list[dict], index_file: str, map_name: str, idx: int, rep: str, heuristic: str, radius=None):
    """The expanded-vertex layer of one subplot, or None when the query was not traced:
    {'points', 'count' (the search's expansions, whole even for a cut trace), 'search', 'answered',
    'truncated',
    'others' [(search, count) of the representation's other traced searches]}."""
    mine = pick(rows, map_name, idx, rep, heuristic, radius)
    if not mine:
        return None
    first = mine[0]
    pts, answered = expanded_points(os.path.join(os.path.dirname(index_file), first["file"]))
    return {"points": pts, "count": int(first["expand"] or 0), "search": first["search"], "answered": answered,
            "truncated": first["truncated"].strip() == "1",
            "others": [(r["search"], int(r["expand"] or 0)) for r in mine[1:]]}
