"""navbench.load: result sets as typed pandas tables (docs/results.md#the-python-package).

    res = navbench.load("results/default")      # a run PREFIX, a sweep folder, a merged set, shards
    res.queries   # one row per query (PREFIX.csv): the schema's types, `run` names the result set
    res.builds    # one row per map and representation (PREFIX.build.csv)
    res.maps      # one row per map (and terrain): collection, kind, width, height, cells, free_cells
    res.runs      # one row per result set: commit, machine, date, options (meta.json)
    res.absent    # why a representation has no rows on a map (candidates.absent_table; summarize uses it)

Types come from the schema in meta.json ("schema", written by harness/results/results.cpp):
int -> Int64 (nullable: an empty field is <NA>, never 0), float -> float64 (NaN), bool -> boolean
(nullable), text -> category for names and statuses, string for `message`. Each table's
df.attrs["units"] maps a column to its unit (UNITS), df.attrs["types"] to its schema type.
"""
from __future__ import annotations

import json
import os
from dataclasses import dataclass, field

from navbench import files, frames as frames_mod, maps as mapfiles

# The unit of every numeric column of docs/results.md (result, build, updates rows); text and
# counts have none. tests/scripts/test_package.py fails when the schema of a fresh run holds a
# number column missing here.
_MAP_UNITS = "map units"
UNITS = {
    "scen_index": "index", "bucket": "index", "sx": "cells", "sy": "cells", "gx": "cells", "gy": "cells",
    "length": _MAP_UNITS, "optimal": _MAP_UNITS, "octile_optimal": _MAP_UNITS, "gap": "ratio",
    "valid": "1/0", "expansions": "count", "path_points": "count", "locate_us": "µs", "search_us": "µs",
    "smooth_us": "µs", "raw_length": _MAP_UNITS, "raw_valid": "1/0", "generated": "count", "los_checks": "count",
    "clearance": _MAP_UNITS, "turn": "degrees", "first_move_us": "µs", "first20_us": "µs", "max_step_us": "µs",
    "radius": _MAP_UNITS, "epoch": "index", "cost": "cost",
    "raw_cost": "cost", "octile_optimal_cost": "cost", "optimal_cost": "cost", "cost_gap": "ratio",
    "traced": "1/0", "build_ms": "ms", "vertices": "count", "edges": "count", "memory_bytes": "bytes",
    "preprocess_ms": "ms", "prepare_ms": "ms", "stored_bytes": "bytes", "peak_rss_bytes": "bytes",
    "patches": "count", "cells_changed": "count", "update_us": "µs", "rebuild_us": "µs",
    "width": "cells", "height": "cells", "cells": "cells", "free_cells": "cells (polygon maps: unit squares of area)",
    "query_us": "µs"}
# Text columns kept as free text (string), not as categories: one value per row.
FREE_TEXT = ("message",)
# The columns of this navbench's result and build rows with their schema types (the "schema" of
# meta.json, harness/results/results.cpp; tests/scripts/test_package.py fails when a fresh run's
# schema differs). A file that lacks one (an optional group its run did not write, or a file
# written before the column existed, with or without a schema) loads with the column all missing
# (_with_absent): code written against today's columns runs on older and plainer result sets.
COLUMNS = {
    "results": {
        "map": "text", "collection": "text", "scen_index": "int", "bucket": "int", "representation": "text",
        "heuristic": "text", "smoothing": "text", "convention": "text", "sx": "float", "sy": "float", "gx": "float",
        "gy": "float", "status": "text", "length": "float", "optimal": "float", "octile_optimal": "float",
        "gap": "float", "valid": "bool", "expansions": "int", "path_points": "int", "locate_us": "float",
        "search_us": "float", "smooth_us": "float", "raw_length": "float", "raw_valid": "bool", "generated": "int",
        "message": "text", "search": "text", "los_checks": "int", "clearance": "float", "turn": "float",
        "first_move_us": "float", "first20_us": "float", "max_step_us": "float", "radius": "float", "epoch": "int", "pinch": "text", "terrain": "text", "cost": "float", "raw_cost": "float",
        "octile_optimal_cost": "float", "optimal_cost": "float", "cost_gap": "float", "traced": "bool"},
    "build": {
        "map": "text", "representation": "text", "params": "text", "build_ms": "float", "vertices": "int",
        "edges": "int", "memory_bytes": "int", "radius": "float", "pinch": "text", "terrain": "text",
        "preprocess_ms": "float", "prepare_ms": "float", "stored_bytes": "int", "peak_rss_bytes": "int"}}


