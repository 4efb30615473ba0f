"""The report's rows: loading the result columns it uses, the integer codes that
group configurations and queries, and the orders in which configurations, facets and colours
appear."""
from __future__ import annotations


import numpy as np
import pandas as pd

from navbench.compare import COORDINATES, QUERY_KEYS
from navbench.rules import build_per_map, radius_label, raw_terrain  # noqa: F401  (the row rules: navbench/rules.py)
from navbench.rules import REALTIME, realtime_us
from navreport.io import results as common

# Display order of the smoothing labels, any-angle searches (docs/path-quality.md) after A*'s smoothers.
SEARCH_RANK = {"theta": 3, "theta + los": 4, "theta + funnel": 5, "lazy-theta": 6, "lazy-theta + los": 7,
               "lazy-theta + funnel": 8}
SMOOTH_RANK = {"none": 0, "los": 1, "funnel": 2, **SEARCH_RANK}


# Ranked-table columns: (key, header, unit, better: min|max, formatter kind)
METRICS = [
    ("solved_pct", "solved", "% with a path", "max", "pct"),
    ("valid_pct", "valid", "% of paths", "max", "pct"),
    ("time_median", "median query time", "µs", "min", "sig"),
    ("time_p95", "p95 query time", "µs", "min", "sig"),
    ("gap_mean", "mean gap", "%", "min", "gap"),
    ("gap_p95", "p95 gap", "%", "min", "gap"),
    ("gap_max", "max gap", "%", "min", "gap"),
    ("build_ms", "build", "ms per map", "min", "sig"),
    ("memory", "memory", "per map", "min", "bytes"),
]


# The columns naming a query within a run (the paired verdicts line queries up by them); two runs are
# paired by navbench.compare.QUERY_KEYS, the same columns with each one's default where a run lacks it.
PAIR_COLUMNS = [c for c, _ in QUERY_KEYS]


# The result columns the report reads (the others are never parsed); text is held as pandas
# categoricals. locate/search/smooth_us and octile_optimal are folded, chunk by chunk as the rows
# are read, into query_us and length_ref (derive_rows).
ROW_COLUMNS = ["map", "collection", "scen_index", "representation", "heuristic", "smoothing", "convention", "status",
               "length", "optimal", "octile_optimal", "gap", "valid", "expansions", "locate_us", "search_us",
               "smooth_us", "message", "radius", "epoch", "search", "clearance", "turn", "cost", "octile_optimal_cost",
               "terrain", "optimal_cost", "cost_gap", "traced", "first_move_us", "first20_us", "max_step_us"]


TEXT_USED = ["map", "collection", "representation", "heuristic", "smoothing", "convention", "status", "message", "search"]


NUMBERS_USED = ["scen_index", "length", "optimal", "gap", "valid", "expansions", "query_us", "length_ref", "clearance",
                "turn", "cost", "octile_optimal_cost", "optimal_cost", "cost_gap", "first_move_us", "first20_us", "max_step_us"]


def derive_rows(chunk):
    """query_us (locate + search + smooth) and length_ref (the exact optimum, else the octile
    length) in place of the columns they come from."""
    for c in ("locate_us", "search_us", "smooth_us", "optimal", "octile_optimal"):
        if c not in chunk.columns:
            chunk[c] = np.nan
    if not isinstance(chunk["smooth_us"].dtype, pd.CategoricalDtype):  # typed (not awaiting inference)
        # query_time_us on the columns it reads only: a selection of columns from the chunk would
        # first merge all of its number columns into one block (a copy of the chunk).
        parts = pd.DataFrame({c: chunk[c] for c in ("locate_us", "search_us", "smooth_us", "traced") if c in chunk.columns},
                             copy=False)
        chunk["query_us"] = common.query_time_us(parts).to_numpy() if len(chunk) else np.empty(0)
        # The real-time columns (SPEC §15) without the traced rows' times, as query_us.
        for c in [c for c in REALTIME.values() if c in chunk.columns]:
            chunk[c] = realtime_us(pd.DataFrame({k: chunk[k] for k in (c, "traced") if k in chunk.columns}, copy=False),
                                   c).to_numpy()
        chunk["length_ref"] = chunk["optimal"].where(chunk["optimal"].notna(), chunk["octile_optimal"])
        for c in ("locate_us", "search_us", "smooth_us", "octile_optimal"):
            del chunk[c]
    return chunk


def load(inputs: list, coordinates: bool = False) -> common.ResultData:
    """The result sets the report reads: only its columns, query_us and length_ref derived;
    coordinates: the start and goal too (navbench.compare.COORDINATES), which pairing two runs needs
    (--compare)."""
    return common.load(inputs, columns=ROW_COLUMNS + (list(COORDINATES) if coordinates else []), derive=derive_rows)


def _codes(col):
    """Integer codes of a column (categorical codes; numbers factorised, NaN as -1)."""
    if isinstance(col.dtype, pd.CategoricalDtype):
        return col.cat.codes.to_numpy().astype(np.int64)
    return pd.factorize(col, sort=True)[0].astype(np.int64)


