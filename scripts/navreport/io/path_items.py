"""A path's items as the results write them (docs/results.md, the `points` column): points and arc
centres, their polyline and length (pathviz.py)."""
from __future__ import annotations

import math

from navreport.io.errors import InputError

def parse_path_items(text: str, where: str = "points") -> list[tuple[str, float, float]]:
    """docs/command-line.md/§6 'x y;@cx cy;x y;...' -> [('p', x, y) or ('arc', cx, cy), ...]: an arc item is the
    centre of the arc from the point before it to the point after it, the shorter way."""
    out = []
    for item in text.split(";"):
        item = item.strip()
        if not item:
            continue
        kind = "p"
        if item.startswith("@"):
            kind, item = "arc", item[1:]
        parts = item.split()
        if len(parts) != 2:
            raise InputError(f"{where}: bad point '{item}' (want 'x y' or '@cx cy')")
        try:
            out.append((kind, float(parts[0]), float(parts[1])))
        except ValueError:
            raise InputError(f"{where}: bad point '{item}' (want numbers)")
    for i, (k, _, _) in enumerate(out):
        if k == "arc" and (i == 0 or i == len(out) - 1 or out[i - 1][0] == "arc" or out[i + 1][0] == "arc"):
            raise InputError(f"{where}: an arc centre must sit between two points")
    return out


def arc_angles(a, c, b):
    """The arc a -(c)-> b the shorter way: (radius, start angle, signed sweep) in radians."""
    r = 0.5 * (math.dist(a, c) + math.dist(b, c))
    t0 = math.atan2(a[1] - c[1], a[0] - c[0])
    t1 = math.atan2(b[1] - c[1], b[0] - c[0])
    sweep = (t1 - t0 + math.pi) % (2 * math.pi) - math.pi
    return r, t0, sweep


def items_length(items) -> float:
    """Length of parse_path_items output: segments, and arcs as radius x angle (docs/radius.md)."""
    total, i = 0.0, 1
    while i < len(items):
        if items[i][0] == "arc":
            a, c, b = items[i - 1][1:], items[i][1:], items[i + 1][1:]
            r, _, sweep = arc_angles(a, c, b)
            total += r * abs(sweep)
            i += 2
        else:
            total += math.dist(items[i - 1][1:], items[i][1:])
            i += 1
    return total


def items_polyline(items, step: float = 0.05) -> list[tuple[float, float]]:
    """Points along the path for drawing: every arc sampled densely (the picture of an arc; lengths
    come from items_length, never from this)."""
    pts, i = [], 0
    while i < len(items):
        k, x, y = items[i]
        if k == "arc":
            a, c = pts[-1], (x, y)
            b = items[i + 1][1:]
            r, t0, sweep = arc_angles(a, c, b)
            n = max(8, int(abs(sweep) * r / step))
            for j in range(1, n):
                t = t0 + sweep * j / n
                pts.append((c[0] + r * math.cos(t), c[1] + r * math.sin(t)))
            pts.append(b)
            i += 2
        else:
            pts.append((x, y))
            i += 1
    return pts


def parse_points(text: str, where: str = "points") -> list[tuple[float, float]]:
    """'x y;x y;...' -> [(x, y), ...] (the points only: arc centres, docs/radius.md, are skipped)."""
    pts = []
    for item in text.split(";"):
        item = item.strip()
        if not item or item.startswith("@"):
            continue
        parts = item.split()
        if len(parts) != 2:
            raise InputError(f"{where}: bad point '{item}' (want 'x y')")
        try:
            pts.append((float(parts[0]), float(parts[1])))
        except ValueError:
            raise InputError(f"{where}: bad point '{item}' (want numbers)")
    return pts

