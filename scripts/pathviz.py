#!/usr/bin/env python3
"""Path pictures: the map, and for each representation its raw path (smoothing none) and its
smoothed paths (los, funnel) for chosen queries, one subplot per representation.

    scripts/navpy.sh scripts/pathviz.py --map FILE.map|FILE.wkt|FILE.yaml|FILE.png|FILE.mesh --paths PREFIX[.paths.csv]
        [--scen-index 0,5,7|auto|median] [--rep NAME ...] [--heuristic NAME] [--structure FILE]
        [--zoom MARGIN] [--out DIR] [--formats png,svg] [--traces INDEX|none]
    scripts/navpy.sh scripts/pathviz.py --batch FILE [--jobs N]

--batch: each line of FILE is the options of one such command (quoted as a shell would; blank lines
and # comments skipped), drawn in this one process (N processes forked from it, default 1, the lines
taken in order): each picture set saves the ~2 s of starting Python and importing matplotlib and
pandas (scripts/run-default draws its ~15 sets so). Exit status: the largest of the lines'.

Writes DIR/paths_<map>_<scen_index>.<fmt> per query (paths_<map>-weighted_<scen_index> for a weighted map:
--terrain TABLE or --costs FILE picks its rows and shades the cells by weight, docs/terrain.md). Paths of a disc agent (docs/radius.md, paths.csv
with a `radius` column) are drawn with their arcs as arcs (Bezier arcs in the vector output) and the
disc at the start, the goal and a few points between; with several radii, --radius chooses one
(default: the largest). When PREFIX.structure.csv exists (or
--structure names one; columns representation,kind,x1,y1,x2,y2) its 'segment' rows — edges,
cell borders — are drawn faintly beneath the paths. When PREFIX.csv exists, legend entries show
each path's length, gap and validity, and representations without a path show their status.
When the run traced the pictured queries (`navbench run --trace N`, docs/traces.md; the index
traces/NAME.traces.csv beside PREFIX.csv, or --traces INDEX), each traced subplot also shows its
search's expanded vertices as a faint layer under the paths, their count in its title.
"""
from __future__ import annotations

import argparse
import math
import os
import shlex
import sys

from navreport.io.errors import require_plotting, run_main

require_plotting("pathviz.py")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
from matplotlib.colors import ListedColormap  # noqa: E402
from matplotlib.patches import Circle, PathPatch  # noqa: E402
from matplotlib.path import Path  # noqa: E402

from navbench import maps as mapfiles  # noqa: E402
from navbench import style  # noqa: E402
from navreport.io import path_items  # noqa: E402
from navreport.io import results as common  # noqa: E402
from navreport.io import traces as tracefiles  # noqa: E402

SMOOTHING_STYLE = {
    "none": {"color": "#4c72b0", "linestyle": "--", "marker": "o", "markersize": 2.5, "linewidth": 1.4},
    "los": {"color": "#dd8452", "linestyle": "-", "marker": None, "linewidth": 1.8},
    "funnel": {"color": "#2ca02c", "linestyle": "-", "marker": None, "linewidth": 1.8},
}
OTHER_COLOURS = ["#c44e52", "#8172b3", "#937860", "#da8bc3"]
BLOCKED = "#4d4d4d"
# Cell weights (docs/terrain.md): white at 1, sand to brown for dearer ground.
WEIGHTS = ListedColormap(plt.get_cmap("YlOrBr")(np.linspace(0.0, 0.75, 256)))
STRUCTURE = "#6f8fbf"
EXPANDED = "#e07b00"  # the viewer's and posthoc's expand colour (docs/traces.md)


