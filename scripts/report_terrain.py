"""The report's "Terrain costs" section (docs/terrain.md): on weighted maps, what each configuration's
paths cost against how fast it answers. Per configuration (over every weighted map of the run:
the terrain facet is folded), over its ok rows on weighted maps: the mean cost gap to the
reference (cost_gap = cost / optimal_cost - 1, the Steiner-point reference optimum; in results
without it, cost / octile_optimal_cost - 1, the least cost of an 8-connected grid path, stated as
what it is) and the median query time, each with a 95 % bootstrap interval, the Pareto front over
the two marked, and a table that also gives each configuration's build time and memory per
weighted map (the first screen's costs)."""
import numpy as np
import pandas as pd

import common
import report_budget
import stats
from plots import Figure, Panel, Series


def folded_label(representation, smoothing, facet) -> str:
    """A configuration's label with the terrain facet left out (the section pools the weighted maps)."""
    kept = [f for f in str(facet).split(" / ") if f and not f.startswith("terrain ") and f != "plain map"]
    return " · ".join([str(representation), str(smoothing)] + ([" / ".join(kept)] if kept else []))


def terrain_figures(analysis, rep_colours, esc, f_sig, seed: int) -> str:
    """Appends ("terrain", Figure, table) to analysis.figures when rows on weighted maps have costs;
    returns the first screen's line for weighted maps (their front on cost and time), else ""."""
    rows = analysis.rows
    if "cost" not in rows.columns or "octile_optimal_cost" not in rows.columns or not rows["cost"].notna().any():
        return ""
    cost = rows["cost"].to_numpy(float)
    steiner = "optimal_cost" in rows.columns and rows["optimal_cost"].notna().any()
    ref = rows["optimal_cost" if steiner else "octile_optimal_cost"].to_numpy(float)
    ref_name = "the reference optimum" if steiner else "the octile reference"
    ok = (rows["status"] == "ok").to_numpy(bool) & np.isfinite(cost) & np.isfinite(ref) & (ref > 0)
    if not ok.any():
        return ""
    r = pd.DataFrame({c: np.asarray(rows[c])[ok] for c in ("representation", "smoothing", "facet", "query_us", "map")})
    r["config"] = [folded_label(*v) for v in zip(r["representation"], r["smoothing"], r["facet"])]
    r["above"] = cost[ok] / ref[ok] - 1
    build = analysis.data.build
    recs = []
    for cfg, g in r.groupby("config", sort=False, observed=True):
        s = stats.seed_for(seed, "terrain", str(cfg))
        rep = str(g["representation"].iat[0])
        # What it costs besides its queries, as on the first screen: build time and memory, the mean
        # over the weighted maps of each map's mean.
        b = (build[(build["representation"] == rep) & build["map"].isin(set(g["map"]))] if build is not None and len(build)
             else pd.DataFrame(columns=["map", "build_ms", "memory_bytes"]))
        if "terrain" in b.columns:  # the weighted maps' own builds (a map may also run plain)
            b = b[(common.terrain_texts(b["terrain"]) != "").to_numpy(bool)]
        per_map = b.groupby("map")[["build_ms", "memory_bytes"]].mean() if len(b) else None
        recs.append(dict(config=str(cfg), rep=rep, n=len(g), maps=g["map"].nunique(),
                         above=stats.bootstrap_ci(g["above"].to_numpy(float), np.mean, s),
                         time=stats.bootstrap_ci(g["query_us"].to_numpy(float), np.median, s + 1),
                         build=float(per_map["build_ms"].mean()) if per_map is not None else np.nan,
                         memory=float(per_map["memory_bytes"].mean()) if per_map is not None else np.nan))
    layers = stats.pareto_layers([(x["time"][0], x["above"][0]) for x in recs])
    for x, layer in zip(recs, layers):
        x["front"] = layer == 1
    recs.sort(key=lambda x: (not x["front"], x["time"][0]))
    reps = list(dict.fromkeys(x["rep"] for x in recs))
    colour = rep_colours(analysis, reps)
    p = Panel(title="weighted maps: path cost against query time", xlabel="median query time (µs, log)",
              ylabel=f"mean cost above {ref_name} (%)", xlog=True)
    front = sorted([x for x in recs if x["front"]], key=lambda x: x["time"][0])
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
    pct = lambda t: f"{100 * t[0]:+.2f} [{100 * t[1]:+.2f}, {100 * t[2]:+.2f}]"  # noqa: E731
    body = "".join(
        f"<tr{' class=front' if x['front'] else ''}><td>{esc(x['config'])}</td><td class='num'>{x['n']}</td>"
        f"<td class='num'>{x['maps']}</td><td class='num' data-value='{x['above'][0]!r}'>{pct(x['above'])}</td>"
        f"<td class='num'>{f_sig(x['time'][0])} [{f_sig(x['time'][1])}, {f_sig(x['time'][2])}]</td>"
        f"<td class='num'>{report_budget.fmt_value(x['build'], 'ms')}</td>"
        f"<td class='num'>{report_budget.fmt_value(x['memory'], 'bytes')}</td></tr>" for x in recs)
    table = ("<table id='terrain-table'><thead><tr><th>configuration</th><th>ok paths</th><th>maps</th>"
             f"<th>mean cost above {ref_name}, % [95 % CI]</th><th>median query time, µs [95 % CI]</th>"
             "<th>build per map</th><th>memory per map</th></tr></thead><tbody>" + body + "</tbody></table>"
             "<p class='note'>Front first (nothing both faster and cheaper), then by time. Representations that "
             "assume one cost everywhere answer not_applicable on weighted maps (docs/terrain.md).</p>")
    analysis.figures.append(("terrain", Figure(
        stem="terrain", title="Terrain costs: what the paths cost on weighted maps",
        caption=("docs/terrain.md: per configuration, over its ok paths on every weighted map of the run, the mean of " +
                 ("cost_gap = cost / optimal_cost - 1 (the Steiner-point reference, an upper bound on the optimum "
                  "within 0.1 %: a little below 0 is possible)" if steiner else
                  "cost / octile_optimal_cost - 1 (the least cost of an 8-connected grid path; below 0 a "
                  "configuration beats the grid: no gap to the optimum, as these results have no optimal_cost)") +
                 " against the median query time, 95 % bootstrap intervals; the dashed staircase is the Pareto front."),
        panels=[p], panel_h=460, legend_title="representation"), table))
    steps = [f"<span class='front-point'><b>{esc(x['config'])}</b> ({f_sig(x['time'][0])} µs, {100 * x['above'][0]:+.2f} %; "
             f"build {report_budget.fmt_value(x['build'], 'ms')}, {report_budget.fmt_value(x['memory'], 'bytes')} per map)"
             f"</span>" for x in front]
    n_maps = r["map"].nunique()
    return (f"<b>weighted maps</b> ({n_maps} map(s), cost above {ref_name}): from fastest to cheapest paths, the "
            f"Pareto front is " + " → ".join(steps) + ". <a href='#terrain'>Terrain costs</a>.")
