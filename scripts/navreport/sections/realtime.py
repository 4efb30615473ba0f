"""Section "First move": the real-time figures a game's agents need (SPEC §15,
docs/results.md#real-time-columns) against what they cost, per scope (every map, each
collection): per planner configuration the median first move (`first_move_us`: locate and the
calls until the first segment of the path is known), the median first 20 moves and the median
worst step (`max_step_us`: the longest single call), against build time and memory per map; the
fronts computed on them as on query time (the Pareto front of the candidates per facet: nothing
both quicker to its first move, or its worst step, and cheaper to build, or smaller). A planner
that hands its path out in pieces (the capability `pieces`: cpd, subgoal, an entry whose GetPath
returns before the path is done) has a first move below its query time; one that answers in one
call has all three equal to its query time. The columns are the planner's: the same whatever the
smoothing, so one configuration per planner (its unsmoothed rows). Result sets written before the
columns have none: the section says so."""
from __future__ import annotations

import numpy as np
import pandas as pd

from navbench import stats
from navreport.analysis.budget import fmt_value
from navreport.analysis.fmt import esc, f_pct, f_sig
from navreport.analysis.rows import facet_order
from navreport.figures.draw import Figure, Panel, Series, run_colours, smoothing_marker
from navreport.sections.base import Block, Section

# (column of the scope's table, what it is, its unit): the figures (y) and the costs (x).
FIGURES = [("first_move_median", "first move", "µs"), ("max_step_median", "worst step", "µs")]
COSTS = [("build_ms", "build time", "ms"), ("memory", "memory", "bytes")]
NO_COLUMNS = ("<p class='note'>No real-time figures: the result sets hold no <code>first_move_us</code> column "
              "(written before navbench measured it, docs/results.md#real-time-columns).</p>")


def unsmoothed(label: str) -> bool:
    """A search and smoothing label without a smoother (none, theta, lazy-theta, detour): the
    planner's own path, which the real-time columns are about."""
    return "los" not in str(label) and "funnel" not in str(label)


def planner_rows(t) -> pd.DataFrame:
    """A scope's configurations with real-time figures, one per planner: its unsmoothed rows (a
    planner run only with a smoother: its first row), with a first move."""
    if not len(t) or "first_move_median" not in t.columns:
        return t.iloc[0:0] if len(t) else pd.DataFrame()
    t = t[np.isfinite(t["first_move_median"].to_numpy(float))]
    if not len(t):
        return t
    keep = np.array([unsmoothed(s) for s in t["smoothing"]], dtype=bool)
    have = set(t.loc[keep, "representation"].astype(str) + "\x1f" + t.loc[keep, "facet"].astype(str))
    first = ~(t["representation"].astype(str) + "\x1f" + t["facet"].astype(str)).duplicated()
    alone = [(r + "\x1f" + f) not in have for r, f in zip(t["representation"].astype(str), t["facet"].astype(str))]
    return t[keep | (first.to_numpy() & np.array(alone, dtype=bool))].copy()


def with_fronts(t) -> pd.DataFrame:
    """t with a front mark per (figure, cost): on_<figure>_<cost> True for the candidates on the
    Pareto front of that pair within their facet (both minimised; stats.pareto_layers, as the
    time/gap front is made)."""
    for y, _, _ in FIGURES:
        for x, _, _ in COSTS:
            mark = np.zeros(len(t), dtype=bool)
            for facet in pd.unique(t["facet"]):
                sub = np.flatnonzero((t["facet"] == facet).to_numpy() & t["is_candidate"].to_numpy(bool))
                layers = stats.pareto_layers(list(zip(t[x].to_numpy(float)[sub], t[y].to_numpy(float)[sub])))
                mark[sub[np.array(layers) == 1]] = True
            t[f"on_{y}_{x}"] = mark
    return t


def figure(scope, t, colours) -> Figure | None:
    """Four panels: first move and worst step against build time and memory per map, the first
    facet's configurations (a collection's other facets are in its table), each front a staircase."""
    facet = facet_order(t["facet"])[0]
    t = t[t["facet"] == facet]
    panels = []
    for y, yname, _ in FIGURES:
        for x, xname, xunit in COSTS:
            sub = t[np.isfinite(t[x].to_numpy(float)) & (t[x].to_numpy(float) > 0)]
            if not len(sub):
                continue
            scale = 2.0 ** -20 if xunit == "bytes" else 1.0
            p = Panel(title=f"{yname} vs {xname}" + (f" — {facet}" if facet else ""),
                      xlabel=("memory per map (MiB, log)" if xunit == "bytes" else "build time per map (ms, log)"),
                      ylabel=f"median {yname} (µs, log)", xlog=True, ylog=True)
            front = sub[sub[f"on_{y}_{x}"]].sort_values(x)
            if len(front) > 1:
                p.series.append(Series(name="front", x=(scale * front[x].to_numpy(float)).tolist(),
                                       y=front[y].tolist(), kind="step", color="#555555", dash="dash", width=1.5,
                                       legend=False))
            for rep in [r for r in colours if r in set(sub["representation"])]:
                for on in (False, True):  # the front's points drawn larger and named
                    g = sub[(sub["representation"] == rep) & (sub[f"on_{y}_{x}"] == on)]
                    if not len(g):
                        continue
                    hover = [f"<b>{esc(r['config'])}</b><br>median {yname} {f_sig(r[y])} µs (first 20 moves "
                             f"{f_sig(r['first20_median'])} µs, whole query {f_sig(r['time_median'])} µs)<br>{xname} "
                             f"{fmt_value(r[x], xunit)} per map" + ("<br><b>on the front</b>" if on else "")
                             + ("" if r["is_candidate"] else f"<br>not a candidate: {esc(r.get('reason', ''))}")
                             for _, r in g.iterrows()]
                    p.series.append(Series(name=rep, x=scale * g[x].to_numpy(float), y=g[y].to_numpy(float),
                                           color=colours.get(rep, "#333"), marker=[smoothing_marker(s) for s in g["smoothing"]],
                                           size=13 if on else 8, hover=hover, legend=False,
                                           labels=[str(r["representation"]) for _, r in g.iterrows()] if on else None))
            panels.append(p)
    for rep in [r for r in colours if r in set(t["representation"])]:
        if panels:
            panels[-1].series.append(Series(name=rep, x=[], y=[], color=colours[rep], marker="circle", size=10))
    if not panels:
        return None
    return Figure(stem=f"realtime_{scope.slug}", title=f"First move and worst step vs build and memory — {scope.name}",
                  caption="One point per planner configuration (its unsmoothed rows: the columns are the planner's). "
                          "Median over the solved queries of first_move_us (locate and the calls until the path's first "
                          "segment is known) and of max_step_us (the longest single call), against the mean build time "
                          "and memory per map. Large, named points and the dashed staircase: the Pareto front of the "
                          "candidates (SPEC §14). A planner that answers in one call has its whole query time here.",
                  panels=panels, ncols=2, panel_h=380)


