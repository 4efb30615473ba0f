#!/usr/bin/env python3
"""The navbench report: which representation, at what cost — one folder that opens from disk.

    scripts/navpy.sh scripts/report.py RESULTS... --out DIR [--compare RESULTS_B...]
        [--title TEXT] [--seed N] [--maps DIR_OR_FILE ...] [--paths-dir DIR]

RESULTS are result-set PREFIXes, PREFIX.csv files or sweep directories (docs/results.md); a folder holding
the shard folders of a sharded sweep is read through its merged/ results (navbench merge). Writes
DIR/report.html (interactive plotly charts; plotly.min.js copied next to it, no network),
DIR/figures/<figure>.svg|.pdf (matplotlib, for papers), DIR/paths/*.png (the path pictures found
in the results folder's paths/ directory), DIR/summary.csv (the ranked table, all scopes).

First screen: per map collection and overall, a Pareto chart (median query time vs mean gap,
95 % bootstrap intervals), the ranked table (seeded bootstrap intervals, n per value, best per
column marked) and paired verdicts (Wilcoxon signed-rank on the same queries, Holm-corrected).
Then cost as the work grows, ECDFs, path pictures, missing data, and the run metadata last.
With --compare, a section compares the two runs: per configuration the ratio of medians (B / A)
with 95 % intervals.

At scale: only the result columns the report uses are parsed, a million rows at a time, into
one set of columns (text as categorical codes); configurations and scopes are located by
integer codes rather than by filtering the rows; a sample of up to stats.EXACT_ROWS queries is
resampled row by row (the numbers of earlier versions, to the last bit), a larger one draws each
resample's statistic from its distribution (stats.drawn_stats), so that cost does not grow with
the rows. 10 M rows take about 1.5 minutes and 2 GB on 2 cores (tests/scripts/bench_report.sh).
"""
from __future__ import annotations

import argparse
import datetime
import glob
import html
import json
import math
import os
import re
import shutil
import sys
from dataclasses import dataclass, field

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common  # noqa: E402

common.require_plotting("report.py", extra=("scipy", "plotly"))

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

import plots  # noqa: E402
import report_budget  # noqa: E402
import report_quality  # noqa: E402
import report_terrain  # noqa: E402
import stats  # noqa: E402
from plots import Figure, Panel, Series  # noqa: E402

SMOOTH_RANK = {"none": 0, "los": 1, "funnel": 2, **report_quality.SEARCH_RANK}
# Ranked-table columns: (key, header, unit, better: min|max, formatter kind)
METRICS = [
    ("solved_pct", "solved", "%", "max", "pct"),
    ("valid_pct", "valid", "% of solved", "max", "pct"),
    ("time_median", "median query time", "µs", "min", "sig"),
    ("time_p95", "p95 query time", "µs", "min", "sig"),
    ("gap_mean", "mean gap", "%", "min", "gap"),
    ("gap_p95", "p95 gap", "%", "min", "gap"),
    ("gap_max", "max gap", "%", "min", "gap"),
    ("build_ms", "build", "ms per map", "min", "sig"),
    ("memory", "memory", "per map", "min", "bytes"),
]
PAIR_COLUMNS = ["map", "collection", "scen_index", "convention", "radius", "epoch", "terrain"]
# What a scope (all maps, one collection) reads of the rows.
SCOPE_COLUMNS = ["map", "representation", "smoothing", "facet", "config", "status", "valid", "query_us", "gap", "qid",
                 "query"]
MAX_VERDICT_PAIRS = 12
OPTIONAL_SECTIONS = {"dynamic": "Changing maps", "threads": "Many agents", "radius": "Agents with a radius",
                     "quality": "Path quality", "terrain": "Terrain costs"}  # shown when the inputs have them


# --------------------------------------------------------------------------------------------
# Formatting

def esc(x) -> str:
    return html.escape(str(x), quote=True)


def finite(v) -> bool:
    return isinstance(v, (int, float, np.floating, np.integer)) and not isinstance(v, bool) and math.isfinite(v)


def f_sig(v, digits=3) -> str:
    if not finite(v):
        return "–"
    v = float(v)
    if v == 0:
        return "0"
    mag = math.floor(math.log10(abs(v)))
    if mag >= digits + 2:
        return f"{v:,.0f}"
    return f"{v:,.{max(0, digits - 1 - mag)}f}"


def f_pct(v) -> str:  # a share 0..1 as percent
    return f"{100 * v:.1f}" if finite(v) else "–"


def f_gap(v) -> str:  # a gap ratio as percent, more digits near zero
    if not finite(v):
        return "–"
    p = 100 * v
    return "0" if p == 0 else (f"{p:.3f}" if abs(p) < 1 else f"{p:.2f}")


def f_bytes(v) -> str:
    if not finite(v):
        return "–"
    for unit, scale in (("GiB", 2 ** 30), ("MiB", 2 ** 20), ("KiB", 2 ** 10)):
        if v >= scale:
            return f"{v / scale:.1f} {unit}"
    return f"{v:.0f} B"


FORMAT = {"pct": f_pct, "sig": f_sig, "gap": f_gap, "bytes": f_bytes}
report_budget.FORMATS.update({"bytes": f_bytes, "ms": f_sig})  # budgets read as the ranked table's cells


def f_p(p) -> str:
    if not finite(p):
        return "n/a"
    if p == 0:
        return "< 1e-300"  # below double precision: scipy's normal approximation underflows
    return f"{p:.2g}" if p >= 1e-3 else f"{p:.1e}"


# --------------------------------------------------------------------------------------------
# Preparing the rows

# The result columns the report reads (the others are never parsed); text is held as pandas
# categoricals. locate/search/smooth_us and octile_optimal are folded, chunk by chunk as the rows
# are read, into query_us and length_ref (derive_rows).
ROW_COLUMNS = ["map", "collection", "scen_index", "representation", "heuristic", "smoothing", "convention", "status",
               "length", "optimal", "octile_optimal", "gap", "valid", "expansions", "locate_us", "search_us",
               "smooth_us", "message", "radius", "epoch", "search", "clearance", "turn", "cost", "octile_optimal_cost",
               "terrain", "optimal_cost", "cost_gap"]
TEXT_USED = ["map", "collection", "representation", "heuristic", "smoothing", "convention", "status", "message", "search"]
NUMBERS_USED = ["scen_index", "length", "optimal", "gap", "valid", "expansions", "query_us", "length_ref", "clearance",
                "turn", "cost", "octile_optimal_cost", "optimal_cost", "cost_gap"]


def derive_rows(chunk):
    """query_us (locate + search + smooth) and length_ref (the exact optimum, else the octile
    length) in place of the columns they come from."""
    for c in ("locate_us", "search_us", "smooth_us", "optimal", "octile_optimal"):
        if c not in chunk.columns:
            chunk[c] = np.nan
    if not isinstance(chunk["smooth_us"].dtype, pd.CategoricalDtype):  # typed (not awaiting inference)
        chunk["query_us"] = common.query_time_us(chunk) if len(chunk) else np.empty(0)
        chunk["length_ref"] = chunk["optimal"].where(chunk["optimal"].notna(), chunk["octile_optimal"])
        chunk = chunk.drop(columns=["locate_us", "search_us", "smooth_us", "octile_optimal"])
    return chunk


def load(inputs: list) -> common.ResultData:
    """The result sets the report reads: only its columns, query_us and length_ref derived."""
    return common.load(inputs, columns=ROW_COLUMNS, derive=derive_rows)


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


def _radius_text(v) -> str:
    """A radius as its facet label: the number as the results file writes it (%.12g)."""
    if isinstance(v, str):
        return "r=" + v
    return "r=" + ("" if v is None or (isinstance(v, float) and math.isnan(v)) else f"{v:.12g}")


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
    report_quality.fold_search(rows, combined_text)  # Theta* rows: configurations of their own
    keys = common.config_keys(rows)
    if "radius" in rows.columns and rows["radius"].nunique(dropna=False) > 1:  # agents of several sizes (docs/radius.md)
        rows["radius"] = combined_text(rows, ["radius"], lambda v: _radius_text(v[0]))
        keys.insert(-1, "radius")
    if "terrain" in rows.columns:  # weighted maps (docs/terrain.md): a facet of their own beside the plain maps
        rows["terrain"] = common.as_text(rows["terrain"])
        if rows["terrain"].nunique(dropna=False) > 1:
            rows["terrain"] = combined_text(rows, ["terrain"], lambda v: terrain_label(v[0]))
            keys.insert(-1, "terrain")
    facet_keys = [k for k in keys if k not in ("representation", "smoothing")]
    if facet_keys:
        rows["facet"] = combined_text(rows, facet_keys, lambda v: " / ".join(map(str, v)))
        rows["config"] = combined_text(rows, ["representation", "smoothing", "facet"], lambda v: " · ".join(v))
    else:
        rows["facet"] = pd.Categorical.from_codes(np.zeros(len(rows), dtype=np.int8), categories=[""])
        rows["config"] = combined_text(rows, ["representation", "smoothing"], lambda v: " · ".join(v))
    rows["qid"] = query_ids(rows)
    # The queries a scope counts (map, query, convention), numbered.
    rows["query"] = group_ids(rows, [c for c in ("map", "scen_index", "convention", "terrain") if c in rows.columns])[0].astype(np.int32)
    data.rows = rows
    return rows, keys, facet_keys


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


def pair_frame(g, value: str):
    """One value per query of a configuration (mean over duplicate rows), indexed by the query
    (its key columns as text and numbers, so two runs' queries can be matched)."""
    keys = [c for c in PAIR_COLUMNS if c in g.columns]
    g = plain(g[keys + [value]])
    return g.groupby(keys, dropna=False)[value].mean()


def paired_values(qid, values):
    """(query ids sorted, one value per query: the mean over its rows) of one configuration."""
    if len(qid) and len(np.unique(qid)) == len(qid):
        order = np.argsort(qid, kind="stable")
        return qid[order], values[order]
    m = pd.Series(values).groupby(qid).mean()
    return m.index.to_numpy(), m.to_numpy()


# --------------------------------------------------------------------------------------------
# The analysis

@dataclass
class Scope:
    name: str          # "all maps" or a collection
    slug: str
    rows: object
    table: object = None      # DataFrame: one row per configuration with estimates, intervals, n
    verdicts: list = field(default_factory=list)
    pareto: object = None     # Figure
    budget_fig: object = None  # Figure: memory and build time against query time (report_budget)
    budgets: list = field(default_factory=list)  # the budget answers (report_budget.budget_answers)
    answer: list = field(default_factory=list)
    unapplicable: list = field(default_factory=list)


@dataclass
class Analysis:
    data: object
    rows: object
    keys: list
    facet_keys: list
    seed: int
    scopes: list = field(default_factory=list)
    figures: list = field(default_factory=list)     # (section, Figure, extra html)
    skipped: list = field(default_factory=list)     # (stem, reason)
    rep_colour: dict = field(default_factory=dict)
    free_cells: dict = field(default_factory=dict)
    primary_facet: str = ""
    update_summary: object = None                   # per scenario x representation (changing maps)
    dynamic: list = field(default_factory=list)     # ResultData of --dynamic inputs (their own section only)

    def all_figures(self):
        out = [f for s in self.scopes for f in (s.pareto, s.budget_fig) if f is not None]
        return out + [f for _, f, _ in self.figures if f is not None]


def raw_terrain(value) -> str:
    """A row's terrain as the results file writes it ("" for a plain map), from its text or its
    facet label (terrain_label)."""
    text = "" if value is None or (isinstance(value, float) and np.isnan(value)) else str(value)
    if text in ("plain map", "nan"):
        return ""
    return text[len("terrain "):] if text.startswith("terrain ") else text


