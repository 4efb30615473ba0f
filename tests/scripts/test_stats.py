#!/usr/bin/env python3
"""The report's statistics (python/navbench/stats.py) on cases with known answers:
identical samples give no difference, shifted samples are detected, the false-positive rate of
the paired test stays near 5 %, 95 % bootstrap intervals cover the true value about 95 % of the
time, Holm's correction matches a hand computation, log-log slopes and Pareto layers are exact.
Exit 0 = pass, 1 = failure. Run through scripts/navpy.sh (needs numpy and scipy)."""
import math
import os
import sys

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "..", "..", "scripts"))
import numpy as np  # noqa: E402

from navbench import stats  # noqa: E402

failures = []


def check(cond, what):
    print(("ok:   " if cond else "FAIL: ") + what)
    if not cond:
        failures.append(what)


rng = np.random.default_rng(12345)

# Identical samples: p = 1, the ratio is exactly 1 and its interval is [1, 1].
t = rng.lognormal(3, 0.5, 300)
r = stats.paired_time(t, t.copy(), seed=1)
check(r["p"] == 1.0 and r["ratio"] == 1.0 and r["lo"] == 1.0 and r["hi"] == 1.0,
      f"identical samples: no difference (p = {r['p']}, ratio {r['ratio']} [{r['lo']}, {r['hi']}])")
d = stats.paired_diff(t, t.copy(), seed=1)
check(d["p"] == 1.0 and d["diff"] == 0.0, "identical gaps: no difference")

# Shifted samples: B takes 20 % longer on every query (with noise) -> detected, ratio ~ 1/1.2.
a = rng.lognormal(3, 0.5, 300)
b = a * 1.2 * rng.lognormal(0, 0.05, 300)
r = stats.paired_time(a, b, seed=2)
check(r["p"] < 1e-10, f"20 % shift detected (p = {r['p']:.2e})")
check(r["lo"] <= 1 / 1.2 <= r["hi"] and r["hi"] < 1, f"ratio interval [{r['lo']:.3f}, {r['hi']:.3f}] holds 1/1.2, excludes 1")
d = stats.paired_diff(a * 0 + 0.05, a * 0 + 0.05 + rng.normal(0.01, 0.002, 300), seed=3)
check(d["p"] < 1e-10 and d["lo"] <= -0.01 <= d["hi"] and d["hi"] < 0,
      f"gap shift of 1 pp detected: diff {d['diff']:.4f} [{d['lo']:.4f}, {d['hi']:.4f}], p = {d['p']:.1e}")

# Same distribution, independent noise: the test rejects at 5 % in about 5 % of 400 trials.
rejections = 0
trials = 400
for k in range(trials):
    x = rng.lognormal(3, 0.5, 60)
    p = stats.wilcoxon_p(np.log(x * rng.lognormal(0, 0.1, 60)) - np.log(x * rng.lognormal(0, 0.1, 60)))
    rejections += p < 0.05
rate = rejections / trials
check(0.02 <= rate <= 0.09, f"false-positive rate {rate:.3f} near 0.05 (same distribution, {trials} trials)")

# Fewer than 6 non-zero pairs: no test.
check(math.isnan(stats.wilcoxon_p([1, -2, 3, 4, 5])), "5 pairs: too few for a test (NaN)")

# Bootstrap interval coverage on synthetic data with known parameters.
for name, fn, draw, truth in (
        ("median of lognormal(1, 0.8), n = 80", np.median, lambda: rng.lognormal(1, 0.8, 80), math.exp(1)),
        ("mean of exponential(2), n = 120", np.mean, lambda: rng.exponential(2, 120), 2.0),
        ("share of Bernoulli(0.3), n = 150", np.mean, lambda: (rng.random(150) < 0.3).astype(float), 0.3)):
    covered = 0
    reps = 300
    for k in range(reps):
        est, lo, hi = stats.bootstrap_ci(draw(), fn, seed=k, n_boot=500)
        covered += lo <= truth <= hi
    cov = covered / reps
    check(0.89 <= cov <= 0.99, f"95 % interval coverage of the {name}: {cov:.3f}")

# Seeded: the same seed gives the same interval, another seed a (slightly) different one.
v = rng.normal(size=200)
check(stats.bootstrap_ci(v, np.mean, seed=7) == stats.bootstrap_ci(v, np.mean, seed=7), "same seed, same interval")
check(stats.bootstrap_ci(v, np.mean, seed=7) != stats.bootstrap_ci(v, np.mean, seed=8), "other seed, other interval")

# resample_stats: NaNs are left out of each statistic; n counts the values behind it.
res = stats.resample_stats({"t": np.array([1.0, 2.0, np.nan, 4.0]), "s": np.array([1.0, 1.0, 0.0, 1.0])},
                           {"med": ("t", stats.nan_median), "share": ("s", stats.nan_share)}, seed=1)
check(res["med"][0] == 2.0 and res["med"][3] == 3 and res["share"][0] == 0.75 and res["share"][3] == 4,
      f"estimates over non-NaN values: {res}")
