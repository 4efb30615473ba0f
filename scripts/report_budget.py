"""The answer weighs build time and memory too (a module of report.py).

The first screen's Pareto front is over query time and gap; a representation also costs its build
on every map load and its memory per map (OMPL's Planner Arena and Bench-MR let the reader choose
the metric). Here, from a scope's ranked table (one row per configuration: median query time, mean
gap, and build ms and memory bytes as means over maps, each with its 95 % interval):
- each front point's build time and memory, said beside it;
- budget answers: "with at most X of memory per map, the front is ...", for budgets taken from the
  data that split the configurations (each budget is a configuration's own value, the largest one
  below a front point's, so that point and everything dearer drop out);
- charts of memory and of build time against median query time, the time/gap front marked.
budgets.csv (next to summary.csv) holds the budget answers for tests/scripts/test_budget.py.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

import plots
import stats
from plots import Figure, Panel, Series

# (ranked-table column, what a budget on it is called, how its values are printed)
BUDGETS = [("memory", "memory", "bytes"), ("build_ms", "build time", "ms")]
MAX_BUDGETS = 2  # per kind and facet: the first screen stays short


# The ranked table's formats (report.py sets them: f_bytes, f_sig), so that a budget reads as its table cell.
FORMATS = {"bytes": lambda v: f"{v:.0f} B", "ms": lambda v: f"{v:.3g}"}


def fmt_value(v, unit: str) -> str:
    if not np.isfinite(v):
        return "–"
    return FORMATS["bytes"](v) if unit == "bytes" else f"{FORMATS['ms'](v)} ms"


def front(sub: pd.DataFrame) -> pd.DataFrame:
    """The configurations of sub on its time/gap Pareto front, fastest first."""
    ok = sub[np.isfinite(sub["time_median"].to_numpy(float)) & np.isfinite(sub["gap_mean"].to_numpy(float))]
    if not len(ok):
        return ok
    layers = stats.pareto_layers(list(zip(ok["time_median"], ok["gap_mean"])))
    return ok[np.array(layers) == 1].sort_values(["time_median", "gap_mean"], kind="stable")


def budget_answers(table: pd.DataFrame, scope: str) -> list:
    """Per facet and budget kind, up to MAX_BUDGETS budgets that change the front, largest first:
    dicts scope, facet, kind, budget, excluded (configurations over it), front (configs in order)."""
    out = []
    if not len(table):
        return out
    for facet in pd.unique(table["facet"]):
        sub = table[(table["facet"] == facet) & (table["layer"] > 0)]
        if not len(sub):
            continue
        for col, name, unit in BUDGETS:
            if col not in sub.columns:
                continue
            known = sub[np.isfinite(sub[col].to_numpy(float))]
            values = np.sort(np.unique(known[col].to_numpy(float)))
            previous = list(front(known)["config"])
            made = 0
            # Walk down from the whole front: each budget drops the dearest front point left.
            cap = np.inf
            while made < MAX_BUDGETS:
                cur = known[known[col] <= cap]
                f = front(cur)
                if not len(f):
                    break
                dearest = f[col].max()
                below = values[values < dearest]
                if not len(below):
                    break
                cap = float(below[-1])
                within = known[known[col] <= cap]
                fr = list(front(within)["config"])
                if not fr or fr == previous:
                    continue
                out.append({"scope": scope, "facet": facet, "kind": name, "column": col, "budget": cap,
                            "budget_text": fmt_value(cap, unit), "configurations": len(within),
                            "of": len(known), "front": " → ".join(fr)})
                previous = fr
                made += 1
    return out


def point_text(r, esc, f_sig, f_gap) -> str:
    """A front point as the first screen names it: configuration, time and gap, build and memory."""
    return (f"<span class='front-point'><b>{esc(r['representation'])} · {esc(r['smoothing'])}</b> "
            f"({f_sig(r['time_median'])} µs, {f_gap(r['gap_mean'])} %; build {fmt_value(r.get('build_ms', np.nan), 'ms')}, "
            f"{fmt_value(r.get('memory', np.nan), 'bytes')} per map)</span>")


def budget_lines(answers: list, table: pd.DataFrame, esc, f_sig, f_gap) -> list:
    """The budget sentences of one scope's first screen."""
    lines = []
    by_config = {(r["facet"], r["config"]): r for _, r in table.iterrows()}
    for facet in pd.unique(table["facet"]) if len(table) else []:
        for col, name, _ in BUDGETS:
            if col in table.columns and not any(a["facet"] == facet and a["column"] == col for a in answers):
                pre = f"<b>{esc(facet)}</b>: " if facet else ""
                lines.append(f"{pre}<span class='budget' data-kind='{esc(col)}'>No {esc(name)} budget changes this "
                             f"front</span>: leaving out its dearest point leaves no configuration with a time and a gap, "
                             f"or the same front.")
    for a in answers:
        pre = f"<b>{esc(a['facet'])}</b>: " if a["facet"] else ""
        # Compact (name, time, gap): every configuration on it fits the budget, and its build time and
        # memory are in the ranked table.
        steps = []
        for c in a["front"].split(" → "):
            r = by_config[(a["facet"], c)]
            steps.append(f"<b>{esc(r['representation'])} · {esc(r['smoothing'])}</b> ({f_sig(r['time_median'])} µs, "
                         f"{f_gap(r['gap_mean'])} %)")
        lines.append(f"{pre}<span class='budget' data-kind='{esc(a['column'])}' data-budget='{a['budget']!r}'>"
                     f"With a {esc(a['kind'])} budget of {esc(a['budget_text'])} per map</span> "
                     f"({a['configurations']} of {a['of']} configurations fit), the front is " + " → ".join(steps) + ".")
    return lines


def cost_figure(scope, analysis, esc, f_sig, f_gap) -> Figure | None:
    """Memory and build time against median query time, one point per configuration (up to three facets),
    intervals as in the ranked table (maps as the unit for build and memory), the time/gap front
    marked with larger points and named."""
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
        for rep in [r for r in analysis.rep_colour if r in set(sub["representation"])]:
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
                    color=analysis.rep_colour[rep], marker=[plots.SMOOTHING_MARKER.get(s, "star") for s in g["smoothing"]],
                    size=13 if on_front else 7,
                    xerr=(g["time_median_lo"].to_numpy(float), g["time_median_hi"].to_numpy(float)),
                    yerr=(scale * g[col + "_lo"].to_numpy(float), scale * g[col + "_hi"].to_numpy(float)),
                    hover=hover, labels=[f"{r['representation']} · {r['smoothing']}" for _, r in g.iterrows()] if on_front
                    else None, legend=False))
        for rep in [r for r in analysis.rep_colour if r in set(sub["representation"])]:
            p.series.append(Series(name=rep, x=[], y=[], color=analysis.rep_colour[rep], marker="circle", size=10))
        panels.append(p)
    if not panels:
        return None
    return Figure(stem=f"budget_{scope.slug}", title=f"What each configuration costs besides its queries — {scope.name}",
                  caption="One point per representation × smoothing (marker: smoothing); large, named points are on "
                          "the time/gap Pareto front of the chart above. Bars: 95 % bootstrap intervals of the median "
                          "query time and of the mean build time and memory over maps (maps are the unit). A front "
                          "point high up here pays for its speed with memory or build time.",
                  panels=panels, ncols=2, panel_h=420)
