"""navbench.summarize: the report's statistics of any grouping of result rows, with the report's row
rules (navbench.rules) and its seeded 95 % bootstrap intervals (navbench.stats).

    t = navbench.summarize(res.queries, by=["collection", "representation", "smoothing"], builds=res.builds)

One row per group: rows, applicable (rows that are not not_applicable), not_applicable,
invalid_paths, and per statistic (rules.QUERY_STATISTICS: solved_pct, valid_pct, time_median,
time_p95, gap_mean, gap_p95, gap_max; with builds also build_ms and memory, one value per map) the
estimate and its interval and n: time_median, time_median_lo, time_median_hi, time_median_n; and
time_mean, the mean query time over the same rows as time_median, without an interval; and
first_move_median, first20_median, max_step_median: the medians of the real-time columns
(rules.REALTIME, SPEC §15) over the same rows, without an interval (NaN for rows written before
the columns).
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


def _key_codes(col):
    """(code per row, the values as objects, None where missing) of a key column, numbered in order
    of first appearance: what pd.factorize gives on the column as objects (missing as None, a value
    of its own), as the groupby factorizes it. A categorical is numbered through its codes and a
    float column on its floats: the column as objects took 8 bytes a row plus a Python float per
    row of radius (hundreds of MB at 10 M rows)."""
    import pandas as pd
    if isinstance(col.dtype, pd.CategoricalDtype):
        codes = col.cat.codes.to_numpy()
        order = pd.unique(codes)  # the codes in order of first appearance, -1 (missing) among them
        lut = np.zeros(len(col.cat.categories) + 1, dtype=np.int32)  # code -1 reads the last entry
        lut[order] = np.arange(len(order))
        cats = np.asarray(col.cat.categories, dtype=object)
        return lut[codes], np.array([None if c < 0 else cats[c] for c in order], dtype=object)
    if col.dtype == np.float64:
        k, u = pd.factorize(col.to_numpy(), sort=False, use_na_sentinel=False)
        return k, np.array([None if np.isnan(v) else float(v) for v in u], dtype=object)
    values = col.astype(object).where(col.notna(), None)
    # An array, not a Series: pandas 1.5 would make the uniques an Index (numbers inferred, with a
    # FutureWarning for a column such as radius).
    k, u = pd.factorize(values.to_numpy(dtype=object), sort=False, use_na_sentinel=False)
    return k, np.asarray(u, dtype=object)


def _dense_key(codes: list, widths: list, n: int):
    """(per row its group 0..g-1, g) of the rows' codes in the key columns (each 0..width-1):
    groups numbered ascending in the columns' codes, in order (mixed radix), as np.unique numbers
    the combined keys, in the smallest integers. Where the combinations are few (the usual case:
    a few dozen configurations, a few facets) by a table over all of them; else hashed. (np.unique's
    sort and inverse took five arrays of eight bytes a row, 400 MB at 10 M rows.)"""
    import pandas as pd
    bound = 1
    for w in widths:
        bound *= max(w, 1)
    if bound <= 2 ** 22:
        key = np.zeros(n, dtype=np.int32)
        for k, w in zip(codes, widths):
            key *= w
            key += k
        present = np.bincount(key, minlength=bound) > 0
        n_groups = int(present.sum())
        lut = (np.cumsum(present) - 1).astype(_smallest(n_groups))
        return lut[key], n_groups
    key = np.zeros(n, dtype=np.int64)
    for k, w in zip(codes, widths):
        if w and key.max(initial=0) >= (2 ** 62) // w:  # keep within 64 bits: renumber in order
            key = np.unique(key, return_inverse=True)[1].astype(np.int64)
        key *= w
        key += k
    inverse, groups = pd.factorize(key, sort=True)
    return inverse.astype(_smallest(len(groups))), len(groups)


def _smallest(n: int):
    """The smallest signed integer type that holds 0..n."""
    return np.int8 if n < 2 ** 7 else np.int16 if n < 2 ** 15 else np.int32 if n < 2 ** 31 else np.int64


def _group_positions(df, by: list) -> dict:
    """{key: positions of its rows} of the groups of df by the columns `by`, each column's values as
    objects and None where missing: what pandas' groupby(by, sort=False, dropna=False).indices
    gives on a frame of those columns, in its order (keys ascending by each column's codes in
    order of first appearance, the rows of a group ascending), computed one column at a time on
    integer codes: the frame of objects and pandas' codes beside it took ~110 bytes a row."""
    codes, uniques = [], []
    for c in by:
        k, u = _key_codes(df[c])
        codes.append(k.astype(_smallest(len(u)), copy=False))  # the smallest: one per key column
        uniques.append(u)
        del k
    inverse, n_groups = _dense_key(codes, [len(u) for u in uniques], len(df))
    # Each group's rows ascending, in four-byte positions where they fit: one comparison of the
    # rows per group where groups are few (a stable argsort of the rows takes two arrays of eight
    # bytes a row, 150 MB at 10 M rows), the argsort where they are many.
    small = np.int32 if len(df) < 2 ** 31 else np.int64
    if n_groups <= 4096:
        parts = [np.flatnonzero(inverse == g).astype(small) for g in range(n_groups)]
    else:
        order = np.argsort(inverse, kind="stable")
        bounds = np.concatenate([[0], np.cumsum(np.bincount(inverse, minlength=n_groups))])
        parts = [order[bounds[g]:bounds[g + 1]] for g in range(n_groups)]
    del inverse
    out = {}
    for pos in parts:
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
    """The columns of df (a frame, or its column names) that summarize(df, by=by) reads (by given),
    in df's order: a caller that summarizes a selection of rows copies these alone (navbench
    export's scopes per collection; every column of the rows took ~260 bytes a row of
    tests/scripts/test_memory.py's rows)."""
    names = list(df.columns) if hasattr(df, "columns") else list(df)
    want = set(by) | {"status", "message", "valid", "gap", "map", "representation", "terrain", "query_us", "has_path"}
    want |= set(rules.REALTIME.values()) | {"traced"}
    if "query_us" not in names:  # row_arrays: rules.query_time_us
        want |= set(rules.TIME_PARTS)
    if "has_path" not in names:  # row_arrays: candidates.path_exists
        want |= set(candidates.PATH_COLUMNS) | set(candidates.QUERY_COLUMNS)
    return [c for c in names if c in want]