@dataclass
class Results:
    """The tables of navbench.load."""
    queries: object
    builds: object
    maps: object
    runs: object
    meta: dict = field(default_factory=dict)      # result-set prefix -> parsed meta.json
    notes: list = field(default_factory=list)     # what was missing (no meta.json, no build rows, ...)
    # Why a representation has no rows on a map (map, representation, status not_run or
    # not_applicable, why): the sets' PREFIX.unrun.csv records, and for sets written before them
    # what their sweep config and rows say (candidates.absent_table, docs/results.md#maps-not-run).
    # queries.attrs["absent"] holds the same records, so summarize applies SPEC §14 to subsets too.
    absent: object = None

    def __repr__(self):
        return (f"Results({len(self.queries)} queries, {len(self.builds)} builds, {len(self.maps)} maps, "
                f"{len(self.runs)} runs)")


def _typed(df, types: dict):
    """df (as files.read_table gives it: text categorical, numbers float64) in the schema's types:
    its float columns as they are (not copied), the others converted one at a time, each read
    column let go once converted (df is emptied): millions of rows never held in both forms."""
    import numpy as np
    import pandas as pd
    out = {}
    index = df.index
    columns = _taken(df)
    for c in list(columns):
        t = types.get(c)
        col = pd.Series(columns.pop(c), index=index, copy=False)
        if t == "int":
            v = pd.to_numeric(col, errors="coerce").to_numpy(dtype=float)
            whole = np.isfinite(v) & (v == np.round(v))
            out[c] = pd.arrays.IntegerArray(np.where(whole, v, 0).astype(np.int64), ~whole)
        elif t == "bool":
            v = pd.to_numeric(col, errors="coerce").to_numpy(dtype=float)
            out[c] = pd.arrays.BooleanArray(v == 1, np.isnan(v))
        elif t == "float":
            out[c] = pd.to_numeric(col, errors="coerce").to_numpy(dtype=float)
        elif c in FREE_TEXT:  # an empty field: <NA>
            out[c] = _free_text(col)
        elif isinstance(col.dtype, pd.CategoricalDtype):
            out[c] = col.cat.remove_unused_categories()
        else:
            out[c] = col
        del col
    frame = pd.DataFrame(out, index=index, copy=False)
    frame.attrs["units"] = {c: UNITS[c] for c in frame.columns if c in UNITS and types.get(c) in ("int", "float", "bool")}
    frame.attrs["types"] = {c: types.get(c, "text") for c in frame.columns}
    return frame


def _with_absent(frame, kind: str, schema, only=None):
    """frame with every column of COLUMNS[kind] and of the run's schema that its file lacks, all
    missing, read as an empty field reads: <NA> (Int64, boolean, string), NaN (float), "" (text:
    category, as a plain map's empty terrain). Appended after the file's columns."""
    import numpy as np
    import pandas as pd
    wanted = dict(COLUMNS.get(kind, {}))
    if schema is not None:
        wanted.update(schema.types(kind))
    n = len(frame)

    def missing(c, t):  # made when inserted: pandas copies what it inserts, so only one is held twice
        if t == "int":
            return pd.arrays.IntegerArray(np.zeros(n, dtype=np.int64), np.ones(n, dtype=bool))
        if t == "bool":
            return pd.arrays.BooleanArray(np.zeros(n, dtype=bool), np.ones(n, dtype=bool))
        if t == "float":
            return np.full(n, np.nan)
        if c in FREE_TEXT:
            return pd.Series(pd.NA, index=frame.index, dtype="string")
        return pd.Categorical.from_codes(np.zeros(n, dtype=np.int8), categories=[""])
    absent = [c for c in wanted if c not in frame.columns and (only is None or c in only)]
    for c in absent:  # one column at a time: the file's columns are not copied
        frame[c] = missing(c, wanted[c])
    frame.attrs["units"] = {**frame.attrs.get("units", {}),
                            **{c: UNITS[c] for c in absent if c in UNITS and wanted[c] != "text"}}
    frame.attrs["types"] = {**frame.attrs.get("types", {}), **{c: wanted[c] for c in absent}}
    return frame


