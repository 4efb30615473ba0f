"""Statistics of the navbench report: seeded bootstrap confidence intervals, paired comparisons
(Wilcoxon signed-rank test with Holm's correction), ECDFs, binned medians and log-log fits.

Only numpy and scipy; no plotting. Every random draw comes from a numpy Generator seeded by the
caller, so a report made twice from the same files shows the same intervals.
References: Efron & Tibshirani 1993, "An Introduction to the Bootstrap" (percentile intervals);
Wilcoxon 1945, "Individual comparisons by ranking methods"; Holm 1979, "A simple sequentially
rejective multiple test procedure".
"""
from __future__ import annotations

import math
import zlib

import numpy as np

N_BOOT = 1000     # bootstrap resamples per interval
ALPHA = 0.05      # 95 % intervals, 5 % family-wise error rate
CHUNK = 4_000_000  # resampled values held in memory at once
# Samples up to this many rows are resampled row by row; larger ones draw each resample's
# statistic from its exact distribution (drawn_stats), which costs the same for any size.
EXACT_ROWS = 2000


def seed_for(base: int, *names) -> int:
    """A seed that depends on the base seed and on what is resampled (a stable hash, not Python's
    randomised hash()), so adding a configuration does not change the others' intervals."""
    return (base * 1_000_003 + zlib.crc32("\x1f".join(map(str, names)).encode())) % (2 ** 32)


