"""The Pareto charts of the answer: the compact chart of the first screen (front_chart: the points
of the facet tables beside it) and the chart of every configuration of a scope with its intervals
(pareto_figure)."""
from __future__ import annotations

from navreport.analysis.fmt import esc, f_gap, f_pct, f_sig
from navreport.analysis.rows import SMOOTH_RANK, facet_order
from navreport.figures.draw import Figure, Panel, Series, run_colours, series_chunks, smoothing_marker
from navreport.io import results as common

# The compact chart: its width leaves the facet tables room beside it on a 1280 px screen.
FRONT_WIDTH = 400
FRONT_COLOURS = {"front": "#1f5fa8", "budget": "#e6550d", "other": "#b0b0b0"}


def front_chart(stem: str, title: str, facets: list) -> Figure | None:
    """One panel per facet (stacked): every configuration as a small grey point, the front's points
    (blue, named) joined by the dashed staircase, the points only a budget's front holds (orange,
    named). facets: dicts title, ylabel, points [(x, y, label, kind front|budget|other, hover, name)]:
    the page numbers the points as the table's rows; the static copy (figures/, for papers, where the
    table is not beside it) names them."""
    panels = []
    for f in facets:
        pts = [q for q in f["points"] if q[0] is not None and q[1] is not None and q[0] == q[0] and q[1] == q[1]
               and q[0] > 0]
        if not pts:
            continue
        p = Panel(title=f["title"], xlabel="median query time (µs, log)", ylabel=f["ylabel"], xlog=True)
        front = sorted([q for q in pts if q[3] == "front"], key=lambda q: q[0])
        if len(front) > 1:
            p.series.append(Series(name="Pareto front", x=[q[0] for q in front], y=[q[1] for q in front], kind="step",
                                   color="#555555", dash="dash", width=1.2, legend=False))
        for kind, size, marker in (("other", 6, "circle"), ("budget", 9, "diamond"), ("front", 11, "circle")):
            g = [q for q in pts if q[3] == kind]
            if g:
                p.series.append(Series(name=kind, x=[q[0] for q in g], y=[q[1] for q in g], color=FRONT_COLOURS[kind],
                                       marker=marker, size=size, hover=[q[4] for q in g], legend=False,
                                       labels=None if kind == "other" else [q[2] for q in g],
                                       static_labels=None if kind == "other" else [q[5] for q in g]))
        panels.append(p)
    if not panels:
        return None
    return Figure(stem=stem, title=title, panels=panels, panel_h={1: 300, 2: 200}.get(len(panels), 150),
                  width=FRONT_WIDTH, margin_l=60, margin_r=14,
                  caption="Numbers: the rows of the tables (the static copy names the points). Blue circles: the Pareto front "
                          "(nothing is both faster and better; dashed staircase); orange diamonds: on the front of a "
                          "memory or build-time budget only (the tables' marked columns, the budget in each header); "
                          "grey: every other candidate (the others are in the tables of non-candidates). Lower left "
                          "is better; hover a point for its name.")


def short_label(rec, facet_in_title: bool) -> str:
    return f"{rec['representation']} · {rec['smoothing']}" if facet_in_title else rec["config"]


def pareto_figure(scope, analysis) -> Figure | None:
    """Every configuration of a scope: median query time against mean gap with both intervals, the
    front as a dashed staircase; a panel per facet (a collection: its first) and per 10 representations."""
    colours = run_colours(analysis)
    t = scope.table
    t = t[t["time_median"].notna() & t["gap_mean"].notna()] if len(t) else t
    if len(t) == 0:
        analysis.skipped.append((f"pareto_{scope.slug}", "no configuration has both a query time and a gap"))
        return None
    panels = []
    facets = facet_order(t["facet"])
    if scope.slug != "all":
        facets = facets[:1]  # a collection shows the first facet; the others are in its table
    smooths = sorted(set(t["smoothing"]), key=lambda s: (SMOOTH_RANK.get(s, 3), s))
    for facet in facets:
        whole = t[t["facet"] == facet]
        rep_chunks = series_chunks([r for r in colours if r in set(whole["representation"])])
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
                          f"valid {f_pct(r['valid_pct'])} %, n = {r['time_median_n']} queries"
                          + ("<br><b>on the Pareto front</b>" if r["layer"] == 1 else "")
                          + ("" if r.get("is_candidate", True) else f"<br>not a candidate: {esc(r.get('reason', ''))}"))
                         for _, r in g.iterrows()]
                p.series.append(Series(
                    name=rep, x=g["time_median"].to_numpy(float), y=100 * g["gap_mean"].to_numpy(float),
                    color=colours.get(rep, "#333"),
                    marker=[smoothing_marker(s) for s in g["smoothing"]],
                    size=[12 if layer == 1 else 9 for layer in g["layer"]],
                    xerr=(g["time_median_lo"].to_numpy(float), g["time_median_hi"].to_numpy(float)),
                    yerr=(100 * g["gap_mean_lo"].to_numpy(float), 100 * g["gap_mean_hi"].to_numpy(float)),
                    hover=hover, labels=[short_label(r, True) for _, r in g.iterrows()], legend=False,
                    label_keep=[layer == 1 for layer in g["layer"]]))
            for rep in [r for r in colours if r in set(sub["representation"])]:
                p.series.append(Series(name=rep, x=[], y=[], color=colours[rep], marker="circle", size=10))
            for s in smooths if ci == len(rep_chunks) - 1 else ():  # the marker key once, after every colour
                p.series.append(Series(name=f"smoothing {s}", x=[], y=[], color="#aaaaaa",
                                       marker=smoothing_marker(s), size=10))
            panels.append(p)
    more = (" Other heuristics/conventions of this collection: see its ranked table."
            if len(facet_order(t["facet"])) > len(facets) else "")
    return Figure(stem=f"pareto_{scope.slug}", title=f"Speed vs path quality — {scope.name}",
                  caption=more + " One point per representation × smoothing; bars are 95 % bootstrap intervals of the "
                          "median query time and of the mean gap; the dashed staircase joins the Pareto front of the "
                          "candidates (nothing is both faster and more accurate; SPEC §14: every path valid, every "
                          "query that has a path answered; hover a point for its shares). Lower left is better. A "
                          "paper's copy (plots.py --paper) names every point, or only the front's where names "
                          "would crowd the panel.",
                  panels=panels, panel_h=500)
