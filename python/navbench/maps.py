"""Readers for the map formats of docs/maps.md, for the scripts that draw maps (pathviz.py, the
report's build figure, navbench.load's maps table): Moving AI .map grids (with terrain weights, docs/terrain.md) and WKT
polygon maps. They read only the files; nothing calls the C++ code."""
from __future__ import annotations

import os
import re
from dataclasses import dataclass

from navbench.errors import InputError

@dataclass
class GridMap:
    name: str
    width: int
    height: int
    blocked: object  # numpy bool array [height, width]; True = blocked cell
    cells: object = None    # the map's characters (numpy uint8 [height, width])
    weights: object = None  # a weighted map's cell weights (weigh_map), None when plain


PASSABLE = set(".GS")


def read_movingai_map(path: str) -> GridMap:
    """Moving AI .map: 'type octile', 'height H', 'width W', 'map', then H rows of W characters.
    '.', 'G', 'S' are passable, everything else blocked. Accepts CRLF and trailing blank lines;
    anything else that does not follow the header is an InputError naming file:line."""
    import numpy as np
    try:
        with open(path, encoding="latin-1", newline="") as f:
            lines = f.read().splitlines()
    except OSError as e:
        raise InputError(f"{path}: cannot read: {e.strerror}")
    header = {}
    i = 0
    for expected in ("type", "height", "width"):
        if i >= len(lines):
            raise InputError(f"{path}:{i + 1}: file ends inside the header")
        parts = lines[i].split()
        if len(parts) != 2 or parts[0] != expected:
            raise InputError(f"{path}:{i + 1}: expected '{expected} <value>', got '{lines[i].strip()}'")
        header[expected] = parts[1]
        i += 1
    if i >= len(lines) or lines[i].strip() != "map":
        raise InputError(f"{path}:{i + 1}: expected 'map'")
    i += 1
    try:
        h, w = int(header["height"]), int(header["width"])
    except ValueError:
        raise InputError(f"{path}:2: height/width are not integers")
    if h <= 0 or w <= 0:
        raise InputError(f"{path}:2: height and width must be positive")
    rows = lines[i:i + h]
    while len(lines) > i + h and not lines[-1].strip():
        lines.pop()
    if len(rows) < h:
        raise InputError(f"{path}:{i + len(rows) + 1}: map has {len(rows)} rows, header says {h}")
    if len(lines) > i + h:
        raise InputError(f"{path}:{i + h + 1}: extra line after the {h} map rows")
    for y, row in enumerate(rows):
        if len(row) != w:
            raise InputError(f"{path}:{i + y + 1}: row has {len(row)} characters, header says {w}")
    cells = np.frombuffer("".join(rows).encode("latin-1"), dtype=np.uint8).reshape(h, w)
    blocked = ~np.isin(cells, np.frombuffer("".join(sorted(PASSABLE)).encode("latin-1"), dtype=np.uint8))
    g = GridMap(os.path.splitext(os.path.basename(path))[0], w, h, blocked)
    g.cells = cells
    return g


def weigh_map(m: "GridMap", terrain: str = "", costs: str = ""):
    """The map's cell weights (docs/terrain.md) as numpy floats [height, width], NaN where blocked:
    from a terrain table ("S=2,W=5": named characters weigh W and become passable) or a cost layer
    file (type costs, height, width, costs, then the numbers; inf = blocked). Updates m.blocked."""
    import numpy as np
    w = np.where(m.blocked, np.nan, 1.0)
    if terrain:
        for item in terrain.split(","):
            ch, _, value = item.partition("=")
            if len(ch) != 1 or not value:
                raise InputError(f"--terrain item '{item}' is not CHAR=WEIGHT")
            hit = m.cells == ord(ch)
            w[hit] = float(value)
            m.blocked = m.blocked & ~hit
    elif costs:
        try:
            with open(costs, encoding="utf-8") as f:
                lines = [ln.split() for ln in f.read().splitlines()]
        except OSError as e:
            raise InputError(f"{costs}: cannot read: {e.strerror}")
        start = next((i + 1 for i, ln in enumerate(lines) if ln == ["costs"]), None)
        body = [ln for ln in lines[start:] if ln] if start is not None else []
        if len(body) != m.height or any(len(ln) != m.width for ln in body):
            raise InputError(f"{costs}: not a {m.width}x{m.height} cost layer")
        layer = np.array([[float(v) for v in ln] for ln in body])
        m.blocked = m.blocked | ~np.isfinite(layer)
        w = np.where(m.blocked, np.nan, layer)
    return w