def resample_stats(columns: dict, stats: dict, seed: int, n_boot: int | None = None, alpha: float = ALPHA) -> dict:
    """Bootstrap over rows: the rows (queries) are drawn with replacement n_boot times; every
    statistic is computed on the same resamples. columns: name -> 1-D float array (equal
    lengths, NaN = not part of that statistic, e.g. the time of an unsolved query). stats: name ->
    (column, function(2-D array with NaNs, axis=1) -> 1-D). Returns name -> (estimate, lo, hi, n)
    where n counts the non-NaN values the estimate rests on; (nan, nan, nan, 0) without data."""
    n_boot = n_boot or N_BOOT
    arrays = {k: np.asarray(v, dtype=float) for k, v in columns.items()}
    n_rows = len(next(iter(arrays.values()))) if arrays else 0
    out = {}
    if n_rows == 0:
        return {k: (math.nan, math.nan, math.nan, 0) for k in stats}
    if n_rows > EXACT_ROWS and all(_drawable(arrays[col], fn) for col, fn in stats.values()):
        return drawn_stats(arrays, stats, seed, n_boot, alpha)
    rng = np.random.default_rng(seed)
    boots = {k: [] for k in stats}
    per = max(1, CHUNK // n_rows)
    done = 0
    how = {k: _how(arrays[col], fn) for k, (col, fn) in stats.items()}
    ranked, coded = {}, {}
    for k, (col, fn) in stats.items():
        a = arrays[col]
        if how[k] in ("sorted", "max") and col not in ranked:
            # The column's values in order (non-finite last, as +inf) and each row's rank.
            key = np.where(np.isfinite(a), a, np.inf)
            order = np.argsort(key, kind="stable")
            rank = np.empty(n_rows, dtype=np.int16 if n_rows < 2 ** 15 else np.int64)
            rank[order] = np.arange(n_rows)
            ranked[col] = (key[order], rank, int(np.isfinite(a).sum()))
        if how[k] == "binary" and col not in coded:
            coded[col] = np.where(np.isnan(a), 2, a).astype(np.int8)  # 0, 1, 2 = NaN
    while done < n_boot:
        m = min(per, n_boot - done)
        idx = rng.integers(0, n_rows, size=(m, n_rows))
        for col in dict.fromkeys(c for c, _ in stats.values()):
            mine = [(k, fn) for k, (c, fn) in stats.items() if c == col]
            if col in ranked and any(how[k] in ("sorted", "max") for k, _ in mine):
                # Each resample in order once for every quantile of this column: its rows' ranks
                # sorted (a radix sort of small integers) pick the values in order, exactly the
                # values a sort of the resampled values gives.
                values, rank, n_finite = ranked[col]
                r = rank[idx]
                r.sort(axis=1, kind="stable")
                n_fin = np.count_nonzero(r < n_finite, axis=1)  # finite values come first
                for k, fn in mine:
                    if how[k] == "sorted":
                        boots[k].append(fn.of_ranks(r, values, n_fin))
                    elif how[k] == "max":  # the largest finite value, NaN without one
                        top = values[r[np.arange(m), np.maximum(n_fin - 1, 0)]]
                        boots[k].append(np.where(n_fin > 0, top, np.nan))
            if col in coded and any(how[k] == "binary" for k, _ in mine):
                # A share of 0/1 values: ones / values present, whole numbers (nanmean's sum of
                # 0s and 1s is exact, so this is its result to the last bit).
                c = coded[col][idx]
                ones = np.count_nonzero(c == 1, axis=1)
                present = n_rows - np.count_nonzero(c == 2, axis=1)
                with np.errstate(invalid="ignore", divide="ignore"):
                    share = np.true_divide(ones, present)
                for k, fn in mine:
                    if how[k] == "binary":
                        boots[k].append(share)
            if any(how[k] == "values" for k, _ in mine):
                sample = arrays[col][idx]
                for k, fn in mine:
                    if how[k] == "values":
                        boots[k].append(_nan_safe(fn, sample))
        done += m
    for k, (col, fn) in stats.items():
        a = arrays[col]
        n = int(np.isfinite(a).sum())
        if n == 0:
            out[k] = (math.nan, math.nan, math.nan, 0)
            continue
        with np.errstate(all="ignore"):
            est = float(_nan_safe(fn, a[None, :])[0])
        b = np.concatenate(boots[k])
        b = b[np.isfinite(b)]
        lo, hi = (np.quantile(b, [alpha / 2, 1 - alpha / 2]) if len(b) else (math.nan, math.nan))
        out[k] = (est, float(lo), float(hi), n)
    return out


def _how(a, fn) -> str:
    """How resample_stats computes fn on a resample of column a (each way gives fn's result):
    "sorted" (a Quantile, from the resample in order), "max" (nanmax of a column without
    infinities, the last finite value in order), "binary" (nan_share or nanmean of a column of
    0, 1 and NaN: a count), "values" (fn on the resampled values)."""
    if isinstance(fn, Quantile):
        return "sorted"
    finite = a[np.isfinite(a)]
    if fn is np.nanmax and not np.isinf(a).any():
        return "max"
    if (fn is nan_share or fn is np.nanmean) and not np.isinf(a).any() and np.all((finite == 0) | (finite == 1)):
        return "binary"
    return "values"


def _kind(fn):
    """What drawn_stats knows of a statistic: ("quantile", q), ("mean",), ("max",); None otherwise."""
    if isinstance(fn, Quantile):
        return ("quantile", fn.q)
    if fn is np.median or fn is np.nanmedian:
        return ("quantile", 0.5)
    if fn is nan_share or fn is np.nanmean or fn is np.mean:
        return ("mean",)
    if fn is np.nanmax or fn is np.max:
        return ("max",)
    return None


def _drawable(a, fn) -> bool:
    """Whether drawn_stats computes what fn computes on column a: a statistic it knows, no
    infinities (it leaves out non-finite values, as the nan* reductions leave out NaN), and no
    NaN for the reductions that do not leave NaN out (np.median, np.mean, np.max)."""
    if _kind(fn) is None or np.isinf(a).any():
        return False
    return fn not in (np.median, np.mean, np.max) or not np.isnan(a).any()


def drawn_stats(arrays: dict, stats: dict, seed: int, n_boot: int, alpha: float = ALPHA) -> dict:
    """The bootstrap of resample_stats for large samples, without drawing the rows: each
    resample's statistic is drawn from its distribution given the sample, so the cost does not
    grow with the rows. A resample of n rows holds s ~ Binomial(n, S/n) of the S non-NaN values,
    and those s are drawn with replacement from the S values, i.e. they are F^-1(U) for s uniform
    U (F the values' empirical distribution). Hence, per resample:
    - a quantile at position h = q (s - 1) between the order statistics j+1 and j+2 (1-based, j =
      floor(h)): the j+1-th smallest of s uniforms is Beta(j+1, s-j), the next one above it is
      that plus (1 - it) Beta(1, s-j-1); the value interpolates between F^-1 of the two, as the
      quantile of a resample does (exact);
    - a share of 0/1 values: Binomial(s, share) / s (exact);
    - a maximum: F^-1 of the largest of s uniforms, U^(1/s) (exact);
    - a mean of other values: up to EXACT_ROWS values the s values are drawn; beyond, the mean of
      s draws is normal with the values' standard deviation / sqrt(s) (central limit theorem).
    The interval is the percentile interval of the n_boot drawn statistics, as in resample_stats;
    the estimate and n are computed on the sample itself, as there."""
    rng = np.random.default_rng(seed)
    ordered = {}  # column -> its values sorted, non-finite last as +inf (shared by its statistics)
    for col, fn in stats.values():
        if col not in ordered and _kind(fn)[0] in ("quantile", "max"):
            ordered[col] = np.sort(np.where(np.isfinite(arrays[col]), arrays[col], np.inf))
    drawn = _drawn_values(arrays, stats, rng, n_boot, ordered)
    out = {}
    for k, (col, fn) in stats.items():
        a = arrays[col]
        size = int(np.isfinite(a).sum())
        if size == 0:
            out[k] = (math.nan, math.nan, math.nan, 0)
            continue
        with np.errstate(all="ignore"):
            if isinstance(fn, Quantile):  # fn(a) is this: the sort is shared
                est = float(fn.of_sorted(ordered[col][None, :])[0])
            else:
                est = float(_nan_safe(fn, a[None, :])[0])
        d = drawn[k][np.isfinite(drawn[k])]
        lo, hi = (np.quantile(d, [alpha / 2, 1 - alpha / 2]) if len(d) else (math.nan, math.nan))
        out[k] = (est, float(lo), float(hi), size)
    return out


def _drawn_values(arrays: dict, stats: dict, rng, n_boot: int, ordered=None) -> dict:
    """The drawn statistics of drawn_stats: name -> array of up to n_boot values (fewer when
    resamples without a value were dropped; empty without data). ordered: column -> its values
    sorted (non-finite last), where already at hand."""
    ordered = {} if ordered is None else ordered
    out = {}
    for k, (col, fn) in stats.items():
        a = arrays[col]
        n = len(a)
        finite_values = a[np.isfinite(a)]
        size = len(finite_values)
        if size == 0:
            out[k] = np.empty(0)
            continue
        kind = _kind(fn)
        s = rng.binomial(n, size / n, size=n_boot) if size < n else np.full(n_boot, n)
        s = s[s > 0]  # a resample without a value has no statistic (dropped, as in resample_stats)
        if kind[0] in ("quantile", "max"):
            x = ordered[col][:size] if col in ordered else np.sort(finite_values)
        if kind[0] == "quantile":
            h = kind[1] * (s - 1)
            j = np.floor(h)
            frac = h - j
            u1 = rng.beta(j + 1, s - j)
            inner = s - j - 1 > 0  # a next order statistic exists
            u2 = u1.copy()
            u2[inner] = u1[inner] + (1 - u1[inner]) * rng.beta(1, (s - j - 1)[inner])
            vlo, vhi = x[_position(u1, size)], x[_position(u2, size)]
            with np.errstate(invalid="ignore"):
                b = vlo + frac * np.where(frac > 0, vhi - vlo, 0.0)
        elif kind[0] == "max":
            b = x[_position(rng.random(len(s)) ** (1.0 / s), size)]
        elif np.all((finite_values == 0) | (finite_values == 1)):
            b = rng.binomial(s, finite_values.mean()) / s
        elif size <= EXACT_ROWS:
            b = np.array([finite_values[rng.integers(0, size, size=m)].mean() for m in s])
        else:
            b = finite_values.mean() + finite_values.std() / np.sqrt(s) * rng.standard_normal(len(s))
        out[k] = b
    return out


def _position(u, size: int):
    """Index into `size` sorted values of F^-1(u), u in [0, 1]: the value whose share of the
    values covers u."""
    return np.minimum((u * size).astype(np.int64), size - 1)


def _nan_safe(fn, sample):
    """fn over rows of sample, NaN for a row that holds no finite value (all-NaN warnings off)."""
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        return np.asarray(fn(sample, axis=1), dtype=float)


class Quantile:
    """A reduction (a, axis=1) -> the q-quantile of each row's finite values (linear
    interpolation, as numpy's default), vectorised: numpy's nanquantile loops over rows."""

    def __init__(self, q: float):
        self.q = q

    def __call__(self, a, axis=1):
        return self.of_sorted(np.sort(np.where(np.isfinite(a), a, np.inf), axis=1))

    def of_ranks(self, r, values, n):
        """of_sorted(values[r]) without forming it: r holds each row's ranks in order (indices
        into the sorted values, non-finite ones last), n each row's count of finite values."""
        pos = self.q * np.maximum(n - 1, 0)
        lo = np.floor(pos).astype(int)
        hi = np.minimum(lo + 1, np.maximum(n - 1, 0))
        rows = np.arange(r.shape[0])
        vlo, vhi = values[r[rows, lo]], values[r[rows, hi]]
        with np.errstate(invalid="ignore"):
            out = vlo + (pos - lo) * np.where(hi > lo, vhi - vlo, 0.0)
        return np.where(n > 0, out, np.nan)

    def of_sorted(self, a):
        """The same on rows already sorted with non-finite values as +inf at the end."""
        n = np.isfinite(a).sum(axis=1)
        pos = self.q * np.maximum(n - 1, 0)
        lo = np.floor(pos).astype(int)
        hi = np.minimum(lo + 1, np.maximum(n - 1, 0))
        rows = np.arange(a.shape[0])
        vlo, vhi = a[rows, lo], a[rows, hi]
        with np.errstate(invalid="ignore"):
            out = vlo + (pos - lo) * np.where(hi > lo, vhi - vlo, 0.0)
        return np.where(n > 0, out, np.nan)


def nan_quantile(q):
    return Quantile(q)


nan_median = nan_quantile(0.5)


def nan_share(a, axis):
    """Share of 1s among the non-NaN values (a proportion; values are 0/1)."""
    return np.nanmean(a, axis=axis)


def bootstrap_ci(values, fn=np.mean, seed: int = 0, n_boot: int | None = None, alpha: float = ALPHA):
    """(estimate, lo, hi) of fn (a numpy reduction taking axis=, e.g. np.mean, np.median) with a
    percentile bootstrap interval over the finite values."""
    v = np.asarray(values, dtype=float)
    v = v[np.isfinite(v)]
    if len(v) == 0:
        return math.nan, math.nan, math.nan
    r = resample_stats({"v": v}, {"s": ("v", fn)}, seed, n_boot, alpha)["s"]
    return r[0], r[1], r[2]


def holm(pvalues) -> list:
    """Holm's step-down adjusted p-values (same order as given; NaN stays NaN)."""
    p = np.asarray(pvalues, dtype=float)
    out = np.full(len(p), math.nan)
    ok = np.where(np.isfinite(p))[0]
    order = ok[np.argsort(p[ok], kind="stable")]
    m = len(order)
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * p[i]))
        out[i] = running
    return out.tolist()