def build_per_map(build, reps, maps, by_radius: bool = False):
    """Mean build_ms and memory_bytes per (representation, map): a sweep may build one map and
    representation in several units; each map counts once. by_radius: per (representation, radius,
    map), the radius as its facet label (a build at each radius is another structure). Builds of
    weighted maps (a terrain column, docs/terrain.md) are kept apart by their terrain: a map may run
    plain and weighted."""
    keys = ["representation", "map"] + (["radius"] if by_radius else [])
    if build is None or build.empty:
        return pd.DataFrame(columns=keys + ["build_ms", "memory_bytes", "vertices"])
    b = build[build["representation"].isin(reps) & build["map"].isin(maps)]
    if "terrain" in b.columns:
        b = b.assign(terrain=common.terrain_texts(b["terrain"]).to_numpy())
        keys.append("terrain")
    if by_radius:
        b = b.assign(radius=[_radius_text(float(v)) for v in pd.to_numeric(b["radius"], errors="coerce")])
    return b.groupby(keys, as_index=False)[["build_ms", "memory_bytes", "vertices"]].mean()


def _config_stats(task):
    """The bootstrap of one configuration (config_table; a task of its process pool)."""
    cols, builds, seed, build_seed = task
    res = stats.resample_stats(cols, {
        "solved_pct": ("solved", stats.nan_share), "valid_pct": ("valid", stats.nan_share),
        "time_median": ("time", stats.nan_median), "time_p95": ("time", stats.nan_quantile(0.95)),
        "gap_mean": ("gap", np.nanmean), "gap_p95": ("gap", stats.nan_quantile(0.95)),
        "gap_max": ("gap", np.nanmax)}, seed)
    res.update(stats.resample_stats(builds, {"build_ms": ("b", np.nanmean), "memory": ("m", np.nanmean)}, build_seed))
    return res


