"""Subsets of result sets: the --maps, --collections and --reps filters of the report, the figures
and navbench compare (docs/results.md#subsets), and the words that name a subset in titles."""
from __future__ import annotations

from navbench.errors import InputError


def add_arguments(ap) -> None:
    """The subset options of every command line that reads results (navbench compare and export
    --ompl, scripts/report.py, scripts/plots.py)."""
    ap.add_argument("--maps", action="append", default=[], metavar="NAMES",
                    help="only these maps (comma-separated map names; repeatable)")
    ap.add_argument("--collections", action="append", default=[], metavar="NAMES",
                    help="only these map collections (comma-separated; repeatable)")
    ap.add_argument("--reps", action="append", default=[], metavar="NAMES",
                    help="only these representations, as written in the results or by name alone (quadtree: every "
                         "parameter set; comma-separated; repeatable)")


def parse_list(text) -> list:
    """A filter's value: comma-separated names (repeatable options give lists of them)."""
    if text is None:
        return []
    items = text if isinstance(text, (list, tuple)) else [text]
    return [w.strip() for item in items for w in str(item).split(",") if w.strip()]


def rep_base(value: str) -> str:
    """A representation without its parameters and the report's lattice/squeeze label:
    'grid8 (centre lattice)' -> 'grid8', 'quadtree:min=1,merge=1' -> 'quadtree'."""
    return str(value).split(" (")[0].split(":")[0]


def rep_matches(value: str, wanted: list) -> bool:
    """A representation matches a --reps name given as written in the results
    ('quadtree:min=1,merge=1'), or by its name alone ('quadtree': every parameter set)."""
    v = str(value)
    return any(w == v or w == v.split(" (")[0] or w == rep_base(v) for w in wanted)


def mask(df, maps=(), collections=(), reps=()):
    """Per row of df (result, build or maps rows): True where it belongs to the subset. A filter
    on a column df lacks (build rows have no collection) keeps every row."""
    import numpy as np
    keep = np.ones(len(df), dtype=bool)
    if maps and "map" in df.columns:
        keep &= df["map"].astype(str).isin(list(maps)).to_numpy(bool)
    if collections and "collection" in df.columns:
        keep &= df["collection"].astype(str).isin(list(collections)).to_numpy(bool)
    if reps and "representation" in df.columns:
        values = df["representation"].astype(str)
        ok = {v: rep_matches(v, list(reps)) for v in values.unique()}
        keep &= values.map(ok).to_numpy(bool)
    return keep


def check_known(df, maps=(), collections=(), reps=()) -> None:
    """An InputError naming the filter values that match nothing in df (a typo must not give an
    empty figure silently)."""
    def unknown(names, col, match):
        if not names or col not in df.columns:
            return []
        have = set(df[col].astype(str).unique())
        return [n for n in names if not any(match(h, n) for h in have)]
    bad = (unknown(maps, "map", lambda h, n: h == n) + unknown(collections, "collection", lambda h, n: h == n) +
           unknown(reps, "representation", lambda h, n: rep_matches(h, [n])))
    if bad:
        raise InputError(f"no result rows match {', '.join(repr(b) for b in bad)} (--maps, --collections, --reps)")


def select(obj, maps=None, collections=None, reps=None, check: bool = True):
    """The subset of a navbench.Results (every table) or of one DataFrame. maps, collections, reps:
    lists or comma-separated names; reps match with or without parameters. Build rows follow the
    query rows: a collection filter keeps the builds of the maps it keeps. check: a name that
    matches no row is an InputError (check_known; navbench compare checks both runs together)."""
    maps, collections, reps = parse_list(maps), parse_list(collections), parse_list(reps)
    if hasattr(obj, "queries"):
        import dataclasses
        q = obj.queries
        if check:
            check_known(q, maps, collections, reps)
        q = q[mask(q, maps, collections, reps)].reset_index(drop=True)
        kept_maps = sorted(set(q["map"].astype(str))) if collections else maps
        b = obj.builds[mask(obj.builds, kept_maps, (), reps)].reset_index(drop=True)
        m = obj.maps[mask(obj.maps, maps, collections)].reset_index(drop=True)
        for new, old in ((q, obj.queries), (b, obj.builds), (m, obj.maps)):
            new.attrs.update(old.attrs)
        return dataclasses.replace(obj, queries=q, builds=b, maps=m)
    out = obj[mask(obj, maps, collections, reps)].reset_index(drop=True)
    out.attrs.update(obj.attrs)
    return out


def subset_title(maps=(), collections=(), reps=()) -> str:
    """The words naming a subset, for titles: 'all maps' when nothing is filtered."""
    parts = []
    if collections:
        parts.append(("collection " if len(collections) == 1 else "collections ") + ", ".join(collections))
    if maps:
        parts.append(("map " + maps[0]) if len(maps) == 1 else
                     f"{len(maps)} maps ({', '.join(maps[:3])}{', ...' if len(maps) > 3 else ''})")
    if reps:
        parts.append(("representation " if len(reps) == 1 else "representations ") + ", ".join(reps))
    return "; ".join(parts) if parts else "all maps"
