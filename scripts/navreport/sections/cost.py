"""Section "Cost as the work grows": query time and A* expansions against the optimal length
(binned medians with interquartile bands), build time and memory against the map size in free
cells (log-log, with the fitted exponent and its 95 % interval per representation), and the median
query time against the map size."""
from __future__ import annotations

import json
import os

import numpy as np

from navbench import maps as mapfiles
from navbench import stats
from navreport.analysis.fmt import esc, f_bytes, f_sig
from navreport.analysis.rows import SMOOTH_RANK, build_per_map, primary_rows, uniques
from navreport.io import results as common
from navreport.figures.draw import Figure, Panel, Series, run_colours, series_chunks
from navreport.sections.base import Block, Section, nothing_to_draw



def build(ctx) -> list:
    a, blocks = ctx.analysis, []
    if len(a.rows):
        cost_figures(a, blocks)
        files = mapfiles.find_map_files(a.data.meta, list(ctx.map_dirs))
        build_figure(a, files, blocks)
        time_size_figure(a, files, blocks)
        # The record's growth figure where the results hold a polygon map (it is not of this run).
        if any(files.get(m, "").endswith((".wkt", ".mesh", ".poly")) for m in uniques(a.rows["map"])):
            polygon_growth_figure(blocks)
    return [nothing_to_draw(Section(id="cost", title="Cost as the work grows", nav="Cost vs work", blocks=blocks))]


# The polygon code's growth on seeded polygon maps (issue 64): a measurement record, not this run.
GROWTH_RECORD = os.path.join(mapfiles.ROOT, "docs", "measurements", "18-polygon-maps.json")  # the repository's
GROWTH_PARTS = {"free_space": "free space (overlay, rings, triangulation)", "visgraph": "visgraph build",
                "navmesh": "navmesh build", "visgraph_grid": "visgraph build on grid maps (x: ring vertices)"}


def polygon_growth_figure(blocks: list, path: str = GROWTH_RECORD):
    """Build time against polygon vertices from the record's growth table (log-log, fitted exponents)."""
    try:
        with open(path, encoding="utf-8") as f:
            rec = json.load(f)
    except (OSError, ValueError):
        return
    tables = {t.get("caption", "").split(":")[0]: t for t in rec.get("tables", [])}
    growth, fits = tables.get("Growth"), tables.get("Fitted exponents (time = a n^b, least squares on log-log, 95 % interval)")
    if not growth:
        return
    cols = growth["columns"]
    part_i, n_i, ms_i = cols.index("part"), cols.index("vertices"), cols.index("cpu ms")
    slopes = {r["cells"][0]: r["cells"][1] + " [" + r["cells"][2] + "]" for r in (fits or {}).get("rows", [])}
    p = Panel(title="build CPU time against polygon vertices", xlabel="vertices (log)", ylabel="CPU ms (log)",
              xlog=True, ylog=True)
    for k, part in enumerate(GROWTH_PARTS):
        rows = [r["cells"] for r in growth["rows"] if r["cells"][part_i] == part]
        if not rows:
            continue
        x, y = [float(r[n_i]) for r in rows], [float(r[ms_i]) for r in rows]
        name = f"{GROWTH_PARTS[part]}: n^{slopes[part]}" if part in slopes else GROWTH_PARTS[part]
        p.series.append(Series(name=name, x=np.array(x), y=np.array(y), kind="lines", marker="circle",
                               color=["#1f77b4", "#d62728", "#2ca02c", "#7f7f7f"][k % 4],
                               dash="dash" if part == "visgraph_grid" else None,
                               hover=[f"{esc(part)}: {v:,.0f} vertices, {f_sig(t)} ms" for v, t in zip(x, y)]))
    if p.series:
        blocks.append(Block(Figure(
            stem="polygon_growth", title="Polygon maps: how the build grows",
            caption="From docs/measurements/18-polygon-maps.json (scripts/polygon_growth.py, not this run): CPU time of "
                    "one build on seeded polygon maps of 10^3 to 10^6 vertices, and of visgraph on generated grid maps "
                    "against their free space's ring vertices; the legend gives each fitted exponent [95 % interval]. "
                    "Measured under load: the slopes hold, the milliseconds are indicative.",
            panels=[p], ncols=1, panel_h=360, legend_title="part"), ""))


