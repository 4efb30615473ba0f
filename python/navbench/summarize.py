"""navbench.summarize: the report's statistics of any grouping of result rows, with the report's row
rules (navbench.rules) and its seeded 95 % bootstrap intervals (navbench.stats).

    t = navbench.summarize(res.queries, by=["collection", "representation", "smoothing"], builds=res.builds)

One row per group: rows, applicable (rows that are not not_applicable), not_applicable,
invalid_paths, and per statistic (rules.QUERY_STATISTICS: solved_pct, valid_pct, time_median,
time_p95, gap_mean, gap_p95, gap_max; with builds also build_ms and memory, one value per map) the
estimate and its interval and n: time_median, time_median_lo, time_median_hi, time_median_n; and
time_mean, the mean query time over the same rows as time_median, without an interval.
Proportions are fractions (0.97, not 97) and gaps ratios, as in the result files.
"""
from __future__ import annotations

import numpy as np

from navbench import candidates, rules, stats

DEFAULT_BY = ("representation", "search", "heuristic", "smoothing", "convention", "radius", "terrain")
# The grouping columns that tell configurations apart within one facet (the others make the facet).
FACETLESS = ("representation", "search", "heuristic", "smoothing")


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


def _group_positions(df, by: list) -> dict:
    """{key: positions of its rows} of the groups of df by the columns `by`, each column's values as
    objects and None where missing: what pandas' groupby(by, sort=False, dropna=False).indices
    gives on a frame of those columns, in its order (keys ascending by each column's codes in
    order of first appearance, the rows of a group ascending), computed one column at a time on
    integer codes: the frame of objects and pandas' codes beside it took ~110 bytes a row."""
    import pandas as pd
    codes, uniques = [], []
    for c in by:
        values = df[c].astype(object).where(df[c].notna(), None)
        # As the groupby factorizes a key column; an array, not a Series: pandas 1.5 would make the
        # uniques an Index (numbers inferred, with a FutureWarning for a column such as radius).
        k, u = pd.factorize(values.to_numpy(dtype=object), sort=False, use_na_sentinel=False)
        codes.append(k.astype(np.int8 if len(u) < 2 ** 7 else np.int16 if len(u) < 2 ** 15 else np.int32
                              if len(u) < 2 ** 31 else np.int64))  # the smallest: one per key column
        uniques.append(np.asarray(u, dtype=object))
        del values, k
    key = np.zeros(len(df), dtype=np.int64)  # mixed radix: ascending in the columns' codes, in order
    for k, u in zip(codes, uniques):
        if len(u) and key.max(initial=0) >= (2 ** 62) // len(u):  # keep within 64 bits: renumber in order
            key = np.unique(key, return_inverse=True)[1].astype(np.int64)
        key *= len(u)
        key += k
    groups, inverse = np.unique(key, return_inverse=True)
    del key
    order = np.argsort(inverse, kind="stable")
    bounds = np.concatenate([[0], np.cumsum(np.bincount(inverse, minlength=len(groups)))])
    out = {}
    for g in range(len(groups)):
        pos = order[bounds[g]:bounds[g + 1]]
        first = pos[0]
        key_values = tuple(u[k[first]] for k, u in zip(codes, uniques))
        out[key_values if len(by) > 1 else key_values[0]] = pos
    return out


def _per_row(col, fn, dtype=None) -> np.ndarray:
    """fn(text) of each row's value, computed once per distinct value (categoricals: per category),
    as an array of dtype (None: NumPy's choice, fixed-width for text: dtype=object keeps a row at 8
    bytes however long the text)."""
    import pandas as pd
    if isinstance(col.dtype, pd.CategoricalDtype):
        cats = np.array([fn("" if pd.isna(c) else str(c)) for c in col.cat.categories] + [fn("")], dtype=dtype)
        return cats[col.cat.codes.to_numpy()]  # code -1 (missing) takes the last
    if not len(col):
        return np.zeros(0, dtype=dtype or bool)
    # Hashed as they are, not as fixed-width text sorted (astype(str), np.unique: gigabytes at
    # millions of rows); a missing value (code -1) is "" and takes the last.
    inverse, uniq = pd.factorize(col)
    return np.array([fn(str(u)) for u in uniq] + [fn("")], dtype=dtype)[inverse]


def columns_read(df, by) -> list:
    """The columns of df that summarize(df, by=by) reads (by given), in df's order: a caller that
    summarizes a selection of rows copies these alone (navbench export's scopes per collection;
    every column of the rows took ~260 bytes a row of tests/scripts/test_memory.py's rows)."""
    want = set(by) | {"status", "message", "valid", "gap", "map", "representation", "terrain", "query_us", "has_path"}
    if "query_us" not in df.columns:  # row_arrays: rules.query_time_us
        want |= set(rules.TIME_PARTS) | {"traced"}
    if "has_path" not in df.columns:  # row_arrays: candidates.path_exists
        want |= set(candidates.PATH_COLUMNS) | set(candidates.QUERY_COLUMNS)
    return [c for c in df.columns if c in want]


