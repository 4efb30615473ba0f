"""The report's view of result sets: ResultData (everything a command line named, with notes for
the report), the report's labels of configurations, and the row helpers every later layer shares.
Finding and reading the files is the results package's (python/navbench/files.py, re-exported
here for the report's modules); the row rules are navbench/rules.py.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field

from navbench.errors import InputError, note  # noqa: F401
from navbench.files import (CHUNK_ROWS, COMPANION_NAMES, COMPANION_SUFFIXES, REQUIRED, SCHEMA_TYPES,  # noqa: F401
                            STATUSES, THREADS_SCHEMA, Schema, TableBuilder, _as_category, _companions, _with_set,
                            as_text, concat_frames, count_lines, find_result_csvs, parse_schema, prefix_of,
                            read_build_csv, read_csv_typed, read_meta, read_paths_csv, read_results_csv, read_table,
                            read_threads_csv, read_updates_csv, resolve_folder, schema_for, take_rows)
from navbench.capabilities import declarations, declares
from navbench.frames import _code_type, give_back_freed
from navbench.labels import search_label  # noqa: F401
from navbench.rules import query_time_us, terrain_texts, traced_mask  # noqa: F401


@dataclass
class ResultData:
    """All result sets named on a command line, concatenated."""
    rows: object                      # pandas DataFrame, one row per query (+ column result_set)
    build: object                     # pandas DataFrame of the build CSVs (may be empty)
    meta: dict = field(default_factory=dict)   # result-set prefix -> parsed meta.json (or None)
    prefixes: list = field(default_factory=list)
    notes: list = field(default_factory=list)  # what was missing, for the report
    updates: object = None                     # PREFIX.updates.csv rows of dynamic runs (may be empty)
    threads: object = None                     # threads.csv rows (scripts/thread-scaling; may be empty)
    row_counts: dict = field(default_factory=dict)  # result-set prefix -> rows read
    unrun: object = None                       # PREFIX.unrun.csv records (navbench.candidates.read_unrun), or None
    unrun_sets: tuple = ()                     # the result-set prefixes that have that file



def apply_subset(data: ResultData, args) -> str:
    """data's rows and build rows cut to the subset of args.maps, args.collections and args.reps
    (navbench.select, docs/results.md#subsets), in place; returns the subset's name for titles
    ('all maps' when nothing is filtered). A name that matches no row is an InputError."""
    import numpy as np
    from navbench import subset as select
    maps, colls, reps = (select.parse_list(getattr(args, k, None)) for k in ("maps", "collections", "reps"))
    if not (maps or colls or reps):
        return "all maps"
    select.check_known(data.rows, maps, colls, reps)
    data.rows = take_rows(data.rows, select.mask(data.rows, maps, colls, reps))
    kept = sorted(set(np.asarray(data.rows["map"].astype(str)))) if colls else maps
    if data.build is not None and len(data.build):
        data.build = take_rows(data.build, select.mask(data.build, kept, (), reps))
    return select.subset_title(maps, colls, reps)


# What the representations of the loaded result sets declare, by name (their meta.json's
# "representations"; before those carried them, navbench.capabilities.WRITTEN_BEFORE): the labels
# below ask it, never a name. load() adds the sets' declarations.
DECLARED = declarations({})


def lattice_label(rep: str, squeeze_run: bool = False, follows: bool = False) -> str:
    """The report's name of a configuration's representation where its results depend on the
    lattice or the squeeze rule (SPEC §11, docs/maps.md): a representation declaring the parameter lattice (grid4/grid8) names its lattice, "grid8
    (centre lattice)", "grid8 (corner lattice)" (the literature's any-angle results are on the corner
    lattice); in a run under --pinch allow (squeeze_run) a representation that builds with the rule
    (follows) says "squeezing", another "no squeezing" (it runs as it is: its paths never pass a
    pinch point, valid under either rule)."""
    name, _, params = rep.partition(":")
    notes = []
    lattice = declares(DECLARED, name, "lattice")
    kept = [kv for kv in params.split(",") if kv and not kv.startswith(("lattice=", "pinch="))] if lattice else []
    if lattice:
        notes.append(("corner" if "lattice=corner" in params.split(",") else "centre") + " lattice")
        rep = name + (":" + ",".join(kept) if kept else "")
    if squeeze_run:
        notes.append("squeezing" if follows else "no squeezing")
    return f"{rep} ({', '.join(notes)})" if notes else rep


def _relabelled(col, label):
    """The text column col with each value v as label(v), each distinct value labelled once, as
    pd.Categorical(col.astype(str).map(label)) gives it (categories: the labels present, sorted);
    None when no label differs from its value. Text per row (astype(str): fixed-width NumPy
    strings as wide as the longest value) would take gigabytes at millions of rows."""
    import numpy as np
    import pandas as pd
    col = col if isinstance(col.dtype, pd.CategoricalDtype) else col.astype(str).astype("category")
    texts = [str(c) for c in col.cat.categories] + ["nan"]  # a missing value reads "nan", as astype(str) gives it
    codes = col.cat.codes.to_numpy()
    idx = np.where(codes < 0, len(texts) - 1, codes)
    present = np.flatnonzero(np.bincount(idx, minlength=len(texts)))
    labels = {int(i): label(texts[i]) for i in present}
    if all(labels[i] == texts[i] for i in labels):
        return None
    cats = sorted(set(labels.values()))
    lut = np.full(len(texts), -1, dtype=np.int64)
    for i, v in labels.items():
        lut[i] = cats.index(v)
    return pd.Categorical.from_codes(lut[idx].astype(_code_type(len(cats))), categories=pd.Index(cats, dtype=object))


def label_representations(rows, build, unrun=None) -> None:
    """The rows', build rows' and unrun records' representation relabelled by lattice_label, in place."""
    squeeze_run = "pinch" in rows.columns and bool(as_text(rows["pinch"]).eq("allow").any())
    follows = set()
    if build is not None and len(build) and "pinch" in build.columns:
        follows = set(build.loc[build["pinch"].astype(str) == "allow", "representation"].astype(str))
    for df in (rows, build, unrun):
        if df is None or "representation" not in df.columns or not len(df):
            continue
        new = _relabelled(df["representation"], lambda v: lattice_label(v, squeeze_run, v in follows))
        if new is not None:
            df["representation"] = new