@dataclass
class PolygonMap:
    name: str
    walkable: list      # polygons of the first line: each a list of rings (outer first, then holes)
    obstacles: list     # polygons of the further lines, same shape
    bounds: tuple       # (xmin, ymin, xmax, ymax) of the walkable area


_WKT_HEAD = re.compile(r"^\s*(MULTIPOLYGON|POLYGON)\s*(.*)$", re.IGNORECASE | re.DOTALL)


def _parse_nested(text: str, where: str):
    """Parses '((x y, x y), (...))' into nested lists; leaves are (x, y) tuples."""
    pos = 0
    n = len(text)

    def skip():
        nonlocal pos
        while pos < n and text[pos].isspace():
            pos += 1

    def parse_group():
        nonlocal pos
        skip()
        if pos >= n or text[pos] != "(":
            raise InputError(f"{where}: expected '(' at character {pos + 1}")
        pos += 1
        items = []
        while True:
            skip()
            if pos < n and text[pos] == "(":
                items.append(parse_group())
            else:
                start = pos
                while pos < n and text[pos] not in ",()":
                    pos += 1
                coords = text[start:pos].split()
                if len(coords) < 2:
                    raise InputError(f"{where}: bad coordinate '{text[start:pos].strip()}'")
                try:
                    items.append((float(coords[0]), float(coords[1])))
                except ValueError:
                    raise InputError(f"{where}: bad coordinate '{text[start:pos].strip()}'")
            skip()
            if pos < n and text[pos] == ",":
                pos += 1
                continue
            if pos < n and text[pos] == ")":
                pos += 1
                return items
            raise InputError(f"{where}: expected ',' or ')' at character {pos + 1}")

    result = parse_group()
    skip()
    if pos != n:
        raise InputError(f"{where}: unexpected text after the geometry")
    return result


def parse_wkt_polygons(line: str, where: str) -> list:
    """One WKT POLYGON or MULTIPOLYGON -> list of polygons, each a list of rings of (x, y)."""
    m = _WKT_HEAD.match(line)
    if not m:
        raise InputError(f"{where}: expected POLYGON(...) or MULTIPOLYGON(...)")
    nested = _parse_nested(m.group(2).strip(), where)
    polys = [nested] if m.group(1).upper() == "POLYGON" else nested
    for poly in polys:
        if not isinstance(poly, list) or not poly or not all(isinstance(r, list) for r in poly):
            raise InputError(f"{where}: malformed polygon nesting")
        for ring in poly:
            if len(ring) < 3 or not all(isinstance(p, tuple) for p in ring):
                raise InputError(f"{where}: a ring needs at least 3 points")
    return polys


def read_wkt_map(path: str) -> PolygonMap:
    """WKT polygon map: first non-empty line the walkable area, every further line an obstacle."""
    try:
        with open(path, encoding="utf-8") as f:
            lines = [(k + 1, ln.strip()) for k, ln in enumerate(f.read().splitlines())]
    except OSError as e:
        raise InputError(f"{path}: cannot read: {e.strerror}")
    lines = [(k, ln) for k, ln in lines if ln]
    if not lines:
        raise InputError(f"{path}: no polygon in the file")
    walkable = parse_wkt_polygons(lines[0][1], f"{path}:{lines[0][0]}")
    obstacles = []
    for k, ln in lines[1:]:
        obstacles.extend(parse_wkt_polygons(ln, f"{path}:{k}"))
    xs = [p[0] for poly in walkable for p in poly[0]]
    ys = [p[1] for poly in walkable for p in poly[0]]
    return PolygonMap(os.path.splitext(os.path.basename(path))[0], walkable, obstacles,
                      (min(xs), min(ys), max(xs), max(ys)))