def group_ids(rows, cols: list):
    """(ids, first): per row the id of its combination of values in cols, and per id the
    position of its first row; ids numbered in order of first appearance (a hash
    factorisation: no sort of the rows)."""
    n = len(rows)
    key = np.zeros(n, dtype=np.int64)
    bound = 1  # key < bound
    for c in cols:
        k = _codes(rows[c])
        width = int(k.max(initial=-1)) + 2
        if bound * width >= 2 ** 62:  # keep the mixed-radix key in 64 bits: renumber densely
            key = pd.factorize(key)[0].astype(np.int64)
            bound = int(key.max(initial=0)) + 1
        key *= width
        key += k + 1
        bound *= width
    ids = pd.factorize(key)[0]
    if not n:
        return ids, np.empty(0, dtype=np.int64)
    # ids count up as new combinations appear: a row starts one where its id exceeds all before.
    new = np.empty(n, dtype=bool)
    new[0] = True
    np.greater(ids[1:], np.maximum.accumulate(ids)[:-1], out=new[1:])
    return ids, np.flatnonzero(new)


def combined_text(rows, cols: list, fmt):
    """A categorical column: fmt(tuple of the row's values in cols) per row, each distinct
    combination formatted once."""
    if len(rows) == 0:
        return pd.Categorical([])
    ids, first = group_ids(rows, cols)
    values = [rows[c].to_numpy().take(first).tolist() if not isinstance(rows[c].dtype, pd.CategoricalDtype)
              else rows[c].array.take(first).tolist() for c in cols]
    texts = [fmt(v) for v in zip(*values)]
    codes, uniq = pd.factorize(pd.Series(texts, dtype=object))
    return pd.Categorical.from_codes(codes[ids], categories=pd.Index(uniq, dtype=object))


def nonempty_text(col) -> np.ndarray:
    """Per row whether a text column holds a non-empty value (missing counts as empty). A
    categorical's categories are tested once each: text made per row (astype(str) gives fixed-width
    NumPy strings as wide as the longest message) would take gigabytes at millions of rows."""
    if not isinstance(col.dtype, pd.CategoricalDtype):
        col = common.as_text(col)
    said = np.array([str(c) != "" for c in col.cat.categories] + [False], dtype=bool)
    return said[col.cat.codes.to_numpy()]  # code -1 (missing) picks the trailing False


def uniques(col) -> set:
    """The distinct values of a column (cheap on categoricals)."""
    return set(col.unique())


def query_ids(rows):
    """Per row an integer naming its query (PAIR_COLUMNS), numbered in the sort order of the
    keys (text as text, NaN last): the order in which paired comparisons line queries up."""
    keys = [c for c in PAIR_COLUMNS if c in rows.columns]
    if not len(rows) or not keys:
        return np.zeros(len(rows), dtype=np.int64)
    ids, first = group_ids(rows, keys)
    combos = plain(common.take_rows(rows, first, keys))
    order = combos.sort_values(keys, na_position="last", kind="mergesort").index.to_numpy()
    rank = np.empty(len(order), dtype=np.int32 if len(order) < 2 ** 31 else np.int64)
    rank[order] = np.arange(len(order))
    return rank[ids]


def plain(df):
    """A small frame with its categoricals as plain text (group order and sorting by value, as
    for text read as text)."""
    if df is None:
        return df
    cats = [c for c in df.columns if isinstance(df[c].dtype, pd.CategoricalDtype)]
    return df.astype({c: object for c in cats}) if cats else df


def prepare(data: common.ResultData):
    """Adds query_us, length_ref (when load did not), config, facet and qid (query_ids) columns;
    rows written before the status not_applicable existed (status error, message '... not
    applicable') are counted as not_applicable, with a note. Works on data.rows in place."""
    rows = data.rows
    for c in TEXT_USED:
        rows[c] = common.as_text(rows[c]) if c in rows.columns else pd.Categorical.from_codes(
            np.zeros(len(rows), dtype=np.int8), categories=[""])
    if "query_us" not in rows.columns:
        rows = derive_rows(rows)
    for c in NUMBERS_USED:
        if c not in rows.columns:
            rows[c] = np.full(len(rows), np.nan)
        elif isinstance(rows[c].dtype, pd.CategoricalDtype):
            rows[c] = pd.to_numeric(rows[c].astype(str), errors="coerce")
    if len(rows):
        legacy = ((rows["status"] == "error") & rows["message"].str.contains("not applicable", case=False)).to_numpy(bool)
        if legacy.any():
            status = rows["status"]
            if "not_applicable" not in status.cat.categories:
                status = status.cat.add_categories(["not_applicable"])
            codes = status.cat.codes.to_numpy().copy()
            codes[legacy] = list(status.cat.categories).index("not_applicable")
            rows["status"] = pd.Categorical.from_codes(codes, categories=status.cat.categories)
            data.notes.append(f"{int(legacy.sum())} row(s) with status error and message 'not applicable' "
                              "(written before docs/results.md#query-status had not_applicable) counted as not_applicable")
    fold_search(rows)  # Theta* rows: configurations of their own
    keys = common.config_keys(rows)
    if "radius" in rows.columns and rows["radius"].nunique(dropna=False) > 1:  # agents of several sizes (docs/radius.md)
        rows["radius"] = combined_text(rows, ["radius"], lambda v: radius_label(v[0]))
        keys.insert(-1, "radius")
    if "terrain" in rows.columns:  # weighted maps (docs/terrain.md): a facet of their own beside the plain maps
        rows["terrain"] = common.as_text(rows["terrain"])
        if rows["terrain"].nunique(dropna=False) > 1:
            rows["terrain"] = combined_text(rows, ["terrain"], lambda v: terrain_label(v[0]))
            keys.insert(-1, "terrain")
    facet_keys = [k for k in keys if k not in ("representation", "smoothing")]
    if facet_keys:
        rows["facet"] = combined_text(rows, facet_keys, lambda v: " / ".join(map(str, v)))
        rows["config"] = combined_text(rows, ["representation", "smoothing", "facet"],
                                       lambda v: common.rep_label(" · ".join(v)))
    else:
        rows["facet"] = pd.Categorical.from_codes(np.zeros(len(rows), dtype=np.int8), categories=[""])
        rows["config"] = combined_text(rows, ["representation", "smoothing"], lambda v: common.rep_label(" · ".join(v)))
    rows["qid"] = query_ids(rows)
    # The queries a scope counts (map, query, convention), numbered.
    rows["query"] = group_ids(rows, [c for c in ("map", "scen_index", "convention", "terrain") if c in rows.columns])[0].astype(np.int32)
    data.rows = rows
    return rows, keys, facet_keys


