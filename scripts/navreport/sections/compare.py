"""Section "Two runs compared" (--compare): navbench.compare's paired comparison B / A (the table
`navbench compare A B` prints, docs/results.md#comparing-two-runs) as a table and a forest chart."""
from __future__ import annotations

import html

from navbench.compare import INTERVAL_NOTE, compare, summary_line
from navbench.errors import InputError
from navreport.analysis.fmt import esc, f_sig, finite
from navreport.figures.draw import Figure, Panel, Series
from navreport.sections.base import Block, Section

# (column, what, colour) of the forest chart: ratios B / A, 1 = no change.
RATIOS = (("time_ratio", "query time (typical per-query ratio)", "#1f77b4"),
          ("expansions_ratio", "A* expansions (typical per-query ratio)", "#ff7f0e"),
          ("build_ratio", "build time (ratio of medians over maps)", "#2ca02c"))


def build(ctx) -> list:
    if ctx.compare is None:
        return []
    b, name_a, name_b = ctx.compare
    a = ctx.analysis
    try:
        t = compare(a.rows, b.rows, a.data.build, b.data.build, seed=a.seed)
    except InputError as e:  # nothing pairs: say why, plainly
        return [Section(id="compare", title="Two runs compared", nav="Compare", open=True,
                        blocks=[Block(html=f"<p class='note'>A = <code>{esc(name_a)}</code>, B = <code>{esc(name_b)}</code>: "
                                           f"{esc(str(e))}. Nothing is compared.</p>")])]
    html_, fig = compare_html(t, name_a, name_b)
    return [Section(id="compare", title="Two runs compared: B / A", nav="Compare", open=True,
                    blocks=[Block(fig, pre=html_)])]


def forest(t, name_a: str, name_b: str) -> Figure:
    ys = list(range(len(t)))[::-1]
    p = Panel(title=f"B / A: {name_b} relative to {name_a}", xlabel="ratio B / A (log; < 1: B is lower)",
              ylabel="", xlog=True, yticks=(ys, t["configuration"].tolist()))
    for k, (col, label, colour) in enumerate(RATIOS):
        if col not in t.columns:
            continue
        sub = t[t[col].notna() & (t[col] > 0)]
        if sub.empty:
            continue
        yy = [ys[i] + 0.22 * (1 - k) for i in sub.index]
        p.series.append(Series(name=label, x=sub[col].to_numpy(), y=yy, color=colour,
                               xerr=(sub[col + "_lo"].to_numpy(), sub[col + "_hi"].to_numpy()),
                               hover=[f"<b>{esc(c)}</b><br>{label}: B/A = {r:.3f} [{lo:.3f}, {hi:.3f}]"
                                      for c, r, lo, hi in zip(sub["configuration"], sub[col], sub[col + "_lo"],
                                                              sub[col + "_hi"])]))
    p.series.append(Series(name="no change", x=[1, 1], y=[-0.6, len(t) - 0.4], kind="lines", color="#888", dash="dot",
                           width=1))
    return Figure(stem="compare_ratios", title="Two runs compared", panels=[p],
                  caption="Per configuration, over the queries both runs solved: the typical per-query ratio B / A of "
                          "query time and of A* expansions, and the ratio of median build times over the maps both "
                          "built, with 95 % bootstrap intervals. An interval that excludes 1 is a change; the "
                          "intervals are not corrected for the number of configurations (the table's p-values are, "
                          "Holm).",
                  panel_h=max(260, 26 * len(t)),
                  margin_l=min(420, 40 + int(7.2 * max(len(c) for c in t["configuration"]))))


def _ratio_cell(r, col: str, extra: str = "") -> str:
    if not finite(r.get(col)):
        return "<td class='num'>–</td>"
    lo, hi = r[col + "_lo"], r[col + "_hi"]
    changed = finite(lo) and not (lo <= 1 <= hi)
    ci = f"[{lo:.3f}, {hi:.3f}]" if finite(lo) else "no interval"
    return (f"<td class='num{' best' if changed else ''}' data-metric='{col}' data-value='{r[col]!r}'>"
            f"<b>×{r[col]:.3f}</b><span class='ci'>{ci}{extra}</span></td>")


def compare_html(t, name_a: str, name_b: str):
    """The table and the forest chart of navbench.compare's table."""
    body = []
    for _, r in t.iterrows():
        cells = [f"<td>{esc(r['configuration'])}</td>",
                 f"<td class='num' data-metric='paired' data-value='{int(r['paired'])}'>{int(r['paired'])}"
                 f"<span class='ci'>{int(r['unpaired_a'])} only in A, {int(r['unpaired_b'])} only in B</span></td>",
                 _ratio_cell(r, "time_ratio", f" p = {f_sig(r['time_p_holm'])} (Holm); {f_sig(r['time_median_a'])} → "
                                              f"{f_sig(r['time_median_b'])} µs"),
                 (f"<td class='num' data-metric='gap_diff' data-value='{r['gap_diff']!r}'>{100 * r['gap_diff']:+.3f} pp"
                  f"<span class='ci'>[{100 * r['gap_diff_lo']:+.3f}, {100 * r['gap_diff_hi']:+.3f}]</span></td>"
                  if finite(r.get("gap_diff")) else "<td class='num'>–</td>"),
                 _ratio_cell(r, "expansions_ratio"),
                 (_ratio_cell(r, "build_ratio", f", n = {int(r['build_maps'])} map(s)") if "build_ratio" in t.columns
                  else "<td class='num'>–</td>")]
        body.append("<tr>" + "".join(cells) + "</tr>")
    html_ = (f"<p>A = <code>{esc(name_a)}</code>, B = <code>{esc(name_b)}</code>. "
             f"{html.escape(summary_line(t, name_a, name_b).split(': ', 1)[1])}. Configurations pair by "
             "representation, search, heuristic and smoothing (docs/results.md#comparing-two-runs; the same table as "
             "<code>navbench compare A B</code>). Highlighted cells: the 95 % interval excludes 1; "
             f"{html.escape(INTERVAL_NOTE)}.</p>"
             "<table class='ranked'><thead><tr><th>configuration</th><th>queries paired</th>"
             "<th>query time B/A</th><th>gap B − A</th><th>expansions B/A</th><th>build time B/A</th></tr></thead>"
             "<tbody>" + "".join(body) + "</tbody></table>")
    return html_, forest(t, name_a, name_b)