def occupancy_grid(image_path: str, name: str, mode="trinary", negate=False, occupied=0.65, free=0.196,
                   wmax=5.0) -> GridMap:
    """An occupancy image read by map_server's rule as navbench reads it (datasets/ros_map.cpp, SPEC
    §13), for drawing: p from the mean of the colour channels (a grey pixel counts three times; in
    trinary mode the alpha channel is one more), p = 1 - shade (shade when negated); trinary:
    p > occupied blocked, p < free free, else unknown (blocked, navbench's default); scale: the
    cells between the thresholds free with weight 1 + (wmax - 1) (p - free) / (occupied - free), a
    pixel not fully opaque unknown; raw: the value in percent, above 100 unknown."""
    import numpy as np
    from PIL import Image
    try:
        img = Image.open(image_path)
        img.load()
    except OSError as e:
        raise InputError(f"{image_path}: cannot read image: {e}")
    a = np.asarray(img)
    top = 65535.0 if a.dtype == np.uint16 or img.mode.startswith("I;16") else 255.0
    a = a.astype(np.float64)
    if a.ndim == 2:
        a = a[:, :, None]
    ch = a.shape[2]
    colours, alpha = (1 if ch <= 2 else 3), ch in (2, 4)
    total = a[:, :, :colours].sum(axis=2) * (3 if colours == 1 else 1)
    n = 3
    if alpha and mode == "trinary":
        total, n = total + a[:, :, ch - 1], 4
    shade = total / n / top
    weights = None
    if mode == "raw":
        v = np.round((a[:, :, 0] if colours == 1 else total / n) * 255.0 / top)
        p = v / 100
        blocked = (v > 100) | ~(p < free)
    else:
        p = shade if negate else 1.0 - shade
        unknown = (alpha & (a[:, :, ch - 1] != top)) if (mode == "scale" and alpha) else np.zeros(p.shape, bool)
        occ, fr = (occupied < p) & ~unknown, (p < free) & ~unknown
        between = ~unknown & ~occ & ~fr
        if mode == "scale":
            blocked = occ | unknown
            if between.any():
                weights = np.where(blocked, np.nan, np.where(between, 1 + (wmax - 1) * (p - free) / (occupied - free), 1.0))
        else:
            blocked = ~fr
    g = GridMap(name, a.shape[1], a.shape[0], blocked)
    g.weights = weights
    return g


def read_ros_map(path: str) -> GridMap:
    """A ROS map_server map: its YAML (image, mode, negate, thresholds) and the image beside it."""
    try:
        import yaml
    except ImportError:
        raise InputError(f"{path}: reading a ROS map's YAML needs PyYAML (the Debian package python3-yaml; scripts/setup python)")
    try:
        with open(path, encoding="utf-8") as f:
            doc = yaml.safe_load(f)
    except (OSError, yaml.YAMLError) as e:
        raise InputError(f"{path}: cannot read YAML: {e}")
    if not isinstance(doc, dict) or "image" not in doc:
        raise InputError(f"{path}: no 'image' key")
    image = os.path.join(os.path.dirname(path), str(doc["image"]))
    return occupancy_grid(image, os.path.splitext(os.path.basename(path))[0], str(doc.get("mode", "trinary")),
                          bool(int(doc.get("negate", 0))), float(doc.get("occupied_thresh", 0.65)),
                          float(doc.get("free_thresh", 0.196)))