def _pool_map(fn, tasks):
    """fn over tasks on one process per core (fork: the workers inherit the loaded modules); the
    bootstraps are half of the analysis' time. Each task carries its own seed: same results."""
    import multiprocessing as mp
    jobs = min(os.cpu_count() or 1, len(tasks))
    if jobs <= 1 or "fork" not in mp.get_all_start_methods():
        return [fn(t) for t in tasks]
    with mp.get_context("fork").Pool(jobs) as pool:
        return pool.map(fn, tasks, chunksize=max(1, len(tasks) // (4 * jobs)))


def config_positions(rows) -> dict:
    """config -> positions of its rows (ascending: the rows' order) in rows."""
    if not len(rows):
        return {}
    codes = rows["config"].cat.codes.to_numpy()
    order = np.argsort(codes, kind="stable")
    bounds = np.searchsorted(codes[order], np.arange(len(rows["config"].cat.categories) + 1))
    cats = rows["config"].cat.categories
    return {cats[k]: order[bounds[k]:bounds[k + 1]] for k in range(len(cats)) if bounds[k + 1] > bounds[k]}


def config_table(scope_rows, build, seed: int, scope_name: str):
    """The ranked table of one scope: estimates, 95 % bootstrap intervals and n per metric."""
    recs = []
    tasks = []  # (record, bootstrap task) of every configuration with applicable rows
    # Runs over several radii (a facet): each radius's builds count for its own configurations.
    by_radius = (build is not None and "radius" in build.columns and "radius" in scope_rows.columns and
                 isinstance(scope_rows["radius"].dtype, pd.CategoricalDtype) and
                 all(str(c).startswith("r=") for c in scope_rows["radius"].cat.categories))
    per_map = build_per_map(build, uniques(scope_rows["representation"]), uniques(scope_rows["map"]), by_radius)
    where = config_positions(scope_rows)
    status = scope_rows["status"]
    scats = list(status.cat.categories)
    scode = status.cat.codes.to_numpy()
    na_code = scats.index("not_applicable") if "not_applicable" in scats else -2
    ok_code = scats.index("ok") if "ok" in scats else -2
    valid_all = scope_rows["valid"].to_numpy(dtype=float)
    time_all = scope_rows["query_us"].to_numpy(dtype=float)
    gap_all = scope_rows["gap"].to_numpy(dtype=float)
    for cfg in config_order(scope_rows):
        pos = where[cfg]
        first = {c: scope_rows[c].iat[pos[0]] for c in ("representation", "smoothing", "facet")}
        st = scode[pos]
        rec = {"scope": scope_name, "config": cfg, "representation": first["representation"],
               "smoothing": first["smoothing"], "facet": first["facet"], "rows": len(pos),
               "not_applicable": int((st == na_code).sum())}
        app = pos[st != na_code]
        rec["applicable"] = len(app)
        if len(app) == 0:
            recs.append(rec)
            continue
        ok = scode[app] == ok_code
        valid = np.where(ok, valid_all[app], np.nan)
        cols = {"solved": ok.astype(float), "valid": valid,
                "time": np.where(ok, time_all[app], np.nan),
                "gap": np.where(ok, gap_all[app], np.nan)}
        b = per_map[per_map["representation"] == first["representation"]]
        if by_radius:
            b = b[b["radius"] == scope_rows["radius"].iat[pos[0]]]
        if "terrain" in per_map.columns:  # the builds of this configuration's own maps, plain or weighted
            b = b[b["terrain"] == (raw_terrain(scope_rows["terrain"].iat[pos[0]]) if "terrain" in scope_rows.columns else "")]
        tasks.append((rec, (cols, {"b": b["build_ms"].to_numpy(float), "m": b["memory_bytes"].to_numpy(float)},
                            stats.seed_for(seed, scope_name, cfg), stats.seed_for(seed, scope_name, cfg, "build"))))
        rec["invalid_paths"] = int(np.nansum(valid == 0))
        recs.append(rec)
    # Samples small enough to be resampled row by row go to the process pool; the larger ones'
    # statistics are drawn (stats.drawn_stats), quick enough here, where no copy must be sent.
    small = [len(t[0]["solved"]) <= stats.EXACT_ROWS for _, t in tasks]
    pooled = iter(_pool_map(_config_stats, [t for (_, t), s in zip(tasks, small) if s]))
    results = [next(pooled) if s else _config_stats(t) for (_, t), s in zip(tasks, small)]
    for (rec, _), res in zip(tasks, results):
        invalid = rec.pop("invalid_paths")  # after the statistics, as the columns always were
        for k, (est, lo, hi, n) in res.items():
            rec[k], rec[k + "_lo"], rec[k + "_hi"], rec[k + "_n"] = est, lo, hi, n
        rec["invalid_paths"] = invalid
    t = pd.DataFrame(recs)
    if "time_median" not in t.columns:
        for k, *_ in METRICS:
            t[k] = np.nan
    t["layer"] = 0
    for facet, sub in t.groupby("facet", sort=False):
        layers = stats.pareto_layers(list(zip(sub["time_median"], sub["gap_mean"])))
        t.loc[sub.index, "layer"] = layers
    t["_unranked"] = t["layer"] == 0
    t = t.sort_values(["_unranked", "layer", "time_median"], kind="stable").drop(columns="_unranked")
    t = t.reset_index(drop=True)
    t.insert(1, "rank", range(1, len(t) + 1))
    return t


def verdicts(scope_rows, table, seed: int, scope_name: str) -> list:
    """Paired comparisons on the same queries: neighbours on the Pareto front (is the faster one
    really faster, is the more accurate one really more accurate) and the fastest configuration
    against the runner-up, per facet. p-values Holm-corrected over all tests of the scope."""
    pairs = []
    ranked = table[table["layer"] > 0]
    for facet in facet_order(ranked["facet"]):
        sub = ranked[ranked["facet"] == facet]
        front = sub[sub["layer"] == 1].sort_values("time_median")["config"].tolist()
        cand = list(zip(front, front[1:]))
        by_time = sub.sort_values("time_median")["config"].tolist()
        if len(by_time) > 1 and (by_time[0], by_time[1]) not in cand:
            cand.insert(0, (by_time[0], by_time[1]))
        pairs.extend(cand)
    pairs = pairs[:MAX_VERDICT_PAIRS]
    tests = []
    solved = (scope_rows["status"] == "ok").to_numpy(bool)
    where = config_positions(scope_rows)
    qid = scope_rows["qid"].to_numpy()
    time_all = scope_rows["query_us"].to_numpy(dtype=float)
    gap_all = scope_rows["gap"].to_numpy(dtype=float)

    def per_query(cfg, values):
        pos = where.get(cfg, np.empty(0, dtype=np.int64))
        pos = pos[solved[pos]]
        return paired_values(qid[pos], values[pos])

    def aligned(a, b, values):
        (qa, va), (qb, vb) = per_query(a, values), per_query(b, values)
        _, ia, ib = np.intersect1d(qa, qb, assume_unique=True, return_indices=True)
        return va[ia], vb[ib]

    for a, b in pairs:
        ta, tb = aligned(a, b, time_all)
        r = stats.paired_time(ta, tb, stats.seed_for(seed, scope_name, a, b, "time"))
        tests.append({"a": a, "b": b, "what": "time", **r})
        xa, xb = aligned(a, b, gap_all)
        r = stats.paired_diff(xa, xb, stats.seed_for(seed, scope_name, a, b, "gap"))
        tests.append({"a": a, "b": b, "what": "gap", **r})
    adj = stats.holm([t["p"] for t in tests])
    for t, p in zip(tests, adj):
        t["p_holm"] = p
        t["text"] = verdict_text(t)
    return tests


def verdict_significant(t) -> bool:
    """A difference is reported only when the Holm-corrected Wilcoxon test rejects at 5 % and the
    effect's bootstrap interval agrees (excludes no-change): the test and the number shown never
    contradict each other."""
    if not finite(t.get("p_holm")) or t["p_holm"] >= stats.ALPHA:
        return False
    if t["what"] == "time":
        return t["hi"] < 1 or t["lo"] > 1
    return t["hi"] < 0 or t["lo"] > 0


def verdict_text(t) -> str:
    a, b, n = t["a"], t["b"], t["n"]
    what = "query time" if t["what"] == "time" else "gap"
    if n == 0:
        return f"{a} vs {b}: no query solved by both"
    if not finite(t["p_holm"]):
        return (f"{a} vs {b}: {what} differs on only {t['nonzero']} of {n} paired queries, too few for a test "
                "(no difference detected)")
    p = f"p = {f_p(t['p_holm'])}, n = {n}"
    if t["what"] == "time":
        eff = f"typical per-query ratio {t['ratio']:.2f} [{t['lo']:.2f}, {t['hi']:.2f}]"
        if not verdict_significant(t):
            return f"{a} vs {b}: no difference in query time detected ({eff}, {p})"
        if t["ratio"] < 1:
            return (f"{a} is {100 * (1 - t['ratio']):.0f}% faster than {b} "
                    f"[{100 * (1 - t['hi']):.0f}%, {100 * (1 - t['lo']):.0f}%], {p}")
        return (f"{a} is {100 * (t['ratio'] - 1):.0f}% slower than {b} "
                f"[{100 * (t['lo'] - 1):.0f}%, {100 * (t['hi'] - 1):.0f}%], {p}")
    d, lo, hi = 100 * t["diff"], 100 * t["lo"], 100 * t["hi"]
    eff = f"mean gap difference {d:+.3f} pp [{lo:+.3f}, {hi:+.3f}]"
    if not verdict_significant(t):
        return f"{a} vs {b}: no difference in gap detected ({eff}, {p})"
    word = "longer" if d > 0 else "shorter"
    return f"{a} gives {abs(d):.3f} pp {word} paths than {b} ({eff}), {p}"


def short_label(rec, facet_in_title: bool) -> str:
    return f"{rec['representation']} · {rec['smoothing']}" if facet_in_title else rec["config"]


def pareto_figure(scope: Scope, analysis: Analysis) -> Figure | None:
    t = scope.table
    t = t[t["time_median"].notna() & t["gap_mean"].notna()] if len(t) else t
    if len(t) == 0:
        analysis.skipped.append((f"pareto_{scope.slug}", "no configuration has both a query time and a gap"))
        return None
    panels = []
    facets = facet_order(t["facet"])
    if scope.name != "all maps":
        facets = facets[:1]  # a collection shows the first facet; the others are in its table
    smooths = sorted(set(t["smoothing"]), key=lambda s: (SMOOTH_RANK.get(s, 3), s))
    for facet in facets:
        whole = t[t["facet"] == facet]
        rep_chunks = series_chunks([r for r in analysis.rep_colour if r in set(whole["representation"])])
        for ci, chunk in enumerate(rep_chunks):
            # At most 10 representations a panel; the front (over all of them) is drawn in each.
            sub = whole[whole["representation"].isin(chunk)]
            front = whole[whole["layer"] == 1].sort_values("time_median")
            p = Panel(title=(f"{scope.name}" + (f" — {facet}" if facet else "") +
                             (f" ({ci + 1}/{len(rep_chunks)})" if len(rep_chunks) > 1 else "")),
                      xlabel="median query time: locate + search + smooth (µs, log)",
                      ylabel="mean gap (%)", xlog=True)
            if len(front) > 1:
                p.series.append(Series(name="Pareto front", x=front["time_median"].tolist(),
                                       y=(100 * front["gap_mean"]).tolist(), kind="step", color="#555555",
                                       dash="dash", width=1.5, hover=[esc(c) for c in front["config"]]))
            for rep in common.ordered_unique(sub["representation"]):
                g = sub[sub["representation"] == rep]
                hover = [(f"<b>{esc(r['config'])}</b><br>{esc(scope.name)}<br>median query time {f_sig(r['time_median'])} µs "
                          f"[{f_sig(r['time_median_lo'])}, {f_sig(r['time_median_hi'])}]<br>mean gap {f_gap(r['gap_mean'])} % "
                          f"[{f_gap(r['gap_mean_lo'])}, {f_gap(r['gap_mean_hi'])}]<br>solved {f_pct(r['solved_pct'])} %, "
                          f"n = {r['time_median_n']} queries" + ("<br><b>on the Pareto front</b>" if r["layer"] == 1 else ""))
                         for _, r in g.iterrows()]
                p.series.append(Series(
                    name=rep, x=g["time_median"].to_numpy(float), y=100 * g["gap_mean"].to_numpy(float),
                    color=analysis.rep_colour.get(rep, "#333"),
                    marker=[plots.SMOOTHING_MARKER.get(s, "star") for s in g["smoothing"]],
                    size=[12 if layer == 1 else 9 for layer in g["layer"]],
                    xerr=(g["time_median_lo"].to_numpy(float), g["time_median_hi"].to_numpy(float)),
                    yerr=(100 * g["gap_mean_lo"].to_numpy(float), 100 * g["gap_mean_hi"].to_numpy(float)),
                    hover=hover, labels=[short_label(r, True) for _, r in g.iterrows()], legend=False))
            for rep in [r for r in analysis.rep_colour if r in set(sub["representation"])]:
                p.series.append(Series(name=rep, x=[], y=[], color=analysis.rep_colour[rep], marker="circle", size=10))
            for s in smooths if ci == len(rep_chunks) - 1 else ():  # the marker key once, after every colour
                p.series.append(Series(name=f"smoothing {s}", x=[], y=[], color="#aaaaaa",
                                       marker=plots.SMOOTHING_MARKER.get(s, "star"), size=10))
            panels.append(p)
    more = (" Other heuristics/conventions of this collection: see its ranked table."
            if len(facet_order(t["facet"])) > len(facets) else "")
    return Figure(stem=f"pareto_{scope.slug}", title=f"Speed vs path quality — {scope.name}",
                  caption=more + " One point per representation × smoothing; bars are 95 % bootstrap intervals of the "
                          "median query time and of the mean gap; the dashed staircase joins the Pareto front "
                          "(nothing is both faster and more accurate). Lower left is better.",
                  panels=panels, panel_h=500)


def answer_lines(scope: Scope) -> list:
    """The first-screen sentences of a scope, from its ranked table."""
    t = scope.table
    ranked = t[t["layer"] > 0] if len(t) else t
    if len(ranked) == 0:
        return ["No configuration solved a query with a known optimum here."]
    # (median query time µs, mean gap %) after each name; nothing else is both faster and shorter.
    # Weighted maps (docs/terrain.md) are answered on cost, not length: by the Terrain costs
    # section's line (terrain_answer), so their facets stay off the first screen's length fronts.
    on_length = [f for f in facet_order(ranked["facet"]) if not is_terrain_facet(f)]
    if not on_length:
        on_length = facet_order(ranked["facet"])
    out = []
    for facet in on_length:
        sub = ranked[ranked["facet"] == facet]
        front = sub[sub["layer"] == 1].sort_values("time_median")
        pre = f"<b>{esc(facet)}</b>: " if facet else ""
        steps = [report_budget.point_text(r, esc, f_sig, f_gap) for _, r in front.iterrows()]
        out.append(f"{pre}from fastest to shortest paths, the Pareto front is " + " → ".join(steps) + ".")
    # What the front costs besides its queries: the fronts under memory and build budgets.
    keep = ranked["facet"].isin(on_length).to_numpy(bool)
    out += report_budget.budget_lines([b for b in scope.budgets if b["facet"] in on_length], ranked[keep], esc, f_sig, f_gap)
    r = scope.rows
    n_q = int(np.count_nonzero(np.bincount(r["query"].to_numpy()))) if len(r) else 0
    out.append(f"In brackets: median query time and mean gap, then build time and memory per map (means over maps). "
               f"{n_q:,} queries on {r['map'].nunique()} map(s); every number below comes with its 95 % interval and n: "
               f"<a class='to-ranked' href='#table-{scope.slug}'>the ranked table</a>.")
    bad = t[(t.get("invalid_paths", 0) > 0)] if "invalid_paths" in t.columns else t.iloc[0:0]
    if len(bad):
        out.append("<span class='warn'>Invalid paths: " + ", ".join(
            f"{esc(r['config'])} ({int(r['invalid_paths'])})" for _, r in bad.iterrows()) + ".</span>")
    unsolved = t[(t["solved_pct"] < 1)] if "solved_pct" in t.columns else t.iloc[0:0]
    if len(unsolved):
        worst = unsolved.sort_values("solved_pct").iloc[0]
        out.append(f"{len(unsolved)} configuration(s) left applicable queries unsolved (lowest: "
                   f"{esc(worst['config'])}, {f_pct(worst['solved_pct'])} % solved); see Missing data.")
    return out


# --- figures of the whole run ----------------------------------------------------------------

def primary_rows(analysis: Analysis, columns=None):
    """The rows of the first facet (all rows without facets), only `columns` when given."""
    rows = analysis.rows
    if not analysis.facet_keys:  # the columns themselves, not copied
        return (rows if columns is None else pd.DataFrame({c: rows[c] for c in columns}, copy=False)), ""
    pick = facet_order(rows["facet"])[0]
    keep = (rows["facet"] == pick).to_numpy(bool)
    return common.take_rows(rows, keep, columns), pick


def series_chunks(items: list) -> list:
    """At most plots.MAX_SERIES per panel, the panels filled evenly (11 series: 6 + 5, not 10 + 1)."""
    k = max(1, math.ceil(len(items) / plots.MAX_SERIES))
    size = max(1, math.ceil(len(items) / k))
    return [items[i:i + size] for i in range(0, len(items), size)] or [[]]


def cost_figures(analysis: Analysis):
    rows, facet = primary_rows(analysis, ["representation", "smoothing", "status", "length_ref", "query_us", "expansions"])
    ok = common.take_rows(rows, ((rows["status"] == "ok") & (rows["length_ref"] > 0)).to_numpy(bool))
    note = f"heuristic/convention {facet}; " if facet else ""
    reps = common.ordered_unique(ok["representation"])
    if ok.empty:
        analysis.skipped.append(("cost_vs_length", "no solved query with a known optimal length"))
        return
    # Query time vs optimal length, one panel per smoothing mode (and per 10 representations).
    panels = []
    groups = ok.groupby(["smoothing", "representation"], observed=True).indices
    none = np.empty(0, dtype=np.int64)
    for sm in sorted(uniques(ok["smoothing"]), key=lambda s: (SMOOTH_RANK.get(s, 3), s)):
        for chunk in series_chunks(reps):
            p = Panel(title=f"smoothing {sm}", xlabel="optimal path length (map units, log)",
                      ylabel="query time (µs, log)", xlog=True, ylog=True)
            for rep in chunk:
                g = common.take_rows(ok, groups.get((sm, rep), none))
                p.series.append(binned_series(rep, g["length_ref"], g["query_us"], analysis, "µs", sm))
            p.series = [s for s in p.series if s is not None]
            if p.series:
                panels.append(p)
    if panels:
        analysis.figures.append(("cost", Figure(
            stem="cost_time_vs_length", title="Query time as the path gets longer",
            caption=f"{note}binned medians (lines) and interquartile ranges (bands) of the query time "
                    "(locate + search + smooth) over solved queries, bins log-spaced in the optimal length "
                    "(exact optimum, else the scenario's octile length); bins with fewer than 5 queries (2 in very small runs) left out.",
            panels=panels, ncols=1 if len(panels) == 1 else 2, panel_h=340, legend_title="representation"), ""))
    # Expansions: the search does not depend on the smoothing, so one mode per representation.
    sm = sorted(uniques(ok["smoothing"]), key=lambda s: (SMOOTH_RANK.get(s, 3), s))[0]
    e = common.take_rows(ok, ((ok["smoothing"] == sm) & (ok["expansions"] > 0)).to_numpy(bool))
    groups = e.groupby("representation", observed=True).indices
    panels = []
    for chunk in series_chunks(reps):
        p = Panel(title="A* expansions", xlabel="optimal path length (map units, log)",
                  ylabel="expansions (nodes, log)", xlog=True, ylog=True)
        for rep in chunk:
            g = common.take_rows(e, groups.get(rep, none))
            s = binned_series(rep, g["length_ref"], g["expansions"], analysis, "expansions", sm)
            if s is not None:
                p.series.append(s)
        if p.series:
            panels.append(p)
    if panels:
        analysis.figures.append(("cost", Figure(
            stem="cost_expansions_vs_length", title="Search effort as the path gets longer",
            caption=f"{note}binned medians and interquartile bands of A* node expansions (smoothing {sm} rows; "
                    "the search is the same for every smoothing mode).",
            panels=panels, ncols=1 if len(panels) == 1 else 2, panel_h=380, legend_title="representation"), ""))


def binned_series(rep, x, y, analysis, unit, smoothing):
    b = stats.binned_quartiles(x.to_numpy(float), y.to_numpy(float))
    if not b:
        return None
    c, q25, q50, q75, n = (np.array(v) for v in zip(*b))
    hover = [f"<b>{esc(rep)}</b> · {esc(smoothing)}<br>optimal length ≈ {ci:.1f}<br>median {f_sig(m)} {unit}"
             f"<br>IQR [{f_sig(a)}, {f_sig(bq)}]<br>{k} queries" for ci, a, m, bq, k in zip(c, q25, q50, q75, n)]
    return Series(name=rep, x=c, y=q50, kind="lines", color=analysis.rep_colour.get(rep, "#333"),
                  band=(q25, q75), hover=hover)


def find_map_files(data: common.ResultData, extra: list) -> dict:
    """map name -> map file, from --maps and the maps named in the runs' meta.json."""
    cands = list(extra)
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    for prefix, meta in data.meta.items():
        cfg = meta.get("config", {}) if isinstance(meta, dict) else {}
        for m in (cfg.get("maps", []) if isinstance(cfg, dict) else []) + (meta.get("maps", []) if isinstance(meta, dict) else []):
            if isinstance(m, str):
                for base in ("", os.getcwd(), root, os.path.dirname(prefix)):
                    p = os.path.join(base, m) if base else m
                    if os.path.exists(p):
                        cands.append(p)
                        break
    found = {}
    for c in dict.fromkeys(cands):
        files = ([c] if os.path.isfile(c) else
                 glob.glob(os.path.join(c, "**", "*.map"), recursive=True) + glob.glob(os.path.join(c, "**", "*.wkt"), recursive=True))
        for f in files:
            found.setdefault(os.path.splitext(os.path.basename(f))[0], f)
    return found


def free_cells(analysis: Analysis, map_files: dict, maps: list) -> dict:
    """map -> free cells (grid maps: passable cells; polygon maps: walkable area in unit cells).
    From the map file when found, else from a grid representation's vertex count (one per free
    cell); maps with neither are left out."""
    out = {}
    b = analysis.data.build
    grid_cells = {}  # map -> vertices of its first grid8/grid4 build row
    if b is not None and len(b):
        g = b[b["representation"].isin(["grid8", "grid4"]) & b["vertices"].notna()]
        grid_cells = g.groupby("map", sort=False)["vertices"].first().to_dict()
    for m in maps:
        f = map_files.get(m)
        try:
            if f is not None:
                gm = common.read_map(f)
                if isinstance(gm, common.GridMap):
                    out[m] = int((~gm.blocked).sum())
                else:
                    out[m] = polygon_area(gm)
                continue
        except common.InputError as e:
            analysis.data.notes.append(f"map size of {m}: {e}")
        if m in grid_cells:
            out[m] = float(grid_cells[m])
    return out


def polygon_area(pm) -> float:
    def ring_area(r):
        return abs(sum(x0 * y1 - x1 * y0 for (x0, y0), (x1, y1) in zip(r, r[1:] + r[:1]))) / 2
    area = sum(ring_area(p[0]) - sum(ring_area(h) for h in p[1:]) for p in pm.walkable)
    return area - sum(ring_area(p[0]) for p in pm.obstacles)


def build_figure(analysis: Analysis, map_files: dict):
    b = build_per_map(analysis.data.build, uniques(analysis.rows["representation"]), uniques(analysis.rows["map"]))
    if b.empty:
        analysis.skipped.append(("build_vs_size", "no build rows (PREFIX.build.csv missing or empty)"))
        return
    fc = free_cells(analysis, map_files, sorted(set(b["map"])))
    analysis.free_cells = fc
    b = b.assign(cells=b["map"].map(fc)).dropna(subset=["cells"])
    if b.empty:
        analysis.skipped.append(("build_vs_size", "map sizes unknown (map files not found; use --maps)"))
        return
    reps = [r for r in common.ordered_unique(analysis.rows["representation"]) if r in set(b["representation"])]
    panels, fits = [], []
    for col, label in (("build_ms", "build time (ms, log)"), ("memory_bytes", "memory (bytes, log)")):
        for chunk in series_chunks(reps):
            p = Panel(title=label.split(" (")[0], xlabel="map size (free cells, log)", ylabel=label,
                      xlog=True, ylog=True)
            for rep in chunk:
                g = b[(b["representation"] == rep) & (b[col] > 0)]
                if g.empty:
                    continue
                colour = analysis.rep_colour.get(rep, "#333")
                p.series.append(Series(name=rep, x=g["cells"].to_numpy(float), y=g[col].to_numpy(float), color=colour,
                                       size=8, hover=[f"<b>{esc(rep)}</b><br>map {esc(m)}<br>{c:,.0f} free cells<br>"
                                                      f"{label.split(' (')[0]} {f_sig(v) if col == 'build_ms' else f_bytes(v)}"
                                                      for m, c, v in zip(g["map"], g["cells"], g[col])]))
                fit = stats.loglog_fit(g["cells"], g[col])
                if fit is not None:
                    xs = np.geomspace(g["cells"].min(), g["cells"].max(), 20)
                    p.series.append(Series(name=rep, x=xs, y=10 ** fit["intercept"] * xs ** fit["slope"], kind="lines",
                                           color=colour, dash="dash", width=1.5, legend=False,
                                           hover=[f"{esc(rep)}: slope {fit['slope']:.2f}"] * len(xs)))
                    fits.append((rep, col, fit))
            if p.series:
                panels.append(p)
    if not panels:
        analysis.skipped.append(("build_vs_size", "no positive build time or memory"))
        return
    rows_html = []
    for rep in reps:
        cells = []
        for col in ("build_ms", "memory_bytes"):
            f = next((x for r, c, x in fits if r == rep and c == col), None)
            cells.append(f"<td class='num'>{f['slope']:.2f} [{f['lo']:.2f}, {f['hi']:.2f}] (n = {f['n']})</td>"
                         if f else "<td class='num'>–</td>")
        rows_html.append(f"<tr><td>{esc(rep)}</td>{''.join(cells)}</tr>")
    extra = ("<table class='slopes'><thead><tr><th>representation</th><th>build time ∝ cells^slope [95 % CI]</th>"
             "<th>memory ∝ cells^slope [95 % CI]</th></tr></thead><tbody>" + "".join(rows_html) + "</tbody></table>")
    analysis.figures.append(("cost", Figure(
        stem="build_vs_size", title="Build time and memory as maps grow",
        caption="One point per map × representation (mean over the runs that built it); dashed: least-squares "
                "line in log-log space, its slope is the exponent of the growth (1 = linear in the free cells).",
        panels=panels, ncols=2, panel_h=380, legend_title="representation"), extra))


def rep_colours(analysis: Analysis, reps) -> dict:
    """The run's colour per representation, new ones (only in a companion file) after them."""
    out, k = {}, len(analysis.rep_colour)
    for r in reps:
        if r in analysis.rep_colour:
            out[r] = analysis.rep_colour[r]
        else:
            out[r] = plots.PALETTE[k % len(plots.PALETTE)]
            k += 1
    return out


def ci_cell(est, lo, hi, n, fmt=None) -> str:
    fmt = fmt or f_sig
    if not finite(est):
        return f"<td class='num'>–<span class='ci'>n = {n}</span></td>"
    return (f"<td class='num'>{fmt(est)}<span class='ci'>[{fmt(lo)}, {fmt(hi)}]</span>"
            f"<span class='ci'>n = {n}</span></td>")


def companion_rows(analysis: Analysis, attr: str):
    """The rows of one kind of companion file (updates, threads) over the run and the extra
    inputs, concatenated; None when there are none."""
    parts = [getattr(d, attr) for d in [analysis.data] + analysis.dynamic if getattr(d, attr) is not None]
    rows = pd.concat(parts, ignore_index=True) if parts else None
    return rows if rows is not None and not rows.empty else None


def update_figures(analysis: Analysis):
    """Changing maps (docs/changing-maps.md): update time against the cells an update changed, the
    full rebuild's time over the update's, and the total cost (updates + queries) per scenario."""
    u = companion_rows(analysis, "updates")
    if u is None:
        return
    u = u[u["update_us"].notna()].copy()
    reps = common.ordered_unique(u["representation"])
    colour = rep_colours(analysis, reps)
    has_rebuild = u["rebuild_us"].notna().any()
    u["ratio"] = u["rebuild_us"] / u["update_us"].where(u["update_us"] > 0)
    panels = []
    for chunk in series_chunks(reps):
        p = Panel(title="incremental update", xlabel="cells changed by the update (log)",
                  ylabel="update time (µs, log)", xlog=True, ylog=True)
        q = Panel(title="full rebuild ÷ update", xlabel="cells changed by the update (log)",
                  ylabel="rebuild time ÷ update time (log)", xlog=True, ylog=True)
        for rep in chunk:
            g = u[(u["representation"] == rep) & (u["cells_changed"] > 0) & (u["update_us"] > 0)]
            if g.empty:
                continue
            hover = [f"<b>{esc(rep)}</b><br>{esc(m)} epoch {int(e)}<br>{int(c):,} cells in {int(k)} patch(es)<br>"
                     f"update {f_sig(v)} µs" + (f"<br>rebuild {f_sig(b)} µs" if finite(b) else "")
                     for m, e, c, k, v, b in zip(g["map"], g["epoch"], g["cells_changed"], g["patches"],
                                                 g["update_us"], g["rebuild_us"])]
            p.series.append(Series(name=rep, x=g["cells_changed"].to_numpy(float), y=g["update_us"].to_numpy(float),
                                   color=colour[rep], size=6, opacity=0.55, hover=hover))
            r = g[g["ratio"] > 0]
            if len(r):
                q.series.append(Series(name=rep, x=r["cells_changed"].to_numpy(float), y=r["ratio"].to_numpy(float),
                                       color=colour[rep], size=6, opacity=0.55, legend=False,
                                       hover=[f"<b>{esc(rep)}</b><br>{int(c):,} cells<br>rebuild ÷ update {x:.3g}"
                                              for c, x in zip(r["cells_changed"], r["ratio"])]))
        if p.series:
            panels.append(p)
        if q.series:
            panels.append(q)
    if not panels:
        analysis.skipped.append(("update_vs_cells", "no update changed a cell"))
    # Table: per scenario and representation.
    parts = [d.rows for d in [analysis.data] + analysis.dynamic if len(d.rows) and "epoch" in d.rows.columns]
    rows = common.concat_frames([plain(common.take_rows(r, np.arange(len(r)), ["map", "representation", "smoothing"])).assign(
        t=r["query_us"] if "query_us" in r.columns else common.query_time_us(r)) for r in parts]) if parts else pd.DataFrame()
    qt = pd.DataFrame()
    if len(rows):
        sm = sorted(uniques(rows["smoothing"]), key=lambda x: (SMOOTH_RANK.get(x, 3), x))[0]
        d = rows[(rows["smoothing"] == sm).to_numpy(bool)]
        qt = d.groupby(["map", "representation"], observed=True)["t"].agg(["sum", "count"])
    body, summary = [], []
    for (mp, rep), g in u.groupby(["map", "representation"], sort=False):
        sd = stats.seed_for(analysis.seed, "update", mp, rep)
        res = stats.resample_stats({"u": g["update_us"], "b": g["rebuild_us"], "r": g["ratio"]},
                                   {"u": ("u", stats.nan_median), "u95": ("u", stats.nan_quantile(0.95)),
                                    "b": ("b", stats.nan_median), "r": ("r", stats.nan_median)}, sd)
        tot_u = g["update_us"].sum() / 1e6
        tq = qt.loc[(mp, rep)] if (mp, rep) in qt.index else None
        tot_q = tq["sum"] / 1e6 if tq is not None else math.nan
        nq = int(tq["count"]) if tq is not None else 0
        summary.append({"map": mp, "representation": rep, "updates": len(g),
                        "cells_changed_median": g["cells_changed"].median(),
                        **{f"{k}{part}": v for k in ("update_median", "update_p95", "rebuild_median", "ratio_median")
                           for part, v in zip(("", "_lo", "_hi", "_n"), res[{"update_median": "u", "update_p95": "u95",
                                                                          "rebuild_median": "b", "ratio_median": "r"}[k]])},
                        "updates_total_s": tot_u, "queries_total_s": tot_q, "queries": nq})
        body.append(f"<tr><td>{esc(mp)}</td><td>{esc(rep)}</td><td class='num'>{len(g)}</td>"
                    f"<td class='num'>{f_sig(g['cells_changed'].median())}</td>"
                    + ci_cell(*res["u"]) + ci_cell(*res["u95"]) + ci_cell(*res["b"]) +
                    ci_cell(*res["r"], fmt=lambda v: f"{v:.3g}×") +
                    f"<td class='num'>{tot_u:.3g}</td><td class='num'>{f_sig(tot_q) if finite(tot_q) else '–'}"
                    f"<span class='ci'>n = {nq}</span></td>"
                    f"<td class='num'>{f_sig(tot_u + (tot_q if finite(tot_q) else 0))}</td></tr>")
    table = ("<table class='updates' id='updates-table'><thead><tr><th>scenario</th><th>representation</th>"
             "<th>updates</th><th>median cells changed</th><th>median update<span class='unit'>µs</span></th>"
             "<th>p95 update<span class='unit'>µs</span></th><th>median rebuild<span class='unit'>µs</span></th>"
             "<th>rebuild ÷ update<span class='unit'>median per update</span></th>"
             "<th>updates total<span class='unit'>s</span></th><th>queries total<span class='unit'>s</span></th>"
             "<th>total<span class='unit'>s</span></th></tr></thead><tbody>" + "".join(body) + "</tbody></table>")
    analysis.update_summary = pd.DataFrame(summary)
    answer = update_answer(analysis.update_summary)
    if answer:
        analysis.figures.append(("dynamic", None, answer))
    note = ("" if has_rebuild else "<p class='note'>No rebuild baseline in these runs (run with "
            "<code>--rebuild-baseline</code> to time a full build of every map state).</p>")
    cap = ("<p>Per scenario and representation: 95 % bootstrap intervals over the updates; a ratio near 1× means an "
           "update costs a rebuild: the representation rebuilds (no incremental update), or the change reaches most "
           "of what it would make again (visgraph: the nodes whose view the changed cells cross). Queries total: locate + search + smooth of every "
           "query of the scenario (one smoothing mode).</p>")
    if panels:
        analysis.figures.append(("dynamic", Figure(
            stem="update_vs_cells", title="What keeping up with a changing map costs",
            caption="One point per update (the P commands between two queries, docs/changing-maps.md) and representation. "
                    "Left: time to bring the built representation up to date; right: a full rebuild of the same "
                    "map state divided by that time (above 1: the update pays off).",
            panels=panels, ncols=2, panel_h=380, legend_title="representation"), cap + table + note))
    else:
        analysis.figures.append(("dynamic", None, cap + table + note))


def update_answer(summary: pd.DataFrame) -> str:
    """The section's answer at a glance, one line per scenario: the least total time (updates +
    queries), the fastest median update, who updates at least 10x faster than a rebuild and whose
    updates cost about a rebuild (median ratio under 1.5x: it rebuilds, or the change reaches most of it)."""
    items = []
    for mp, g in summary.groupby("map", sort=False):
        parts = []
        tot = g.assign(t=g["updates_total_s"] + g["queries_total_s"])
        tot = tot[(tot["queries"] > 0) & tot["t"].notna()]
        if len(tot):
            b = tot.loc[tot["t"].idxmin()]
            parts.append(f"least total time (updates + queries) <b>{esc(b['representation'])}</b> ({f_sig(b['t'])} s)")
        if g["update_median"].notna().any():
            b = g.loc[g["update_median"].idxmin()]
            parts.append(f"fastest median update <b>{esc(b['representation'])}</b> ({f_sig(b['update_median'])} µs)")
        r = g[g["ratio_median"].notna()]
        if len(r):
            fast = r[r["ratio_median"] >= 10].sort_values("ratio_median", ascending=False)
            slow = r[r["ratio_median"] < 1.5]
            parts.append("at least 10× faster than a rebuild (median): " + (
                ", ".join(f"{esc(x)} ({v:.3g}×)" for x, v in zip(fast["representation"], fast["ratio_median"])) or "none"))
            if len(slow):
                parts.append("an update costs about a rebuild (under 1.5×): " + ", ".join(esc(x) for x in slow["representation"]))
        if parts:
            items.append(f"<li><b>{esc(mp)}</b>: " + "; ".join(parts) + ".</li>")
    return f"<ul class='answer' id='dynamic-answer'>{''.join(items)}</ul>" if items else ""


def thread_figures(analysis: Analysis):
    """Many agents: queries/s and peak memory against threads (scripts/thread-scaling)."""
    t = companion_rows(analysis, "threads")
    if t is None:
        return
    t = t[t["threads"].notna() & t["queries_per_s"].notna()]
    reps = common.ordered_unique(t["representation"])
    colour = rep_colours(analysis, reps)
    panels = []
    counts = sorted(int(k) for k in set(t["threads"]))
    ticks = (counts, [str(k) for k in counts])  # whole thread counts only
    for chunk in series_chunks(reps):
        p = Panel(title="throughput", xlabel="threads", ylabel="queries per second (log)", ylog=True, xticks=ticks)
        m = Panel(title="peak memory", xlabel="threads", ylabel="peak resident memory (MiB)", xticks=ticks)
        for rep in chunk:
            g = t[t["representation"] == rep].groupby("threads", as_index=False).agg(
                q=("queries_per_s", "median"), mem=("peak_rss_bytes", "median"), maps=("map", "nunique"))
            g = g.sort_values("threads")
            if g.empty:
                continue
            p.series.append(Series(name=rep, x=g["threads"].to_numpy(float), y=g["q"].to_numpy(float), kind="lines",
                                   color=colour[rep], hover=[f"<b>{esc(rep)}</b><br>{int(k)} thread(s)<br>{q:,.0f} queries/s"
                                                              for k, q in zip(g["threads"], g["q"])]))
            if len(g) > 1:  # ideal: linear in the threads from the single-thread rate
                base = g.iloc[0]
                p.series.append(Series(name=rep, x=g["threads"].to_numpy(float),
                                       y=base["q"] * g["threads"].to_numpy(float) / base["threads"], kind="lines",
                                       color=colour[rep], dash="dot", width=1, legend=False,
                                       hover=[f"{esc(rep)}: linear scaling"] * len(g)))
            if g["mem"].notna().any():
                m.series.append(Series(name=rep, x=g["threads"].to_numpy(float), y=g["mem"].to_numpy(float) / 2 ** 20,
                                       kind="lines", color=colour[rep], legend=False,
                                       hover=[f"<b>{esc(rep)}</b><br>{int(k)} thread(s)<br>{v / 2 ** 20:.1f} MiB"
                                              for k, v in zip(g["threads"], g["mem"])]))
        panels += [x for x in (p, m) if x.series]
    if not panels:
        return
    maps = ", ".join(sorted(set(t["map"])))
    body = "".join(f"<tr><td>{esc(r['map'])}</td><td>{esc(r['representation'])}</td><td class='num'>{int(r['threads'])}</td>"
                   f"<td class='num'>{int(r['queries']) if finite(r['queries']) else '–'}</td>"
                   f"<td class='num'>{r['queries_per_s']:,.0f}</td>"
                   f"<td class='num'>{f_bytes(r['peak_rss_bytes']) if finite(r['peak_rss_bytes']) else '–'}</td></tr>"
                   for _, r in t.iterrows())
    table = ("<details><summary>Thread-scaling runs</summary><table id='threads-table'><thead><tr><th>map</th>"
             "<th>representation</th><th>threads</th><th>queries</th><th>queries/s</th><th>peak memory</th></tr>"
             "</thead><tbody>" + body + "</tbody></table></details>")
    analysis.figures.append(("threads", Figure(
        stem="threads", title="Many agents: throughput and memory against threads",
        caption=f"navbench run --threads N over one shared read-only build (maps: {maps}); queries/s of the query "
                "phase (build excluded), median over maps; dotted: linear scaling from one thread. Peak memory: "
                "the process's maximum resident set (build + one search workspace per thread).",
        panels=panels, ncols=2, panel_h=340, legend_title="representation"), table))



def radius_figures(analysis: Analysis):
    """Agents with a radius (docs/radius.md), when the rows hold several radii: per
    representation · smoothing, solved %, valid % and mean gap against R, and a table with counts."""
    rows = analysis.rows
    if "radius" not in rows.columns or rows["radius"].nunique() < 2:
        return
    other = [k for k in analysis.facet_keys if k != "radius"]
    r = common.take_rows(rows, np.arange(len(rows)), ["representation", "smoothing", "radius", "status", "valid", "gap"] + other)
    radius = common.as_text(r["radius"])
    values = pd.to_numeric(pd.Series(radius.cat.categories.astype(str)).str.replace("r=", "", regex=False), errors="coerce")
    codes = radius.cat.codes.to_numpy()
    r["R"] = np.where(codes >= 0, values.to_numpy(float)[codes], np.nan)
    r["rep"] = (combined_text(r, ["representation"] + other, lambda v: v[0] + " · " + " / ".join(map(str, v[1:])))
                if other else r["representation"])
    recs = []
    for (rep, smoothing, R), g in r.groupby(["rep", "smoothing", "R"], sort=False, observed=True):
        applicable = g[~g["status"].isin(["invalid_query", "not_applicable"])]
        ok = g[g["status"] == "ok"]
        if ok.empty and (g["status"] == "not_applicable").any():
            continue  # the smoother does not run at this radius (e.g. funnel at R > 0): its no_path rows say nothing
        valid = ok["valid"] == 1
        gaps = ok.loc[ok["gap"].notna(), "gap"]
        recs.append(dict(series=f"{rep} · {smoothing}", rep=rep, smoothing=smoothing, R=R, rows=len(g), invalid_query=int((g["status"] == "invalid_query").sum()),
                         applicable=len(applicable), solved=len(ok),
                         solved_pct=len(ok) / len(applicable) if len(applicable) else np.nan,
                         valid_pct=valid.mean() if len(ok) else np.nan,
                         gap=gaps.mean() if len(gaps) else np.nan,
                         gap_valid=ok.loc[valid & ok["gap"].notna(), "gap"].mean() if valid.any() else np.nan,
                         not_applicable=int((g["status"] == "not_applicable").sum()),
                         errors=int((g["status"] == "error").sum())))
    t = pd.DataFrame(recs)
    t = t[t["applicable"] > 0]
    if t.empty:
        return
    t = t.sort_values(["series", "R"], kind="stable")
    # One row of panels per smoothing mode, one colour per representation (the run's colours), so a
    # panel holds at most plots.MAX_SERIES lines and a colour always means the same representation.
    reps = common.ordered_unique(t["rep"])
    colour = rep_colours(analysis, reps)
    radii = sorted(set(t["R"]))
    ticks = (radii, [f"{x:g}" for x in radii])
    metrics = (("solved_pct", "solved", "solved (% of applicable)"), ("valid_pct", "valid", "valid (% of solved)"),
               ("gap", "gap", "mean gap to the disc optimum (%)"))
    panels, shown = [], set()
    for sm in sorted(set(t["smoothing"]), key=lambda x: (SMOOTH_RANK.get(x, 3), x)):
        for chunk in series_chunks([x for x in reps if ((t["rep"] == x) & (t["smoothing"] == sm)).any()]):
            row = [Panel(title=f"{title} · {sm}", xlabel="agent radius R", ylabel=ylabel, xticks=ticks)
                   for _, title, ylabel in metrics]
            for rep in chunk:
                g = t[(t["rep"] == rep) & (t["smoothing"] == sm)]
                for panel, (col, _, _) in zip(row, metrics):
                    gg = g[g[col].notna()]
                    if gg.empty:
                        continue
                    panel.series.append(Series(
                        name=rep, x=gg["R"].to_numpy(float), y=100 * gg[col].to_numpy(float), kind="lines",
                        color=colour[rep], legend=rep not in shown,
                        hover=[f"<b>{esc(rep)} · {esc(sm)}</b><br>R = {R:g}<br>{100 * v:.3g} %"
                               for R, v in zip(gg["R"], gg[col])]))
                    shown.add(rep)
            panels += row
    body = "".join(
        f"<tr><td>{esc(x['series'])}</td><td class='num'>{x['R']:g}</td><td class='num'>{x['rows']}</td>"
        f"<td class='num'>{x['invalid_query']}</td><td class='num'>{x['solved']} / {x['applicable']}</td>"
        f"<td class='num'>{f_pct(x['solved_pct'])}</td><td class='num'>{f_pct(x['valid_pct'])}</td>"
        f"<td class='num'>{f_gap(x['gap'])}</td><td class='num'>{f_gap(x['gap_valid'])}</td>"
        f"<td class='num'>{x['errors']}</td></tr>" for _, x in t.iterrows())
    table = ("<table id='radius-table'><thead><tr><th>representation · smoothing</th><th>R</th><th>rows</th>"
             "<th>invalid_query</th><th>solved</th><th>solved %</th><th>valid %</th><th>mean gap</th>"
             "<th>mean gap (valid paths)</th><th>errors</th></tr></thead><tbody>" + body + "</tbody></table>")
    analysis.figures.append(("radius", Figure(
        stem="radius", title="Agents with a radius: the price of each strategy",
        caption="docs/radius.md: per representation · smoothing and agent radius R, the share of applicable queries solved "
                "(invalid_query = start or goal closer than R to an obstacle: not applicable), the share of solved "
                "paths that keep clearance R (exact test, arcs included), and the mean gap to the exact disc optimum "
                "(tangent graph; over every solved path, invalid ones included: an invalid path can be shorter than "
                "the optimum). visgraph at R > 0 is the tangent graph itself; the others build on the map eroded by R.",
        panels=panels, ncols=3, panel_h=300, legend_title="representation"), table))


def ecdf_figures(analysis: Analysis):
    rows, facet = primary_rows(analysis, ["representation", "smoothing", "status", "gap", "query_us", "map", "scen_index"])
    solved = (rows["status"] == "ok").to_numpy(bool)
    reps = common.ordered_unique(common.take_rows(rows, solved, ["representation"])["representation"])
    note = f"heuristic/convention {facet}; " if facet else ""
    for stem, col, label, xlog, scale in (("ecdf_gap", "gap", "gap (%)", False, 100.0),
                                          ("ecdf_time", "query_us", "query time (µs, log)", True, 1.0)):
        d = common.take_rows(rows, solved & rows[col].notna().to_numpy(bool),
                             ["representation", "smoothing", col, "map", "scen_index"])
        if d.empty:
            analysis.skipped.append((stem, f"no solved rows with {col}"))
            continue
        if not xlog and plots.log_wanted(d[col]) and (d[col] > 0).all():
            xlog = True
        panels = []
        groups = d.groupby(["smoothing", "representation"], observed=True).indices
        values = d[col].to_numpy(float)
        for sm in sorted(uniques(d["smoothing"]), key=lambda s: (SMOOTH_RANK.get(s, 3), s)):
            for chunk in series_chunks(reps):
                p = Panel(title=f"smoothing {sm}", xlabel=label, ylabel="share of solved queries", xlog=xlog)
                for rep in chunk:
                    pos = groups.get((sm, rep), np.empty(0, dtype=np.int64))
                    vals = values[pos]
                    order = np.argsort(vals, kind="quicksort")  # as sort_values(col): the same order
                    pos, vals = pos[order], vals[order]
                    if xlog:
                        pos, vals = pos[vals > 0], vals[vals > 0]
                    if not len(vals):
                        continue
                    v = vals * scale
                    share = np.arange(1, len(v) + 1) / len(v)
                    keep = np.unique(np.linspace(0, len(v) - 1, min(len(v), 400)).astype(int))
                    hover = [f"<b>{esc(rep)}</b> · {esc(sm)}<br>map {esc(m)}, query {int(q) if finite(q) else '?'}<br>"
                             f"{label.split(' (')[0]} {f_sig(x)}{' %' if col == 'gap' else ' µs'}<br>"
                             f"{100 * s:.1f} % of queries at or below"
                             for m, q, x, s in zip(d["map"].array.take(pos[keep]), d["scen_index"].to_numpy()[pos[keep]],
                                                   v[keep], share[keep])]
                    p.series.append(Series(name=rep, x=v[keep], y=share[keep], kind="step",
                                           color=analysis.rep_colour.get(rep, "#333"), hover=hover))
                if p.series and not xlog:
                    # A long tail squashes the rest: cut the axis at the 99th percentile, say so.
                    allx = np.concatenate([np.asarray(s_.x, float) for s_ in p.series])
                    p99, top = float(np.quantile(allx, 0.99)), float(allx.max())
                    if top > 2 * p99 > 0:
                        p.xrange = (-0.03 * p99, 1.03 * p99)
                        p.note = f"x cut at the 99th percentile; max {f_sig(top)}{' %' if col == 'gap' else ''}"
                if p.series:
                    panels.append(p)
        if panels:
            analysis.figures.append(("dist", Figure(
                stem=stem, title=f"Distribution of the {label.split(' (')[0]}",
                caption=f"{note}empirical cumulative distribution over solved queries: the share of queries "
                        f"whose {label.split(' (')[0]} is at most x (hover names the query).",
                panels=panels, ncols=1 if len(panels) == 1 else 2, panel_h=320, legend_title="representation"), ""))


def slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9]+", "-", text).strip("-").lower() or "x"


def analyse(data: common.ResultData, seed: int = 1, map_dirs=(), dynamic=()) -> Analysis:
    rows, keys, facet_keys = prepare(data)
    for d in [data] + list(dynamic):  # the small tables: plain text
        d.build, d.updates, d.threads = plain(d.build), plain(d.updates), plain(d.threads)
    a = Analysis(data=data, rows=rows, keys=keys, facet_keys=facet_keys, seed=seed, dynamic=list(dynamic))
    reps = common.ordered_unique(rows["representation"]) if len(rows) else []
    a.rep_colour = {r: plots.PALETTE[i % len(plots.PALETTE)] for i, r in enumerate(reps)}
    if rows.empty:
        a.skipped.append(("all", "no result rows"))
        update_figures(a)
        thread_figures(a)
        return a
    colls = sorted(uniques(rows["collection"]))
    names = ["all maps"] + (colls if len(colls) > 1 else [])
    for k, name in enumerate(names):
        # A collection's rows are taken (only the columns its table needs) when it is analysed
        # and let go after: the scopes never hold the rows twice at once.
        r = rows if k == 0 else common.take_rows(rows, (rows["collection"] == name).to_numpy(bool),
                                                 SCOPE_COLUMNS + (["terrain"] if "terrain" in rows.columns else []))
        name = name if k == 0 else (name or "(no collection)")
        sc = Scope(name=name, slug=slug(name if name != "all maps" else "all"), rows=r)
        sc.table = config_table(r, data.build, seed, name)
        sc.unapplicable = sc.table.loc[sc.table["applicable"] == 0, "config"].tolist()
        sc.table = sc.table[sc.table["applicable"] > 0].reset_index(drop=True)
        sc.table["rank"] = sc.table.groupby("facet", sort=False).cumcount() + 1
        sc.verdicts = verdicts(r, sc.table, seed, name) if len(sc.table) else []
        sc.pareto = pareto_figure(sc, a) if len(sc.table) else None
        sc.budgets = report_budget.budget_answers(sc.table, name)
        if k == 0 and len(sc.table):
            sc.budget_fig = report_budget.cost_figure(sc, a, esc, f_sig, f_gap)
        sc.answer = answer_lines(sc) if len(sc.table) else ["No applicable configuration."]
        sc.rows = None
        a.scopes.append(sc)
    cost_figures(a)
    build_figure(a, find_map_files(data, list(map_dirs)))
    ecdf_figures(a)
    update_figures(a)
    thread_figures(a)
    radius_figures(a)
    report_quality.quality_figures(a, rep_colours, esc, f_gap, seed)
    line = report_terrain.terrain_figures(a, rep_colours, esc, f_sig, seed)
    if line and a.scopes:  # the terrain question's answer, after the length fronts of the first screen
        ans = a.scopes[0].answer
        at = next((i for i, x in enumerate(ans) if "budget" in x or x.startswith("In brackets")), len(ans))
        ans.insert(at, line)
    return a


# --------------------------------------------------------------------------------------------
# Two runs

def compare_section(a: Analysis, b: Analysis, name_a: str, name_b: str, seed: int):
    """Per configuration present in both runs: the ratio of medians (B / A) of query time and
    expansions over solved queries, and of build time over maps, with 95 % bootstrap intervals
    (paired over the queries both runs solved when they ran the same queries)."""
    recs = []
    for cfg in config_order(a.rows):
        cols = [c for c in PAIR_COLUMNS if c in a.rows.columns] + ["representation", "query_us", "expansions"]
        ga = common.take_rows(a.rows, ((a.rows["config"] == cfg) & (a.rows["status"] == "ok")).to_numpy(bool), cols)
        cols = [c for c in PAIR_COLUMNS if c in b.rows.columns] + ["representation", "query_us", "expansions"]
        gb = common.take_rows(b.rows, ((b.rows["config"] == cfg) & (b.rows["status"] == "ok")).to_numpy(bool), cols)
        if ga.empty or gb.empty:
            continue
        rec = {"config": cfg, "representation": ga.iloc[0]["representation"]}
        for col in ("query_us", "expansions"):
            pa, pb = pair_frame(ga, col), pair_frame(gb, col)
            common_idx = pa.index.intersection(pb.index)
            paired = len(common_idx) >= 0.9 * max(len(pa), len(pb))
            if paired:
                r = stats.ratio_of_medians(pa.loc[common_idx].to_numpy(), pb.loc[common_idx].to_numpy(),
                                           stats.seed_for(seed, "compare", cfg, col), paired=True)
            else:
                r = stats.ratio_of_medians(pa.to_numpy(), pb.to_numpy(), stats.seed_for(seed, "compare", cfg, col),
                                           paired=False)
            rec.update({f"{col}_ratio": r["ratio"], f"{col}_lo": r["lo"], f"{col}_hi": r["hi"],
                        f"{col}_na": r["na"], f"{col}_nb": r["nb"], f"{col}_paired": paired,
                        f"{col}_med_a": float(pa.median()), f"{col}_med_b": float(pb.median())})
        ba = build_per_map(a.data.build, {rec["representation"]}, uniques(ga["map"]))
        bb = build_per_map(b.data.build, {rec["representation"]}, uniques(gb["map"]))
        if len(ba) and len(bb):
            j = ba.merge(bb, on=[c for c in ("representation", "map", "terrain") if c in ba.columns and c in bb.columns],
                         suffixes=("_a", "_b"))
            r = stats.ratio_of_medians(j["build_ms_a"].to_numpy(), j["build_ms_b"].to_numpy(),
                                       stats.seed_for(seed, "compare", cfg, "build"), paired=True)
            rec.update({"build_ratio": r["ratio"], "build_lo": r["lo"], "build_hi": r["hi"], "build_n": r["na"]})
        recs.append(rec)
    t = pd.DataFrame(recs)
    if t.empty:
        return "<section id='compare'><h2>Two runs compared</h2><p class='note'>No configuration solved queries in both runs.</p></section>", t, None
    ys = list(range(len(t)))[::-1]
    p = Panel(title=f"B / A: {name_b} relative to {name_a}", xlabel="ratio of medians B / A (log; < 1: B is lower)",
              ylabel="", xlog=True, yticks=(ys, t["config"].tolist()))
    for k, (col, label, colour) in enumerate((("query_us", "median query time", "#1f77b4"),
                                              ("expansions", "median expansions", "#ff7f0e"),
                                              ("build", "median build time", "#2ca02c"))):
        if f"{col}_ratio" not in t.columns:
            continue
        sub = t[t[f"{col}_ratio"].notna() & (t[f"{col}_ratio"] > 0)]
        if sub.empty:
            continue
        yy = [ys[i] + 0.22 * (1 - k) for i in sub.index]
        p.series.append(Series(name=label, x=sub[f"{col}_ratio"].to_numpy(), y=yy, color=colour,
                               xerr=(sub[f"{col}_lo"].to_numpy(), sub[f"{col}_hi"].to_numpy()),
                               hover=[f"<b>{esc(c)}</b><br>{label}: B/A = {r:.3f} [{lo:.3f}, {hi:.3f}]"
                                      for c, r, lo, hi in zip(sub["config"], sub[f"{col}_ratio"], sub[f"{col}_lo"],
                                                              sub[f"{col}_hi"])]))
    p.series.append(Series(name="no change", x=[1, 1], y=[-0.6, len(t) - 0.4], kind="lines", color="#888", dash="dot",
                           width=1))
    fig = Figure(stem="compare_ratios", title="Two runs compared", panels=[p],
                 caption="Ratio of medians B / A per configuration with 95 % bootstrap intervals (paired over the "
                         "same queries when both runs ran the same ones). An interval that excludes 1 is a change; "
                         "the intervals are not corrected for the number of configurations, so about 1 in 20 "
                         "excludes 1 by chance.",
                 panel_h=max(260, 26 * len(t)),
                 margin_l=min(420, 40 + int(7.2 * max(len(c) for c in t["config"]))))
    body = []
    for _, r in t.iterrows():
        cells = [f"<td>{esc(r['config'])}</td>"]
        for col in ("query_us", "expansions"):
            if finite(r.get(f"{col}_ratio")):
                changed = not (r[f"{col}_lo"] <= 1 <= r[f"{col}_hi"])
                cells.append(f"<td class='num{' best' if changed else ''}' data-metric='{col}_ratio' data-value='{r[f'{col}_ratio']!r}'>"
                             f"{f_sig(r[f'{col}_med_a'])} → {f_sig(r[f'{col}_med_b'])}: <b>×{r[f'{col}_ratio']:.3f}</b>"
                             f"<span class='ci'>[{r[f'{col}_lo']:.3f}, {r[f'{col}_hi']:.3f}] "
                             f"n = {r[f'{col}_na']}/{r[f'{col}_nb']}{', paired' if r[f'{col}_paired'] else ''}</span></td>")
            else:
                cells.append("<td class='num'>–</td>")
        if finite(r.get("build_ratio")):
            cells.append(f"<td class='num'><b>×{r['build_ratio']:.3f}</b><span class='ci'>[{r['build_lo']:.3f}, "
                         f"{r['build_hi']:.3f}] n = {r['build_n']} maps</span></td>")
        else:
            cells.append("<td class='num'>–</td>")
        body.append("<tr>" + "".join(cells) + "</tr>")
    html_ = (f"<section id='compare'><h2>Two runs compared: B / A</h2><p>A = <code>{esc(name_a)}</code>, "
             f"B = <code>{esc(name_b)}</code>. Highlighted cells: the 95 % interval excludes 1.</p>"
             "<table class='ranked'><thead><tr><th>configuration</th><th>query time µs (A → B: B/A)</th>"
             "<th>expansions (A → B: B/A)</th><th>build time B/A</th></tr></thead><tbody>" + "".join(body) +
             "</tbody></table>")
    return html_, t, fig


# --------------------------------------------------------------------------------------------
# HTML

CSS = """
body { font-family: system-ui, -apple-system, 'Segoe UI', sans-serif; margin: 0 auto; max-width: 1220px;
       color: #222; padding: 0 16px 3em; font-size: 15px; line-height: 1.45; }
h1 { font-size: 1.55em; margin: .6em 0 .2em; } h2 { font-size: 1.3em; border-bottom: 2px solid #ddd;
  padding-bottom: .15em; margin-top: 1.6em; } h3 { font-size: 1.1em; margin: 1.2em 0 .3em; }
nav { position: sticky; top: 0; background: #fff; border-bottom: 1px solid #ddd; padding: .35em 0; z-index: 5;
      font-size: 14px; }
nav a { margin-right: 1em; color: #1f5fa8; text-decoration: none; }
.lead { color: #444; margin: .2em 0 .6em; }
ul.answer { background: #f4f8fc; border-left: 4px solid #1f77b4; padding: .5em 1em .5em 2em; margin: .6em 0; }
.warn { color: #b00; }
table { border-collapse: collapse; font-size: 13px; margin: .5em 0; }
th, td { border: 1px solid #d4d4d4; padding: 3px 6px; vertical-align: top; }
th { background: #f0f0f0; font-weight: 600; text-align: left; }
th .unit { font-weight: normal; color: #666; display: block; font-size: 12px; }
td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
td .ci { display: block; color: #666; font-size: 11px; }
table.ranked td:nth-child(2) { max-width: 230px; overflow-wrap: anywhere; }
table.ranked th { max-width: 95px; }
td.best { background: #e3f4e1; font-weight: 600; } .star { color: #2a7d2a; margin-right: 3px; }
h4 { margin: 1em 0 .2em; font-size: 1em; }
tr.front td:nth-child(2) { font-weight: 600; }
.badge { font-size: 11px; background: #1f77b4; color: #fff; border-radius: 3px; padding: 0 4px; margin-left: 4px; }
figure { margin: 1em 0; } figcaption { font-size: 14px; color: #333; margin-top: .3em; max-width: 1180px; }
figcaption b { color: #000; } .dl { font-size: 13px; }
.note { color: #666; font-style: italic; }
ul.verdicts { font-size: 14px; } ul.verdicts li.nodiff { color: #666; }
.thumbs { display: flex; flex-wrap: wrap; gap: 10px; }
.thumbs figure { margin: 0; width: 590px; } .thumbs img { width: 590px; height: auto; border: 1px solid #ccc;
  cursor: zoom-in; display: block; } .thumbs figcaption { font-size: 13px; }
#lightbox { display: none; position: fixed; inset: 0; background: rgba(0,0,0,.82); z-index: 10; cursor: zoom-out;
  align-items: center; justify-content: center; }
#lightbox img { max-width: 96vw; max-height: 94vh; background: #fff; }
details { margin: .5em 0; } summary { cursor: pointer; font-weight: 600; }
pre { background: #f6f6f6; padding: .6em; overflow-x: auto; font-size: 12px; max-width: 1180px; }
.chart { width: 1180px; }
"""

JS = """
document.addEventListener('click', function (e) {
  var box = document.getElementById('lightbox');
  if (e.target.matches('.thumbs img')) { box.querySelector('img').src = e.target.src; box.style.display = 'flex'; }
  else if (box.contains(e.target)) { box.style.display = 'none'; }
  // A link to a collection's ranked table opens its folded details.
  var link = e.target.closest('a.to-ranked');
  if (link) { var t = document.querySelector(link.getAttribute('href')); if (t && t.tagName === 'DETAILS') t.open = true; }
});
"""


def ranked_table_html(t, scope_slug: str) -> str:
    """One table per facet (heuristic / convention), best value per column marked within it."""
    out = []
    for facet in facet_order(t["facet"]):
        sub = t[t["facet"] == facet]
        tid = f"ranked-{scope_slug}" + (f"-{slug(facet)}" if facet else "")
        if facet:
            out.append(f"<h4>{esc(facet)}</h4>")
        out.append(one_ranked_table(sub, tid, scope_slug))
    return "\n".join(out)


def one_ranked_table(t, table_id: str, scope_slug: str) -> str:
    head = ["<th>#</th><th>configuration</th>"] + [
        f"<th>{esc(h)}<span class='unit'>{esc(u)}</span></th>" for _, h, u, _, _ in METRICS]
    best = {}
    for k, _, _, better, _ in METRICS:
        v = t[k].dropna() if k in t.columns else pd.Series(dtype=float)
        if len(v) > 1:  # a lone value is not "best"
            best[k] = v.max() if better == "max" else v.min()
    body = []
    for _, r in t.iterrows():
        cls = " class='front'" if r["layer"] == 1 else ""
        badge = "<span class='badge' title='on the Pareto front'>front</span>" if r["layer"] == 1 else ""
        cells = [f"<td class='num'>{int(r['rank'])}</td>",
                 f"<td data-config='{esc(r['config'])}'>{esc(r['representation'])} · {esc(r['smoothing'])}{badge}</td>"]
        for k, _, _, _, kind in METRICS:
            v = r.get(k)
            fmt = FORMAT[kind]
            n = int(r.get(k + "_n", 0) or 0) if finite(r.get(k + "_n", 0)) else 0
            if not finite(v):
                cells.append(f"<td class='num' data-metric='{k}' data-value=''>–<span class='ci'>n = {n}</span></td>")
                continue
            is_best = k in best and v == best[k]
            star = "<span class='star' title='best in this column'>★</span>" if is_best else ""
            cells.append(f"<td class='num{' best' if is_best else ''}' data-metric='{k}' data-value='{float(v)!r}' "
                         f"data-n='{n}'>{star}{fmt(v)}<span class='ci'>[{fmt(r[k + '_lo'])}, {fmt(r[k + '_hi'])}]</span>"
                         f"<span class='ci'>n = {n}</span></td>")
        body.append(f"<tr{cls}>" + "".join(cells) + "</tr>")
    return (f"<table class='ranked' id='{table_id}' data-scope='{esc(scope_slug)}'><thead><tr>{''.join(head)}</tr></thead><tbody>"
            + "".join(body) + "</tbody></table>")


def drawn_note(a: Analysis) -> str:
    """A sentence when some interval rests on more rows than stats.EXACT_ROWS: those resamples
    are not drawn row by row (stats.drawn_stats)."""
    sizes = [0]
    for sc in a.scopes:
        t = sc.table
        if t is not None and len(t):
            sizes += [int(v) for c in ("applicable", "build_ms_n") if c in t.columns for v in t[c].fillna(0)]
        sizes += [int(v.get("n", 0)) for v in sc.verdicts]
    if max(sizes) <= stats.EXACT_ROWS:
        return ""
    return (f" Samples of more than {stats.EXACT_ROWS:,} are not resampled row by row: each resample's statistic is "
            "drawn from its distribution given the sample (exact for shares, quantiles and maxima; normal for means).")


def figure_html(fig: Figure, static: list, extra: str = "") -> str:
    links = " · ".join(f"<a href='figures/{esc(n)}'>{esc(n.rsplit('.', 1)[1].upper())}</a>" for n in static)
    return (f"<figure id='fig-{esc(fig.stem)}' class='chart'>{plots.plotly_div(fig)}<figcaption><b>{esc(fig.title)}.</b> "
            f"{esc(fig.caption)} <span class='dl'>For papers: {links}</span></figcaption>{extra}</figure>")


def missing_html(a: Analysis) -> str:
    rows = a.rows
    cfg_code = rows["config"].cat.codes.to_numpy().astype(np.int64)
    n_cfg = len(rows["config"].cat.categories)

    def per_config(mask):
        return np.bincount(cfg_code[mask], minlength=n_cfg)

    status = {s: (rows["status"] == s).to_numpy(bool) for s in common.STATUSES}
    ok = status["ok"]
    bad_mask = ok & (rows["valid"] == 0).to_numpy(bool)
    counts = {s: per_config(m) for s, m in status.items()}
    counts["_rows"] = per_config(np.ones(len(rows), dtype=bool))
    counts["_invalid"] = per_config(bad_mask)
    counts["_gap"] = per_config(ok & rows["gap"].isna().to_numpy(bool))
    counts["_time"] = per_config(ok & rows["query_us"].isna().to_numpy(bool))
    code_of = {c: k for k, c in enumerate(rows["config"].cat.categories)}
    body = []
    for cfg in config_order(rows):
        k = code_of[cfg]
        cells = [int(counts[x][k]) for x in ("_rows", "ok", "no_path", "invalid_query", "error", "not_applicable",
                                              "_invalid", "_gap", "_time")]
        tds = "".join(f"<td class='num{' warnc' if (i in (4, 6) and v) else ''}'>{v}</td>" for i, v in enumerate(cells))
        body.append(f"<tr><td>{esc(cfg)}</td>{tds}</tr>")
    tot = {s: int(m.sum()) for s, m in status.items()}
    head = ("<tr><th>configuration</th><th>rows</th><th>ok</th><th>no_path</th><th>invalid_query</th><th>error</th>"
            "<th>not applicable</th><th>invalid path</th><th>solved, gap unknown</th><th>solved, time missing</th></tr>")
    out = [f"<p>{len(rows)} rows: " + ", ".join(f"{v} {k.replace('_', ' ')}" for k, v in tot.items()) +
           ". Not applicable rows (a combination that cannot run by construction, docs/results.md#query-status) are left out of "
           "every denominator; no_path, invalid_query and error count as unsolved.</p>",
           f"<details><summary>Per configuration</summary><table>{head}{''.join(body)}</table></details>"]
    if status["error"].any():
        errs = plain(common.take_rows(rows, status["error"], ["config", "message"]))
        msgs = errs.groupby(["config", "message"]).size().reset_index(name="n")
        out.append("<details open><summary>Error messages</summary><table><tr><th>configuration</th><th>message</th>"
                   "<th>rows</th></tr>" + "".join(f"<tr><td>{esc(r['config'])}</td><td>{esc(r['message'])}</td>"
                                                   f"<td class='num'>{r['n']}</td></tr>" for _, r in msgs.iterrows())
                   + "</table></details>")
    if bad_mask.any():
        bad = common.take_rows(rows, np.flatnonzero(bad_mask)[:100])
        out.append(f"<details open><summary class='warn'>Invalid paths ({int(bad_mask.sum())})</summary><table><tr><th>map</th>"
                   "<th>query</th><th>configuration</th><th>length</th><th>optimal</th></tr>" + "".join(
                       f"<tr><td>{esc(r['map'])}</td><td class='num'>{int(r['scen_index']) if finite(r['scen_index']) else '?'}</td>"
                       f"<td>{esc(r['config'])}</td><td class='num'>{f_sig(r['length'], 6)}</td>"
                       f"<td class='num'>{f_sig(r['optimal'], 6)}</td></tr>" for _, r in bad.iterrows())
                   + "</table></details>")
    if a.data.notes:
        out.append("<details><summary>Notes on the input files</summary><ul>" +
                   "".join(f"<li>{esc(n)}</li>" for n in a.data.notes[:200]) + "</ul></details>")
    if a.skipped:
        out.append("<p class='note'>Figures not drawn: " + "; ".join(f"{esc(s)} ({esc(r)})" for s, r in a.skipped) + ".</p>")
    return "\n".join(out)


def meta_html(data: common.ResultData) -> str:
    parts = []
    counts = data.rows["result_set"].value_counts() if len(data.rows) else {}
    for prefix in data.prefixes[:20]:
        meta = data.meta.get(prefix)
        shown = {k: v for k, v in meta.items() if k != "schema"} if isinstance(meta, dict) else meta
        body = ("<p class='note'>no meta.json next to this result set</p>" if meta is None else
                f"<pre>{esc(json.dumps(shown, indent=2, sort_keys=True))}</pre>")
        parts.append(f"<details><summary>{esc(prefix)} — {int(counts.get(prefix, 0))} rows</summary>{body}</details>")
    if len(data.prefixes) > 20:
        parts.append(f"<p class='note'>… and {len(data.prefixes) - 20} more result sets: " +
                     ", ".join(esc(p) for p in data.prefixes[20:200]) + "</p>")
    return "\n".join(parts)


def find_path_pictures(inputs: list, extra: list) -> list:
    dirs = list(extra)
    for item in inputs:
        base = item if os.path.isdir(item) else os.path.dirname(os.path.abspath(item))
        dirs.append(os.path.join(base, "paths"))
        if os.path.isdir(item):  # a folder of sweep shards: its merged results' pictures too
            dirs.append(os.path.join(common.resolve_folder(item), "paths"))
    pics = []
    for d in dict.fromkeys(os.path.abspath(x) for x in dirs):
        pics.extend(sorted(glob.glob(os.path.join(d, "*.png"))))
    return pics


def paths_html(pics: list, out_dir: str) -> str:
    if not pics:
        return ("<p class='note'>No path pictures in the results folder's paths/ directory (draw them with "
                "scripts/pathviz.py --scen-index auto, see results/README.md).</p>")
    os.makedirs(os.path.join(out_dir, "paths"), exist_ok=True)
    groups = {}
    for p in pics:
        name = os.path.basename(p)
        shutil.copyfile(p, os.path.join(out_dir, "paths", name))
        m = re.match(r"paths_(.+)_(\d+)(?:_[a-z-]+)?\.png$", name)
        groups.setdefault(m.group(1) if m else "other", []).append((name, f"query {m.group(2)}" if m else name))
    out = ["<p>Per map a few queries (shortest, median, longest, worst gap when drawn with --scen-index auto); each "
           "panel one representation: its structure faint, the raw path dashed, smoothed paths solid. "
           "Click a picture to enlarge it.</p>"]
    for mp, names in groups.items():
        out.append(f"<h3>{esc(mp)}</h3><div class='thumbs'>" + "".join(
            f"<figure><img src='paths/{esc(n)}' alt='{esc(n)}' title='{esc(n)}: click to enlarge'>"
            f"<figcaption>{esc(mp)}, {esc(c)} <a href='paths/{esc(n)}'>full size</a></figcaption></figure>"
            for n, c in sorted(names, key=lambda x: (len(x[1]), x[1]))) + "</div>")
    return "\n".join(out)


def write_report(a: Analysis, inputs: list, out_dir: str, title: str, compare=None, path_dirs=()) -> str:
    import plotly.offline
    os.makedirs(os.path.join(out_dir, "figures"), exist_ok=True)
    with open(os.path.join(out_dir, "plotly.min.js"), "w", encoding="utf-8") as f:
        f.write(plotly.offline.get_plotlyjs())
    rows = a.rows
    n_maps = rows["map"].nunique() if len(rows) else 0
    n_colls = rows["collection"].nunique() if len(rows) else 0
    generated = datetime.datetime.now().astimezone().strftime("%Y-%m-%d %H:%M %Z")
    nav = ["<a href='#answer-all'>Answer</a>"] + [f"<a href='#answer-{s.slug}'>{esc(s.name)}</a>" for s in a.scopes[1:]]
    nav += ["<a href='#compare'>Compare</a>"] if compare else []
    nav += ["<a href='#cost'>Cost vs work</a>", "<a href='#dist'>Distributions</a>"]
    nav += [f"<a href='#{sec}'>{name}</a>" for sec, name in OPTIONAL_SECTIONS.items() if any(s == sec for s, _, _ in a.figures)]
    nav += ["<a href='#paths'>Paths</a>",
            "<a href='#missing'>Missing data</a>", "<a href='#meta'>Config</a>"]
    parts = ["<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>",
             f"<title>{esc(title)}</title><style>{CSS}</style><script src='plotly.min.js'></script></head><body>",
             f"<h1>{esc(title)}</h1>",
             f"<p class='lead'>{len(rows):,} query rows · {rows['config'].nunique() if len(rows) else 0} configurations · "
             f"{n_maps} maps in {n_colls} collection(s) · generated {esc(generated)}. Intervals are 95 % bootstrap "
             f"intervals ({stats.N_BOOT} resamples, seed {a.seed}); n = queries (maps for build and memory) behind each value."
             + drawn_note(a) + "</p>",
             "<nav>" + "".join(nav) + "</nav>"]
    static = plots.save_static_all(a.all_figures(), os.path.join(out_dir, "figures"))
    summaries = []
    for i, sc in enumerate(a.scopes):
        parts.append(f"<section id='answer-{sc.slug}'><h2>{'The answer: ' if i == 0 else 'Collection '}{esc(sc.name)}"
                     f"</h2><ul class='answer'>" + "".join(f"<li>{x}</li>" for x in sc.answer) + "</ul>")
        if sc.pareto is not None:
            parts.append(figure_html(sc.pareto, static[sc.pareto.stem]))
        if sc.budget_fig is not None:
            parts.append(figure_html(sc.budget_fig, static[sc.budget_fig.stem]))
        if len(sc.table):
            table = ranked_table_html(sc.table, sc.slug)
            cap = ("<p>Ranked by Pareto layer (1 = on the front), then by median query time; one table per "
                   "heuristic/convention when several ran. Values over applicable "
                   "queries; times and gaps over solved ones; build and memory: mean over maps. ★ best per column. "
                   "Small print: 95 % interval and n.</p>")
            if sc.unapplicable:
                cap += f"<p class='note'>Not applicable here: {esc(', '.join(sc.unapplicable))}.</p>"
            ver = ("<ul class='verdicts'>" + "".join(
                f"<li class='{'' if verdict_significant(v) else 'nodiff'}'>{esc(v['text'])}</li>"
                for v in sc.verdicts) + "</ul>") if sc.verdicts else "<p class='note'>No pairs to compare.</p>"
            ver_head = ("<h3>Paired verdicts</h3><p>Neighbours on the Pareto front and the two fastest configurations, on "
                        "the queries both solved: Wilcoxon signed-rank test, p-values Holm-corrected over this list; "
                        "a difference is claimed only when the test rejects at 5 % and the effect's 95 % interval "
                        "agrees. Time effects are typical per-query ratios (median of log ratios).</p>")
            if i == 0:
                parts.append(f"<h3 id='table-{sc.slug}'>Ranked table</h3>" + cap + table + ver_head + ver)
            else:
                parts.append(f"<details id='table-{sc.slug}'><summary>Ranked table and verdicts</summary>" + cap + table +
                             ver_head + ver + "</details>")
            summaries.append(sc.table)
        parts.append("</section>")
    if compare:
        chtml, _, cfig = compare
        parts.append(chtml)
        if cfig is not None:
            parts.append(figure_html(cfig, plots.save_static(cfig, os.path.join(out_dir, "figures"))))
        parts.append("</section>")
    for sec, title_ in (("cost", "Cost as the work grows"), ("dist", "Distributions"),
                        ("dynamic", "Changing maps"), ("threads", "Many agents"), ("radius", "Agents with a radius"),
                        ("quality", "Path quality"), ("terrain", "Terrain costs")):
        figs = [(f, extra) for s, f, extra in a.figures if s == sec]
        if sec in OPTIONAL_SECTIONS and not figs:
            continue  # only runs that have them (dynamic scenarios, thread scaling)
        parts.append(f"<section id='{sec}'><h2>{title_}</h2>")
        if not figs:
            parts.append("<p class='note'>Nothing to draw (see Missing data).</p>")
        for f, extra in figs:
            parts.append(figure_html(f, static[f.stem], extra) if f is not None else extra)
        parts.append("</section>")
    parts.append("<section id='paths'><h2>Path pictures</h2>" + paths_html(find_path_pictures(inputs, list(path_dirs)), out_dir)
                 + "</section>")
    parts.append("<section id='missing'><h2>Missing data</h2>" + (missing_html(a) if len(rows) else "<p>No rows.</p>")
                 + "</section>")
    parts.append("<section id='meta'><h2>Config and metadata</h2>" + meta_html(a.data) + "</section>")
    parts.append("<div id='lightbox'><img alt='enlarged path picture'></div>")
    parts.append(f"<script>{JS}</script></body></html>")
    page = "\n".join(parts)
    with open(os.path.join(out_dir, "report.html"), "w", encoding="utf-8") as f:
        f.write(page)
    if summaries:
        summary = pd.concat(summaries, ignore_index=True)
        for c in [c for c in summary.columns if c.endswith("_n")]:
            summary[c] = summary[c].fillna(0).astype(int)
        summary.to_csv(os.path.join(out_dir, "summary.csv"), index=False)
    budgets = [b for sc in a.scopes for b in sc.budgets]
    pd.DataFrame(budgets, columns=["scope", "facet", "kind", "column", "budget", "budget_text", "configurations", "of",
                                   "front"]).to_csv(os.path.join(out_dir, "budgets.csv"), index=False)
    if a.update_summary is not None and len(a.update_summary):
        a.update_summary.to_csv(os.path.join(out_dir, "update_summary.csv"), index=False)
    return page


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("results", nargs="+", help="result-set PREFIX, PREFIX.csv or directory (run A)")
    ap.add_argument("--out", required=True, help="output folder (created)")
    ap.add_argument("--compare", nargs="+", metavar="RESULTS_B", help="a second run: ratios of medians B / A")
    ap.add_argument("--title", default="navbench report")
    ap.add_argument("--seed", type=int, default=1, help="bootstrap seed (default 1)")
    ap.add_argument("--boot", type=int, default=stats.N_BOOT,
                    help=f"bootstrap resamples per interval (default {stats.N_BOOT}; fewer is faster, coarser)")
    ap.add_argument("--maps", action="append", default=[], help="map file or folder, to read map sizes (repeatable)")
    ap.add_argument("--paths-dir", action="append", default=[], help="folder of path pictures (default RESULTS/paths)")
    ap.add_argument("--dynamic", nargs="+", default=[], metavar="RESULTS_DYN",
                    help="result sets of dynamic runs (run --dynamic, with PREFIX.updates.csv): shown in "
                         "'Changing maps' only, not mixed into the answer")
    ap.add_argument("--threads", nargs="+", default=[], metavar="DIR",
                    help="folders holding a threads.csv of scripts/thread-scaling (a results folder's own is found)")
    args = ap.parse_args()
    if args.boot < 100:
        raise common.InputError("--boot: use at least 100 resamples")
    stats.N_BOOT = args.boot
    data = load(args.results)
    extra = []
    # A sweep folder's dynamic scenarios (OUT/dynamic/, docs/changing-maps.md) go to "Changing maps" by themselves.
    folders = [common.resolve_folder(r) for r in args.results if os.path.isdir(r)]
    dyn = list(args.dynamic) + [os.path.join(r, "dynamic") for r in folders
                                if os.path.isfile(os.path.join(r, "sweep.json"))
                                and os.path.isfile(os.path.join(r, "dynamic", "results.csv"))]
    if dyn:
        extra.append(load(dyn))
    for d in args.threads:
        if not os.path.isfile(os.path.join(d, "threads.csv")):
            raise common.InputError(f"{d}: holds no threads.csv (write one with scripts/thread-scaling --out {d})")
        extra.append(common.ResultData(rows=pd.DataFrame(), build=pd.DataFrame(),
                                       threads=common.read_threads_csv(os.path.join(d, "threads.csv"))))
    a = analyse(data, seed=args.seed, map_dirs=args.maps, dynamic=extra)
    compare = None
    if args.compare:
        b = analyse(load(args.compare), seed=args.seed, map_dirs=args.maps)
        compare = compare_section(a, b, " ".join(args.results), " ".join(args.compare), args.seed)
    page = write_report(a, args.results, args.out, args.title, compare, args.paths_dir)
    print(f"report.py: wrote {os.path.join(args.out, 'report.html')} ({len(page) // 1024} KiB), figures/, summary.csv")
    return 0


if __name__ == "__main__":
    common.run_main("report.py", main)
