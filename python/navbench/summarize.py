"""navbench.summarize: the report's statistics of any grouping of result rows, with the report's row
rules (navbench.rules) and its seeded 95 % bootstrap intervals (navbench.stats).

    t = navbench.summarize(res.queries, by=["collection", "representation", "smoothing"], builds=res.builds)

One row per group: rows, applicable (rows that are not not_applicable), not_applicable,
invalid_paths, and per statistic (rules.QUERY_STATISTICS: solved_pct, valid_pct, time_median,
time_p95, gap_mean, gap_p95, gap_max; with builds also build_ms and memory, one value per map) the
estimate and its interval and n: time_median, time_median_lo, time_median_hi, time_median_n.
Proportions are fractions (0.97, not 97) and gaps ratios, as in the result files.
"""
from __future__ import annotations

import numpy as np

from navbench import rules, stats

DEFAULT_BY = ("representation", "search", "heuristic", "smoothing", "convention", "radius", "terrain")


def floats(col) -> np.ndarray:
    """A column as float64 (NaN where missing), whatever its dtype (Int64, boolean, float, text)."""
    import pandas as pd
    if isinstance(col.dtype, pd.CategoricalDtype) or col.dtype == object:
        return pd.to_numeric(col.astype(str), errors="coerce").to_numpy(dtype=float)
    return col.to_numpy(dtype=float, na_value=np.nan)


def default_by(df) -> list:
    """The columns that tell configurations apart in df: representation and smoothing, and each of
    search, heuristic, convention, radius, terrain that holds more than one value."""
    out = []
    for c in DEFAULT_BY:
        if c in df.columns and (c in ("representation", "smoothing") or df[c].nunique(dropna=False) > 1):
            out.append(c)
    return out


def statuses(df) -> np.ndarray:
    """The rows' status as text, rows of the old error-'not applicable' form counted as
    not_applicable (rules.legacy_not_applicable)."""
    st = df["status"].astype(str).to_numpy(dtype=object)
    if "message" in df.columns and len(df):
        st = np.where(rules.legacy_not_applicable(df["status"], df["message"].fillna("") if hasattr(df["message"], "fillna")
                                                  else df["message"]), "not_applicable", st)
    return st


def row_arrays(df) -> dict:
    """What the statistics read of each row: ok, applicable, valid, time, gap."""
    st = statuses(df)
    time = floats(df["query_us"]) if "query_us" in df.columns else floats(rules.query_time_us(df))
    return {"ok": st == "ok", "applicable": st != "not_applicable",
            "valid": floats(df["valid"]) if "valid" in df.columns else np.full(len(df), np.nan),
            "time": time, "gap": floats(df["gap"]) if "gap" in df.columns else np.full(len(df), np.nan)}


def group_record(arrays: dict, pos: np.ndarray, seed: int, n_boot=None) -> dict:
    """The counts and the query statistics of the rows at pos (one group)."""
    app = pos[arrays["applicable"][pos]]
    rec = {"rows": len(pos), "applicable": len(app), "not_applicable": len(pos) - len(app)}
    samples = rules.metric_samples(arrays["ok"][app], arrays["valid"][app], arrays["time"][app], arrays["gap"][app])
    for k, (est, lo, hi, n) in rules.query_statistics(samples, seed, n_boot).items():
        rec[k], rec[k + "_lo"], rec[k + "_hi"], rec[k + "_n"] = est, lo, hi, n
    rec["invalid_paths"] = int(np.nansum(samples["valid"] == 0))
    return rec


def _build_record(builds, g, seed: int, n_boot=None) -> dict:
    """build_ms and memory of a group's representation(s) over its maps, one value per map."""
    reps = set(g["representation"].astype(str))
    per_map = rules.build_per_map(builds.assign(representation=builds["representation"].astype(str),
                                                map=builds["map"].astype(str)),
                                  reps, set(g["map"].astype(str)))
    if "terrain" in per_map.columns and "terrain" in g.columns:
        per_map = per_map[per_map["terrain"].isin(set(rules.terrain_texts(g["terrain"])))]
    rec = {}
    for k, (est, lo, hi, n) in rules.build_statistics(per_map["build_ms"], per_map["memory_bytes"], seed,
                                                      n_boot).items():
        rec[k], rec[k + "_lo"], rec[k + "_hi"], rec[k + "_n"] = est, lo, hi, n
    return rec


def summarize(df, by=None, builds=None, seed: int = 1, boot: int | None = None):
    """The report's statistics per group of df's rows (navbench.load's queries, or the report's
    rows). by: the grouping columns (default: default_by). builds: build rows (navbench.load's
    builds) for build_ms and memory per map. seed: the bootstrap seed (each group's own is
    stats.seed_for(seed, *its key), so adding a group changes no other's interval). boot:
    resamples per interval (default stats.N_BOOT, 1000). Groups in order of first appearance."""
    import pandas as pd
    by = list(by) if by is not None else default_by(df)
    missing = [c for c in by if c not in df.columns]
    if missing:
        raise KeyError(f"summarize: by names column(s) the rows lack: {', '.join(missing)}")
    arrays = row_arrays(df)
    keys = pd.DataFrame({c: df[c].astype(object).where(df[c].notna(), None) for c in by}) if by else None
    groups = (keys.groupby(by, sort=False, dropna=False).indices if by else {(): np.arange(len(df))})
    recs = []
    for key, pos in groups.items():
        key = key if isinstance(key, tuple) else (key,)
        rec = dict(zip(by, key))
        rec.update(group_record(arrays, np.sort(np.asarray(pos)), stats.seed_for(seed, "summarize", *key), boot))
        if builds is not None and "representation" in df.columns:
            rec.update(_build_record(builds, df.iloc[np.asarray(pos)], stats.seed_for(seed, "summarize", *key, "build"),
                                     boot))
        recs.append(rec)
    t = pd.DataFrame(recs)
    t.attrs["units"] = {k: u for k, u in (("time_median", "µs"), ("time_p95", "µs"), ("build_ms", "ms"),
                                          ("memory", "bytes"), ("solved_pct", "fraction"), ("valid_pct", "fraction"),
                                          ("gap_mean", "ratio"), ("gap_p95", "ratio"), ("gap_max", "ratio"))
                        if k in t.columns}
    return t