def read_mesh_map(path: str) -> PolygonMap:
    """A Polyanya .mesh (version 2) for drawing: its polygons are the walkable area (navbench's
    reader, datasets/polyanya.cpp, checks the file; this one only reads it)."""
    try:
        with open(path, encoding="utf-8") as f:
            words = f.read().split()
    except OSError as e:
        raise InputError(f"{path}: cannot read: {e.strerror}")
    if words[:2] != ["mesh", "2"]:
        raise InputError(f"{path}:1: not a version 2 mesh")
    V, P = int(words[2]), int(words[3])
    pos, verts = 4, []
    for _ in range(V):
        verts.append((float(words[pos]), float(words[pos + 1])))
        pos += 3 + int(words[pos + 2])
    polys = []
    for _ in range(P):
        n = int(words[pos])
        polys.append([[verts[int(i)] for i in words[pos + 1:pos + 1 + n]]])
        pos += 1 + 2 * n
    xs, ys = [v[0] for v in verts], [v[1] for v in verts]
    return PolygonMap(os.path.splitext(os.path.basename(path))[0], polys, [], (min(xs), min(ys), max(xs), max(ys)))


def read_map(path: str):
    low = path.lower()
    if low.endswith(".wkt"):
        return read_wkt_map(path)
    if low.endswith((".yaml", ".yml")):
        return read_ros_map(path)
    if low.endswith((".png", ".pgm")):
        return occupancy_grid(path, os.path.splitext(os.path.basename(path))[0])
    if low.endswith(".mesh"):
        return read_mesh_map(path)
    return read_movingai_map(path)


# --------------------------------------------------------------------------------------------
# Map files of result sets and their sizes (navbench.load's maps table, the report's build figure)

# The repository when this package runs from its checkout (python/navbench/ is two folders down):
# a run's meta.json names its maps relative to where navbench ran, usually there.
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MAP_SUFFIXES = (".map", ".wkt", ".mesh", ".yaml", ".yml", ".png", ".pgm")


def find_map_files(meta: dict, extra: list) -> dict:
    """map name -> map file, from extra (files or folders, as the report's --maps) and the maps
    named in the result sets' meta.json (config "maps", and a sweep's "maps"), looked up as
    written, from the working folder, the repository and the result set's folder."""
    import glob
    cands = list(extra)
    for prefix, m in meta.items():
        cfg = m.get("config", {}) if isinstance(m, dict) else {}
        named = (cfg.get("maps", []) if isinstance(cfg, dict) else []) + (m.get("maps", []) if isinstance(m, dict) else [])
        for item in named:
            item = item.get("path") if isinstance(item, dict) else item
            if isinstance(item, str):
                for base in ("", os.getcwd(), ROOT, os.path.dirname(prefix)):
                    p = os.path.join(base, item) if base else item
                    if os.path.exists(p):
                        cands.append(p)
                        break
    found = {}
    for c in dict.fromkeys(cands):
        hits = [c] if os.path.isfile(c) else [f for suf in (".map", ".wkt", ".mesh", ".poly")
                                              for f in glob.glob(os.path.join(c, "**", "*" + suf), recursive=True)]
        for f in hits:
            found.setdefault(os.path.splitext(os.path.basename(f))[0], f)
    return found


def polygon_area(pm) -> float:
    """The walkable area of a polygon map (its outer rings less holes and obstacles)."""
    def ring_area(r):
        return abs(sum(x0 * y1 - x1 * y0 for (x0, y0), (x1, y1) in zip(r, r[1:] + r[:1]))) / 2
    area = sum(ring_area(p[0]) - sum(ring_area(h) for h in p[1:]) for p in pm.walkable)
    return area - sum(ring_area(p[0]) for p in pm.obstacles)


def poly_bounds(path: str) -> tuple:
    """The bounding box of a Polyanya polygon map (.poly, version 1: 'poly', 1, N, then per polygon
    'K x1 y1 ... xK yK'; docs/maps.md)."""
    try:
        with open(path, encoding="utf-8") as f:
            words = f.read().split()
    except (OSError, UnicodeDecodeError) as e:
        raise InputError(f"{path}: cannot read: {e}")
    if words[:2] != ["poly", "1"] or len(words) < 3:
        raise InputError(f"{path}: not a Polyanya polygon map (want 'poly' and version 1)")
    try:
        n, pos, xs, ys = int(words[2]), 3, [], []
        for _ in range(n):
            k = int(words[pos])
            pts = [float(w) for w in words[pos + 1:pos + 1 + 2 * k]]
            xs += pts[0::2]
            ys += pts[1::2]
            pos += 1 + 2 * k
    except (ValueError, IndexError):
        raise InputError(f"{path}: a polygon line is not 'K x1 y1 ... xK yK'")
    return min(xs), min(ys), max(xs), max(ys)


