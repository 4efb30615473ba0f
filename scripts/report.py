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
import os
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
from report_figures import build_figure, cost_figures, ecdf_figures, find_map_files, radius_figures, thread_figures, update_figures  # noqa: E402
from report_format import esc, f_bytes, f_gap, f_pct, f_sig, finite, slug, verdict_text  # noqa: E402
from report_html import write_report  # noqa: E402
from report_rows import METRICS, PAIR_COLUMNS, SMOOTH_RANK, build_per_map, config_order, facet_order, is_terrain_facet, load, pair_frame, paired_values, plain, prepare, raw_terrain, rep_colours, series_chunks, uniques  # noqa: E402

# What a scope (all maps, one collection) reads of the rows.
SCOPE_COLUMNS = ["map", "representation", "smoothing", "facet", "config", "status", "valid", "query_us", "gap", "qid",
                 "query"]
MAX_VERDICT_PAIRS = 12


# The rows, formats, figures and page live in report_rows.py, report_format.py, report_figures.py
# and report_html.py; this file holds the analysis (scopes, ranked tables, verdicts, the first
# screen's answer), the comparison of two runs, and the command line.
report_budget.FORMATS.update({"bytes": f_bytes, "ms": f_sig})  # budgets read as the ranked table's cells


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
