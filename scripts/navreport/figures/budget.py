"""What each configuration costs besides its queries: memory and build time per map against median
query time (analysis/budget.py's numbers), the time/gap front's points larger and named."""
from __future__ import annotations

import numpy as np
import pandas as pd

from navreport.analysis.budget import BUDGETS, fmt_value
from navreport.analysis.fmt import esc, f_sig
from navreport.analysis.rows import SMOOTH_RANK
from navreport.figures.draw import Figure, Panel, Series, run_colours, smoothing_marker


def cost_figure(scope, analysis) -> Figure | None:
    """Memory and build time against median query time, one point per configuration (up to three facets),
    intervals as in the ranked table (maps as the unit for build and memory), the time/gap front
    marked with larger points and named."""
    colours = run_colours(analysis)
    t = scope.table
    if not len(t) or "memory" not in t.columns:
        return None
    whole = t
    panels = []
    # One pair of panels per facet (heuristic, convention, radius: the questions a run asks), at most three.
    for col, name, unit, facet in [(c, n, u, f) for f in pd.unique(whole["facet"])[:3] for c, n, u in BUDGETS]:
        t = whole[(whole["facet"] == facet) & np.isfinite(whole["time_median"].to_numpy(float))]
        sub = t[np.isfinite(t[col].to_numpy(float)) & (t[col].to_numpy(float) > 0)]
        if not len(sub):
            continue
        scale = 2.0 ** -20 if unit == "bytes" else 1.0
        p = Panel(title=f"{name} per map vs median query time" + (f" — {facet}" if facet else ""),
                  xlabel="median query time (µs, log)", ylabel=("memory per map (MiB, log)" if unit == "bytes"
                                                                else "build time per map (ms, log)"),
                  xlog=True, ylog=True)
        for rep in [r for r in colours if r in set(sub["representation"])]:
            for on_front in (False, True):  # the front's points drawn larger and named
                g = sub[(sub["representation"] == rep) & ((sub["layer"] == 1) == on_front)]
                if not len(g):
                    continue
                hover = [f"<b>{esc(r['config'])}</b><br>median query time {f_sig(r['time_median'])} µs<br>{name} "
                         f"{fmt_value(r[col], unit)} per map [{fmt_value(r[col + '_lo'], unit)}, "
                         f"{fmt_value(r[col + '_hi'], unit)}], n = {int(r[col + '_n'])} maps"
                         + ("<br><b>on the time/gap front</b>" if on_front else "") for _, r in g.iterrows()]
                p.series.append(Series(
                    name=rep, x=g["time_median"].to_numpy(float), y=scale * g[col].to_numpy(float),
                    color=colours[rep], marker=[smoothing_marker(s) for s in g["smoothing"]],
                    size=13 if on_front else 7,
                    xerr=(g["time_median_lo"].to_numpy(float), g["time_median_hi"].to_numpy(float)),
                    yerr=(scale * g[col + "_lo"].to_numpy(float), scale * g[col + "_hi"].to_numpy(float)),
                    hover=hover, labels=[f"{r['representation']} · {r['smoothing']}" for _, r in g.iterrows()] if on_front
                    else None, legend=False))
        for rep in [r for r in colours if r in set(sub["representation"])]:
            p.series.append(Series(name=rep, x=[], y=[], color=colours[rep], marker="circle", size=10))
        for s in sorted(set(sub["smoothing"]), key=lambda s: (SMOOTH_RANK.get(s, 3), s)):  # the marker key
            p.series.append(Series(name=f"smoothing {s}", x=[], y=[], color="#aaaaaa", marker=smoothing_marker(s), size=10))
        panels.append(p)
    if not panels:
        return None
    return Figure(stem=f"budget_{scope.slug}", title=f"What each configuration costs besides its queries — {scope.name}",
                  caption="One point per representation × smoothing (marker: smoothing); large, named points are on "
                          "the time/gap Pareto front of the chart above. Bars: 95 % bootstrap intervals of the median "
                          "query time and of the mean build time and memory over maps (maps are the unit). A front "
                          "point high up here pays for its speed with memory or build time.",
                  panels=panels, ncols=2, panel_h=420)