def table_html(t) -> str:
    """One row per planner configuration: the three medians, the whole query, build and memory,
    and a mark per front (● on it)."""
    short = {"first move": "1st move", "worst step": "worst", "build time": "build", "memory": "memory"}
    heads = "".join(f"<th class='mark' title='on the front of {yn} and {xn}'>{short[yn]} × {short[xn]}</th>"
                    for _, yn, _ in FIGURES for _, xn, _ in COSTS)
    facets = t["facet"].astype(str).str.len().gt(0).any()  # one unnamed facet: no column
    # Not an answer-table (those are the answer's facet tables); its valid and solved shares beside
    # the times, as everywhere a configuration appears (SPEC §14).
    out = ["<table class='realtime'><tr><th>configuration</th>" + ("<th>facet</th>" if facets else "") +
           "<th class='num'>valid<span class='unit'>%</span></th><th class='num'>solved<span class='unit'>%</span></th>" +
           "<th class='num'>first move<span class='unit'>µs, median</span></th>"
           "<th class='num'>first 20 moves<span class='unit'>µs, median</span></th>"
           "<th class='num'>worst step<span class='unit'>µs, median</span></th>"
           "<th class='num'>whole query<span class='unit'>µs, median</span></th>"
           "<th class='num'>build<span class='unit'>per map</span></th><th class='num'>memory<span class='unit'>per map"
           f"</span></th>{heads}</tr>"]
    for _, r in t.sort_values(["facet", "first_move_median"], kind="stable").iterrows():
        marks = "".join(f"<td class='mark{' on' if r[f'on_{y}_{x}'] else ''}'>{'●' if r[f'on_{y}_{x}'] else ''}</td>"
                        for y, _, _ in FIGURES for x, _, _ in COSTS)
        cls = "" if r["is_candidate"] else " class='not-candidate'"
        title = "" if r["is_candidate"] else f" title='not a candidate: {esc(r.get('reason', ''))}'"
        facet = f"<td>{esc(r['facet'])}</td>" if facets else ""
        facet += "".join(f"<td class='num share{' warn' if np.isfinite(float(r.get(k, np.nan))) and r[k] < 1 else ''}'>"
                         f"{f_pct(r.get(k, np.nan))}</td>" for k in ("valid_share", "solved_share"))
        out.append(f"<tr{cls}{title}><td>{esc(r['config'])}</td>{facet}"
                   f"<td class='num'>{f_sig(r['first_move_median'])}</td><td class='num'>{f_sig(r['first20_median'])}</td>"
                   f"<td class='num'>{f_sig(r['max_step_median'])}</td><td class='num'>{f_sig(r['time_median'])}</td>"
                   f"<td class='num'>{fmt_value(r['build_ms'], 'ms')}</td><td class='num'>{fmt_value(r['memory'], 'bytes')}"
                   f"</td>{marks}</tr>")
    out.append("</table>")
    return "\n".join(out)


def build(ctx) -> list:
    a = ctx.analysis
    if not a.scopes:
        return []
    colours = run_colours(a)
    sec = Section(id="first-move", title="First move and worst step", nav="First move")
    intro = ("<p class='small'>When does an agent start moving, and how long can one call stall it? Per planner, the "
             "median first move (<code>first_move_us</code>: from the query's start, locate included, until the path's "
             "first segment is known), first 20 moves and worst step (<code>max_step_us</code>: the longest single call), "
             "as the competition's driver times its 20steps_cost and max_step_time (docs/results.md#real-time-columns), "
             "against build time and memory. ● marks the candidates on each front (first move or worst step against build "
             "time or memory, per facet); grey rows are not candidates (SPEC §14).</p>")
    shown = 0
    for k, sc in enumerate(a.scopes):
        t = planner_rows(sc.table)
        if not len(t):
            continue
        t = with_fronts(t)
        fig = figure(sc, t, colours)
        sec.blocks.append(Block(fig, pre=(intro if not shown else "") + f"<h3>{esc(sc.name)}</h3>",
                                post=table_html(t)))
        shown += 1
    if not shown:
        sec.blocks.append(Block(html=NO_COLUMNS))
    return [sec]