def statuses(df) -> np.ndarray:
    """The rows' status as text, rows of the old error-'not applicable' form counted as
    not_applicable (rules.legacy_not_applicable)."""
    st = _per_row(df["status"], str, dtype=object)
    if "message" in df.columns and len(df):
        legacy = (st == "error") & _per_row(df["message"], lambda m: "not applicable" in m.lower())
        st[legacy] = "not_applicable"
    return st


def _status_flags(df):
    """(status is ok, status is not not_applicable) per row, as statuses(df) gives them, a bool a
    row read off the status's categories (its text per row took 8 bytes a row); the message is
    read on the error rows alone (rules.legacy_not_applicable)."""
    ok = candidates.text_in(df["status"], ("ok",))
    na = candidates.text_in(df["status"], ("not_applicable",))
    if "message" in df.columns and len(df):
        error = np.flatnonzero(candidates.text_in(df["status"], ("error",)))
        if len(error):
            na[error] |= _per_row(df["message"].iloc[error], lambda m: "not applicable" in m.lower(), dtype=bool)
    return ok, ~na


def row_arrays(df) -> dict:
    """What the statistics read of each row: ok, applicable, has_path (candidates.path_exists, or
    the column has_path a reader derived with it), valid, time (rules.query_time_us, or the column
    query_us a reader derived with it), gap."""
    import pandas as pd
    ok, applicable = _status_flags(df)
    time = floats(df["query_us"]) if "query_us" in df.columns else rules.query_time_us(df).to_numpy()
    has_path = df["has_path"].to_numpy(bool) if "has_path" in df.columns else candidates.path_exists(df)

    def column(c):  # read only: a float column as it is, not copied (80 MB a column at 10 M rows)
        if c not in df.columns:
            return np.full(len(df), np.nan)
        return df[c].to_numpy() if df[c].dtype == np.float64 else floats(df[c])
    # valid is 1, 0 or missing: load's nullable boolean as float32 (NaN where missing; every reader
    # compares it with 1), half the float64 copy's 80 MB at 10 M rows.
    valid = (df["valid"].to_numpy(dtype=np.float32, na_value=np.nan)
             if "valid" in df.columns and isinstance(df["valid"].dtype, pd.BooleanDtype) else column("valid"))
    out = {"ok": ok, "applicable": applicable, "has_path": has_path,
           "valid": valid, "time": time, "gap": column("gap")}
    # The real-time columns (SPEC §15): none in a file written before them (one NaN seen as a row
    # each, no memory), as they are without traced rows (not copied), else with those left out.
    traced = "traced" in df.columns and bool(rules.traced_mask(df).any())
    for name, c in rules.REALTIME.items():
        if c not in df.columns:
            out[name] = np.broadcast_to(np.float64(np.nan), (len(df),))
        else:
            out[name] = rules.realtime_us(df, c).to_numpy(dtype=float) if traced else column(c)
    return out


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
        if not counts["applicable"]:
            continue
        task = (samples, builds, seed, build_seed, n_boot)
        # One after the other: each group's bootstrap as its samples are drawn, so one group's
        # samples are held at a time (all of them at once: 32 bytes a row, 300 MB at 10 M rows).
        tasks.append((rec, task if run_tasks else statistics_task(task)))
        del samples, task
    results = run_tasks(statistics_task, [t for _, t in tasks]) if run_tasks else [r for _, r in tasks]
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


