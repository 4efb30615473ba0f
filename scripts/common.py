"""Shared helpers of the navbench plot/report scripts: finding and reading result sets (SPEC §4),
summary statistics, and simple readers for the map formats of SPEC §1 (Moving AI .map, WKT).

Everything here reads only the files the harness writes; nothing calls the C++ code.
"""
from __future__ import annotations

import json
import math
import os
import re
import sys
from dataclasses import dataclass, field


def require_plotting(script: str, extra=()) -> None:
    """Imports matplotlib (Agg), pandas and the modules named in extra (report.py: scipy,
    plotly), or re-runs the script through navpy.sh, which finds a Python that has them; prints
    one clear line and exits when there is none."""
    import importlib
    try:
        import matplotlib  # noqa: F401
        import pandas  # noqa: F401
        for mod in extra:
            importlib.import_module(mod)
    except ImportError as e:
        here = os.path.dirname(os.path.abspath(__file__))
        navpy = os.path.join(here, "navpy.sh")
        # NAVPY_ACTIVE is set by navpy.sh: re-running through it again would loop.
        if not os.environ.get("NAVPY_ACTIVE") and os.access(navpy, os.X_OK):
            os.execv(navpy, [navpy, os.path.abspath(sys.argv[0])] + sys.argv[1:])
        sys.exit(f"{script}: this Python ({sys.executable}) cannot import {e.name}; "
                 "install the Debian packages python3-matplotlib python3-pandas python3-scipy python3-plotly "
                 "or set NAVBENCH_PYTHON")
    import matplotlib
    matplotlib.use("Agg")


# --------------------------------------------------------------------------------------------
# Result files (SPEC §4)

RESULT_COLUMNS = [
    "map", "collection", "scen_index", "bucket", "representation", "heuristic", "smoothing",
    "convention", "sx", "sy", "gx", "gy", "status", "length", "optimal", "octile_optimal", "gap",
    "valid", "expansions", "path_points", "locate_us", "search_us", "smooth_us", "raw_length",
    "raw_valid", "generated", "message",
]
TEXT_COLUMNS = {"map", "collection", "representation", "heuristic", "smoothing", "convention",
                "status", "message"}
BUILD_COLUMNS = ["map", "representation", "params", "build_ms", "vertices", "edges", "memory_bytes"]
BUILD_TEXT_COLUMNS = {"map", "representation", "params"}
PATHS_COLUMNS = ["map", "scen_index", "representation", "heuristic", "smoothing", "convention", "points"]
# With a radius (SPEC §6) the paths rows carry `radius` before `points`.
PATHS_COLUMNS_RADIUS = ["map", "scen_index", "representation", "heuristic", "smoothing", "convention", "radius", "points"]
# PREFIX.updates.csv of a dynamic run (SPEC §7): one row per update and representation.
UPDATE_COLUMNS = ["map", "representation", "epoch", "patches", "cells_changed", "update_us", "rebuild_us"]
UPDATE_TEXT_COLUMNS = {"map", "representation"}
# threads.csv of scripts/thread-scaling: one row per (map, representation, thread count).
THREAD_COLUMNS = ["map", "representation", "threads", "queries", "wall_s", "queries_per_s", "peak_rss_bytes"]
THREAD_TEXT_COLUMNS = {"map", "representation"}
STATUSES = ("ok", "no_path", "invalid_query", "error", "not_applicable")
# Files in a results directory that are companions of a result set, not result sets themselves.
COMPANION_SUFFIXES = (".build.csv", ".paths.csv", ".structure.csv", ".updates.csv", ".threads.csv")
COMPANION_NAMES = ("updates.csv", "threads.csv")  # a folder's own companions (merged sweep, thread-scaling)


class InputError(Exception):
    """A missing or malformed input file; the scripts print it as one line and exit 2."""


def note(msg: str) -> None:
    print(msg, file=sys.stderr)


def prefix_of(csv_path: str) -> str:
    return csv_path[:-4] if csv_path.endswith(".csv") else csv_path


