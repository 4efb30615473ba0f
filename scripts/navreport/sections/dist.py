"""Section "Distributions": the empirical cumulative distribution of the gap and of the query time
over solved queries, a panel per smoothing mode (hover names map and query)."""
from __future__ import annotations

import numpy as np

from navreport.analysis.fmt import esc, f_pct, f_sig, finite
from navreport.analysis.rows import SMOOTH_RANK, primary_rows, uniques
from navreport.figures import draw as plots
from navreport.io import results as common
from navreport.figures.draw import Figure, Panel, Series, run_colours, series_chunks
from navreport.sections.base import Block, Section, nothing_to_draw


def build(ctx) -> list:
    a, blocks = ctx.analysis, []
    if len(a.rows):
        ecdf_figures(a, blocks)
    return [nothing_to_draw(Section(id="dist", title="Distributions", nav="Distributions", blocks=blocks))]


def ecdf_figures(analysis, blocks: list):
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
                             f"{f_pct(s)} % of queries at or below"
                             for m, q, x, s in zip(d["map"].array.take(pos[keep]), d["scen_index"].to_numpy()[pos[keep]],
                                                   v[keep], share[keep])]
                    p.series.append(Series(name=rep, x=v[keep], y=share[keep], kind="step",
                                           color=run_colours(analysis).get(rep, "#333"), hover=hover))
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
            blocks.append(Block(Figure(
                stem=stem, title=f"Distribution of the {label.split(' (')[0]}",
                caption=f"{note}empirical cumulative distribution over solved queries: the share of queries "
                        f"whose {label.split(' (')[0]} is at most x (hover names the query).",
                panels=panels, ncols=1 if len(panels) == 1 else 2, panel_h=320, legend_title="representation"), ""))
