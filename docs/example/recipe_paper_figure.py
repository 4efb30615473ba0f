#!/usr/bin/env python3
"""Recipe: a figure for a paper, one column wide (3.4 in) and at most 4 in tall, 8 pt text,
TrueType fonts, every configuration its own colour and marker pair (navbench.style; docs/results.md#recipes):
median query time against mean gap on the plain maps, one point per configuration with its
95 % intervals. For the report's own figures: scripts/plots.py RESULTS --out DIR --paper single.

    scripts/navpy.sh docs/example/recipe_paper_figure.py RESULTS OUT.pdf [--collections NAME]
"""
import sys

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.lines import Line2D  # noqa: E402

import navbench  # noqa: E402
from navbench import style  # noqa: E402
from navbench.labels import search_label  # noqa: E402

res = navbench.load(sys.argv[1])
subset = sys.argv[4] if len(sys.argv) > 4 and sys.argv[3] == "--collections" else None
if subset:
    res = navbench.select(res, collections=subset)
q = res.queries
plain = q[(q["terrain"].astype(str) == "") & q["radius"].fillna(0).eq(0)]     # plain maps, a point agent
t = navbench.summarize(plain, by=["representation", "search", "smoothing"])
t = t[t["time_median"].notna() & t["gap_mean"].notna()]
t["how"] = [search_label(s, m) for s, m in zip(t["search"].astype(str), t["smoothing"].astype(str))]  # 'los', 'theta + los'
colour = style.colours(t["representation"])   # a colour per representation,
marker = style.markers(t["how"])               # a marker per search and smoothing: each point its own pair
with matplotlib.rc_context(style.rc(style.PAPER_FONT)):
    fig, ax = plt.subplots(figsize=(style.PAPER_WIDTHS["single"], 2.3))
    for _, r in t.iterrows():
        ax.errorbar(r["time_median"], 100 * r["gap_mean"],
                    xerr=[[r["time_median"] - r["time_median_lo"]], [r["time_median_hi"] - r["time_median"]]],
                    yerr=[[100 * (r["gap_mean"] - r["gap_mean_lo"])], [100 * (r["gap_mean_hi"] - r["gap_mean"])]],
                    fmt=marker[r["how"]], color=colour[r["representation"]], ms=4, lw=0.5, mec="#333", mew=0.3)
    ax.set_xscale("log")
    ax.set_xlabel("median query time (µs, log)")
    ax.set_ylabel("mean gap (%)")
    ax.set_title(f"Speed vs path quality\n{('collection ' + subset) if subset else 'all maps'}, plain maps")
    keys = ([Line2D([], [], ls="", marker="o", color=c, mec="#333", mew=0.3, label=n) for n, c in colour.items()] +
            [Line2D([], [], ls="", marker=m, color="#999", mec="#333", mew=0.3, label=n) for n, m in marker.items()])
    ax.legend(handles=keys, loc="upper center", bbox_to_anchor=(0.5, -0.2), ncol=3, frameon=False,  # below the x label
              fontsize=style.PAPER_FONT * 0.75, handletextpad=0.2, columnspacing=0.8)
    fig.savefig(sys.argv[2], bbox_inches="tight")
print(f"wrote {sys.argv[2]} ({len(t)} configurations)")