def statuses(df) -> np.ndarray:
    """The rows' status as text, rows of the old error-'not applicable' form counted as
    not_applicable (rules.legacy_not_applicable)."""
    st = _per_row(df["status"], str, dtype=object)
    if "message" in df.columns and len(df):
        legacy = (st == "error") & _per_row(df["message"], lambda m: "not applicable" in m.lower())
        st[legacy] = "not_applicable"
    return st


def row_arrays(df) -> dict:
    """What the statistics read of each row: ok, applicable, has_path (candidates.path_exists, or
    the column has_path a reader derived with it), valid, time (rules.query_time_us, or the column
    query_us a reader derived with it), gap."""
    st = statuses(df)
    time = floats(df["query_us"]) if "query_us" in df.columns else floats(rules.query_time_us(df))
    has_path = df["has_path"].to_numpy(bool) if "has_path" in df.columns else candidates.path_exists(df)

    def column(c):  # read only: a float column as it is, not copied (80 MB a column at 10 M rows)
        if c not in df.columns:
            return np.full(len(df), np.nan)
        return df[c].to_numpy() if df[c].dtype == np.float64 else floats(df[c])
    return {"ok": st == "ok", "applicable": st != "not_applicable", "has_path": has_path,
            "valid": column("valid"), "time": time, "gap": column("gap")}


def counts_and_samples(arrays: dict, pos: np.ndarray):
    """The counts of the rows at pos (one group) and the samples of its statistics (rules.metric_samples
    over its applicable rows)."""
    app = pos[arrays["applicable"][pos]]
    counts = {"rows": len(pos), "not_applicable": len(pos) - len(app), "applicable": len(app)}
    samples = rules.metric_samples(arrays["ok"][app], arrays["valid"][app], arrays["time"][app], arrays["gap"][app],
                                   arrays["has_path"][app])
    return counts, samples


def statistics_task(task) -> dict:
    """The bootstrap of one group: (samples, builds (build_ms, memory per map) or None, seed,
    build seed, resamples) -> name -> (estimate, lo, hi, n). A process pool's task (module level)."""
    samples, builds, seed, build_seed, n_boot = task
    res = rules.query_statistics(samples, seed, n_boot)
    if builds is not None:
        res.update(rules.build_statistics(builds[0], builds[1], build_seed, n_boot))
    return res


def summarize_groups(arrays: dict, groups, n_boot=None, run_tasks=None) -> list:
    """The records of groups: [(record with the group's key columns, positions of its rows in
    arrays (row_arrays), seed, builds or None, build seed)], each record with rows, not_applicable,
    applicable and every statistic's estimate, _lo, _hi, _n; a group without applicable rows gets
    its counts only. run_tasks(fn, tasks) -> results runs the bootstraps (the
    report's spreads them over processes); default one after the other."""
    recs, tasks = [], []
    for rec, pos, seed, builds, build_seed in groups:
        counts, samples = counts_and_samples(arrays, np.asarray(pos))
        rec = {**rec, **counts}
        recs.append(rec)
        if counts["applicable"]:
            tasks.append((rec, (samples, builds, seed, build_seed, n_boot)))
    results = (run_tasks or (lambda fn, ts: [fn(t) for t in ts]))(statistics_task, [t for _, t in tasks])
    for (rec, _), res in zip(tasks, results):
        for k, (est, lo, hi, n) in res.items():
            rec[k], rec[k + "_lo"], rec[k + "_hi"], rec[k + "_n"] = est, lo, hi, n
    return recs


def _time_mean(arrays: dict, pos) -> float:
    """The mean query time of a group: over the rows the median's sample holds (rules.metric_samples:
    applicable, solved, not traced), a point estimate (no interval; NaN without such a row)."""
    _, samples = counts_and_samples(arrays, pos)
    t = samples["time"][np.isfinite(samples["time"])]
    return float(t.mean()) if len(t) else float("nan")


def _builds_of(builds, g):
    """(build_ms, memory) per map of a group's representation(s) over its maps (and terrain)."""
    reps = set(g["representation"].astype(str))
    per_map = rules.build_per_map(builds.assign(representation=builds["representation"].astype(str),
                                                map=builds["map"].astype(str)),
                                  reps, set(g["map"].astype(str)))
    if "terrain" in per_map.columns and "terrain" in g.columns:
        per_map = per_map[per_map["terrain"].isin(set(rules.terrain_texts(g["terrain"])))]
    return per_map["build_ms"].to_numpy(float), per_map["memory_bytes"].to_numpy(float)


