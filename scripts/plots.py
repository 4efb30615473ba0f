#!/usr/bin/env python3
"""Figures of navbench result sets (SPEC §4), as PNG and SVG.

    scripts/navpy.sh scripts/plots.py RESULTS... --out DIR [--formats png,svg]

RESULTS are result-set PREFIXes, PREFIX.csv files or directories of them (a sweep). Figures:
  gap_by_representation   optimality gap per representation x smoothing (box plots)
  gap_by_collection       gap per map collection, one box per configuration
  search_time_vs_length   search time against the optimal length (log-log scatter)
  build_cost              build time and memory per representation (from PREFIX.build.csv)
  pareto                  median query time vs mean gap, one labelled point per configuration
A figure with no data to show is skipped with a note on stderr. report.py imports FIGURES.
"""
from __future__ import annotations

import argparse
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common  # noqa: E402

common.require_plotting("plots.py")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

SMOOTHING_COLOURS = {"none": "#4c72b0", "los": "#dd8452", "funnel": "#55a868"}
EXTRA_COLOURS = ["#c44e52", "#8172b3", "#937860", "#da8bc3", "#8c8c8c", "#ccb974", "#64b5cd"]


class Skip(Exception):
    """A figure that has nothing to show; the message says why."""


def _smoothing_colour(s: str, order: list) -> str:
    if s in SMOOTHING_COLOURS:
        return SMOOTHING_COLOURS[s]
    return EXTRA_COLOURS[order.index(s) % len(EXTRA_COLOURS)]


def _palette(n: int) -> list:
    cmap = plt.get_cmap("tab10" if n <= 10 else "tab20")
    return [cmap(i % cmap.N) for i in range(n)]


def _solved(rows):
    return rows[rows["status"] == "ok"]


def _gap_rows(rows):
    ok = _solved(rows)
    return ok[ok["gap"].notna() & np.isfinite(ok["gap"])]


def _search_key(rows) -> list:
    """Columns that tell searches apart (smoothing aside): representation, and heuristic /
    convention when they vary."""
    return [k for k in common.config_keys(rows) if k != "smoothing"]


def _boxes(ax, data_lists, positions, colours, width):
    """Box plots at positions; empty lists are left out (matplotlib cannot draw them)."""
    keep = [i for i, d in enumerate(data_lists) if len(d)]
    if not keep:
        return
    bp = ax.boxplot([data_lists[i] for i in keep], positions=[positions[i] for i in keep],
                    widths=width, patch_artist=True, manage_ticks=False,
                    flierprops={"markersize": 1.5, "alpha": 0.3, "markeredgewidth": 0.3},
                    medianprops={"color": "black", "linewidth": 1})
    for patch, i in zip(bp["boxes"], keep):
        patch.set_facecolor(colours[i])
        patch.set_alpha(0.8)


def fig_gap_by_representation(data: common.ResultData):
    rows = _gap_rows(data.rows)
    if rows.empty:
        raise Skip("no solved rows with a gap (optimal unknown or zero everywhere)")
    keys = _search_key(rows)
    by = common.groups(rows, keys + ["smoothing"])
    searches = common.sort_key_tuples(dict.fromkeys(k[:-1] for k in by), keys)
    smooth = common.smoothing_order({k[-1] for k in by})
    fig, ax = plt.subplots(figsize=(max(6.0, 0.9 * len(searches) * len(smooth) ** 0.5 + 3), 4.5))
    width = 0.8 / len(smooth)
    handles = {}
    for si, s in enumerate(smooth):
        data_lists, positions = [], []
        for gi, g in enumerate(searches):
            sel = by.get(g + (s,))
            data_lists.append(sel["gap"].to_numpy() if sel is not None else [])
            positions.append(gi - 0.4 + width * (si + 0.5))
        colour = _smoothing_colour(s, smooth)
        _boxes(ax, data_lists, positions, [colour] * len(searches), width * 0.9)
        handles[s] = plt.Rectangle((0, 0), 1, 1, color=colour, alpha=0.8)
    ax.set_xticks(range(len(searches)))
    ax.set_xticklabels([" / ".join(map(str, g)) for g in searches], rotation=20, ha="right")
    ax.set_xlim(-0.6, len(searches) - 0.4)
    ax.set_ylabel("optimality gap (length / optimal - 1)")
    ax.set_title("Optimality gap per representation and smoothing (solved queries)")
    ax.axhline(0, color="grey", linewidth=0.5)
    ax.grid(axis="y", alpha=0.3)
    ax.legend(list(handles.values()), [f"smoothing: {s}" for s in handles], fontsize=8)
    fig.tight_layout()
    return fig