def wilcoxon_p(d) -> float:
    """Two-sided Wilcoxon signed-rank p-value of paired differences d (NaNs dropped). All
    differences zero: p = 1 (nothing to detect); fewer than 6 non-zero pairs: NaN (too few for a
    test at 5 %: the smallest two-sided exact p with 5 pairs is 0.0625)."""
    from scipy import stats as st
    d = np.asarray(d, dtype=float)
    d = d[np.isfinite(d)]
    nz = d[d != 0]
    if len(d) == 0:
        return math.nan
    if len(nz) == 0:
        return 1.0
    if len(nz) < 6:
        return math.nan
    # 'wilcox' drops zero differences; the normal approximation with ties correction is used
    # beyond 50 pairs (scipy's default 'auto').
    return float(st.wilcoxon(nz, zero_method="wilcox", alternative="two-sided").pvalue)


def paired_time(ta, tb, seed: int, n_boot: int | None = None, alpha: float = ALPHA) -> dict:
    """Paired comparison of query times of A and B on the same queries: the typical per-query
    ratio exp(median(log(ta/tb))) with a bootstrap interval, and the Wilcoxon p-value of the log
    ratios. 'faster' = 1 - ratio (0.3: A takes 30 % less time than B)."""
    ta, tb = np.asarray(ta, dtype=float), np.asarray(tb, dtype=float)
    keep = (ta > 0) & (tb > 0) & np.isfinite(ta) & np.isfinite(tb)
    d = np.log(ta[keep]) - np.log(tb[keep])
    if len(d) == 0:
        return {"n": 0, "ratio": math.nan, "lo": math.nan, "hi": math.nan, "p": math.nan, "nonzero": 0}
    r = resample_stats({"d": d}, {"m": ("d", np.median)}, seed, n_boot, alpha)["m"]
    return {"n": len(d), "ratio": math.exp(r[0]), "lo": math.exp(r[1]), "hi": math.exp(r[2]),
            "p": wilcoxon_p(d), "nonzero": int((d != 0).sum())}


