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
    rng = np.random.default_rng(seed)
    boots = {k: [] for k in stats}
    per = max(1, CHUNK // n_rows)
    done = 0
    while done < n_boot:
        m = min(per, n_boot - done)
        idx = rng.integers(0, n_rows, size=(m, n_rows))
        for col in dict.fromkeys(c for c, _ in stats.values()):
            sample = arrays[col][idx]
            quants = [(k, fn) for k, (c, fn) in stats.items() if c == col and isinstance(fn, Quantile)]
            if quants:  # sort each resample once for every quantile of this column
                ordered = np.sort(np.where(np.isfinite(sample), sample, np.inf), axis=1)
                for k, fn in quants:
                    boots[k].append(fn.of_sorted(ordered))
            for k, (c, fn) in stats.items():
                if c == col and not isinstance(fn, Quantile):
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
    if paired:
        idx = rng.integers(0, len(a), size=(n_boot, len(a)))
        ra = np.median(a[idx], axis=1)
        rb = np.median(b[idx], axis=1)
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