def map_size(path: str) -> dict:
    """kind (grid, polygon, mesh, image, ros), width, height, cells and free_cells of a map file
    (free cells: passable cells of a grid; walkable area of a polygon map, in unit squares; not for
    a Polyanya .poly map, whose polygons combine by symmetric difference: its bounds only)."""
    low = path.lower()
    if low.endswith(".poly"):
        x0, y0, x1, y1 = poly_bounds(path)
        return {"kind": "polygon", "width": x1 - x0, "height": y1 - y0, "cells": (x1 - x0) * (y1 - y0), "free_cells": None}
    m = read_map(path)
    if isinstance(m, GridMap):
        kind = "ros" if low.endswith((".yaml", ".yml")) else "image" if low.endswith((".png", ".pgm")) else "grid"
        return {"kind": kind, "width": m.width, "height": m.height, "cells": m.width * m.height,
                "free_cells": float((~m.blocked).sum())}
    x0, y0, x1, y1 = m.bounds
    return {"kind": "mesh" if low.endswith(".mesh") else "polygon", "width": x1 - x0, "height": y1 - y0,
            "cells": (x1 - x0) * (y1 - y0), "free_cells": polygon_area(m)}


def grid_vertices(build) -> dict:
    """map -> vertices of its first build row on the centre lattice (a representation with the
    parameter lattice built with lattice=center, as its build row's params say: one vertex per free
    cell)."""
    if build is None or not len(build) or "vertices" not in build.columns or "params" not in build.columns:
        return {}
    centre = build["params"].astype(str).map(lambda p: "lattice=center" in p.split(","))
    g = build[centre & build["vertices"].notna()]
    return {str(k): float(v) for k, v in g.groupby(g["map"].astype(str), sort=False)["vertices"].first().items()}


def free_cells(map_files: dict, build, names: list, notes: list) -> dict:
    """map -> free cells: from the map file when found, else from a grid representation's vertex
    count; maps with neither are left out. A map file that cannot be read is a note."""
    out, cells = {}, grid_vertices(build)
    for m in names:
        f = map_files.get(m)
        if f is not None:
            try:
                out[m] = map_size(f)["free_cells"]
                continue
            except InputError as e:
                notes.append(f"map size of {m}: {e}")
        if m in cells:
            out[m] = cells[m]
    return out


def _text_ids(queries, c: str, missing: str):
    """(an integer per row, the texts they stand for) of a text column as the maps table reads
    it (missing values as `missing`; an absent column "" throughout), each distinct value of a
    categorical turned into text once: text per row (astype(str)) takes a fixed-width copy of
    the column, gigabytes at millions of rows."""
    import numpy as np
    import pandas as pd
    if c not in queries.columns:
        return np.zeros(len(queries), dtype=np.int8), [""]
    col = queries[c]
    if not isinstance(col.dtype, pd.CategoricalDtype):
        col = col.astype(object).where(col.notna(), None).astype("category")
    texts = [missing if pd.isna(v) else str(v) for v in col.cat.categories] + [missing]
    ids, uniq = pd.factorize(pd.Series(texts, dtype=object))  # two categories that read alike: one text
    # The smallest integers that hold them: one byte a row, not factorize's eight (80 MB at 10 M rows).
    ids = ids.astype(np.int8 if len(uniq) <= 2 ** 7 else np.int16 if len(uniq) <= 2 ** 15 else np.int32)
    codes = col.cat.codes.to_numpy()
    return ids[np.where(codes < 0, len(texts) - 1, codes)], list(uniq)


