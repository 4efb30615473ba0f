"""Two runs compared (report.py --compare): per configuration present in both runs, the ratio of
medians (B / A) of query time and expansions over solved queries, and of build time over maps,
with 95 % bootstrap intervals (paired over the queries both runs solved when they ran the same
queries)."""
from __future__ import annotations

import pandas as pd

from navbench import stats
from navreport.analysis.rows import PAIR_COLUMNS, build_per_map, config_order, pair_frame, uniques
from navreport.io import results as common


def compare_table(a, b, seed: int) -> pd.DataFrame:
    """Per configuration present in both runs: the ratio of medians (B / A) of query time and
    expansions over solved queries, and of build time over maps, with 95 % bootstrap intervals
    (paired over the queries both runs solved when they ran the same queries)."""
    recs = []
    for cfg in config_order(a.rows):
        cols = [c for c in PAIR_COLUMNS if c in a.rows.columns] + ["representation", "query_us", "expansions"]
        ga = common.take_rows(a.rows, ((a.rows["config"] == cfg) & (a.rows["status"] == "ok")).to_numpy(bool), cols)
        cols = [c for c in PAIR_COLUMNS if c in b.rows.columns] + ["representation", "query_us", "expansions"]
        gb = common.take_rows(b.rows, ((b.rows["config"] == cfg) & (b.rows["status"] == "ok")).to_numpy(bool), cols)
        if ga.empty or gb.empty:
            continue
        rec = {"config": cfg, "representation": ga.iloc[0]["representation"]}
        for col in ("query_us", "expansions"):
            pa, pb = pair_frame(ga, col), pair_frame(gb, col)
            common_idx = pa.index.intersection(pb.index)
            paired = len(common_idx) >= 0.9 * max(len(pa), len(pb))
            if paired:
                r = stats.ratio_of_medians(pa.loc[common_idx].to_numpy(), pb.loc[common_idx].to_numpy(),
                                           stats.seed_for(seed, "compare", cfg, col), paired=True)
            else:
                r = stats.ratio_of_medians(pa.to_numpy(), pb.to_numpy(), stats.seed_for(seed, "compare", cfg, col),
                                           paired=False)
            rec.update({f"{col}_ratio": r["ratio"], f"{col}_lo": r["lo"], f"{col}_hi": r["hi"],
                        f"{col}_na": r["na"], f"{col}_nb": r["nb"], f"{col}_paired": paired,
                        f"{col}_med_a": float(pa.median()), f"{col}_med_b": float(pb.median())})
        ba = build_per_map(a.data.build, {rec["representation"]}, uniques(ga["map"]))
        bb = build_per_map(b.data.build, {rec["representation"]}, uniques(gb["map"]))
        if len(ba) and len(bb):
            j = ba.merge(bb, on=[c for c in ("representation", "map", "terrain") if c in ba.columns and c in bb.columns],
                         suffixes=("_a", "_b"))
            r = stats.ratio_of_medians(j["build_ms_a"].to_numpy(), j["build_ms_b"].to_numpy(),
                                       stats.seed_for(seed, "compare", cfg, "build"), paired=True)
            rec.update({"build_ratio": r["ratio"], "build_lo": r["lo"], "build_hi": r["hi"], "build_n": r["na"]})
        recs.append(rec)
    return pd.DataFrame(recs)
