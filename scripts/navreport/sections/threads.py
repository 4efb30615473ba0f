"""Section "Many agents": queries/s and peak memory against threads (scripts/thread-scaling's
threads.csv), with the runs as a folded table. Only when the inputs have a threads.csv."""
from __future__ import annotations

from navreport.analysis.fmt import esc, f_bytes, finite
from navreport.analysis.rows import companion_rows
from navreport.io import results as common
from navreport.figures.draw import Figure, Panel, Series, rep_colours, series_chunks
from navreport.sections.base import Block, Section


def build(ctx) -> list:
    blocks = []
    thread_figures(ctx.analysis, blocks)
    return [Section(id="threads", title="Many agents", nav="Many agents", blocks=blocks, open=True)] if blocks else []


def thread_figures(analysis, blocks: list):
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
    body = "".join(f"<tr><td>{esc(r['map'])}</td><td>{esc(common.rep_label(r['representation']))}</td><td class='num'>{int(r['threads'])}</td>"
                   f"<td class='num'>{int(r['queries']) if finite(r['queries']) else '–'}</td>"
                   f"<td class='num'>{r['queries_per_s']:,.0f}</td>"
                   f"<td class='num'>{f_bytes(r['peak_rss_bytes']) if finite(r['peak_rss_bytes']) else '–'}</td></tr>"
                   for _, r in t.iterrows())
    table = ("<details><summary>Thread-scaling runs</summary><table id='threads-table'><thead><tr><th>map</th>"
             "<th>representation</th><th>threads</th><th>queries</th><th>queries/s</th><th>peak memory</th></tr>"
             "</thead><tbody>" + body + "</tbody></table></details>")
    blocks.append(Block(Figure(
        stem="threads", title="Many agents: throughput and memory against threads",
        caption=f"navbench run --threads N over one shared read-only build (maps: {maps}); queries/s of the query "
                "phase (build excluded), median over maps; dotted: linear scaling from one thread. Peak memory: "
                "the process's maximum resident set (build + one search workspace per thread).",
        panels=panels, ncols=2, panel_h=340, legend_title="representation"), table))