def load(inputs: list[str], columns=None, derive=None) -> ResultData:
    """The result sets named by inputs (see find_result_csvs) with their build rows, meta.json and
    companion files. columns: the result columns to read (None: all; the required ones always);
    derive: applied to each chunk of result rows as it is read (see read_table)."""
    import numpy as np
    import pandas as pd
    csvs = find_result_csvs(inputs)
    builds, meta, prefixes, notes, counts = [], {}, [], [], {}
    # The rows of every file go into one builder sized by the files' line counts: the chunks
    # and the whole never sit in memory together.
    rows_in = TableBuilder(sum(count_lines(p) for p in csvs))
    for path in csvs:
        prefix = prefix_of(path)
        prefixes.append(prefix)
        mpath = prefix + ".meta.json"
        meta[prefix] = read_meta(mpath)
        if meta[prefix] is None:
            notes.append(f"{mpath}: not found")
        schema = schema_for(path)
        before = rows_in.n
        tagged = (lambda chunk, prefix=prefix: _with_set(derive(chunk) if derive else chunk, prefix))
        read_results_csv(path, columns=columns, derive=tagged, schema=schema, into=rows_in)
        counts[prefix] = rows_in.n - before
        bpath = prefix + ".build.csv"
        if os.path.isfile(bpath):
            builds.append(_with_set(read_build_csv(bpath, schema=schema), prefix))
        else:
            notes.append(f"{bpath}: not found (no build figures for this set)")
    if csvs:
        rows = rows_in.frame()
    else:
        rows = pd.DataFrame({c: pd.Categorical([]) for c in REQUIRED["results"]})
    build = (concat_frames(builds) if builds else
             pd.DataFrame({"map": pd.Categorical([]), "representation": pd.Categorical([]), "params": pd.Categorical([]),
                           **{c: np.empty(0) for c in ("build_ms", "vertices", "edges", "memory_bytes")}}))
    updates = _companions(csvs, inputs, ".updates.csv", "updates.csv", read_updates_csv)
    threads = _companions(csvs, inputs, ".threads.csv", "threads.csv", read_threads_csv)
    DECLARED.update(declarations(meta))  # what the sets' representations declare (the labels ask it)
    # Why a configuration has no rows on a map (docs/results.md#maps-not-run), per result set that says.
    from navbench.candidates import read_unrun
    unrun = {p: u for p in prefixes if (u := read_unrun(p)) is not None}
    unrun_rows = pd.concat(list(unrun.values()), ignore_index=True) if unrun else None
    label_representations(rows, build, unrun_rows)  # updates: the changing maps' own table keeps the run's names
    give_back_freed()
    return ResultData(rows=rows, build=build, meta=meta, prefixes=prefixes, notes=notes,
                      updates=updates, threads=threads, row_counts=counts, unrun=unrun_rows, unrun_sets=tuple(unrun))


# --------------------------------------------------------------------------------------------
# Grouping and statistics

def config_keys(rows) -> list[str]:
    """Columns that tell configurations apart: representation and smoothing always; heuristic and
    convention only when the data holds more than one value of them."""
    keys = ["representation"]
    for c in ("heuristic", "convention"):
        if c in rows.columns and rows[c].nunique() > 1:
            keys.append(c)
    keys.append("smoothing")
    return keys


OUTSIDE_MARK = " (outside)"
OUTSIDE_NOTE = ("(outside): a planner from outside, a competition entry run in its own process through navbench's "
                "pipeline and judged by navbench's exact test (docs/outside-planners.md)")


def rep_label(text) -> str:
    """A representation, or a label led by one ('gppc:x · none'), as the report shows it: a planner
    from outside (declared `outside`: gppc:NAME, docs/outside-planners.md) marked ' (outside)' after
    its name, once."""
    text = str(text)
    if not declares(DECLARED, text, "outside"):
        return text
    rep, sep, rest = text.partition(" · ")
    return text if rep.endswith(OUTSIDE_MARK) else rep + OUTSIDE_MARK + sep + rest


def has_outside(series) -> bool:
    """True when a representation column holds a planner from outside."""
    return any(declares(DECLARED, v, "outside") for v in ordered_unique(series))


def fold_search_frame(df) -> None:
    """The search joins the smoothing label in a small frame (paths, a map's rows); in place."""
    if "search" not in df.columns or not len(df):
        return
    df["smoothing"] = [search_label(str(a), str(b)) for a, b in zip(df["search"], df["smoothing"])]


def ordered_unique(series) -> list:
    """Unique values in first-seen order (the order the run listed them)."""
    if hasattr(series, "cat"):
        return list(series.unique())  # a categorical's values in order of appearance
    return list(dict.fromkeys(series.tolist()))