def find_result_csvs(inputs: list[str]) -> list[str]:
    """Result-set CSV files named by INPUTS: a PREFIX (PREFIX.csv is read), a PREFIX.csv file, or a
    directory (every *.csv in it and below that is not a companion file, sorted)."""
    out: list[str] = []
    for item in inputs:
        if os.path.isdir(item) and os.path.isfile(os.path.join(item, "sweep.json")):
            # A navbench sweep folder: its merged results.csv when the sweep finished, else the
            # finished units; never both (the same rows twice) and never optimum/ (a cache).
            merged = os.path.join(item, "results.csv")
            units = os.path.join(item, "units")
            if os.path.isfile(merged):
                out.append(merged)
                continue
            if os.path.isdir(units):
                # Unfinished: the static units' files (dynamic units, rows with `epoch`, are read
                # from the sweep's dynamic/ folder once it finishes, never mixed into these).
                found = sorted(os.path.join(units, f) for f in os.listdir(units)
                               if f.endswith(".csv") and not f.endswith(COMPANION_SUFFIXES)
                               and not f.startswith("dynamic__") and ".part." not in f)
                if not found:
                    raise InputError(f"{item}: sweep folder holds no finished static unit yet")
                out.extend(found)
                continue
        if os.path.isdir(item):
            found = []
            for root, dirs, files in os.walk(item):
                dirs.sort()
                for f in sorted(files):
                    if f.endswith(".csv") and not f.endswith(COMPANION_SUFFIXES) and f not in COMPANION_NAMES:
                        found.append(os.path.join(root, f))
            if not found:
                raise InputError(f"{item}: directory holds no result CSV files")
            out.extend(found)
        elif item.endswith(COMPANION_SUFFIXES):
            raise InputError(f"{item}: is a companion file; pass the result set PREFIX or PREFIX.csv")
        elif item.endswith(".csv") and os.path.isfile(item):
            out.append(item)
        elif os.path.isfile(item + ".csv"):
            out.append(item + ".csv")
        else:
            raise InputError(f"{item}: no such result set (neither {item} nor {item}.csv exists)")
    seen, unique = set(), []
    for p in out:
        key = os.path.realpath(p)
        if key not in seen:
            seen.add(key)
            unique.append(p)
    return unique


def read_csv_typed(path: str, columns: list[str], text_columns: set[str], required: list[str]):
    """Reads a CSV with every field as text first (so empty means missing, never 0), then turns
    the numeric columns into floats (NaN where empty or unparsable). Missing optional columns are
    added empty."""
    import pandas as pd
    try:
        df = pd.read_csv(path, dtype=str, keep_default_na=False, na_filter=False)
    except pd.errors.EmptyDataError:
        raise InputError(f"{path}: empty file (no header line)")
    except (pd.errors.ParserError, UnicodeDecodeError) as e:
        raise InputError(f"{path}: not a readable CSV: {str(e).splitlines()[0]}")
    missing = [c for c in required if c not in df.columns]
    if missing:
        raise InputError(f"{path}: missing column(s) {','.join(missing)}")
    for c in columns:
        if c not in df.columns:
            df[c] = ""
    for c in df.columns:
        if c in text_columns or c not in columns:
            df[c] = df[c].astype(str).str.strip()
        else:
            # Unparsable text and infinities become NaN: no column of the schema holds either.
            v = pd.to_numeric(df[c].astype(str).str.strip(), errors="coerce")
            df[c] = v.where(v.abs() != float("inf"))
    return df


def read_results_csv(path: str):
    df = read_csv_typed(path, RESULT_COLUMNS, TEXT_COLUMNS,
                        required=["map", "representation", "smoothing", "status"])
    # An interrupted run may end in a partly written line: it has no status; drop it with a note.
    cut = (df["status"] == "") | (df["status"] == "nan")
    if cut.any():
        note(f"{path}: ignoring {int(cut.sum())} incomplete row(s) without a status")
        df = df[~cut].reset_index(drop=True)
    bad = sorted(set(df["status"]) - set(STATUSES))
    if bad:
        raise InputError(f"{path}: unknown status value(s) {','.join(bad)}")
    return df


def read_build_csv(path: str):
    return read_csv_typed(path, BUILD_COLUMNS, BUILD_TEXT_COLUMNS, required=["map", "representation"])


def read_paths_csv(path: str):
    import pandas as pd
    df = read_csv_typed(path, PATHS_COLUMNS, set(PATHS_COLUMNS) - {"scen_index"},
                   required=["map", "scen_index", "representation", "smoothing", "points"])
    df["scen_index"] = pd.to_numeric(df["scen_index"], errors="coerce")
    return df


