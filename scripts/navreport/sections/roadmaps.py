"""Section "Roadmaps against samples" (docs/prm.md): for a representation built over a grid of its
`samples` parameter on a map (prm, prm-star in scripts/sweeps/prm-curves.json), the solved share
(ok over the queries that have a path, as the candidate rule has it: navbench.candidates.path_exists,
the rows' has_path), the valid share of the paths found, the mean gap of the valid paths and the
build time, each against samples: the curves robotics draws for a sampling planner. Raw paths
(smoothing none) of the shared A*."""
from __future__ import annotations

import re

import numpy as np
import pandas as pd

from navbench import candidates
from navreport.analysis.fmt import esc, f_gap, f_pct, f_sig
from navreport.figures.draw import Figure, Panel, Series, rep_colours, series_chunks
from navreport.io import results as common
from navreport.sections.base import Block, Section

SAMPLES = re.compile(r"(?:^|,)samples=(\d+)(?:,|$)")


def build(ctx) -> list:
    t = roadmap_table(ctx.analysis.rows, ctx.analysis.data.build)
    if t.empty:
        return []
    return [Section(id="roadmaps", title="Roadmaps against samples", nav="Roadmaps", blocks=[figure(ctx.analysis, t)],
                    open=True)]


def roadmap_table(rows, build) -> pd.DataFrame:
    """One record per (representation without samples, map, samples): queries with a path, solved,
    valid, mean gap of the valid paths, build time; only where the run holds at least two values of
    samples for that representation on that map."""
    if build is None or not len(build) or "params" not in build.columns:
        return pd.DataFrame()
    b = pd.DataFrame({"map": build["map"].astype(str), "representation": build["representation"].astype(str),
                      "params": build["params"].astype(str), "build_ms": pd.to_numeric(build["build_ms"], errors="coerce")})
    b["samples"] = b["params"].map(lambda p: int(m.group(1)) if (m := SAMPLES.search(p)) else -1)
    b = b[b["samples"] > 0]
    if b.empty:
        return pd.DataFrame()
    b["family"] = b.apply(lambda r: family(r["representation"], r["params"]), axis=1)
    b = b.groupby(["map", "representation", "family", "samples"], as_index=False, observed=True)["build_ms"].mean()
    grids = b.groupby(["map", "family"])["samples"].transform("nunique")
    b = b[grids >= 2]
    if b.empty:  # one value of samples per representation and map: no curve
        return pd.DataFrame()
    want = set(b["representation"])
    cols = ["map", "representation", "smoothing", "status", "valid", "gap"] + \
        (["search"] if "search" in rows.columns else [])
    keep = rows["representation"].astype(str).isin(want).to_numpy() & (rows["smoothing"].astype(str) == "none").to_numpy()
    if "search" in rows.columns:
        keep &= (rows["search"].astype(str) == "astar").to_numpy()
    # Whether each query has a path: the candidate rule's (an optimum, or a valid path of any configuration).
    has_path = (rows["has_path"].to_numpy(bool) if "has_path" in rows.columns else candidates.path_exists(rows))[keep]
    r = common.take_rows(rows, keep, cols)
    r["has_path"] = has_path
    r["map"], r["representation"] = r["map"].astype(str), r["representation"].astype(str)
    recs = []
    for x in b.itertuples(index=False):
        g = r[(r["map"] == x.map) & (r["representation"] == x.representation)]
        has = g[g["has_path"].to_numpy(bool)]
        ok = has[has["status"].astype(str) == "ok"]
        found = g[g["status"].astype(str) == "ok"]
        valid = pd.to_numeric(found["valid"], errors="coerce") == 1
        gaps = pd.to_numeric(found.loc[valid, "gap"], errors="coerce").dropna()
        recs.append(dict(family=x.family, map=x.map, samples=x.samples, with_path=len(has), solved=len(ok),
                         solved_pct=len(ok) / len(has) if len(has) else np.nan, found=len(found),
                         valid_pct=valid.mean() if len(found) else np.nan, gap=gaps.mean() if len(gaps) else np.nan,
                         build_ms=x.build_ms))
    return pd.DataFrame(recs).sort_values(["family", "map", "samples"], kind="stable").reset_index(drop=True)


def family(representation: str, params: str) -> str:
    """The representation's name with its parameters but samples (and the seed, which only redraws)."""
    name = representation.split(":", 1)[0]
    rest = [kv for kv in params.split(",") if kv and not kv.startswith(("samples=", "seed="))]
    return name + (":" + ",".join(rest) if rest else "")


def figure(analysis, t: pd.DataFrame) -> Block:
    fams = list(dict.fromkeys(t["family"]))
    colour = rep_colours(analysis, fams)
    maps = list(dict.fromkeys(t["map"]))
    dashes = [None, "dash", "dot"]
    metrics = (("solved_pct", "solved (% of the queries with a path)", 100, False),
               ("gap", "mean gap of the valid paths (%)", 100, False), ("build_ms", "build time (ms, log)", 1, True))
    lines = [(fam, mp) for fam in fams for mp in maps if ((t["family"] == fam) & (t["map"] == mp)).any()]
    panels = []
    for chunk in series_chunks(lines):  # at most MAX_SERIES lines a panel: a row of three panels per chunk
        row = [Panel(title=label.split(" (")[0], xlabel="samples (log)", ylabel=label, xlog=True, ylog=log)
               for _, label, _, log in metrics]
        panels += row
        for fam, mp in chunk:
            g = t[(t["family"] == fam) & (t["map"] == mp)]
            k = maps.index(mp)
            for panel, (col, _, scale, _) in zip(row, metrics):
                gg = g[g[col].notna()]
                if gg.empty:
                    continue
                panel.series.append(Series(
                    name=f"{fam} · {mp}", x=gg["samples"].to_numpy(float), y=scale * gg[col].to_numpy(float), kind="lines",
                    color=colour[fam], dash=dashes[k % len(dashes)], legend=panel is row[0],
                    hover=[f"<b>{esc(fam)} · {esc(mp)}</b><br>samples {s}<br>{scale * v:.4g}" for s, v in zip(gg["samples"], gg[col])]))
    body = "".join(
        f"<tr><td>{esc(x.family)}</td><td>{esc(x.map)}</td><td class='num'>{x.samples}</td>"
        f"<td class='num'>{x.solved} / {x.with_path}</td><td class='num'>{f_pct(x.solved_pct)}</td>"
        f"<td class='num'>{f_pct(x.valid_pct)}</td><td class='num'>{f_gap(x.gap)}</td>"
        f"<td class='num'>{f_sig(x.build_ms)}</td></tr>" for x in t.itertuples(index=False))
    table = ("<table id='roadmaps-table'><thead><tr><th>representation</th><th>map</th><th>samples</th><th>solved</th>"
             "<th>solved %</th><th>valid %</th><th>mean gap</th><th>build ms</th></tr></thead><tbody>" + body +
             "</tbody></table>")
    return Block(Figure(
        stem="roadmaps", title="Roadmaps: solved share, gap and build time against samples",
        caption="docs/prm.md: a roadmap may miss a path that exists (its no_path rows say why); per representation and "
                "map (line style), against the number of samples: the share of the queries with a path it solves, the "
                "mean gap of its valid paths to the exact optimum (raw paths of the shared A*; valid % in the table: "
                "every path is checked by the exact test), and the build time (one build per map and value, timed "
                "under whatever load the run had). A configuration is a candidate of the answer only where it solves "
                "every query.",
        panels=panels, ncols=3, panel_h=300, legend_title="representation · map"), table)
