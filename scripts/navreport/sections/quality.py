"""Section "Path quality" (docs/path-quality.md): how each configuration's paths would be walked,
beside their length. Per configuration, over its ok rows: mean clearance (least distance to an
obstacle) and mean turning (degrees), each with a 95 % bootstrap interval as in the ranked table,
against the mean gap. Theta* and Lazy Theta* are configurations of their own ("theta", "theta +
los": analysis/rows.py's fold_search). Only when the rows carry clearance."""
from __future__ import annotations

import numpy as np
import pandas as pd

from navbench import stats
from navreport.analysis.fmt import esc, f_gap, f_pct
from navreport.figures.draw import Figure, Panel, Series, rep_colours
from navreport.sections.base import Block, Section


def build(ctx) -> list:
    blocks = []
    quality_figures(ctx.analysis, blocks, ctx.analysis.seed)
    return [Section(id="quality", title="Path quality", nav="Path quality", blocks=blocks, open=True)] if blocks else []



def quality_figures(analysis, blocks: list, seed: int) -> None:
    """Appends the figure and its table to blocks when the rows carry clearance."""
    rows = analysis.rows
    if "clearance" not in rows.columns or not rows["clearance"].notna().any():
        return
    ok = (rows["status"] == "ok").to_numpy(bool) & rows["clearance"].notna().to_numpy(bool)
    if not ok.any():
        return
    r = pd.DataFrame({c: np.asarray(rows[c])[ok] for c in ("config", "representation", "smoothing", "clearance", "turn", "gap")})
    recs = []
    for cfg, g in r.groupby("config", sort=False, observed=True):
        s = stats.seed_for(seed, "quality", str(cfg))
        cl = stats.bootstrap_ci(g["clearance"].to_numpy(float), np.mean, s)
        tu = stats.bootstrap_ci(g["turn"].to_numpy(float), np.mean, s + 1)
        gp = stats.bootstrap_ci(g["gap"].to_numpy(float), np.mean, s + 2)
        recs.append(dict(config=str(cfg), rep=str(g["representation"].iat[0]), smoothing=str(g["smoothing"].iat[0]),
                         n=len(g), touching=float((g["clearance"] == 0).mean()), clearance=cl, turn=tu, gap=gp))
    if not recs:
        return
    # A dot plot: one line per configuration, sorted by mean gap (shortest first, at the top), and
    # three aligned panels (gap, clearance, turning), each dot with its 95 % interval, coloured by
    # representation: the trade-off reads along a line.
    recs = [x for x in recs if np.isfinite(x["gap"][0])] + [x for x in recs if not np.isfinite(x["gap"][0])]
    recs.sort(key=lambda x: x["gap"][0] if np.isfinite(x["gap"][0]) else np.inf)
    reps = list(dict.fromkeys(x["rep"] for x in recs))
    colour = rep_colours(analysis, reps)
    ys = list(range(len(recs)))[::-1]
    ticks = (ys, [x["config"] for x in recs])
    metrics = (("gap", "mean gap", "%", 100.0), ("clearance", "mean clearance", "map units", 1.0),
               ("turn", "mean turning", "degrees", 1.0))
    panels = [Panel(title=title, xlabel=f"{title} ({unit})", ylabel="", yticks=ticks if k == 0 else (ys, [""] * len(ys)))
              for k, (_, title, unit, _) in enumerate(metrics)]
    for rep in reps:
        idx = [i for i, x in enumerate(recs) if x["rep"] == rep]
        for k, (panel, (key, title, unit, scale)) in enumerate(zip(panels, metrics)):
            vals = [(ys[i], recs[i][key]) for i in idx if np.isfinite(recs[i][key][0])]
            if not vals:
                continue
            panel.series.append(Series(
                name=rep, x=np.array([scale * v[1][0] for v in vals]), y=np.array([v[0] for v in vals]),
                color=colour[rep], legend=k == 0,
                xerr=(np.array([scale * v[1][1] for v in vals]), np.array([scale * v[1][2] for v in vals])),
                hover=[f"<b>{esc(recs[i]['config'])}</b><br>{title} {scale * recs[i][key][0]:.3g} {unit}"
                       for i in idx if np.isfinite(recs[i][key][0])]))
    fmt = lambda t, d=3: f"{t[0]:.{d}g} [{t[1]:.{d}g}, {t[2]:.{d}g}]" if np.isfinite(t[0]) else "—"  # noqa: E731
    body = "".join(
        f"<tr><td>{esc(x['config'])}</td><td class='num'>{x['n']}</td><td class='num'>{f_gap(x['gap'][0])}</td>"
        f"<td class='num'>{fmt(x['clearance'])}</td><td class='num'>{f_pct(x['touching'])} %</td>"
        f"<td class='num'>{fmt(x['turn'], 4)}</td></tr>" for x in recs)
    table = ("<table id='quality-table'><thead><tr><th>configuration</th><th>ok paths</th><th>mean gap</th>"
             "<th>mean clearance [95 % CI]</th><th>touching an obstacle</th><th>mean turning, degrees [95 % CI]</th>"
             "</tr></thead><tbody>" + body + "</tbody></table>")
    blocks.append(Block(Figure(
        stem="quality", title="Path quality: how safe and how smooth",
        caption="docs/path-quality.md: per configuration (one line each, shortest paths first), over its ok paths, "
                "the mean gap, the mean clearance (least distance from the path to an obstacle; 0 = it touches one) "
                "and the mean turning (sum of heading changes, degrees), with 95 % bootstrap intervals. Right in "
                "the middle panel is safer, left in the others shorter and smoother; a shortest path touches corners. theta / lazy-theta are Theta* and Lazy Theta* (any-angle search), '+ los' "
                "smoothed after.",
        panels=panels, ncols=3, panel_h=max(260, 18 * len(recs)), legend_title="representation",
        margin_l=min(360, 40 + int(6.6 * max(len(x["config"]) for x in recs)))), table))