def parse_path_items(text: str, where: str = "points") -> list[tuple[str, float, float]]:
    """SPEC §5/§6 'x y;@cx cy;x y;...' -> [('p', x, y) or ('arc', cx, cy), ...]: an arc item is the
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
    """Length of parse_path_items output: segments, and arcs as radius x angle (SPEC §6)."""
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
    """'x y;x y;...' -> [(x, y), ...] (the points only: arc centres, SPEC §6, are skipped)."""
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


def polyline_length(pts) -> float:
    return sum(math.dist(a, b) for a, b in zip(pts, pts[1:]))


@dataclass
class ResultData:
    """All result sets named on a command line, concatenated."""
    rows: object                      # pandas DataFrame, one row per query (+ column result_set)
    build: object                     # pandas DataFrame of the build CSVs (may be empty)
    meta: dict = field(default_factory=dict)   # result-set prefix -> parsed meta.json (or None)
    prefixes: list = field(default_factory=list)
    notes: list = field(default_factory=list)  # what was missing, for the report
    updates: object = None                     # PREFIX.updates.csv rows of dynamic runs (may be empty)
    threads: object = None                     # threads.csv rows (scripts/thread-scaling; may be empty)


def read_updates_csv(path: str):
    return read_csv_typed(path, UPDATE_COLUMNS, UPDATE_TEXT_COLUMNS,
                          required=["map", "representation", "cells_changed", "update_us"])


def read_threads_csv(path: str):
    return read_csv_typed(path, THREAD_COLUMNS, THREAD_TEXT_COLUMNS,
                          required=["map", "representation", "threads", "queries_per_s"])


def _companions(csvs: list[str], inputs: list[str], suffix: str, plain: str, reader):
    """Rows of the companion files PREFIX<suffix> of the result sets read (a finished sweep's
    results<suffix>, else its units'), and DIR/<plain> of directory inputs, each file once,
    concatenated; None when there are none."""
    import pandas as pd
    paths = [prefix_of(p) + suffix for p in csvs] + [os.path.join(i, plain) for i in inputs if os.path.isdir(i)]
    seen, frames = set(), []
    for p in paths:
        if os.path.isfile(p) and os.path.realpath(p) not in seen:
            seen.add(os.path.realpath(p))
            df = reader(p)
            df["result_set"] = prefix_of(p)
            frames.append(df)
    return pd.concat(frames, ignore_index=True) if frames else None


def load(inputs: list[str]) -> ResultData:
    import pandas as pd
    csvs = find_result_csvs(inputs)
    frames, builds, meta, prefixes, notes = [], [], {}, [], []
    for path in csvs:
        prefix = prefix_of(path)
        prefixes.append(prefix)
        df = read_results_csv(path)
        df["result_set"] = prefix
        frames.append(df)
        bpath = prefix + ".build.csv"
        if os.path.isfile(bpath):
            b = read_build_csv(bpath)
            b["result_set"] = prefix
            builds.append(b)
        else:
            notes.append(f"{bpath}: not found (no build figures for this set)")
        mpath = prefix + ".meta.json"
        if os.path.isfile(mpath):
            try:
                with open(mpath, encoding="utf-8") as f:
                    meta[prefix] = json.load(f)
            except (OSError, ValueError) as e:
                raise InputError(f"{mpath}: not valid JSON: {e}")
        else:
            meta[prefix] = None
            notes.append(f"{mpath}: not found")
    rows = pd.concat(frames, ignore_index=True) if frames else pd.DataFrame(columns=RESULT_COLUMNS)
    build = (pd.concat(builds, ignore_index=True) if builds
             else pd.DataFrame({c: pd.Series(dtype=str if c in BUILD_TEXT_COLUMNS else float)
                                for c in BUILD_COLUMNS}))
    updates = _companions(csvs, inputs, ".updates.csv", "updates.csv", read_updates_csv)
    threads = _companions(csvs, inputs, ".threads.csv", "threads.csv", read_threads_csv)
    return ResultData(rows=rows, build=build, meta=meta, prefixes=prefixes, notes=notes,
                      updates=updates, threads=threads)


# --------------------------------------------------------------------------------------------
# Grouping and statistics

def config_keys(rows) -> list[str]:
    """Columns that tell configurations apart: representation and smoothing always; heuristic and
    convention only when the data holds more than one value of them."""
    keys = ["representation"]
    for c in ("heuristic", "convention"):
        if c in rows.columns and rows[c].nunique() > 1:
            keys.append(c)
    keys.append("smoothing")
    return keys


def ordered_unique(series) -> list:
    """Unique values in first-seen order (the order the run listed them)."""
    return list(dict.fromkeys(series.tolist()))


def query_time_us(rows):
    """Total query time per row: locate + search + smooth (microseconds). Missing parts count 0,
    a row where all three are missing is NaN."""
    parts = rows[["locate_us", "search_us", "smooth_us"]]
    total = parts.fillna(0).sum(axis=1)
    return total.where(parts.notna().any(axis=1))


# --------------------------------------------------------------------------------------------
# Maps (SPEC §1)

@dataclass
class GridMap:
    name: str
    width: int
    height: int
    blocked: object  # numpy bool array [height, width]; True = blocked cell


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
    blocked = np.ones((h, w), dtype=bool)
    for y, row in enumerate(rows):
        if len(row) != w:
            raise InputError(f"{path}:{i + y + 1}: row has {len(row)} characters, header says {w}")
        blocked[y] = [c not in PASSABLE for c in row]
    return GridMap(os.path.splitext(os.path.basename(path))[0], w, h, blocked)


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


def read_map(path: str):
    if path.lower().endswith(".wkt"):
        return read_wkt_map(path)
    return read_movingai_map(path)


def run_main(script: str, main) -> None:
    """Runs main(); an InputError becomes one line on stderr and exit status 2."""
    try:
        sys.exit(main())
    except InputError as e:
        print(f"{script}: {e}", file=sys.stderr)
        sys.exit(2)