def draw_expanded(ax, rep, lay) -> str:
    """The traced search's expanded vertices as small faint squares beneath the paths (one artist,
    SVG group id expanded-REP); returns the title's note, e.g. '1,234 expanded'."""
    pts = np.array(lay["points"], dtype=float).reshape(-1, 2)
    if len(pts):
        ax.plot(pts[:, 0], pts[:, 1], linestyle="none", marker="s", markersize=2.0 if len(pts) < 5000 else 1.2,
                markeredgewidth=0, color=EXPANDED, alpha=0.35, zorder=1.5, gid=f"expanded-{rep}",
                rasterized=len(pts) > 20000, scalex=False, scaley=False)
    if lay["answered"] == "table":  # visgraph's and subgoal's all-pairs table: no search to draw
        return "answered from its table"
    note = f"{lay['count']:,} expanded" + ("" if lay["search"] == "astar" else f" ({lay['search']})")
    if lay["truncated"]:
        note += f", first {len(pts):,} drawn"
    return note + "".join(f"; {s} {c:,}" for s, c in lay["others"])


def _ring_path(rings):
    """A compound matplotlib Path of a polygon: outer ring counter-clockwise, holes clockwise, so
    the nonzero fill rule leaves the holes empty."""
    verts, codes = [], []
    for k, ring in enumerate(rings):
        pts = list(ring)
        if pts[0] == pts[-1]:
            pts = pts[:-1]
        area = sum(x0 * y1 - x1 * y0 for (x0, y0), (x1, y1) in zip(pts, pts[1:] + pts[:1]))
        if (area < 0) == (k == 0):
            pts.reverse()
        verts.extend(pts + [pts[0]])
        codes.extend([Path.MOVETO] + [Path.LINETO] * (len(pts) - 1) + [Path.CLOSEPOLY])
    return Path(verts, codes)


def draw_map(ax, m):
    if isinstance(m, mapfiles.GridMap):
        ax.imshow(m.blocked.astype(np.uint8), cmap=ListedColormap(["white", BLOCKED]), vmin=0, vmax=1,
                  extent=(0, m.width, m.height, 0), interpolation="nearest", zorder=0, rasterized=True)
        if m.weights is not None:  # docs/terrain.md: each free cell shaded by its weight (1: white)
            top = max(float(np.nanmax(m.weights)), 1.0 + 1e-9)
            shade = np.ma.masked_invalid(m.weights)
            im = ax.imshow(shade, cmap=WEIGHTS, vmin=1.0, vmax=top, extent=(0, m.width, m.height, 0),
                           interpolation="nearest", zorder=0.5, rasterized=True)
            cb = ax.figure.colorbar(im, ax=ax, fraction=0.035, pad=0.01)
            cb.set_label("cell weight (cost per unit length)")
        ax.set_xlim(0, m.width)
        ax.set_ylim(m.height, 0)
    else:
        xmin, ymin, xmax, ymax = m.bounds
        ax.set_facecolor(BLOCKED)
        for poly in m.walkable:
            ax.add_patch(PathPatch(_ring_path(poly), facecolor="white", edgecolor="none", zorder=0))
        for poly in m.obstacles:
            ax.add_patch(PathPatch(_ring_path(poly), facecolor=BLOCKED, edgecolor="none", zorder=0))
        ax.set_xlim(xmin, xmax)
        ax.set_ylim(ymax, ymin)  # y grows downwards, as on grid maps
    ax.set_aspect("equal")


def read_structure(path: str):
    df = common.read_csv_typed(path, ["representation", "kind", "x1", "y1", "x2", "y2"], {"representation", "kind"},
                          required=["representation", "kind", "x1", "y1", "x2", "y2"])
    bad = df[["x1", "y1", "x2", "y2"]].isna().any(axis=1)
    if bad.any():
        raise common.InputError(f"{path}: {int(bad.sum())} row(s) with non-numeric coordinates")
    return df.reset_index(drop=True)


def parse_indices(text: str) -> list[int]:
    out = []
    for part in text.split(","):
        part = part.strip()
        if not part:
            continue
        if "-" in part:
            a, b = part.split("-", 1)
            try:
                out.extend(range(int(a), int(b) + 1))
            except ValueError:
                raise common.InputError(f"--scen-index: bad range '{part}'")
        else:
            try:
                out.append(int(part))
            except ValueError:
                raise common.InputError(f"--scen-index: bad index '{part}'")
    return out