x = rng.normal(size=(40, 33))
x[x > 1.5] = np.nan
check(np.allclose(stats.nan_quantile(0.95)(x), np.nanquantile(x, 0.95, axis=1), equal_nan=True),
      "vectorised nan_quantile equals numpy's nanquantile")

# Row resampling gives exactly what the plain implementation (sort every resample, nanmean and
# nanmax of the resampled values) gives, to the last bit: the report's numbers on small samples
# do not depend on the faster path.
def reference_resample(columns, stat_fns, seed, n_boot=stats.N_BOOT, alpha=stats.ALPHA):
    arrays = {k: np.asarray(v, dtype=float) for k, v in columns.items()}
    n_rows = len(next(iter(arrays.values())))
    rng = np.random.default_rng(seed)
    boots = {k: [] for k in stat_fns}
    per, done = max(1, stats.CHUNK // n_rows), 0
    while done < n_boot:
        m = min(per, n_boot - done)
        idx = rng.integers(0, n_rows, size=(m, n_rows))
        for k, (col, fn) in stat_fns.items():
            sample = arrays[col][idx]
            if isinstance(fn, stats.Quantile):
                boots[k].append(fn.of_sorted(np.sort(np.where(np.isfinite(sample), sample, np.inf), axis=1)))
            else:
                boots[k].append(stats._nan_safe(fn, sample))
        done += m
    out = {}
    for k, (col, fn) in stat_fns.items():
        a = arrays[col]
        with np.errstate(all="ignore"):
            est = float(stats._nan_safe(fn, a[None, :])[0])
        b = np.concatenate(boots[k])
        b = b[np.isfinite(b)]
        lo, hi = np.quantile(b, [alpha / 2, 1 - alpha / 2])
        out[k] = (est, float(lo), float(hi), int(np.isfinite(a).sum()))
    return out


def config_sample(n, seed):
    """A configuration's columns as the report builds them: solved 0/1, valid 0/1 or NaN, times
    and gaps NaN where unsolved; ties and zeros included."""
    g = np.random.default_rng(seed)
    ok = g.random(n) < 0.9
    t = np.round(g.lognormal(3, 1, n), 1)
    gap = np.where(g.random(n) < 0.4, 0.0, np.round(g.exponential(0.02, n), 4))
    return {"solved": ok.astype(float), "valid": np.where(ok, (g.random(n) < 0.97).astype(float), np.nan),
            "time": np.where(ok, t, np.nan), "gap": np.where(ok, gap, np.nan)}


TABLE_STATS = {"solved_pct": ("solved", stats.nan_share), "valid_pct": ("valid", stats.nan_share),
               "time_median": ("time", stats.nan_median), "time_p95": ("time", stats.nan_quantile(0.95)),
               "gap_mean": ("gap", np.nanmean), "gap_p95": ("gap", stats.nan_quantile(0.95)),
               "gap_max": ("gap", np.nanmax)}
same = all(stats.resample_stats(config_sample(n, n), TABLE_STATS, seed=n, n_boot=300) ==
           reference_resample(config_sample(n, n), TABLE_STATS, seed=n, n_boot=300) for n in (7, 60, 900, 2000))
check(same, "row resampling equals the plain implementation to the last bit (n = 7, 60, 900, 2000)")

# Larger samples: each resample's statistic is drawn from its distribution (stats.drawn_stats);
# its intervals agree with row resampling within Monte Carlo noise.
cols = config_sample(6000, 99)
drawn = stats.resample_stats(cols, TABLE_STATS, seed=5, n_boot=2000)
keep = stats.EXACT_ROWS
stats.EXACT_ROWS = 10 ** 9
rows = stats.resample_stats(cols, TABLE_STATS, seed=5, n_boot=2000)
stats.EXACT_ROWS = keep
for k in TABLE_STATS:
    (e1, lo1, hi1, n1), (e2, lo2, hi2, n2) = drawn[k], rows[k]
    width = max(hi2 - lo2, 1e-12)
    check(e1 == e2 and n1 == n2 and abs(lo1 - lo2) <= 0.15 * width and abs(hi1 - hi2) <= 0.15 * width,
          f"drawn vs row resampling, {k}: [{lo1:.6g}, {hi1:.6g}] vs [{lo2:.6g}, {hi2:.6g}]")
for name, fn, draw, truth in (
        ("median of lognormal(1, 0.8), n = 5000", stats.nan_median, lambda: rng.lognormal(1, 0.8, 5000), math.exp(1)),
        ("p95 of exponential(1), n = 5000", stats.nan_quantile(0.95), lambda: rng.exponential(1, 5000), -math.log(0.05)),
        ("mean of exponential(2), n = 5000", np.nanmean, lambda: rng.exponential(2, 5000), 2.0),
        ("share of Bernoulli(0.3), n = 5000", stats.nan_share, lambda: (rng.random(5000) < 0.3).astype(float), 0.3)):
    covered = sum(lo <= truth <= hi for lo, hi in
                  (stats.resample_stats({"v": draw()}, {"s": ("v", fn)}, seed=k)["s"][1:3] for k in range(300)))
    check(0.91 <= covered / 300 <= 0.99, f"drawn 95 % interval coverage of the {name}: {covered / 300:.3f}")
t = rng.lognormal(3, 0.5, 8000)
r = stats.paired_time(t, t * 1.1, seed=3)
check(abs(r["ratio"] - 1 / 1.1) < 1e-12 and abs(r["lo"] - 1 / 1.1) < 1e-9 and abs(r["hi"] - 1 / 1.1) < 1e-9,
      f"paired ratio on 8000 queries, B 10 % slower on every one: {r['ratio']:.4f} [{r['lo']:.4f}, {r['hi']:.4f}]")
r = stats.ratio_of_medians(rng.lognormal(2, 0.3, 9000), rng.lognormal(2, 0.3, 9000) * 1.5, seed=1, paired=False)
check(r["lo"] <= 1.5 <= r["hi"] and r["hi"] - r["lo"] < 0.1, f"unpaired ratio on 9000 values [{r['lo']:.3f}, {r['hi']:.3f}] holds 1.5")

# Holm's correction by hand: p = [0.01, 0.04, 0.03, 0.005] -> [0.03, 0.06, 0.06, 0.02].
h = stats.holm([0.01, 0.04, 0.03, 0.005, float("nan")])
check(np.allclose(h[:4], [0.03, 0.06, 0.06, 0.02]) and math.isnan(h[4]), f"Holm adjusted {h}")

# Ratio of medians: B = 2 A exactly -> 2 with a degenerate interval when paired.
a = rng.lognormal(2, 1, 100)
r = stats.ratio_of_medians(a, 2 * a, seed=1, paired=True)
check(abs(r["ratio"] - 2) < 1e-12 and abs(r["lo"] - 2) < 1e-12 and abs(r["hi"] - 2) < 1e-12, f"ratio of medians {r}")
r = stats.ratio_of_medians(rng.lognormal(2, 0.3, 400), rng.lognormal(2, 0.3, 400) * 1.5, seed=1, paired=False)
check(r["lo"] <= 1.5 <= r["hi"], f"unpaired ratio interval [{r['lo']:.3f}, {r['hi']:.3f}] holds 1.5")

# Log-log fit: y = 3 x^1.5 -> slope 1.5.
xs = np.geomspace(10, 1e5, 12)
f = stats.loglog_fit(xs, 3 * xs ** 1.5)
check(f is not None and abs(f["slope"] - 1.5) < 1e-9 and abs(10 ** f["intercept"] - 3) < 1e-9, f"log-log slope {f}")
check(stats.loglog_fit([1, 1, 1], [2, 3, 4]) is None, "log-log fit needs more than one x")

# Pareto layers: (1,5) (2,2) (5,1) front; (3,3) second; (6,6) third; NaN unranked.
L = stats.pareto_layers([(1, 5), (2, 2), (5, 1), (3, 3), (6, 6), (float("nan"), 1)])
check(L == [1, 1, 1, 2, 3, 0], f"Pareto layers {L}")

# Binned quartiles: y = x exactly -> medians equal the bin contents' medians, IQR inside.
b = stats.binned_quartiles(np.arange(1, 1001), np.arange(1, 1001), n_bins=5, min_count=1)
check(len(b) == 5 and all(q25 <= m <= q75 for _, q25, m, q75, _ in b) and sum(n for *_, n in b) == 1000,
      "binned quartiles cover every point once")

# The report's verdict sentences follow the test and the interval together.
from navreport.analysis.fmt import verdict_text  # noqa: E402
base = {"a": "A", "b": "B", "what": "time", "n": 100, "nonzero": 100}
v = verdict_text({**base, "ratio": 0.7, "lo": 0.65, "hi": 0.75, "p_holm": 1e-5})
check(v.startswith("A is 30% faster than B [25%, 35%], p = 1.0e-05"), f"faster verdict: {v}")
v = verdict_text({**base, "ratio": 0.7, "lo": 0.65, "hi": 0.75, "p_holm": 0.2})
check("no difference in query time detected" in v, f"not significant: {v}")
v = verdict_text({**base, "ratio": 0.9, "lo": 0.8, "hi": 1.05, "p_holm": 0.001})
check("no difference in query time detected" in v, f"test and interval disagree: {v}")
v = verdict_text({**base, "what": "gap", "diff": 0.02, "lo": 0.01, "hi": 0.03, "p_holm": 0.001})
check(v.startswith("A gives 2.000 pp longer paths than B"), f"gap verdict: {v}")
v = verdict_text({**base, "what": "gap", "diff": 0.0, "lo": 0.0, "hi": 0.0, "p_holm": float("nan"), "nonzero": 3})
check("only 3 of 100" in v and "no difference detected" in v, f"too few differing pairs: {v}")
# Identical configurations on the same queries: "no difference detected" end to end.
t = rng.lognormal(3, 0.5, 200)
r = {**stats.paired_time(t, t.copy(), seed=1), "a": "A", "b": "B", "what": "time"}
r["p_holm"] = stats.holm([r["p"]])[0]
check("no difference in query time detected" in verdict_text(r), "identical samples: 'no difference detected'")

if failures:
    print(f"{len(failures)} check(s) failed", file=sys.stderr)
    sys.exit(1)
print("all statistics checks passed")