def summarize(df, by=None, builds=None, seed: int = 1, boot: int | None = None, widening=None, absent=None):
    """The report's statistics per group of df's rows (navbench.load's queries, or the report's
    rows). by: the grouping columns (default: default_by). builds: build rows (navbench.load's
    builds) for build_ms and memory per map. seed: the bootstrap seed (each group's own is
    stats.seed_for(seed, *its key), so adding a group changes no other's interval). boot:
    resamples per interval (default stats.N_BOOT, 1000). widening: candidates.Widening, how far the
    candidate rule is widened (default: not). absent: why a representation has no rows on a map
    (navbench.load's res.absent, candidates.absent_table; default df.attrs["absent"], which load
    sets and subsets keep): a map of the group's scope it was not run on keeps it from being a
    candidate, one it does not apply to is counted apart (SPEC §14); None and no such attribute:
    every map without rows is counted apart, as for result sets read without their records.
    Groups in order of first appearance; each with the candidate rule's columns too
    (candidates.summarise: is_candidate, reason, valid_share, solved_share, invalid_paths, missed,
    na_maps, unrun_maps, ...). A group's scope is its rows' maps among the rows of df that share its
    values of the columns of by other than the configuration's (representation, search, heuristic,
    smoothing): the report's facet."""
    import pandas as pd
    by = list(by) if by is not None else default_by(df)
    missing = [c for c in by if c not in df.columns]
    if missing:
        raise KeyError(f"summarize: by names column(s) the rows lack: {', '.join(missing)}")
    arrays = row_arrays(df)
    index = _group_positions(df, by) if by else {(): np.arange(len(df))}
    # What a group's builds are looked up by: these columns' rows of a group, not every column's.
    narrow = pd.DataFrame({c: df[c] for c in ("representation", "map", "terrain") if c in df.columns}, copy=False)
    groups = []
    for key, pos in index.items():
        key = key if isinstance(key, tuple) else (key,)
        pos = np.asarray(pos)
        if len(pos) > 1 and not (pos[1:] > pos[:-1]).all():  # _group_positions' are ascending already: no copy
            pos = np.sort(pos)
        with_builds = builds is not None and "representation" in df.columns
        groups.append((dict(zip(by, key)), pos, stats.seed_for(seed, "summarize", *key),
                       _builds_of(builds, narrow.iloc[pos]) if with_builds else None,
                       stats.seed_for(seed, "summarize", *key, "build")))
    del index  # the groups hold their own positions
    t = pd.DataFrame(summarize_groups(arrays, groups, boot))
    t["time_mean"] = [_time_mean(arrays, pos) for _, pos, *_ in groups]
    gid = np.zeros(len(df), dtype=np.int32 if len(groups) < 2 ** 31 else np.int64)
    for k, (_, pos, *_) in enumerate(groups):
        gid[pos] = k
    # The rule reads status, valid and map (has_path given): valid as float64 (NaN where empty), as
    # the report's rows hold it; load()'s nullable boolean with missing values is no float array
    # to every pandas (1.5, Debian 12's, refuses the conversion).
    # A categorical column stays one (codes; the rule reads its values once per category): as
    # objects, one per row, each took 8 bytes a row and the rule's text of them more.
    def kept(col):
        return col.array if isinstance(col.dtype, pd.CategoricalDtype) else col.to_numpy()
    del groups  # their positions: 8 bytes a row, no longer read
    # Not copied (the rule only reads them): valid is a column of the rows' float block.
    rule_rows = pd.DataFrame({"_group": gid, "status": kept(df["status"]), "valid": arrays["valid"]}, copy=False)
    del gid
    if "map" in df.columns:
        rule_rows["map"] = kept(df["map"])
    if absent is None and df.attrs.get("absent") is not None:  # load's records (map, representation, status, why)
        absent = pd.DataFrame(list(df.attrs["absent"]), columns=["map", "representation", "status", "why"])
    if absent is not None and "representation" in df.columns:
        rule_rows["representation"] = kept(df["representation"])
    facet_by = [c for c in by if c not in FACETLESS]
    if facet_by:  # the maps a group is judged on: those of its facet (the report's, SPEC §14's scope)
        # Its number is a label only (candidates.summarise groups the maps by it), on integer codes
        # as the groups are (a frame of the key columns as objects took ~110 bytes a row).
        facet = np.zeros(len(df), dtype=np.int32)  # fewer facets than groups
        for k, pos in enumerate(_group_positions(df, facet_by).values()):
            facet[pos] = k
        rule_rows["facet"] = facet
        del facet
    cand = candidates.summarise(rule_rows, "_group", widening or candidates.Widening(), has_path=arrays["has_path"],
                                absent=absent)
    t = t.join(cand.drop(columns=["applicable"]).set_index("_group"))
    t.attrs["units"] = {k: u for k, u in (("time_median", "µs"), ("time_p95", "µs"), ("time_mean", "µs"),
                                          ("build_ms", "ms"), ("memory", "bytes"), ("solved_pct", "fraction"), ("valid_pct", "fraction"),
                                          ("gap_mean", "ratio"), ("gap_p95", "ratio"), ("gap_max", "ratio"))
                        if k in t.columns}
    return t
