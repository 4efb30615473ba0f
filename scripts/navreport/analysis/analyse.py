"""The analysis behind the report: per scope (all maps, each collection) the ranked table
(estimates, seeded 95 % bootstrap intervals and n per metric), the Pareto layers, the paired
verdicts and the budget answers; and, for the sections that need them, the weighted maps' costs
(analysis/terrain.py) and the changing maps' update summary (analysis/updates.py). Numbers only:
nothing here draws or writes HTML.

At scale: configurations and scopes are located by integer codes rather than by filtering the
rows; a sample of up to stats.EXACT_ROWS queries is resampled row by row, a larger one draws each
resample's statistic from its distribution (stats.drawn_stats), so that cost does not grow with
the rows.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from navbench import candidates, stats
from navbench.summarize import realtime_medians, row_arrays, summarize_groups
from navreport.analysis import budget, terrain, updates
from navreport.analysis.fmt import slug, verdict_text
from navreport.analysis.rows import (METRICS, build_per_map, config_order, facet_order, paired_values, plain, prepare,
                                     raw_terrain, uniques)
from navreport.io import results as common, workers

# What a scope (all maps, one collection) reads of the rows.
SCOPE_COLUMNS = ["map", "representation", "smoothing", "facet", "config", "status", "valid", "query_us", "gap", "qid",
                 "query", "has_path", "first_move_us", "first20_us", "max_step_us"]
MAX_VERDICT_PAIRS = 12
REALTIME_MEDIANS = ("first_move_median", "first20_median", "max_step_median")


@dataclass
class Scope:
    name: str          # "all maps" or a collection
    slug: str
    rows: object
    table: object = None      # DataFrame: one row per configuration with estimates, intervals, n
    verdicts: list = field(default_factory=list)
    budgets: list = field(default_factory=list)  # the budget answers (budget.budget_answers)
    unapplicable: list = field(default_factory=list)  # (representation, search/smoothing, facet) that never apply
    candidates: object = None  # candidates.summarise of the scope (table's columns is_candidate, reason, ...)
    queries: int = 0          # distinct queries (map, query, convention, terrain) and maps of the scope
    maps: int = 0


@dataclass
class Analysis:
    data: object
    rows: object
    keys: list
    facet_keys: list
    seed: int
    scopes: list = field(default_factory=list)
    skipped: list = field(default_factory=list)     # (stem, reason): figures not drawn, said under Missing data
    reps: list = field(default_factory=list)        # representations in the order the run listed them
    free_cells: dict = field(default_factory=dict)
    terrain: object = None                          # terrain.TerrainCosts of the weighted maps, or None
    update_rows: object = None                      # one row per update of the changing maps (updates.py)
    update_summary: object = None                   # per scenario x representation (changing maps)
    dynamic: list = field(default_factory=list)     # ResultData of --dynamic inputs (their own section only)
    widening: candidates.Widening = candidates.Widening()  # how far the reader widened the candidates
    absent: object = None                           # candidates.absent_table: why a map has no rows of a representation


def _run_bootstraps(fn, tasks):
    """The bootstraps of a ranked table (navbench.summarize.summarize_groups' runner): samples small
    enough to be resampled row by row go to the process pool; the larger ones' statistics are drawn
    (stats.drawn_stats), quick enough here, where no copy must be sent."""
    small = [len(t[0]["solved"]) <= stats.EXACT_ROWS for t in tasks]
    pooled = iter(_pool_map(fn, [t for t, s in zip(tasks, small) if s]))
    return [next(pooled) if s else fn(t) for t, s in zip(tasks, small)]


def _pool_map(fn, tasks):
    """fn over tasks on one process per core (the report's workers, navreport/io/workers.py); the
    bootstraps are half of the analysis' time. Each task carries its own seed: same results."""
    jobs = min(os.cpu_count() or 1, len(tasks))
    return workers.pool_map(fn, tasks, chunksize=max(1, len(tasks) // (4 * max(1, jobs))))


def config_positions(rows) -> dict:
    """config -> positions of its rows (ascending: the rows' order) in rows."""
    if not len(rows):
        return {}
    codes = rows["config"].cat.codes.to_numpy()
    order = np.argsort(codes, kind="stable")
    bounds = np.searchsorted(codes[order], np.arange(len(rows["config"].cat.categories) + 1))
    cats = rows["config"].cat.categories
    return {cats[k]: order[bounds[k]:bounds[k + 1]] for k in range(len(cats)) if bounds[k + 1] > bounds[k]}


def config_table(scope_rows, build, seed: int, scope_name: str, widening=candidates.Widening(), absent=None):
    """The ranked table of one scope: estimates, 95 % bootstrap intervals and n per metric, by the
    row rules and statistics of the results package (navbench.summarize.summarize_groups, the code
    behind navbench.summarize: one group per configuration, seeded by scope and configuration),
    each configuration's candidate columns (navbench.candidates.summarise; absent: why a map has no
    rows of a representation, candidates.absent_table) and its Pareto layer among the candidates of
    its facet (0: not a candidate, or no time or gap); candidates first."""
    # Runs over several radii (a facet): each radius's builds count for its own configurations.
    by_radius = (build is not None and "radius" in build.columns and "radius" in scope_rows.columns and
                 isinstance(scope_rows["radius"].dtype, pd.CategoricalDtype) and
                 all(str(c).startswith("r=") for c in scope_rows["radius"].cat.categories))
    per_map = build_per_map(build, uniques(scope_rows["representation"]), uniques(scope_rows["map"]), by_radius)
    where = config_positions(scope_rows)
    groups = []
    for cfg in config_order(scope_rows):
        pos = where[cfg]
        first = {c: scope_rows[c].iat[pos[0]] for c in ("representation", "smoothing", "facet")}
        b = per_map[per_map["representation"] == first["representation"]]
        if by_radius:
            b = b[b["radius"] == scope_rows["radius"].iat[pos[0]]]
        if "terrain" in per_map.columns:  # the builds of this configuration's own maps, plain or weighted
            b = b[b["terrain"] == (raw_terrain(scope_rows["terrain"].iat[pos[0]]) if "terrain" in scope_rows.columns else "")]
        groups.append(({"scope": scope_name, "config": cfg, **first}, pos, stats.seed_for(seed, scope_name, cfg),
                       (b["build_ms"].to_numpy(float), b["memory_bytes"].to_numpy(float)),
                       stats.seed_for(seed, scope_name, cfg, "build")))
    arrays = row_arrays(scope_rows)
    t = pd.DataFrame(summarize_groups(arrays, groups, run_tasks=_run_bootstraps))
    if "time_median" not in t.columns:
        for k, *_ in METRICS:
            t[k] = np.nan
    # The real-time medians (SPEC §15; the section "First move"), over the rows of the time median.
    medians = [realtime_medians(arrays, pos) for _, pos, *_ in groups]
    for k in REALTIME_MEDIANS:
        t[k] = [m[k] for m in medians] if len(t) else []
    cand = candidates.summarise(scope_rows, "config", widening, has_path=arrays["has_path"], absent=absent)
    t = t.merge(cand.drop(columns="applicable").assign(config=cand["config"].astype(str)), on="config", how="left")
    t["is_candidate"] = t["is_candidate"].fillna(False).astype(bool)
    return rank_candidates(t)


def rank_candidates(t):
    """Pareto layers per facet over the candidates only (SPEC §14: fronts and rankings consider
    candidates; the others get layer 0, as a configuration without a time or a gap), then the
    table's order: candidates by layer and median time, the unranked ones, the non-candidates."""
    t["layer"] = 0
    for facet, sub in t[t["is_candidate"]].groupby("facet", sort=False):
        layers = stats.pareto_layers(list(zip(sub["time_median"], sub["gap_mean"])))
        t.loc[sub.index, "layer"] = layers
    t["_order"] = np.where(~t["is_candidate"], 2, np.where(t["layer"] == 0, 1, 0))
    t = t.sort_values(["_order", "layer", "time_median"], kind="stable").drop(columns="_order")
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


def analyse(data: common.ResultData, seed: int = 1, dynamic=(), widening=candidates.Widening(),
            subset: str = "all maps") -> Analysis:
    """The scopes' ranked tables, verdicts and budgets, and the numbers of the weighted maps and of
    the changing maps; data.rows gains the columns prepare() adds and has_path (whether the row's
    query has a path, candidates.path_exists). widening: how far the reader widens the candidates.
    subset: the name of the first scope (every row), 'all maps' or the subset the rows were cut to
    (common.apply_subset)."""
    rows, keys, facet_keys = prepare(data)
    rows["has_path"] = candidates.path_exists(rows)
    # Why a configuration has no rows on a map: the result sets' records (PREFIX.unrun.csv), and for
    # sets written before them what their sweep config and rows say (candidates.absent_table).
    absent = candidates.absent_table(rows, data.unrun, data.meta, recorded=data.unrun_sets)
    legacy = [p for p in data.prefixes if p not in data.unrun_sets]
    if legacy and len(rows):
        data.notes.append(f"{len(legacy)} result set(s) without PREFIX.unrun.csv (written before navbench recorded why a "
                          "representation has no rows on a map): maps its sweep config skips count as not run, the "
                          "other maps without rows as refused by the build (docs/results.md#maps-not-run)")
    for d in [data] + list(dynamic):  # the small tables: plain text
        d.build, d.updates, d.threads = plain(d.build), plain(d.updates), plain(d.threads)
    a = Analysis(data=data, rows=rows, keys=keys, facet_keys=facet_keys, seed=seed, dynamic=list(dynamic),
                 widening=widening, absent=absent)
    a.reps = common.ordered_unique(rows["representation"]) if len(rows) else []
    if rows.empty:
        a.skipped.append(("all", "no result rows"))
    else:
        colls = sorted(uniques(rows["collection"]))
        names = [subset] + (colls if len(colls) > 1 else [])
        for k, name in enumerate(names):
            # A collection's rows are taken (only the columns its table needs) when it is analysed
            # and let go after: the scopes never hold the rows twice at once.
            r = rows if k == 0 else common.take_rows(rows, (rows["collection"] == name).to_numpy(bool),
                                                     SCOPE_COLUMNS + (["terrain"] if "terrain" in rows.columns else []))
            name = name if k == 0 else (name or "(no collection)")
            sc = Scope(name=name, slug="all" if k == 0 else slug(name), rows=r)
            sc.table = config_table(r, data.build, seed, name, widening, absent)
            na = sc.table.loc[sc.table["applicable"] == 0]
            sc.unapplicable = list(zip(na["representation"].astype(str), na["smoothing"].astype(str), na["facet"].astype(str)))
            sc.table = sc.table[sc.table["applicable"] > 0].reset_index(drop=True)
            sc.table["rank"] = sc.table.groupby("facet", sort=False).cumcount() + 1
            sc.verdicts = verdicts(r, sc.table, seed, name) if len(sc.table) else []
            sc.budgets = budget.budget_answers(sc.table, name)
            sc.queries = int(np.count_nonzero(np.bincount(r["query"].to_numpy()))) if len(r) else 0
            sc.maps = r["map"].nunique()
            sc.rows = None
            a.scopes.append(sc)
        a.terrain = terrain.terrain_costs(a, seed)
    a.update_rows = updates.update_rows(a)
    if a.update_rows is not None:
        a.update_summary = updates.update_summary(a, a.update_rows)
    return a