def items_path(items) -> Path:
    """docs/radius.md path items as one matplotlib Path: segments as lines, arcs as arcs (cubic Bezier arcs,
    Path.arc), so the picture shows the arc itself, not a chord."""
    verts, codes = [items[0][1:]], [Path.MOVETO]
    i = 1
    while i < len(items):
        kind, x, y = items[i]
        if kind != "arc":
            verts.append((x, y))
            codes.append(Path.LINETO)
            i += 1
            continue
        a, c, b = verts[-1], (x, y), items[i + 1][1:]
        r, t0, sweep = path_items.arc_angles(a, c, b)
        lo, hi = (t0, t0 + sweep) if sweep >= 0 else (t0 + sweep, t0)
        unit = Path.arc(math.degrees(lo), math.degrees(hi))
        pts = unit.vertices * r + np.array(c)
        if sweep < 0:
            pts = pts[::-1]
        verts.extend(map(tuple, pts[1:]))
        codes.extend(unit.codes[1:])
        verts[-1] = b  # exactly the arc's end point
        i += 2
    return Path(verts, codes)


def draw_discs(ax, items, R, colour):
    """The agent's disc at the start, the goal and three points evenly spaced along the path."""
    pts = path_items.items_polyline(items)
    cum = [0.0]
    for p, q in zip(pts, pts[1:]):
        cum.append(cum[-1] + math.dist(p, q))
    spots = []
    for f in (0.0, 0.25, 0.5, 0.75, 1.0):
        target = f * cum[-1]
        j = min(range(len(cum)), key=lambda k: abs(cum[k] - target))
        spots.append(pts[j])
    for x, y in spots:
        ax.add_patch(Circle((x, y), R, facecolor=colour, edgecolor=colour, alpha=0.18, linewidth=0.8, zorder=2.5))


def _fmt_gap(g) -> str:
    return "" if g is None or not np.isfinite(g) else f", gap {100 * g:.2f}%"


