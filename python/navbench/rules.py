"""The row rules: which result rows each statistic rests on (docs/results.md#which-rows-each-statistic-uses).
The report (scripts/navreport) and navbench.summarize both take them from here, so a number in
the report and the same number computed with the package agree.

- A row of status not_applicable is left out of every denominator (the combination cannot run,
  by construction); every other status but ok counts as unsolved.
- solved: ok rows over the applicable rows whose query has a path (navbench.candidates.path_exists:
  a finite optimum or reference cost, and not invalid_query; SPEC §14); valid: paths whose `valid`
  is 1 over the solved rows (a path of unknown validity is not valid).
- the candidate rule (SPEC §14, navbench.candidates): every path valid and every query that has a
  path answered.
- query time (locate_us + search_us + smooth_us): over the solved rows that were not traced
  (`traced` = 1: timed with their trace, docs/traces.md#traced-rows).
- the real-time figures (first_move_us, first20_us, max_step_us; SPEC §15): over the same rows as
  query time, each where the row has it (files written before the columns have none: NaN).
- gap: over the solved rows that have a gap (an exact optimum).
- build time and memory: one value per map (the mean over the runs that built it), so a map
  built in several sweep units counts once.
"""
from __future__ import annotations

import math

import numpy as np

from navbench import stats

STATUSES = ("ok", "no_path", "invalid_query", "error", "not_applicable")
TIME_PARTS = ("locate_us", "search_us", "smooth_us")
# SPEC §15 (docs/results.md#real-time-columns): the planner's first move, first 20 moves and longest
# call; statistic name -> column.
REALTIME = {"first_move": "first_move_us", "first20": "first20_us", "max_step": "max_step_us"}

# The report's statistics of the query rows: name -> (sample, function over a resample).
# The samples are metric_samples' arrays; each statistic gets a 95 % bootstrap interval.
QUERY_STATISTICS = {
    "solved_pct": ("solved", stats.nan_share), "valid_pct": ("valid", stats.nan_share),
    "time_median": ("time", stats.nan_median), "time_p95": ("time", stats.nan_quantile(0.95)),
    "gap_mean": ("gap", np.nanmean), "gap_p95": ("gap", stats.nan_quantile(0.95)),
    "gap_max": ("gap", np.nanmax)}
# And of the build rows, one value per map: the maps are what is resampled.
BUILD_STATISTICS = {"build_ms": ("b", np.nanmean), "memory": ("m", np.nanmean)}


def query_time_us(rows):
    """Total query time per row: locate + search + smooth (microseconds). Missing parts count 0,
    a row where all three are missing is NaN. A traced row (the column `traced` = 1: its search
    wrote a trace inside the timed interval, docs/traces.md#traced-rows) has no time either: this
    is the one place the timing statistics (the report's, summarize's, compare's) take their times
    from, so none of them includes it (SPEC §14: no tracing inside a timed interval); it still
    counts for the status, validity and gap."""
    import pandas as pd
    # One part at a time, added in order ((locate + search) + smooth, as a row sum of the three adds
    # them): a frame of the three columns would copy them three times over (gigabytes at millions of rows).
    # Into one array in place (0 + a part is the part exactly): a copy per part and per step took four
    # arrays of eight bytes a row, 300 MB at ten million rows.
    total, timed = np.zeros(len(rows)), np.zeros(len(rows), dtype=bool)
    for c in TIME_PARTS:
        v = rows[c].to_numpy(dtype=float, na_value=np.nan)  # a float column's own values: not copied
        known = ~np.isnan(v)
        np.add(total, v, out=total, where=known)
        timed |= known
        del v, known
    if "traced" in rows.columns:
        timed &= ~traced_mask(rows).to_numpy(bool)
    total[~timed] = np.nan
    return pd.Series(total, index=rows.index, copy=False)


def realtime_us(rows, column: str):
    """A real-time column (REALTIME) per row as float64, NaN where the row lacks it, where the file
    has no such column (written before it) and on traced rows (timed with their trace, as
    query_time_us leaves them out)."""
    import pandas as pd
    if column not in rows.columns:
        return pd.Series(np.full(len(rows), np.nan), index=rows.index)
    v = pd.to_numeric(rows[column], errors="coerce").to_numpy(dtype=float, na_value=np.nan)
    if "traced" in rows.columns:
        v = np.where(traced_mask(rows).to_numpy(bool), np.nan, v)
    return pd.Series(v, index=rows.index)


def traced_mask(rows):
    """Per row True where the column `traced` is 1 (a traced query's row); all False without it."""
    import pandas as pd
    if "traced" not in rows.columns:
        return pd.Series(np.zeros(len(rows), dtype=bool), index=rows.index)
    col = rows["traced"]
    if pd.api.types.is_numeric_dtype(col.dtype) or pd.api.types.is_bool_dtype(col.dtype):  # no object copy per row
        return pd.Series(col.to_numpy(dtype=float, na_value=np.nan) == 1, index=rows.index)
    return pd.to_numeric(col.astype(object), errors="coerce").eq(1)


