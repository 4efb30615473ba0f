"""How the report writes numbers, p-values and verdicts: one place for the formats of every table
and sentence."""
from __future__ import annotations

import html
import math
import re

import numpy as np

from navbench import stats
from navbench.candidates import pct

def esc(x) -> str:
    return html.escape(str(x), quote=True)


def finite(v) -> bool:
    return isinstance(v, (int, float, np.floating, np.integer)) and not isinstance(v, bool) and math.isfinite(v)


def f_sig(v, digits=3) -> str:
    if not finite(v):
        return "–"
    v = float(v)
    if v == 0:
        return "0"
    mag = math.floor(math.log10(abs(v)))
    if mag >= digits + 2:
        return f"{v:,.0f}"
    return f"{v:,.{max(0, digits - 1 - mag)}f}"


def f_pct(v) -> str:
    """A share 0..1 as percent, the one way the report writes a share (navbench.candidates.pct,
    SPEC §14): 100 and 0 only when exact, never 99.96 % as 100.0."""
    return pct(float(v)) if finite(v) else "–"


def f_gap(v) -> str:  # a gap ratio as percent, more digits near zero
    if not finite(v):
        return "–"
    p = 100 * v
    return "0" if p == 0 else (f"{p:.3f}" if abs(p) < 1 else f"{p:.2f}")


def f_bytes(v) -> str:
    if not finite(v):
        return "–"
    for unit, scale in (("GiB", 2 ** 30), ("MiB", 2 ** 20), ("KiB", 2 ** 10)):
        if v >= scale:
            return f"{v / scale:.1f} {unit}"
    return f"{v:.0f} B"


FORMAT = {"pct": f_pct, "sig": f_sig, "gap": f_gap, "bytes": f_bytes}


def f_p(p) -> str:
    if not finite(p):
        return "n/a"
    if p == 0:
        return "< 1e-300"  # below double precision: scipy's normal approximation underflows
    return f"{p:.2g}" if p >= 1e-3 else f"{p:.1e}"


def verdict_significant(t) -> bool:
    """A difference is reported only when the Holm-corrected Wilcoxon test rejects at 5 % and the
    effect's bootstrap interval agrees (excludes no-change): the test and the number shown never
    contradict each other."""
    if not finite(t.get("p_holm")) or t["p_holm"] >= stats.ALPHA:
        return False
    if t["what"] == "time":
        return t["hi"] < 1 or t["lo"] > 1
    return t["hi"] < 0 or t["lo"] > 0


def verdict_text(t) -> str:
    a, b, n = t["a"], t["b"], t["n"]
    what = "query time" if t["what"] == "time" else "gap"
    if n == 0:
        return f"{a} vs {b}: no query solved by both"
    if not finite(t["p_holm"]):
        return (f"{a} vs {b}: {what} differs on only {t['nonzero']} of {n} paired queries, too few for a test "
                "(no difference detected)")
    p = f"p = {f_p(t['p_holm'])}, n = {n}"
    if t["what"] == "time":
        eff = f"typical per-query ratio {t['ratio']:.2f} [{t['lo']:.2f}, {t['hi']:.2f}]"
        if not verdict_significant(t):
            return f"{a} vs {b}: no difference in query time detected ({eff}, {p})"
        if t["ratio"] < 1:
            return (f"{a} is {100 * (1 - t['ratio']):.0f}% faster than {b} "
                    f"[{100 * (1 - t['hi']):.0f}%, {100 * (1 - t['lo']):.0f}%], {p}")
        return (f"{a} is {100 * (t['ratio'] - 1):.0f}% slower than {b} "
                f"[{100 * (t['lo'] - 1):.0f}%, {100 * (t['hi'] - 1):.0f}%], {p}")
    d, lo, hi = 100 * t["diff"], 100 * t["lo"], 100 * t["hi"]
    eff = f"mean gap difference {d:+.3f} pp [{lo:+.3f}, {hi:+.3f}]"
    if not verdict_significant(t):
        return f"{a} vs {b}: no difference in gap detected ({eff}, {p})"
    word = "longer" if d > 0 else "shorter"
    return f"{a} gives {abs(d):.3f} pp {word} paths than {b} ({eff}), {p}"


def ci_cell(est, lo, hi, n, fmt=None) -> str:
    fmt = fmt or f_sig
    if not finite(est):
        return f"<td class='num'>–<span class='ci'>n = {n}</span></td>"
    return (f"<td class='num'>{fmt(est)}<span class='ci'>[{fmt(lo)}, {fmt(hi)}]</span>"
            f"<span class='ci'>n = {n}</span></td>")


def slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9]+", "-", text).strip("-").lower() or "x"