def _distinct_queries(queries):
    """Distinct scenario queries (scen_index) per (collection, map, terrain), the groups in order of
    their first row: a Series indexed by the three texts (collection and map as astype(str) reads
    them, terrain "" where missing)."""
    import numpy as np
    import pandas as pd
    (cc, ct), (mc, mt), (tc, tt) = (_text_ids(queries, c, m) for c, m in
                                    (("collection", "nan"), ("map", "nan"), ("terrain", "")))
    # One integer per row for its (collection, map, terrain), numbered in order of first appearance,
    # and one per (that, scen_index): the distinct ones counted per group, NaN left out (as nunique).
    # In place, on one array of eight bytes a row at a time (10 M rows: 80 MB each; the arithmetic's
    # temporaries and a sort of the pairs took half a gigabyte above the table).
    key = cc.astype(np.int64)
    key *= len(mt)
    key += mc
    key *= len(tt)
    key += tc
    group, firsts = pd.factorize(key)
    del key
    if "scen_index" in queries.columns:  # its own values (Int64 or float), missing: -1
        scen_code, scens = pd.factorize(queries["scen_index"].array)
    else:
        scen_code, scens = np.zeros(len(queries), dtype=np.int64), [0]
    width = max(1, len(scens))
    pair = group.astype(np.int64, copy=False)
    pair *= width
    pair += scen_code
    pair[scen_code < 0] = -1
    del scen_code
    pairs = pd.unique(pair)  # hashed: the distinct pairs only, no sort of the rows
    del pair, group
    counts = np.bincount(pairs[pairs >= 0] // width, minlength=len(firsts))
    keys = [(ct[k // (len(mt) * len(tt))], mt[k // len(tt) % len(mt)], tt[k % len(tt)]) for k in firsts]
    return pd.Series(counts, index=pd.MultiIndex.from_tuples(keys, names=["collection", "map", "terrain"]))


def maps_table(queries, build, meta: dict, extra: list, notes: list):
    """One row per map (and terrain) of the result rows: collection, map, terrain ("" plain), kind,
    width, height, cells, free_cells, file, queries (distinct scenario queries), from the map
    file when found (find_map_files), else free_cells from a grid build's vertices (kind grid) and
    the rest empty; a ROS or image map's size from meta.json's map_frames."""
    import pandas as pd
    cols = ["collection", "map", "terrain", "kind", "width", "height", "cells", "free_cells", "file", "queries"]
    if queries is None or not len(queries):
        return pd.DataFrame(columns=cols)
    groups = _distinct_queries(queries)
    files = find_map_files(meta, extra)
    frames = {}
    for m in meta.values():
        for key, fr in ((m or {}).get("map_frames", {}) or {}).items() if isinstance(m, dict) else ():
            frames[key] = fr
    cells = grid_vertices(build)
    sizes, recs = {}, []
    for (coll, name, terrain), nq in groups.items():
        rec = {"collection": coll, "map": name, "terrain": terrain, "queries": int(nq), "file": files.get(name)}
        if rec["file"] is not None and name not in sizes:
            try:
                sizes[name] = map_size(rec["file"])
            except InputError as e:
                notes.append(f"map size of {name}: {e}")
                sizes[name] = {}
        size = dict(sizes.get(name, {}))
        fr = frames.get(f"{coll}/{name}")
        if not size and isinstance(fr, dict):
            free = (fr.get("cells") or {}).get("free")
            size = {"kind": "ros" if "resolution" in fr else "image", "width": fr.get("width"), "height": fr.get("height"),
                    "cells": (fr.get("width") or 0) * (fr.get("height") or 0) or None, "free_cells": free}
        if not size and name in cells:
            size = {"kind": "grid", "free_cells": cells[name]}
        rec.update(size)
        recs.append(rec)
    t = pd.DataFrame(recs, columns=cols)
    for c in ("collection", "map", "terrain", "kind"):
        t[c] = t[c].astype("category")
    for c in ("width", "height", "cells", "free_cells"):
        t[c] = pd.to_numeric(t[c], errors="coerce").astype(float)
    t["queries"] = t["queries"].astype("Int64")
    t.attrs["units"] = {"width": "cells (polygon maps: map units)", "height": "cells (polygon maps: map units)",
                        "cells": "cells", "free_cells": "cells (polygon maps: unit squares of area)", "queries": "count"}
    return t