def _types(schema, kind: str, frame) -> dict:
    """The schema's types of a kind of file; without a schema (an older navbench), the types
    read_table inferred from the values: numbers float, else text."""
    if schema is not None:
        known = schema.types(kind)
        return {c: known.get(c, "text") for c in frame.columns}
    import pandas as pd
    return {c: ("text" if isinstance(frame[c].dtype, pd.CategoricalDtype) or frame[c].dtype == object else "float")
            for c in frame.columns}


def _runs_table(meta: dict, counts: dict):
    """One row per result set: where and how it was made (meta.json)."""
    import pandas as pd
    recs = []
    for prefix, m in meta.items():
        m = m if isinstance(m, dict) else {}
        cmd = m.get("command_line")
        recs.append({"run": prefix, "git_commit": str(m.get("git_commit", "")) or None,
                     "git_dirty": m.get("git_dirty"), "date": m.get("date"), "host": m.get("host"),
                     "cpu": m.get("cpu"), "compiler": m.get("compiler"), "flags": m.get("flags"),
                     "seed": m.get("seed"), "command_line": " ".join(cmd) if isinstance(cmd, list) else cmd,
                     "config": json.dumps(m.get("config", {}), sort_keys=True),
                     "config_hash": m.get("config_hash"), "shard": m.get("shard"),
                     "rows": counts.get(prefix, 0)})
    t = pd.DataFrame(recs, columns=["run", "git_commit", "git_dirty", "date", "host", "cpu", "compiler", "flags", "seed",
                                    "command_line", "config", "config_hash", "shard", "rows"])
    t["git_dirty"] = pd.array([None if v is None else bool(v) for v in t["git_dirty"]], dtype="boolean")
    t["seed"] = pd.array([None if v is None else int(v) for v in t["seed"]], dtype="Int64")
    t["rows"] = t["rows"].astype("Int64")
    t["run"] = t["run"].astype("category")
    t.attrs["units"] = {"rows": "count"}
    return t


def load(paths, maps=None, columns=None) -> Results:
    """The result sets named by paths (a str or a list: run PREFIXes, PREFIX.csv files, sweep
    folders, folders of shards with their merged results, any folder of result sets; as the report
    finds them, docs/results.md) as typed tables. maps: extra map files or folders where the maps
    table looks for the map files (besides those named in meta.json), as the report's --maps.
    columns: only these result columns (and those every results file must have) in queries; None:
    all (navbench export reads the rows again with the columns its summaries read)."""
    import pandas as pd
    paths = [paths] if isinstance(paths, (str, os.PathLike)) else list(paths)
    paths = [os.fspath(p) for p in paths]
    csvs = files.find_result_csvs(paths)
    frames, builds, meta, counts, notes = [], [], {}, {}, []
    for path in csvs:
        prefix = files.prefix_of(path)
        meta[prefix] = files.read_meta(prefix + ".meta.json")
        if meta[prefix] is None:
            notes.append(f"{prefix}.meta.json: not found (types read from the values)")
        schema = files.schema_for(path)
        df = files.read_results_csv(path, schema=schema, columns=columns)
        df = _with_absent(_typed(df, _types(schema, "results", df)), "results", schema, only=columns)
        counts[prefix] = len(df)
        frames.append(files._with_set(df, prefix))
        bpath = prefix + ".build.csv"
        if os.path.isfile(bpath):
            b = files.read_build_csv(bpath, schema=schema)
            builds.append(files._with_set(_with_absent(_typed(b, _types(schema, "build", b)), "build", schema), prefix))
        else:
            notes.append(f"{bpath}: not found")
    queries = _concat(frames)
    build = _concat(builds) if builds else pd.DataFrame({"map": pd.Categorical([]), "representation": pd.Categorical([])})
    from navbench import candidates
    unrun = {p: u for p in meta if (u := candidates.read_unrun(p)) is not None}
    absent = candidates.absent_table(queries, pd.concat(list(unrun.values()), ignore_index=True) if unrun else None,
                                     meta, recorded=tuple(unrun))
    for t in (queries, build):
        if "result_set" in t.columns:
            t.rename(columns={"result_set": "run"}, inplace=True)
    queries = _packed(queries)
    # As plain records (map, representation, status, why): pandas compares attrs when it concatenates.
    queries.attrs["absent"] = tuple(absent.itertuples(index=False, name=None))
    frames_mod.give_back_freed()
    maps_table = mapfiles.maps_table(queries, build, meta, list(maps or []), notes)
    return Results(queries=queries, builds=build, maps=maps_table, runs=_runs_table(meta, counts), meta=meta,
                   notes=notes, absent=absent)


