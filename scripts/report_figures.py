"""The report's figures after the first screen (report.py): cost as the work grows, build cost per
map, ECDFs, and the optional sections (changing maps, many agents, agents with a radius)."""
from __future__ import annotations

from typing import TYPE_CHECKING

import glob
import math
import os

import numpy as np
import pandas as pd

import common
import mapfiles
import plots
import stats
from plots import Figure, Panel, Series
from report_format import ci_cell, esc, f_bytes, f_gap, f_pct, f_sig, finite
from report_rows import SMOOTH_RANK, build_per_map, combined_text, companion_rows, plain, primary_rows, rep_colours, series_chunks, uniques

if TYPE_CHECKING:  # annotations only: report.py holds Analysis and imports this module
    from report import Analysis

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
                gm = mapfiles.read_map(f)
                if isinstance(gm, mapfiles.GridMap):
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