def draw_query(m, idx, reps, paths, results, structure, zoom, max_segments, role="", radius=0.0, layers=None):
    """One figure: a subplot per representation with its paths of query idx (layers: rep -> the
    expanded-vertex layer of its traced search, tracefiles.layer)."""
    n = len(reps)
    ncols = min(n, 3)
    nrows = math.ceil(n / ncols)
    width = m.width if isinstance(m, mapfiles.GridMap) else m.bounds[2] - m.bounds[0]
    height = m.height if isinstance(m, mapfiles.GridMap) else m.bounds[3] - m.bounds[1]
    sub_w = 4.8
    sub_h = min(6.0, max(2.5, sub_w * height / max(width, 1e-9))) + 1.2
    fig, axes = plt.subplots(nrows, ncols, figsize=(sub_w * ncols, sub_h * nrows), squeeze=False)
    all_pts = []
    for ax, rep in zip(axes.flat, reps):
        draw_map(ax, m)
        if structure is not None:
            seg = structure[(structure["representation"] == rep) & (structure["kind"] == "segment")]
            if len(seg) > max_segments:
                seg = seg.iloc[np.linspace(0, len(seg) - 1, max_segments).astype(int)]
                ax.text(0.01, 0.01, f"structure: {max_segments} of its segments", transform=ax.transAxes,
                        fontsize=6, color=STRUCTURE)
            if len(seg):
                # One polyline with a NaN break after each segment: a single artist (a LineCollection
                # makes one Path object per segment, most of a picture's time on a maze).
                xy = np.full((3 * len(seg), 2), np.nan)
                xy[0::3] = seg[["x1", "y1"]].to_numpy()
                xy[1::3] = seg[["x2", "y2"]].to_numpy()
                # Faint, and fainter the denser the structure (a 256x256 grid8 has ~250k edges): the
                # map and the paths must stay readable beneath it.
                alpha = max(0.05, min(0.45, 0.45 * math.sqrt(4000 / len(seg))))
                ax.plot(xy[:, 0], xy[:, 1], color=STRUCTURE, linewidth=0.5 if len(seg) < 20000 else 0.3, alpha=alpha,
                        zorder=1, rasterized=len(seg) > 5000, scalex=False, scaley=False)
        title = rep
        if layers and layers.get(rep) is not None:
            title += " — " + draw_expanded(ax, rep, layers[rep])
        mine = paths[(paths["representation"] == rep) & (paths["scen_index"] == idx)]
        handles = []
        extra = 0
        discs_drawn = False
        for _, row in mine.iterrows():
            items = path_items.parse_path_items(row["points"], f"paths row {rep}/{row['smoothing']}")
            if not items:
                continue
            pts = [it[1:] for it in items if it[0] == "p"]
            all_pts.extend(pts)
            style = dict(SMOOTHING_STYLE.get(row["smoothing"],
                                             {"color": OTHER_COLOURS[extra % len(OTHER_COLOURS)], "linestyle": "-",
                                              "linewidth": 1.6}))
            if row["smoothing"] not in SMOOTHING_STYLE:
                extra += 1
            label = ("raw" if row["smoothing"] == "none" else row["smoothing"]) + \
                f": {path_items.items_length(items):.3f}"
            res = results.get((rep, row["heuristic"], row["smoothing"], row["convention"], idx))
            if res is not None:
                label += _fmt_gap(res.get("gap"))
                cost = res.get("cost")
                if cost is not None and np.isfinite(cost):  # docs/terrain.md: a weighted map's path cost
                    label += f", cost {cost:.3f}"
                if res.get("valid") == 0:
                    label += " INVALID"
                    style["color"] = "#d62728"
            xs, ys = zip(*pts)
            # The raw path goes on top: it is dashed, so the smoothed paths it overlaps stay visible.
            z = 3.5 if row["smoothing"] == "none" else 3
            if any(it[0] == "arc" for it in items):
                patch = PathPatch(items_path(items), fill=False, edgecolor=style["color"], zorder=z, label=label,
                                  linestyle=style.get("linestyle") or "-", linewidth=style.get("linewidth") or 1.6)
                ax.add_patch(patch)
                if style.get("marker"):
                    ax.plot(xs, ys, linestyle="none", marker=style["marker"], markersize=style.get("markersize", 3),
                            color=style["color"], zorder=z)
                handles.append(patch)
            else:
                (h,) = ax.plot(xs, ys, zorder=z, label=label, **{k: v for k, v in style.items() if v is not None})
                handles.append(h)
            if radius > 0 and not discs_drawn:
                draw_discs(ax, items, radius, style["color"])
                discs_drawn = True
        if len(mine):
            first = path_items.parse_points(mine.iloc[0]["points"])  # (arc centres skipped)
            if first:
                ax.plot(*first[0], "o", color="#2ca02c", markersize=6, markeredgecolor="black", zorder=4)
                ax.plot(*first[-1], "*", color="#d62728", markersize=10, markeredgecolor="black", zorder=4)
        else:
            statuses = sorted({r["status"] for k, r in results.items() if k[0] == rep and k[4] == idx})
            ax.text(0.5, 0.5, "no path" + (f" ({', '.join(statuses)})" if statuses else ""),
                    transform=ax.transAxes, ha="center", va="center", fontsize=10,
                    bbox={"facecolor": "white", "alpha": 0.8})
        ax.set_title(title, fontsize=9)
        ax.tick_params(labelsize=7)
        if handles:
            # Below the map, not over it: the paths stay visible.
            ax.legend(handles=handles, fontsize=8, loc="upper center", bbox_to_anchor=(0.5, -0.06), framealpha=0.9,
                      ncol=1)
    for ax in list(axes.flat)[n:]:
        ax.set_visible(False)
    if zoom is not None and all_pts:
        xs, ys = zip(*all_pts)
        for ax in list(axes.flat)[:n]:
            ax.set_xlim(min(xs) - zoom, max(xs) + zoom)
            ax.set_ylim(max(ys) + zoom, min(ys) - zoom)
    fig.suptitle(f"{m.name} — query {idx}" + (f", agent radius {radius:g}" if radius > 0 else "") +
                 (f" ({role})" if role else ""), fontsize=12)
    fig.tight_layout()
    return fig