def realtime_medians(arrays: dict, pos) -> dict:
    """The medians of the real-time columns over a group's rows of the time sample (applicable,
    solved, not traced) that have them: name_median (NaN without such a row)."""
    pos = np.asarray(pos)
    app = pos[arrays["applicable"][pos]]
    rows = app[arrays["ok"][app] & np.isfinite(arrays["time"][app])]
    out = {}
    for name in rules.REALTIME:
        v = arrays[name][rows]
        v = v[np.isfinite(v)]
        out[name + "_median"] = float(np.median(v)) if len(v) else float("nan")
    return out


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
    medians = [realtime_medians(arrays, pos) for _, pos, *_ in groups]
    for name in rules.REALTIME:
        t[name + "_median"] = [m[name + "_median"] for m in medians]
    gid = np.zeros(len(df), dtype=_smallest(len(groups)))
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
    # The group and the facet as categoricals: the rule reads their codes, a byte or two a row.
    rule_rows = pd.DataFrame({"_group": pd.Categorical.from_codes(gid, categories=pd.RangeIndex(len(t))),
                              "status": kept(df["status"]), "valid": arrays["valid"]}, copy=False)
    del gid
    if "map" in df.columns:
        rule_rows["map"] = kept(df["map"])
    if absent is None and df.attrs.get("absent") is not None:  # load's records (map, representation, status, why)
        absent = pd.DataFrame(list(df.attrs["absent"]), columns=["map", "representation", "status", "why"])
    if absent is not None and "representation" in df.columns:
        rule_rows["representation"] = kept(df["representation"])
    facet_by = [c for c in by if c not in FACETLESS]
    if facet_by:  # the maps a group is judged on: those of its facet (the report's, SPEC §14's scope)
        # Its number is a label only (candidates.summarise groups the maps by it): the rows' codes
        # of the facet's columns combined, no positions per facet (an argsort of the rows).
        facet = candidates.combined_codes(df, facet_by)
        n_facets = int(facet.max(initial=0)) + 1
        rule_rows["facet"] = pd.Categorical.from_codes(facet.astype(_smallest(n_facets)), categories=pd.RangeIndex(n_facets))
        del facet
    cand = candidates.summarise(rule_rows, "_group", widening or candidates.Widening(), has_path=arrays["has_path"],
                                absent=absent)
    t = t.join(cand.drop(columns=["applicable"]).set_index("_group"))
    t.attrs["units"] = {k: u for k, u in (("time_median", "µs"), ("time_p95", "µs"), ("time_mean", "µs"),
                                          ("first_move_median", "µs"), ("first20_median", "µs"), ("max_step_median", "µs"),
                                          ("build_ms", "ms"), ("memory", "bytes"), ("solved_pct", "fraction"), ("valid_pct", "fraction"),
                                          ("gap_mean", "ratio"), ("gap_p95", "ratio"), ("gap_max", "ratio"))
                        if k in t.columns}
    return t
