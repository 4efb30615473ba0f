"""The changing maps' numbers (docs/changing-maps.md): one row per update (update and rebuild time,
cells changed) over the run and the --dynamic inputs, and per scenario and representation the
median and p95 update, the median rebuild and rebuild ÷ update, with 95 % bootstrap intervals over
the updates, and the total time of the updates and of the scenario's queries (update_summary.csv)."""
from __future__ import annotations

import math

import numpy as np
import pandas as pd

from navbench import stats
from navreport.analysis.rows import SMOOTH_RANK, companion_rows, plain, uniques
from navreport.io import results as common


def update_rows(analysis):
    """The updates of every changing-map run read (PREFIX.updates.csv) with rebuild ÷ update as
    `ratio`, None without any."""
    u = companion_rows(analysis, "updates")
    if u is None:
        return None
    u = u[u["update_us"].notna()].copy()
    u["ratio"] = u["rebuild_us"] / u["update_us"].where(u["update_us"] > 0)
    return u


def update_summary(analysis, u) -> pd.DataFrame:
    """Per scenario (map) and representation, in the order of the updates."""
    parts = [d.rows for d in [analysis.data] + analysis.dynamic if len(d.rows) and "epoch" in d.rows.columns]
    rows = common.concat_frames([plain(common.take_rows(r, np.arange(len(r)), ["map", "representation", "smoothing"])).assign(
        t=r["query_us"] if "query_us" in r.columns else common.query_time_us(r)) for r in parts]) if parts else pd.DataFrame()
    qt = pd.DataFrame()
    if len(rows):
        sm = sorted(uniques(rows["smoothing"]), key=lambda x: (SMOOTH_RANK.get(x, 3), x))[0]
        d = rows[(rows["smoothing"] == sm).to_numpy(bool)]
        qt = d.groupby(["map", "representation"], observed=True)["t"].agg(["sum", "count"])
    summary = []
    for (mp, rep), g in u.groupby(["map", "representation"], sort=False):
        sd = stats.seed_for(analysis.seed, "update", mp, rep)
        res = stats.resample_stats({"u": g["update_us"], "b": g["rebuild_us"], "r": g["ratio"]},
                                   {"u": ("u", stats.nan_median), "u95": ("u", stats.nan_quantile(0.95)),
                                    "b": ("b", stats.nan_median), "r": ("r", stats.nan_median)}, sd)
        tot_u = g["update_us"].sum() / 1e6
        tq = qt.loc[(mp, rep)] if (mp, rep) in qt.index else None
        tot_q = tq["sum"] / 1e6 if tq is not None else math.nan
        nq = int(tq["count"]) if tq is not None else 0
        summary.append({"map": mp, "representation": rep, "updates": len(g),
                        "cells_changed_median": g["cells_changed"].median(),
                        **{f"{k}{part}": v for k in ("update_median", "update_p95", "rebuild_median", "ratio_median")
                           for part, v in zip(("", "_lo", "_hi", "_n"), res[{"update_median": "u", "update_p95": "u95",
                                                                          "rebuild_median": "b", "ratio_median": "r"}[k]])},
                        "updates_total_s": tot_u, "queries_total_s": tot_q, "queries": nq})
    return pd.DataFrame(summary)