def fig_gap_by_collection(data: common.ResultData):
    rows = _gap_rows(data.rows)
    if rows.empty:
        raise Skip("no solved rows with a gap")
    keys = common.config_keys(rows)
    by = common.groups(rows, keys + ["collection"])
    configs = common.sort_key_tuples(dict.fromkeys(k[:-1] for k in by), keys)
    colls = sorted({k[-1] for k in by})
    colours = _palette(len(configs))
    fig, ax = plt.subplots(figsize=(min(40.0, max(6.0, len(colls) * (0.35 * len(configs) + 0.6) + 4)), 4.8))
    width = 0.85 / len(configs)
    for ci, c in enumerate(configs):
        data_lists, positions = [], []
        for ki, coll in enumerate(colls):
            sel = by.get(c + (coll,))
            data_lists.append(sel["gap"].to_numpy() if sel is not None else [])
            positions.append(ki - 0.425 + width * (ci + 0.5))
        _boxes(ax, data_lists, positions, [colours[ci]] * len(colls), width * 0.9)
    ax.set_xticks(range(len(colls)))
    ax.set_xticklabels([c if c else "(none)" for c in colls])
    ax.set_xlim(-0.6, len(colls) - 0.4)
    ax.set_xlabel("map collection")
    ax.set_ylabel("optimality gap")
    ax.set_title("Optimality gap by map collection")
    ax.axhline(0, color="grey", linewidth=0.5)
    ax.grid(axis="y", alpha=0.3)
    handles = [plt.Rectangle((0, 0), 1, 1, color=colours[i], alpha=0.8) for i in range(len(configs))]
    labels = [common.config_label(dict(zip(keys, c)), keys) for c in configs]
    ax.legend(handles, labels, fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    fig.tight_layout()
    return fig


def fig_search_time_vs_length(data: common.ResultData):
    ok = _solved(data.rows)
    # The exact optimum when known, else the scenario's octile optimum.
    length = ok["optimal"].where(ok["optimal"].notna(), ok["octile_optimal"])
    ok = ok.assign(_len=length)
    ok = ok[(ok["_len"] > 0) & (ok["search_us"] > 0)]
    if ok.empty:
        raise Skip("no solved rows with a positive optimal length and search time")
    keys = _search_key(ok)
    by = common.groups(ok, keys)
    colours = _palette(len(by))
    fig, ax = plt.subplots(figsize=(7.5, 5))
    for gi, grp in enumerate(common.sort_key_tuples(by.keys(), keys)):
        g = by[grp]
        # The search does not depend on the smoothing: plot one smoothing mode per search
        # configuration ('none' when present) so each query appears once.
        mode = common.smoothing_order(g["smoothing"].unique())[0]
        p = g[g["smoothing"] == mode]
        ax.scatter(p["_len"], p["search_us"], s=5 if len(ok) > 2000 else 14, alpha=0.5, color=colours[gi],
                   label=" / ".join(map(str, grp)), rasterized=len(p) > 2000, linewidths=0)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("optimal path length (map units)")
    ax.set_ylabel("search time (µs)")
    ax.set_title("Search time vs optimal length (solved queries)")
    ax.grid(which="both", alpha=0.2)
    leg = ax.legend(fontsize=8, markerscale=2)
    for h in getattr(leg, "legend_handles", None) or leg.legendHandles:
        h.set_alpha(1)
    fig.tight_layout()
    return fig


def fig_build_cost(data: common.ResultData):
    b = data.build
    if b is None or b.empty:
        raise Skip("no build rows (PREFIX.build.csv missing or empty)")
    reps = common.ordered_unique(b["representation"])
    metrics = [("build_ms", "build time (ms)"), ("memory_bytes", "memory (bytes)")]
    if all(b[m].notna().sum() == 0 for m, _ in metrics):
        raise Skip("build rows carry no build_ms or memory_bytes values")
    colours = _palette(len(reps))
    fig, axes = plt.subplots(1, 2, figsize=(max(8.0, 1.6 * len(reps) + 4), 4.5))
    for ax, (col, label) in zip(axes, metrics):
        vals = [b.loc[(b["representation"] == r), col].dropna().to_numpy() for r in reps]
        means = [v.mean() if len(v) else np.nan for v in vals]
        ax.bar(range(len(reps)), [m if np.isfinite(m) else 0 for m in means], color=colours, alpha=0.7,
               label="mean over maps")
        rng = np.random.default_rng(0)  # fixed jitter: the figure is the same on every run
        for i, v in enumerate(vals):
            if len(v):
                ax.scatter(i + rng.uniform(-0.2, 0.2, len(v)), v, s=8, color="black", zorder=3,
                           label="one map" if i == 0 else None)
        positive = [x for v in vals for x in v if x > 0]
        if positive and max(positive) / min(positive) > 100:
            ax.set_yscale("log")
        ax.set_xticks(range(len(reps)))
        ax.set_xticklabels(reps, rotation=20, ha="right")
        ax.set_ylabel(label)
        ax.set_title(label.split(" (")[0].capitalize() + " per representation")
        ax.grid(axis="y", alpha=0.3)
        if not positive:
            ax.text(0.5, 0.5, "no values", transform=ax.transAxes, ha="center", color="grey")
    axes[0].legend(fontsize=8)
    fig.tight_layout()
    return fig


def pareto_points(data: common.ResultData):
    """(label, median query time µs, mean gap) per configuration with both values known."""
    summary, keys = common.summary_table(data)
    pts = []
    for _, r in summary.iterrows() if len(summary) else []:
        t, g = r["query_us_median"], r["gap_mean"]
        if np.isfinite(t) and np.isfinite(g):
            pts.append((common.config_label(r.to_dict(), keys), float(t), float(g)))
    return pts


def _label_points(ax, pts, fontsize=7):
    """Labels points, moving a label down in steps while its (estimated) box overlaps one placed
    before: configurations with equal numbers (e.g. several optimal ones at gap 0) stay readable."""
    ax.figure.canvas.draw()  # fixes the axes transform (limits, log scale) before measuring
    placed = []
    char_w, line_h = fontsize * 0.6, fontsize * 1.3  # points
    to_pt = 72.0 / ax.figure.dpi
    for label, x, y in sorted(pts, key=lambda p: (-p[2], p[1])):
        px, py = ax.transData.transform((x, y)) * to_pt
        w = char_w * len(label)
        dy = 4.0
        while any(abs((px + 5) - qx) < max(w, qw) and abs((py + dy) - qy) < line_h
                  for qx, qy, qw in placed) and dy > -40 * line_h:
            dy -= line_h
        placed.append((px + 5, py + dy, w))
        ax.annotate(label, (x, y), textcoords="offset points", xytext=(5, dy), fontsize=fontsize,
                    arrowprops={"arrowstyle": "-", "color": "grey", "linewidth": 0.5} if dy < 0 else None)


def fig_pareto(data: common.ResultData):
    pts = pareto_points(data)
    if not pts:
        raise Skip("no configuration has both a query time and a mean gap")
    fig, ax = plt.subplots(figsize=(7.5, 5))
    xs = np.array([p[1] for p in pts])
    ys = np.array([p[2] for p in pts])
    front = common.pareto_front(list(zip(xs, ys)))
    colours = _palette(len(pts))
    for i, (label, x, y) in enumerate(pts):
        ax.scatter([x], [y], s=40 if i in front else 20, color=colours[i], zorder=3,
                   edgecolors="black" if i in front else "none")
    if xs.min() > 0 and xs.max() / xs.min() > 10:
        ax.set_xscale("log")
    ymin, ymax = ys.min(), ys.max()
    pad = (ymax - ymin) * 0.1 or max(abs(ymax) * 0.1, 0.01)
    ax.set_ylim(ymin - pad, ymax + pad)
    _label_points(ax, [(p[0], p[1], p[2]) for p in pts])
    if len(front) > 1:
        order = sorted(front, key=lambda i: xs[i])
        ax.step(xs[order], ys[order], where="post", color="grey", linestyle="--", linewidth=1,
                label="Pareto front")
        ax.legend(fontsize=8)
    ax.set_xlabel("median query time: locate + search + smooth (µs)")
    ax.set_ylabel("mean optimality gap")
    ax.set_title("Speed vs path quality (lower left is better)")
    ax.grid(which="both", alpha=0.2)
    fig.tight_layout()
    return fig


# (file stem, title, function) — the order of the report.
FIGURES = [
    ("gap_by_representation", "Optimality gap per representation and smoothing", fig_gap_by_representation),
    ("gap_by_collection", "Optimality gap by map collection", fig_gap_by_collection),
    ("search_time_vs_length", "Search time vs optimal length", fig_search_time_vs_length),
    ("build_cost", "Build time and memory per representation", fig_build_cost),
    ("pareto", "Pareto chart: query time vs gap", fig_pareto),
]


def make_figures(data: common.ResultData):
    """Yields (stem, title, figure or None, skip reason or None) for every figure."""
    for stem, title, fn in FIGURES:
        try:
            fig = fn(data)
        except Skip as s:
            yield stem, title, None, str(s)
            continue
        yield stem, title, fig, None


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("results", nargs="+", help="result-set PREFIX, PREFIX.csv or directory")
    ap.add_argument("--out", required=True, help="output directory (created)")
    ap.add_argument("--formats", default="png,svg", help="comma-separated formats (default png,svg)")
    ap.add_argument("--dpi", type=int, default=120)
    args = ap.parse_args()
    formats = [f.strip().lower() for f in args.formats.split(",") if f.strip()]
    bad = [f for f in formats if f not in ("png", "svg", "pdf")]
    if bad or not formats:
        raise common.InputError(f"--formats: unsupported format(s) {','.join(bad) or '(none)'}; use png,svg,pdf")
    data = common.load(args.results)
    for n in data.notes:
        common.note(f"plots.py: note: {n}")
    os.makedirs(args.out, exist_ok=True)
    written = 0
    for stem, _title, fig, reason in make_figures(data):
        if fig is None:
            common.note(f"plots.py: skipped {stem}: {reason}")
            continue
        for fmt in formats:
            path = os.path.join(args.out, f"{stem}.{fmt}")
            fig.savefig(path, dpi=args.dpi)
            written += 1
        plt.close(fig)
    print(f"plots.py: wrote {written} file(s) to {args.out} from {len(data.rows)} rows")
    return 0


if __name__ == "__main__":
    common.run_main("plots.py", main)