def legacy_not_applicable(status, message) -> np.ndarray:
    """Rows written before the status not_applicable existed: status error with a message
    containing 'not applicable' (docs/results.md#query-status). They count as not_applicable."""
    st = np.asarray(status.astype(str) if hasattr(status, "astype") else status, dtype=object)
    msg = np.asarray(message.astype(str) if hasattr(message, "astype") else message, dtype=object)
    return (st == "error") & np.array(["not applicable" in m.lower() for m in msg], dtype=bool) if len(st) else \
        np.zeros(0, dtype=bool)


def metric_samples(ok, valid, time, gap, has_path=None) -> dict:
    """The samples of QUERY_STATISTICS over a configuration's applicable rows (arrays of equal
    length; ok: status == ok; has_path: the row's query has a path, candidates.path_exists):
    solved 1/0 on the rows whose query has a path (SPEC §14: a query without a path is not missed;
    NaN elsewhere; every row when has_path is None), valid 1/0 on the solved rows (a path of
    unknown validity is not valid), time and gap on the solved rows (NaN elsewhere, and where a
    row lacks the value)."""
    ok = np.asarray(ok, dtype=bool)
    solved = ok.astype(float) if has_path is None else np.where(np.asarray(has_path, dtype=bool), ok, np.nan)
    return {"solved": solved,
            "valid": np.where(ok, np.asarray(valid, dtype=float) == 1, np.nan),
            "time": np.where(ok, np.asarray(time, dtype=float), np.nan),
            "gap": np.where(ok, np.asarray(gap, dtype=float), np.nan)}


def query_statistics(samples: dict, seed: int, n_boot=None) -> dict:
    """QUERY_STATISTICS of metric_samples: name -> (estimate, lo, hi, n)."""
    return stats.resample_stats(samples, QUERY_STATISTICS, seed, n_boot)


def build_statistics(build_ms, memory, seed: int, n_boot=None) -> dict:
    """BUILD_STATISTICS of one value per map: name -> (estimate, lo, hi, n maps)."""
    return stats.resample_stats({"b": np.asarray(build_ms, dtype=float), "m": np.asarray(memory, dtype=float)},
                                BUILD_STATISTICS, seed, n_boot)


def radius_label(v) -> str:
    """A radius as its facet label: the number as the results file writes it (%.12g)."""
    if isinstance(v, str):
        return "r=" + v
    return "r=" + ("" if v is None or (isinstance(v, float) and math.isnan(v)) else f"{v:.12g}")


def terrain_texts(col):
    """A terrain column (results or build rows; docs/terrain.md) as plain strings, "" for a plain map."""
    t = col.astype(object)
    return t.where(t.notna(), "").astype(str).replace("nan", "").replace("<NA>", "")


def raw_terrain(value) -> str:
    """A row's terrain as the results file writes it ("" for a plain map), from its text or the
    report's facet label ('plain map', 'terrain X')."""
    text = "" if value is None or (isinstance(value, float) and np.isnan(value)) else str(value)
    if text in ("plain map", "nan", "<NA>", "None"):
        return ""
    return text[len("terrain "):] if text.startswith("terrain ") else text


def build_per_map(build, reps, maps, by_radius: bool = False):
    """Mean build_ms and memory_bytes per (representation, map): a sweep may build one map and
    representation in several units; each map counts once. by_radius: per (representation, radius,
    map), the radius as its facet label (a build at each radius is another structure). Builds of
    weighted maps (a terrain column, docs/terrain.md) are kept apart by their terrain: a map may run
    plain and weighted."""
    import pandas as pd
    keys = ["representation", "map"] + (["radius"] if by_radius else [])
    if build is None or build.empty:
        return pd.DataFrame(columns=keys + ["build_ms", "memory_bytes", "vertices"])
    b = build[build["representation"].isin(reps) & build["map"].isin(maps)]
    b = b.assign(**{c: b[c].astype(float) for c in ("build_ms", "memory_bytes", "vertices") if c in b.columns})
    if "terrain" in b.columns:
        b = b.assign(terrain=terrain_texts(b["terrain"]).to_numpy())
        keys.append("terrain")
    if by_radius:
        b = b.assign(radius=[radius_label(float(v)) for v in pd.to_numeric(b["radius"], errors="coerce")])
    b = b.assign(**{c: b[c].astype(object) for c in keys if isinstance(b[c].dtype, pd.CategoricalDtype)})
    return b.groupby(keys, as_index=False)[["build_ms", "memory_bytes", "vertices"]].mean()