def cost_figures(analysis, blocks: list):
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
        blocks.append(Block(Figure(
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
        blocks.append(Block(Figure(
            stem="cost_expansions_vs_length", title="Search effort as the path gets longer",
            caption=f"{note}binned medians and interquartile bands of A* node expansions (smoothing {sm} rows; "
                    "the search is the same for every smoothing mode).",
            panels=panels, ncols=1 if len(panels) == 1 else 2, panel_h=380, legend_title="representation"), ""))


def time_size_figure(analysis, map_files: dict, blocks: list):
    """Median query time per map against its free cells, per representation (its first smoothing
    mode, A*'s 'none' where it ran, on the first facet: plain maps), log-log with the fitted line."""
    rows, facet = primary_rows(analysis, ["representation", "smoothing", "status", "map", "query_us"])
    ok = common.take_rows(rows, ((rows["status"] == "ok") & (rows["query_us"] > 0)).to_numpy(bool))
    if ok.empty:
        analysis.skipped.append(("time_vs_size", "no solved query with a time"))
        return
    fc = getattr(analysis, "free_cells", None) or mapfiles.free_cells(
        map_files, analysis.data.build, sorted(uniques(ok["map"])), analysis.data.notes)
    sm = sorted(uniques(ok["smoothing"]), key=lambda s: (SMOOTH_RANK.get(s, 3), s))[0]
    ok = common.take_rows(ok, (ok["smoothing"] == sm).to_numpy(bool))
    med = (ok.assign(map=ok["map"].astype(str), representation=ok["representation"].astype(str))
           .groupby(["representation", "map"], observed=True)["query_us"].agg(["median", "size"]).reset_index())
    med = med.assign(cells=med["map"].map(fc)).dropna(subset=["cells"])
    if med.empty:
        analysis.skipped.append(("time_vs_size", "map sizes unknown (map files not found; use --map-files)"))
        return
    reps = [r for r in common.ordered_unique(analysis.rows["representation"]) if r in set(med["representation"])]
    panels = []
    for chunk in series_chunks(reps):
        p = Panel(title=f"smoothing {sm}" + (f" — {facet}" if facet else ""), xlabel="map size (free cells, log)",
                  ylabel="median query time (µs, log)", xlog=True, ylog=True)
        for rep in chunk:
            g = med[med["representation"] == rep].sort_values("cells")
            colour = run_colours(analysis).get(rep, "#333")
            p.series.append(Series(name=rep, x=g["cells"].to_numpy(float), y=g["median"].to_numpy(float), color=colour,
                                   size=8, hover=[f"<b>{esc(rep)}</b><br>map {esc(m)}<br>{c:,.0f} free cells<br>median "
                                                  f"query time {f_sig(v)} µs over {n} solved queries"
                                                  for m, c, v, n in zip(g["map"], g["cells"], g["median"], g["size"])]))
            fit = stats.loglog_fit(g["cells"], g["median"])
            if fit is not None:
                xs = np.geomspace(g["cells"].min(), g["cells"].max(), 20)
                p.series.append(Series(name=rep, x=xs, y=10 ** fit["intercept"] * xs ** fit["slope"], kind="lines",
                                       color=colour, dash="dash", width=1.5, legend=False,
                                       hover=[f"{esc(rep)}: slope {fit['slope']:.2f}"] * len(xs)))
        if p.series:
            panels.append(p)
    blocks.append(Block(Figure(
        stem="time_vs_size", title="Query time as maps grow",
        caption=f"One point per map × representation: the median query time (locate + search + smooth) of its solved "
                f"queries, smoothing {sm}{', ' + facet if facet else ''}, against the map's free cells; dashed: the "
                "least-squares line in log-log space (its slope: how the typical query's time grows with the map; the "
                "maps also differ in their queries' lengths, see the query time against the path length above).",
        panels=panels, ncols=1 if len(panels) == 1 else 2, panel_h=380, legend_title="representation"), ""))


def binned_series(rep, x, y, analysis, unit, smoothing):
    b = stats.binned_quartiles(x.to_numpy(float), y.to_numpy(float))
    if not b:
        return None
    c, q25, q50, q75, n = (np.array(v) for v in zip(*b))
    hover = [f"<b>{esc(rep)}</b> · {esc(smoothing)}<br>optimal length ≈ {ci:.1f}<br>median {f_sig(m)} {unit}"
             f"<br>IQR [{f_sig(a)}, {f_sig(bq)}]<br>{k} queries" for ci, a, m, bq, k in zip(c, q25, q50, q75, n)]
    return Series(name=rep, x=c, y=q50, kind="lines", color=run_colours(analysis).get(rep, "#333"),
                  band=(q25, q75), hover=hover)


def build_figure(analysis, map_files: dict, blocks: list):
    b = build_per_map(analysis.data.build, uniques(analysis.rows["representation"]), uniques(analysis.rows["map"]))
    if b.empty:
        analysis.skipped.append(("build_vs_size", "no build rows (PREFIX.build.csv missing or empty)"))
        return
    fc = mapfiles.free_cells(map_files, analysis.data.build, sorted(set(b["map"])), analysis.data.notes)
    analysis.free_cells = fc
    b = b.assign(cells=b["map"].map(fc)).dropna(subset=["cells"])
    if b.empty:
        analysis.skipped.append(("build_vs_size", "map sizes unknown (map files not found; use --map-files)"))
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
                colour = run_colours(analysis).get(rep, "#333")
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
        rows_html.append(f"<tr><td>{esc(common.rep_label(rep))}</td>{''.join(cells)}</tr>")
    extra = ("<table class='slopes'><thead><tr><th>representation</th><th>build time ∝ cells^slope [95 % CI]</th>"
             "<th>memory ∝ cells^slope [95 % CI]</th></tr></thead><tbody>" + "".join(rows_html) + "</tbody></table>")
    blocks.append(Block(Figure(
        stem="build_vs_size", title="Build time and memory as maps grow",
        caption="One point per map × representation (mean over the runs that built it); dashed: least-squares "
                "line in log-log space, its slope is the exponent of the growth (1 = linear in the free cells).",
        panels=panels, ncols=2, panel_h=380, legend_title="representation"), extra))
