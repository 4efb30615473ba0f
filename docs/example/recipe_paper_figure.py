#!/usr/bin/env python3
"""Recipe: a figure for a paper, one column wide (3.4 in), 8 pt text, TrueType fonts, every point
labelled (docs/results.md#recipes). For the report's own figures: scripts/plots.py --paper single.

    scripts/navpy.sh docs/example/recipe_paper_figure.py RESULTS OUT.pdf [--collections NAME]
"""
import sys

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

import navbench  # noqa: E402
from navbench import style  # noqa: E402

res = navbench.load(sys.argv[1])
subset = sys.argv[4] if len(sys.argv) > 4 and sys.argv[3] == "--collections" else None
if subset:
    res = navbench.select(res, collections=subset)
plain = res.queries[res.queries["terrain"].astype(str) == ""] if "terrain" in res.queries else res.queries
t = navbench.summarize(plain, by=["representation", "smoothing"])
with matplotlib.rc_context(style.rc(style.PAPER_FONT)):
    fig, ax = plt.subplots(figsize=(style.PAPER_WIDTHS["single"], 2.4))
    ax.errorbar(t["time_median"], 100 * t["gap_mean"],
                xerr=[t["time_median"] - t["time_median_lo"], t["time_median_hi"] - t["time_median"]],
                yerr=[100 * (t["gap_mean"] - t["gap_mean_lo"]), 100 * (t["gap_mean_hi"] - t["gap_mean"])],
                fmt="o", ms=3, lw=0.6)
    labels = {}  # a representation's smoothing modes of one gap share a label: "visgraph · none, los"
    for _, r in t.iterrows():
        labels.setdefault((r["representation"], round(100 * r["gap_mean"], 1)), []).append(r)
    for (rep, y), rs in labels.items():
        text = f"{rep} · " + ", ".join(str(r["smoothing"]) for r in rs)
        ax.annotate(text, (rs[0]["time_median"], y), xytext=(3, 3), textcoords="offset points", fontsize=6)
    ax.set_xscale("log")
    ax.set_xlabel("median query time (µs)")
    ax.set_ylabel("mean gap (%)")
    ax.set_title(f"Speed vs path quality — {('collection ' + subset) if subset else 'all maps'}")
    fig.savefig(sys.argv[2], bbox_inches="tight")
print(f"wrote {sys.argv[2]}")
