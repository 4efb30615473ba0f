"""Section "Changing maps" (docs/changing-maps.md): its answer at a glance, update time against the
cells an update changed, the full rebuild's time over the update's, and per scenario and
representation the table of analysis/updates.py's summary (update_summary.csv)."""
from __future__ import annotations

import pandas as pd

from navreport.analysis.fmt import ci_cell, esc, f_sig, finite
from navreport.io import results as common
from navreport.figures.draw import Figure, Panel, Series, rep_colours, series_chunks
from navreport.sections.base import Block, Section


def build(ctx) -> list:
    blocks = []
    update_figures(ctx.analysis, blocks)
    return [Section(id="dynamic", title="Changing maps", nav="Changing maps", blocks=blocks, open=True)] if blocks else []


def update_figures(analysis, blocks: list):
    """Changing maps (docs/changing-maps.md): update time against the cells an update changed, the
    full rebuild's time over the update's, and the total cost (updates + queries) per scenario."""
    u = analysis.update_rows
    if u is None:
        return
    reps = common.ordered_unique(u["representation"])
    colour = rep_colours(analysis, reps)
    has_rebuild = u["rebuild_us"].notna().any()
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
    # Table: per scenario and representation (analysis/updates.py).
    summary = analysis.update_summary
    body = []
    for _, x in summary.iterrows():
        tot_u, tot_q, nq = x["updates_total_s"], x["queries_total_s"], int(x["queries"])
        body.append(f"<tr><td>{esc(x['map'])}</td><td>{esc(common.rep_label(x['representation']))}</td><td class='num'>{int(x['updates'])}</td>"
                    f"<td class='num'>{f_sig(x['cells_changed_median'])}</td>"
                    + "".join(ci_cell(*(x[k + part] for part in ("", "_lo", "_hi", "_n")))
                              for k in ("update_median", "update_p95", "rebuild_median")) +
                    ci_cell(*(x["ratio_median" + part] for part in ("", "_lo", "_hi", "_n")), fmt=lambda v: f"{v:.3g}×") +
                    f"<td class='num'>{tot_u:.3g}</td><td class='num'>{f_sig(tot_q) if finite(tot_q) else '–'}"
                    f"<span class='ci'>n = {nq}</span></td>"
                    f"<td class='num'>{f_sig(tot_u + (tot_q if finite(tot_q) else 0))}</td></tr>")
    table = ("<table class='updates' id='updates-table'><thead><tr><th>scenario</th><th>representation</th>"
             "<th>updates</th><th>median cells changed</th><th>median update<span class='unit'>µs</span></th>"
             "<th>p95 update<span class='unit'>µs</span></th><th>median rebuild<span class='unit'>µs</span></th>"
             "<th>rebuild ÷ update<span class='unit'>median per update</span></th>"
             "<th>updates total<span class='unit'>s</span></th><th>queries total<span class='unit'>s</span></th>"
             "<th>total<span class='unit'>s</span></th></tr></thead><tbody>" + "".join(body) + "</tbody></table>")
    answer = update_answer(summary)
    if answer:
        blocks.append(Block(None, answer))
    note = ("" if has_rebuild else "<p class='note'>No rebuild baseline in these runs (run with "
            "<code>--rebuild-baseline</code> to time a full build of every map state).</p>")
    cap = ("<p>Per scenario and representation: 95 % bootstrap intervals over the updates; a ratio near 1× means an "
           "update costs a rebuild: the representation rebuilds (no incremental update), or the change reaches most "
           "of what it would make again (visgraph: the nodes whose view the changed cells cross). Queries total: locate + search + smooth of every "
           "query of the scenario (one smoothing mode).</p>")
    if panels:
        blocks.append(Block(Figure(
            stem="update_vs_cells", title="What keeping up with a changing map costs",
            caption="One point per update (the P commands between two queries, docs/changing-maps.md) and representation. "
                    "Left: time to bring the built representation up to date; right: a full rebuild of the same "
                    "map state divided by that time (above 1: the update pays off).",
            panels=panels, ncols=2, panel_h=380, legend_title="representation"), cap + table + note))
    else:
        blocks.append(Block(None, cap + table + note))


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
