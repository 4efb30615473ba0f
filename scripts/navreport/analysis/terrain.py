"""The weighted maps' numbers (docs/terrain.md): what each configuration's paths cost against how
fast it answers. Per configuration (over every weighted map of the run: the terrain facet is
folded), over its ok rows on weighted maps: the mean cost gap to the reference (cost_gap = cost /
optimal_cost - 1, the Steiner-point reference optimum; in results without it, cost /
octile_optimal_cost - 1, the least cost of an 8-connected grid path, stated as what it is) and the
median query time, each with a 95 % bootstrap interval, the Pareto front over the two, and each
configuration's build time and memory per weighted map. The first screen's weighted-maps table and
the Terrain costs section both read them."""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from navbench import candidates, stats
from navreport.analysis.rows import combined_text, raw_terrain
from navreport.io import results as common


@dataclass
class TerrainCosts:
    recs: list = field(default_factory=list)  # per configuration: config, rep, n, maps, above, time, build, memory, front
    steiner: bool = False                     # the reference is the Steiner-point optimum (else the octile grid's)
    ref_name: str = ""
    maps: int = 0                             # weighted maps with a costed ok row
    candidates: object = None                 # candidates.summarise over the weighted rows, by folded label

    def front(self) -> list:
        """The front's configurations, fastest first."""
        return sorted([x for x in self.recs if x["front"]], key=lambda x: x["time"][0])


def folded_label(representation, smoothing, facet) -> str:
    """A configuration's label with the terrain facet left out (the section pools the weighted maps)."""
    kept = [f for f in str(facet).split(" / ") if f and not f.startswith("terrain ") and f != "plain map"]
    return " · ".join([str(representation), str(smoothing)] + ([" / ".join(kept)] if kept else []))


def weighted_candidates(analysis, widening):
    """candidates.summarise over every row on a weighted map (a terrain column that is not empty),
    the configurations named by folded_label; None without such rows."""
    rows = analysis.rows
    if "terrain" not in rows.columns:
        return None
    col = rows["terrain"]
    if isinstance(col.dtype, pd.CategoricalDtype):  # each label judged once
        flags = np.array([raw_terrain(c) != "" for c in col.cat.categories] + [False], dtype=bool)
        weighted = flags[col.cat.codes.to_numpy()]  # code -1 (empty) picks the trailing False
    else:
        weighted = np.array([raw_terrain(v) != "" for v in np.asarray(col, dtype=object)], dtype=bool)
    if not weighted.any():
        return None
    w = common.take_rows(rows, weighted, ["representation", "smoothing", "facet", "status", "valid", "map"])
    # The folded label of each (representation, smoothing, facet) once, not of each row.
    w["config"] = combined_text(w, ["representation", "smoothing", "facet"], lambda v: folded_label(*v))
    return candidates.summarise(w.drop(columns="facet"), "config", widening,
                                has_path=np.asarray(rows["has_path"], dtype=bool)[weighted], absent=analysis.absent)


def terrain_costs(analysis, seed: int):
    """The TerrainCosts of the rows on weighted maps that have costs, None without them. The front
    is over the candidates of the weighted maps only (SPEC §14, candidates.py)."""
    rows = analysis.rows
    if "cost" not in rows.columns or "octile_optimal_cost" not in rows.columns or not rows["cost"].notna().any():
        return None
    cost = rows["cost"].to_numpy(float)
    steiner = "optimal_cost" in rows.columns and rows["optimal_cost"].notna().any()
    ref = rows["optimal_cost" if steiner else "octile_optimal_cost"].to_numpy(float)
    ok = (rows["status"] == "ok").to_numpy(bool) & np.isfinite(cost) & np.isfinite(ref) & (ref > 0)
    if not ok.any():
        return None
    cand = weighted_candidates(analysis, analysis.widening)
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
        recs.append(dict(config=str(cfg), rep=rep, smoothing=str(g["smoothing"].iat[0]), n=len(g), maps=g["map"].nunique(),
                         above=stats.bootstrap_ci(g["above"].to_numpy(float), np.mean, s),
                         time=stats.bootstrap_ci(g["query_us"].to_numpy(float), np.median, s + 1),
                         build=float(per_map["build_ms"].mean()) if per_map is not None else np.nan,
                         memory=float(per_map["memory_bytes"].mean()) if per_map is not None else np.nan))
    by_config = cand.set_index("config") if cand is not None else None
    for x in recs:
        c = by_config.loc[x["config"]] if by_config is not None and x["config"] in by_config.index else None
        x.update(valid_share=c["valid_share"] if c is not None else np.nan,
                 solved_share=c["solved_share"] if c is not None else np.nan,
                 candidate=bool(c["is_candidate"]) if c is not None else True, reason=c["reason"] if c is not None else "")
    layers = stats.pareto_layers([(x["time"][0], x["above"][0]) if x["candidate"] else (np.nan, np.nan) for x in recs])
    for x, layer in zip(recs, layers):
        x["front"] = layer == 1
        x["layer"] = layer
    recs.sort(key=lambda x: (not x["candidate"], not x["front"], x["time"][0]))
    return TerrainCosts(recs=recs, steiner=bool(steiner), candidates=cand,
                        ref_name="the reference optimum" if steiner else "the octile reference", maps=r["map"].nunique())


def as_table(costs: TerrainCosts) -> pd.DataFrame:
    """The weighted maps' configurations in the ranked table's columns (time_median, gap_mean = the
    cost gap, build_ms, memory, layer, facet ""), for the budget answers (budget.budget_answers)."""
    return pd.DataFrame([{"config": x["config"], "representation": x["rep"], "smoothing": x["smoothing"], "facet": "",
                          "time_median": x["time"][0], "time_median_lo": x["time"][1], "time_median_hi": x["time"][2],
                          "time_median_n": x["n"], "gap_mean": x["above"][0], "gap_mean_lo": x["above"][1],
                          "gap_mean_hi": x["above"][2], "gap_mean_n": x["n"], "build_ms": x["build"],
                          "memory": x["memory"], "build_ms_n": x["maps"], "memory_n": x["maps"], "layer": x["layer"],
                          "valid_share": x["valid_share"], "solved_share": x["solved_share"],
                          "is_candidate": x["candidate"], "reason": x["reason"]}
                         for x in costs.recs])