def auto_indices(results: dict, available: list, only_median: bool = False) -> dict:
    """The queries worth a picture: shortest, median and longest optimal length among the queries
    with paths, and the one with the worst gap of any path (only_median: the median one alone).
    Returns {scen_index: role}."""
    length, gap = {}, {}
    for (rep, _h, _s, _c, idx), rec in results.items():
        if idx not in available or rec.get("status") != "ok":
            continue
        ref = rec.get("optimal")
        if ref is None or not np.isfinite(ref):
            ref = rec.get("octile_optimal")
        if ref is not None and np.isfinite(ref):
            length[idx] = ref
        g = rec.get("gap")
        if g is not None and np.isfinite(g):
            gap[idx] = max(gap.get(idx, -1.0), g)
    if not length:
        return {i: "" for i in available[:3]}
    by_len = sorted(length, key=lambda i: (length[i], i))
    picks = {}
    for role, idx in (("shortest", by_len[0]), ("median length", by_len[len(by_len) // 2]),
                      ("longest", by_len[-1])):
        picks.setdefault(idx, role)
    if only_median:
        return {by_len[len(by_len) // 2]: "median length"}
    if gap:
        worst = max(gap, key=lambda i: (gap[i], -i))
        picks[worst] = (picks[worst] + ", " if worst in picks else "") + f"worst gap {100 * gap[worst]:.1f}%"
    return picks


def pick_terrain(df, terrain: str, where: str):
    """The rows of the plain map (terrain "") or of the map with these weights (docs/terrain.md)."""
    if "terrain" not in df.columns:
        if terrain:
            raise common.InputError(f"--terrain/--costs: {where} has no weighted rows (no terrain column)")
        return df
    col = df["terrain"].astype(object).where(df["terrain"].notna(), "").astype(str)
    if terrain and not (col == terrain).any():
        raise common.InputError(f"--terrain/--costs {terrain}: no rows in {where} (has "
                                f"{', '.join(sorted(set(col) - {''})) or 'none'})")
    return df[(col == terrain).to_numpy(bool)]


def results_lookup(paths_file: str, map_name: str, radius=None, terrain: str = "") -> dict:
    """(representation, heuristic, smoothing, convention, scen_index) -> dict of the result row,
    from the PREFIX.csv next to the paths file (empty when there is none)."""
    if not paths_file.endswith(".paths.csv"):
        return {}
    csv = paths_file[:-len(".paths.csv")] + ".csv"
    if not os.path.isfile(csv):
        return {}
    df = common.read_results_csv(csv, maps=[map_name])
    df = pick_terrain(df[df["map"] == map_name], terrain, csv).copy()
    common.fold_search_frame(df)  # Theta* rows: their own label (docs/path-quality.md)
    if radius is not None and "radius" in df.columns:
        df = df[pd_numeric(df["radius"]) == radius]
    out = {}
    for rec in df.to_dict("records"):
        if not np.isfinite(rec.get("scen_index", np.nan)):
            continue
        out[(rec["representation"], rec["heuristic"], rec["smoothing"], rec["convention"],
             int(rec["scen_index"]))] = rec
    return out


def pd_numeric(col):
    import pandas as pd
    return pd.to_numeric(col, errors="coerce")


def trace_index(option, paths_file: str, terrain: str):
    """The traces index to draw from (--traces INDEX, 'none', or the one beside the paths file when
    present) and its rows; no rows for a weighted map (the index has no terrain column: its traces may
    be the plain map's)."""
    tindex = option if option != "none" else None
    if option is None:
        candidate = tracefiles.index_path(paths_file)
        tindex = candidate if os.path.isfile(candidate) else None
    elif tindex is not None and not os.path.isfile(tindex):
        raise common.InputError(f"--traces {tindex}: no such traces index")
    return tindex, (tracefiles.read_index(tindex) if tindex and not terrain else [])


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--map", required=True, help="Moving AI .map, WKT .wkt, ROS map .yaml, bare .png/.pgm or Polyanya .mesh file")
    ap.add_argument("--paths", required=True, help="PREFIX.paths.csv (or PREFIX)")
    ap.add_argument("--scen-index", help="comma-separated indices or ranges (a-b), or 'auto': the shortest, median "
                    "and longest query and the one with the worst gap, or 'median': the median one alone; "
                    "default: first 3 with paths")
    ap.add_argument("--rep", action="append", help="representation(s) to draw (repeatable); default: all")
    ap.add_argument("--heuristic", help="heuristic to draw when the file holds several; default: the first")
    ap.add_argument("--structure", help="structure CSV (default: PREFIX.structure.csv when present)")
    ap.add_argument("--radius", type=float, help="agent radius to draw when the paths hold several (default: the largest)")
    ap.add_argument("--zoom", type=float, metavar="MARGIN", help="crop to the paths' bounding box + MARGIN")
    ap.add_argument("--terrain", default="", help="draw the rows of the map weighted by this terrain table "
                    "(e.g. S=2,W=5; docs/terrain.md), the weights as shades; default: the plain map's rows")
    ap.add_argument("--costs", default="", help="draw the rows of the map weighted by this cost layer file, "
                    "the weights as shades")
    ap.add_argument("--traces", help="traces index (docs/traces.md) whose expanded vertices to draw; default: "
                    "traces/NAME.traces.csv beside the paths file when present; 'none': no layer")
    ap.add_argument("--max-segments", type=int, default=200000, help="structure segments drawn per subplot")
    ap.add_argument("--out", default=".", help="output directory (default .)")
    ap.add_argument("--formats", default="png,svg")
    ap.add_argument("--dpi", type=int, default=120)
    args = ap.parse_args(argv)

    formats = [f.strip().lower() for f in args.formats.split(",") if f.strip()]
    if not formats or any(f not in ("png", "svg", "pdf") for f in formats):
        raise common.InputError("--formats: use a comma-separated list of png, svg, pdf")
    m = mapfiles.read_map(args.map)
    terrain = args.terrain or (os.path.basename(args.costs) if args.costs else "")
    if terrain:
        if not isinstance(m, mapfiles.GridMap):
            raise common.InputError("--terrain/--costs need a grid map (.map)")
        m.weights = mapfiles.weigh_map(m, args.terrain, args.costs)
    paths_file = args.paths if args.paths.endswith(".csv") else args.paths + ".paths.csv"
    if not os.path.isfile(paths_file):
        raise common.InputError(f"{paths_file}: no such paths file (run navbench with --paths)")
    paths = common.read_paths_csv(paths_file, maps=[m.name])
    paths = paths[paths["map"] == m.name].copy()
    paths = pick_terrain(paths, terrain, paths_file)
    common.fold_search_frame(paths)  # Theta* paths: their own label (docs/path-quality.md)
    if paths.empty:
        maps_there = sorted(set(common.read_table(paths_file, "paths", common.schema_for(paths_file), columns=["map"])["map"]))
        raise common.InputError(f"{paths_file}: no paths for map '{m.name}' (maps there: "
                                f"{', '.join(maps_there[:8]) or 'none'})")
    heuristics = common.ordered_unique(paths["heuristic"])
    heuristic = args.heuristic or heuristics[0]
    if heuristic not in heuristics:
        raise common.InputError(f"--heuristic {heuristic}: not in {paths_file} (has {', '.join(heuristics)})")
    if len(heuristics) > 1:
        common.note(f"pathviz.py: drawing heuristic {heuristic} (also present: "
                    f"{', '.join(h for h in heuristics if h != heuristic)}; choose with --heuristic)")
    paths = paths[paths["heuristic"] == heuristic]
    radius = None
    if "radius" in paths.columns:  # docs/radius.md: one agent per picture
        paths = paths.assign(radius=pd_numeric(paths["radius"]))
        radii = sorted(set(paths["radius"].dropna()))
        if args.radius is not None and args.radius not in radii:
            raise common.InputError(f"--radius {args.radius:g}: not in {paths_file} (has {', '.join(f'{r:g}' for r in radii)})")
        radius = args.radius if args.radius is not None else (radii[-1] if radii else None)
        if len(radii) > 1 and args.radius is None:
            common.note(f"pathviz.py: drawing radius {radius:g} (also present: "
                        f"{', '.join(f'{r:g}' for r in radii if r != radius)}; choose with --radius)")
        paths = paths[paths["radius"] == radius]
    elif args.radius is not None:
        raise common.InputError(f"--radius: {paths_file} has no radius column (run navbench with --radius)")
    results = {k: v for k, v in results_lookup(paths_file, m.name, radius, terrain).items() if k[1] == heuristic}

    reps = common.ordered_unique(paths["representation"])
    for k in results:
        if k[0] not in reps:
            reps.append(k[0])
    if args.rep:
        unknown = [r for r in args.rep if r not in reps]
        if unknown:
            raise common.InputError(f"--rep {unknown[0]}: no rows for it (has {', '.join(reps)})")
        reps = args.rep

    available = sorted({int(i) for i in paths["scen_index"].dropna()})
    roles = {}
    if args.scen_index in ("auto", "median"):
        if not results:
            raise common.InputError(f"--scen-index {args.scen_index} needs the results file next to {paths_file}")
        roles = auto_indices(results, available, only_median=args.scen_index == "median")
        indices = sorted(roles)
    elif args.scen_index:
        indices = parse_indices(args.scen_index)
        missing = [i for i in indices if i not in available and not any(k[4] == i for k in results)]
        if missing:
            raise common.InputError(f"--scen-index {missing[0]}: no path or result for map '{m.name}'")
    else:
        indices = available[:3]

    structure = None
    spath = args.structure
    if spath is None and paths_file.endswith(".paths.csv"):
        candidate = paths_file[:-len(".paths.csv")] + ".structure.csv"
        spath = candidate if os.path.isfile(candidate) else None
    if spath is not None:
        if not os.path.isfile(spath):
            raise common.InputError(f"{spath}: no such structure file")
        structure = read_structure(spath)

    tindex, trows = trace_index(args.traces, paths_file, terrain)

    os.makedirs(args.out, exist_ok=True)
    written = 0
    for idx in indices:
        layers = {rep: tracefiles.layer(trows, tindex, m.name, idx, rep, heuristic, radius) for rep in reps} \
            if trows else None
        fig = draw_query(m, idx, reps, paths, results, structure, args.zoom, args.max_segments, roles.get(idx, ""),
                         radius or 0.0, layers)
        for fmt in formats:
            with plt.rc_context(style.rc()):  # TrueType fonts in a PDF (navbench.style)
                fig.savefig(os.path.join(args.out, f"paths_{m.name}{'-weighted' if terrain else ''}_{idx}.{fmt}"),
                            dpi=args.dpi)
            written += 1
        plt.close(fig)
    print(f"pathviz.py: wrote {written} file(s) to {args.out} ({len(indices)} queries, {len(reps)} representations)")
    return 0


def _one(argv) -> int:
    """One line of a batch: main() with its status, an InputError one line on stderr (status 2)."""
    try:
        return main(argv) or 0
    except common.InputError as e:
        print(f"pathviz.py: {e}", file=sys.stderr)
        return 2
    except SystemExit as e:  # argparse's usage errors
        return e.code if isinstance(e.code, int) else 2


def batch(argv) -> int:
    ap = argparse.ArgumentParser(description="pathviz.py --batch: several picture sets in one process")
    ap.add_argument("--batch", required=True, help="file of pathviz command lines, one set of options per line")
    ap.add_argument("--jobs", type=int, default=1, help="processes drawing the lines (forked, default 1)")
    args = ap.parse_args(argv)
    if args.jobs < 1:
        raise common.InputError("--jobs: must be at least 1")
    try:
        with open(args.batch, encoding="utf-8") as f:
            lines = [shlex.split(line, comments=True) for line in f]
    except (OSError, ValueError) as e:
        raise common.InputError(f"--batch {args.batch}: {e}")
    lines = [words for words in lines if words]
    jobs = min(args.jobs, len(lines))
    if jobs <= 1:
        return max(map(_one, lines), default=0)
    import multiprocessing as mp
    with mp.get_context("fork").Pool(jobs) as pool:  # fork: the workers inherit the loaded modules
        return max(pool.map(_one, lines, chunksize=1))


if __name__ == "__main__":
    if "--batch" in sys.argv[1:]:
        run_main("pathviz.py", lambda: batch(sys.argv[1:]))
    else:
        run_main("pathviz.py", main)