def paired_diff(a, b, seed: int, n_boot: int | None = None, alpha: float = ALPHA) -> dict:
    """Paired comparison of a quantity (the gap): mean of a - b with a bootstrap interval and the
    Wilcoxon p-value of the differences."""
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    keep = np.isfinite(a) & np.isfinite(b)
    d = a[keep] - b[keep]
    if len(d) == 0:
        return {"n": 0, "diff": math.nan, "lo": math.nan, "hi": math.nan, "p": math.nan, "nonzero": 0}
    r = resample_stats({"d": d}, {"m": ("d", np.mean)}, seed, n_boot, alpha)["m"]
    return {"n": len(d), "diff": r[0], "lo": r[1], "hi": r[2], "p": wilcoxon_p(d), "nonzero": int((d != 0).sum())}


def ratio_of_medians(a, b, seed: int, paired: bool, n_boot: int | None = None, alpha: float = ALPHA) -> dict:
    """median(b) / median(a) with a percentile bootstrap interval. paired: a[i] and b[i] belong to
    the same query and are resampled together; else each sample is resampled on its own."""
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    if paired:
        keep = np.isfinite(a) & np.isfinite(b)
        a, b = a[keep], b[keep]
    else:
        a, b = a[np.isfinite(a)], b[np.isfinite(b)]
    if len(a) == 0 or len(b) == 0 or np.median(a) <= 0:
        return {"ratio": math.nan, "lo": math.nan, "hi": math.nan, "na": len(a), "nb": len(b)}
    n_boot = n_boot or N_BOOT
    rng = np.random.default_rng(seed)
    if paired and len(a) > EXACT_ROWS:
        # The pairs resampled together, a bounded number of resamples at a time.
        ra, rb = [], []
        per = max(1, CHUNK // len(a))
        for done in range(0, n_boot, per):
            idx = rng.integers(0, len(a), size=(min(per, n_boot - done), len(a)))
            ra.append(np.median(a[idx], axis=1))
            rb.append(np.median(b[idx], axis=1))
        ra, rb = np.concatenate(ra), np.concatenate(rb)
    elif paired:
        idx = rng.integers(0, len(a), size=(n_boot, len(a)))
        ra = np.median(a[idx], axis=1)
        rb = np.median(b[idx], axis=1)
    elif max(len(a), len(b)) > EXACT_ROWS:
        # Independent samples: each median drawn from its exact bootstrap distribution.
        med = {"m": ("v", nan_median)}
        ra = _drawn_values({"v": a}, med, rng, n_boot)["m"]
        rb = _drawn_values({"v": b}, med, rng, n_boot)["m"]
        m = min(len(ra), len(rb))
        ra, rb = ra[:m], rb[:m]
    else:
        ra = np.median(a[rng.integers(0, len(a), size=(n_boot, len(a)))], axis=1)
        rb = np.median(b[rng.integers(0, len(b), size=(n_boot, len(b)))], axis=1)
    with np.errstate(all="ignore"):
        ratios = rb / ra
    ratios = ratios[np.isfinite(ratios)]
    lo, hi = np.quantile(ratios, [alpha / 2, 1 - alpha / 2]) if len(ratios) else (math.nan, math.nan)
    return {"ratio": float(np.median(b) / np.median(a)), "lo": float(lo), "hi": float(hi),
            "na": len(a), "nb": len(b)}


def ecdf(values):
    """(sorted values, cumulative share 1/n..1) of the finite values."""
    v = np.sort(np.asarray(values, dtype=float)[np.isfinite(values)])
    return v, np.arange(1, len(v) + 1) / max(len(v), 1)


def binned_quartiles(x, y, n_bins: int | None = None, min_count: int | None = None, log: bool = True):
    """Medians and interquartile range of y in bins of x (log-spaced when log); bins with fewer
    than min_count points are left out. n_bins None: about 10 points a bin, 3 to 12 bins;
    min_count None: 5, fewer (down to 2) for small samples.
    Returns a list of (bin centre, q25, median, q75, n)."""
    x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    keep = np.isfinite(x) & np.isfinite(y) & ((x > 0) if log else True)
    x, y = x[keep], y[keep]
    if len(x) == 0:
        return []
    if n_bins is None:
        n_bins = int(min(12, max(3, len(x) // 10)))
    if min_count is None:
        min_count = int(max(2, min(5, len(x) // 4)))
    lo, hi = x.min(), x.max()
    if hi <= lo:
        edges = np.array([lo, hi])
    elif log:
        edges = np.geomspace(lo, hi, n_bins + 1)
    else:
        edges = np.linspace(lo, hi, n_bins + 1)
    which = np.clip(np.searchsorted(edges, x, side="right") - 1, 0, len(edges) - 2)
    out = []
    for b in range(len(edges) - 1):
        yy = y[which == b]
        if len(yy) < min_count:
            continue
        centre = math.sqrt(edges[b] * edges[b + 1]) if log and edges[b] > 0 else (edges[b] + edges[b + 1]) / 2
        q25, q50, q75 = np.quantile(yy, [0.25, 0.5, 0.75])
        out.append((float(centre), float(q25), float(q50), float(q75), int(len(yy))))
    return out


def loglog_fit(x, y, alpha: float = ALPHA) -> dict | None:
    """Least-squares line through (log10 x, log10 y): y ~ c * x^slope. Returns slope, its 95 %
    interval (t distribution), intercept and n; None with fewer than 3 positive points or one x."""
    from scipy import stats as st
    x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    keep = (x > 0) & (y > 0) & np.isfinite(x) & np.isfinite(y)
    x, y = np.log10(x[keep]), np.log10(y[keep])
    if len(x) < 3 or np.ptp(x) == 0:
        return None
    r = st.linregress(x, y)
    t = st.t.ppf(1 - alpha / 2, len(x) - 2)
    return {"slope": float(r.slope), "lo": float(r.slope - t * r.stderr), "hi": float(r.slope + t * r.stderr),
            "intercept": float(r.intercept), "n": int(len(x)), "r2": float(r.rvalue ** 2)}


def pareto_layers(points) -> list:
    """Non-dominated sorting of (x, y) points, both minimised: layer 1 is the Pareto front, layer
    2 the front of the rest, ... Points with a NaN get layer 0 (unranked)."""
    layer = [0] * len(points)
    left = [i for i, (x, y) in enumerate(points) if math.isfinite(x) and math.isfinite(y)]
    k = 1
    while left:
        front = [i for i in left
                 if not any(points[j][0] <= points[i][0] and points[j][1] <= points[i][1] and
                            (points[j][0] < points[i][0] or points[j][1] < points[i][1]) for j in left)]
        for i in front:
            layer[i] = k
        left = [i for i in left if i not in front]
        k += 1
    return layer
