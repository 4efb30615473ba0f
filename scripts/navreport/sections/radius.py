"""Section "Agents with a radius" (docs/radius.md), when the rows hold several radii: per
representation · smoothing, solved %, valid % and mean gap against R, and a table with counts."""
from __future__ import annotations

import numpy as np
import pandas as pd

from navreport.analysis.fmt import esc, f_gap, f_pct
from navreport.analysis.rows import SMOOTH_RANK, combined_text
from navreport.io import results as common
from navreport.figures.draw import Figure, Panel, Series, rep_colours, series_chunks
from navreport.sections.base import Block, Section


def build(ctx) -> list:
    blocks = []
    radius_figures(ctx.analysis, blocks)
    return [Section(id="radius", title="Agents with a radius", nav="Agents with a radius", blocks=blocks,
                    open=True)] if blocks else []


def radius_figures(analysis, blocks: list):
    """Agents with a radius (docs/radius.md), when the rows hold several radii: per
    representation · smoothing, solved %, valid % and mean gap against R, and a table with counts."""
    rows = analysis.rows
    if "radius" not in rows.columns or rows["radius"].nunique() < 2:
        return
    other = [k for k in analysis.facet_keys if k != "radius"]
    r = common.take_rows(rows, np.arange(len(rows)), ["representation", "smoothing", "radius", "status", "valid", "gap",
                                                      "has_path"] + other)
    radius = common.as_text(r["radius"])
    values = pd.to_numeric(pd.Series(radius.cat.categories.astype(str)).str.replace("r=", "", regex=False), errors="coerce")
    codes = radius.cat.codes.to_numpy()
    r["R"] = np.where(codes >= 0, values.to_numpy(float)[codes], np.nan)
    r["rep"] = (combined_text(r, ["representation"] + other, lambda v: v[0] + " · " + " / ".join(map(str, v[1:])))
                if other else r["representation"])
    recs = []
    for (rep, smoothing, R), g in r.groupby(["rep", "smoothing", "R"], sort=False, observed=True):
        applicable = g[g["has_path"]]  # the queries that have a path at this radius (SPEC §14, candidates.py)
        ok = g[g["status"] == "ok"]
        if ok.empty and (g["status"] == "not_applicable").any():
            continue  # the smoother does not run at this radius (e.g. funnel at R > 0): its no_path rows say nothing
        valid = ok["valid"] == 1
        gaps = ok.loc[ok["gap"].notna(), "gap"]
        recs.append(dict(series=f"{rep} · {smoothing}", rep=rep, smoothing=smoothing, R=R, rows=len(g), invalid_query=int((g["status"] == "invalid_query").sum()),
                         applicable=len(applicable), solved=int((applicable["status"] == "ok").sum()),
                         solved_pct=(applicable["status"] == "ok").mean() if len(applicable) else np.nan,
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
    metrics = (("solved_pct", "solved", "solved (% with a path)"), ("valid_pct", "valid", "valid (% of paths)"),
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
                        hover=[f"<b>{esc(rep)} · {esc(sm)}</b><br>R = {R:g}<br>{f_pct(v) if col != 'gap' else f_gap(v)} %"
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
    blocks.append(Block(Figure(
        stem="radius", title="Agents with a radius: the price of each strategy",
        caption="docs/radius.md: per representation · smoothing and agent radius R, the share of the queries that have a "
                "path solved (a disc optimum exists; invalid_query = start or goal closer than R to an obstacle: no "
                "path), the share of the paths returned that keep clearance R (exact test, arcs included), and the "
                "mean gap to the exact disc optimum "
                "(tangent graph; over every solved path, invalid ones included: an invalid path can be shorter than "
                "the optimum). visgraph at R > 0 is the tangent graph itself; the others build on the map eroded by R.",
        panels=panels, ncols=3, panel_h=300, legend_title="representation"), table))
