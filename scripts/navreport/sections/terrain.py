"""Section "Terrain costs" (docs/terrain.md): on weighted maps, what each configuration's paths cost
against how fast it answers (analysis/terrain.py's numbers): the chart with the Pareto front over
cost gap and median query time, and the table with both intervals and each configuration's build
time and memory per weighted map. Only when rows on weighted maps have costs."""
from __future__ import annotations

import numpy as np

from navreport.analysis.budget import fmt_value
from navbench.candidates import pct
from navreport.analysis.fmt import esc, f_sig, finite, slug
from navreport.figures.draw import Figure, Panel, Series, rep_colours
from navreport.sections.base import Block, Section


def build(ctx) -> list:
    costs = ctx.analysis.terrain
    if costs is None:
        return []
    return [Section(id="terrain", title="Terrain costs", nav="Terrain costs", open=True,
                    blocks=[Block(terrain_figure(ctx.analysis, costs), terrain_table(costs))])]


def terrain_figure(analysis, costs) -> Figure:
    recs, ref_name = costs.recs, costs.ref_name
    reps = list(dict.fromkeys(x["rep"] for x in recs))
    colour = rep_colours(analysis, reps)
    p = Panel(title="weighted maps: path cost against query time", xlabel="median query time (µs, log)",
              ylabel=f"mean cost above {ref_name} (%)", xlog=True)
    front = costs.front()
    if len(front) > 1:
        p.series.append(Series(name="Pareto front", x=[x["time"][0] for x in front], y=[100 * x["above"][0] for x in front],
                               kind="step", color="#555555", dash="dash", width=1.5))
    for rep in reps:
        g = [x for x in recs if x["rep"] == rep]
        p.series.append(Series(
            name=rep, x=np.array([x["time"][0] for x in g]), y=np.array([100 * x["above"][0] for x in g]),
            color=colour[rep], size=[12 if x["front"] else 8 for x in g],
            xerr=(np.array([x["time"][1] for x in g]), np.array([x["time"][2] for x in g])),
            yerr=(np.array([100 * x["above"][1] for x in g]), np.array([100 * x["above"][2] for x in g])),
            hover=[f"<b>{esc(x['config'])}</b><br>{100 * x['above'][0]:.2f} % above {ref_name}<br>median "
                   f"query time {f_sig(x['time'][0])} µs<br>n = {x['n']} paths on {x['maps']} map(s)" for x in g],
            labels=[x["config"] for x in g] if len(recs) <= 24 else None,
            legend=True))
    return Figure(
        stem="terrain", title="Terrain costs: what the paths cost on weighted maps",
        caption=("docs/terrain.md: per configuration, over its ok paths on every weighted map of the run, the mean of " +
                 ("cost_gap = cost / optimal_cost - 1 (the Steiner-point reference, an upper bound on the optimum "
                  "within 0.1 %: a little below 0 is possible)" if costs.steiner else
                  "cost / octile_optimal_cost - 1 (the least cost of an 8-connected grid path; below 0 a "
                  "configuration beats the grid: no gap to the optimum, as these results have no optimal_cost)") +
                 " against the median query time, 95 % bootstrap intervals; the dashed staircase is the Pareto front "
                 "of the candidates (SPEC §14: every path valid, every query that has a path answered)."),
        panels=[p], panel_h=460, legend_title="representation")


def share(v) -> str:
    return f"<td class='num{' warn' if v < 1 else ''}'>{pct(v)}</td>" if finite(v) else "<td class='num'>–</td>"


def terrain_table(costs) -> str:
    pct = lambda t: f"{100 * t[0]:+.2f} [{100 * t[1]:+.2f}, {100 * t[2]:+.2f}]"  # noqa: E731
    row_class = lambda x: " class=front" if x["front"] else ("" if x["candidate"] else " class=not-candidate")  # noqa: E731
    body = "".join(
        f"<tr{row_class(x)} id='terrain-{esc(slug(x['config']))}'><td>{esc(x['config'])}"
        + ("" if x["candidate"] else f"<span class='badge out' title='{esc(x['reason'])}'>not a candidate</span>") +
        f"</td>{share(x['valid_share'])}{share(x['solved_share'])}<td class='num'>{x['n']}</td>"
        f"<td class='num'>{x['maps']}</td><td class='num' data-value='{x['above'][0]!r}'>{pct(x['above'])}</td>"
        f"<td class='num'>{f_sig(x['time'][0])} [{f_sig(x['time'][1])}, {f_sig(x['time'][2])}]</td>"
        f"<td class='num'>{fmt_value(x['build'], 'ms')}</td>"
        f"<td class='num'>{fmt_value(x['memory'], 'bytes')}</td></tr>" for x in costs.recs)
    return ("<table id='terrain-table'><thead><tr><th>configuration</th><th>valid<span class='unit'>% of paths</span></th>"
            "<th>solved<span class='unit'>% with a path</span></th><th>costed paths</th><th>maps</th>"
            f"<th>mean cost above {costs.ref_name}, % [95 % CI]</th><th>median query time, µs [95 % CI]</th>"
            "<th>build per map</th><th>memory per map</th></tr></thead><tbody>" + body + "</tbody></table>"
            "<p class='note'>Front first (nothing both faster and cheaper, among the candidates: every path valid, "
            "every query that has a path answered, SPEC §14), then by time; then the configurations that are not "
            "candidates (hover 'not a candidate' for why). Valid and solved over every row on the weighted maps; "
            "cost and time over the paths with a cost and a reference. Representations that "
            "assume one cost everywhere answer not_applicable on weighted maps (docs/terrain.md).</p>")