def _concat(frames: list):
    """Row-wise concatenation keeping the typed columns (categories unioned, Int64/boolean kept)
    and the units of every part."""
    import pandas as pd
    from pandas.api.types import union_categoricals
    if len(frames) == 1:
        return frames[0]
    units, types = {}, {}
    for f in frames:
        units.update(f.attrs.get("units", {}))
        types.update(f.attrs.get("types", {}))
    columns = list(dict.fromkeys(c for f in frames for c in f.columns))
    dtypes = {c: _empty_type(frames, c) for c in columns}
    lengths = [len(f) for f in frames]
    out = {}
    for c in columns:  # each part's column let go once joined: the parts are emptied
        parts = [f.pop(c) if c in f.columns else _absent(n, dtypes[c]) for f, n in zip(frames, lengths)]
        if all(isinstance(p.dtype, pd.CategoricalDtype) for p in parts):
            out[c] = pd.Categorical(union_categoricals([p.astype("category").array for p in parts]))
        else:
            out[c] = pd.concat([p.reset_index(drop=True) for p in parts], ignore_index=True)
        del parts
    t = pd.DataFrame(out, copy=False)
    t.attrs["units"], t.attrs["types"] = units, types
    return t


def _absent(n: int, dtype):
    """A column a result set lacks (an optional group it did not have): empty text "" (as an empty
    field reads: a plain map's terrain), or missing numbers."""
    import numpy as np
    import pandas as pd
    if isinstance(dtype, pd.CategoricalDtype):
        return pd.Series(pd.Categorical.from_codes(np.zeros(n, dtype=np.int8), categories=[""]))
    return pd.Series(index=range(n), dtype=dtype)


def _empty_type(frames, c):
    """The dtype of column c where some part has it: a part without it gets missing values of it."""
    for f in frames:
        if c in f.columns:
            return f[c].dtype
    return object


def _free_text(col):
    """A text column as pandas' string type, an empty field <NA> (as col.astype(str).astype("string")
    with "" masked). A categorical's rows share one str per category: text made per row
    (astype(str)) takes a fixed-width copy as wide as the longest message, gigabytes at millions
    of rows."""
    import numpy as np
    import pandas as pd
    if not isinstance(col.dtype, pd.CategoricalDtype):
        text = col.astype(str).astype("string")
        return text.mask(text == "").array
    # A missing value reads "nan", as astype(str) gives it (files.read_table never leaves one).
    texts = np.array([str(c) or pd.NA for c in col.cat.categories] + ["nan"], dtype=object)
    return pd.arrays.StringArray(texts[col.cat.codes.to_numpy()])


def _taken(frame) -> dict:
    """name -> values of each column of frame, the frame emptied: the dict alone holds them, so a
    column is let go as soon as it is popped from it. (Deleting columns one by one would not do:
    pandas 1.5 keeps a frame's earlier blocks, and their values, as long as the frame.)"""
    import numpy as np
    cols = {}
    for c in frame.columns:
        col = frame[c]
        cols[c] = col.to_numpy() if isinstance(col.dtype, np.dtype) else col.array
    frame.drop(columns=list(frame.columns), inplace=True)
    return cols


def _packed(frame):
    """frame with its float64 columns in one two-dimensional block, the rest as they are, in the
    same order (frame is emptied). pandas merges same-typed columns into one block before its
    first row selection (frame[mask], iloc, take: a copy of every number column at once, 1.5 GB
    at ten million rows); a frame made so needs no merge. Each column is copied into the block
    and let go in turn: one column's worth of memory above the table."""
    import numpy as np
    import pandas as pd
    attrs, index = dict(frame.attrs), frame.index
    columns = _taken(frame)
    names = list(columns)
    floats = [c for c in names if isinstance(columns[c], np.ndarray) and columns[c].dtype == np.float64]
    if len(floats) < 2:
        out = pd.DataFrame(columns, index=index, columns=names, copy=False)
    else:
        block = np.empty((len(floats), len(index)))
        for k, c in enumerate(floats):
            block[k] = columns.pop(c)
        out = pd.DataFrame(block.T, index=index, columns=floats, copy=False)
        for pos, c in enumerate(names):
            if c not in floats:
                out.insert(pos, c, columns.pop(c))
    out.attrs.update(attrs)
    return out