def fold_search(rows) -> None:
    """When the rows hold Theta* or Lazy Theta* rows, the search joins the smoothing label, so every
    figure and table tells them apart from A* (raw results are not changed: this is in memory)."""
    if "search" not in rows.columns or not len(rows):
        return
    searches = set(map(str, pd.unique(rows["search"])))
    if not searches - {"astar", "", "nan"}:
        return
    rows["smoothing"] = combined_text(rows, ["search", "smoothing"], lambda v: common.search_label(str(v[0]), str(v[1])))


def terrain_label(value) -> str:
    """The facet label of a row's terrain (docs/terrain.md): 'plain map' or 'terrain TABLE-or-LAYER'."""
    text = "" if value is None or (isinstance(value, float) and np.isnan(value)) else str(value)
    return "plain map" if text in ("", "nan") else f"terrain {text}"


def is_terrain_facet(facet) -> bool:
    """A facet of weighted-map rows (terrain_label)."""
    return any(part.startswith("terrain ") for part in str(facet).split(" / "))


def facet_order(values) -> list:
    """Facets in run order, but unweighted heuristics (admissible) first and among them the
    default, euclidean (docs/command-line.md), and plain maps before weighted ones: the first facet
    is the one the cost and ECDF figures show."""
    v = common.ordered_unique(values) if hasattr(values, "tolist") else list(dict.fromkeys(values))
    return sorted(v, key=lambda f: ("terrain " in f, "*" in f, f.split(" / ")[0] != "euclidean", v.index(f)))


def first_rows(rows, col: str):
    """The first row of each value of col, in order of appearance (drop_duplicates(col))."""
    if not len(rows):
        return rows
    _, first = group_ids(rows, [col])
    return common.take_rows(rows, first)


def config_order(rows) -> list:
    """Configurations in display order: representation as the run listed them, then smoothing
    none, los, funnel, then facet."""
    reps = common.ordered_unique(rows["representation"])
    facets = facet_order(rows["facet"])
    cfg = plain(first_rows(rows, "config")[["config", "representation", "smoothing", "facet"]])
    cfg = cfg.assign(_r=cfg["representation"].map(reps.index), _s=cfg["smoothing"].map(lambda s: SMOOTH_RANK.get(s, 3)),
                     _f=cfg["facet"].map(facets.index))
    return cfg.sort_values(["_f", "_r", "_s", "smoothing"])["config"].tolist()


def paired_values(qid, values):
    """(query ids sorted, one value per query: the mean over its rows) of one configuration."""
    if len(qid) and len(np.unique(qid)) == len(qid):
        order = np.argsort(qid, kind="stable")
        return qid[order], values[order]
    m = pd.Series(values).groupby(qid).mean()
    return m.index.to_numpy(), m.to_numpy()


def primary_rows(analysis, columns=None):
    """The rows of the first facet (all rows without facets), only `columns` when given."""
    rows = analysis.rows
    if not analysis.facet_keys:  # the columns themselves, not copied
        return (rows if columns is None else pd.DataFrame({c: rows[c] for c in columns}, copy=False)), ""
    pick = facet_order(rows["facet"])[0]
    keep = (rows["facet"] == pick).to_numpy(bool)
    return common.take_rows(rows, keep, columns), pick


def companion_rows(analysis, attr: str):
    """The rows of one kind of companion file (updates, threads) over the run and the extra
    inputs, concatenated; None when there are none."""
    parts = [getattr(d, attr) for d in [analysis.data] + analysis.dynamic if getattr(d, attr) is not None]
    rows = pd.concat(parts, ignore_index=True) if parts else None
    return rows if rows is not None and not rows.empty else None
