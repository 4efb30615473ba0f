"""Section "Two runs compared" (--compare): analysis/compare.py's ratios of medians B / A as a table
and a forest chart."""
from __future__ import annotations

from navreport.analysis.compare import compare_table
from navreport.analysis.fmt import esc, f_sig, finite
from navreport.figures.draw import Figure, Panel, Series
from navreport.sections.base import Block, Section


def build(ctx) -> list:
    if ctx.compare is None:
        return []
    b, name_a, name_b = ctx.compare
    t = compare_table(ctx.analysis, b, ctx.analysis.seed)
    if t.empty:
        return [Section(id="compare", title="Two runs compared", nav="Compare", open=True,
                        blocks=[Block(html="<p class='note'>No configuration solved queries in both runs.</p>")])]
    html_, fig = compare_html(t, name_a, name_b)
    return [Section(id="compare", title="Two runs compared: B / A", nav="Compare", open=True,
                    blocks=[Block(fig, pre=html_)])]


def compare_html(t, name_a: str, name_b: str):
    """The table and the forest chart of compare_table's ratios."""
    ys = list(range(len(t)))[::-1]
    p = Panel(title=f"B / A: {name_b} relative to {name_a}", xlabel="ratio of medians B / A (log; < 1: B is lower)",
              ylabel="", xlog=True, yticks=(ys, t["config"].tolist()))
    for k, (col, label, colour) in enumerate((("query_us", "median query time", "#1f77b4"),
                                              ("expansions", "median expansions", "#ff7f0e"),
                                              ("build", "median build time", "#2ca02c"))):
        if f"{col}_ratio" not in t.columns:
            continue
        sub = t[t[f"{col}_ratio"].notna() & (t[f"{col}_ratio"] > 0)]
        if sub.empty:
            continue
        yy = [ys[i] + 0.22 * (1 - k) for i in sub.index]
        p.series.append(Series(name=label, x=sub[f"{col}_ratio"].to_numpy(), y=yy, color=colour,
                               xerr=(sub[f"{col}_lo"].to_numpy(), sub[f"{col}_hi"].to_numpy()),
                               hover=[f"<b>{esc(c)}</b><br>{label}: B/A = {r:.3f} [{lo:.3f}, {hi:.3f}]"
                                      for c, r, lo, hi in zip(sub["config"], sub[f"{col}_ratio"], sub[f"{col}_lo"],
                                                              sub[f"{col}_hi"])]))
    p.series.append(Series(name="no change", x=[1, 1], y=[-0.6, len(t) - 0.4], kind="lines", color="#888", dash="dot",
                           width=1))
    fig = Figure(stem="compare_ratios", title="Two runs compared", panels=[p],
                 caption="Ratio of medians B / A per configuration with 95 % bootstrap intervals (paired over the "
                         "same queries when both runs ran the same ones). An interval that excludes 1 is a change; "
                         "the intervals are not corrected for the number of configurations, so about 1 in 20 "
                         "excludes 1 by chance.",
                 panel_h=max(260, 26 * len(t)),
                 margin_l=min(420, 40 + int(7.2 * max(len(c) for c in t["config"]))))
    body = []
    for _, r in t.iterrows():
        cells = [f"<td>{esc(r['config'])}</td>"]
        for col in ("query_us", "expansions"):
            if finite(r.get(f"{col}_ratio")):
                changed = not (r[f"{col}_lo"] <= 1 <= r[f"{col}_hi"])
                cells.append(f"<td class='num{' best' if changed else ''}' data-metric='{col}_ratio' data-value='{r[f'{col}_ratio']!r}'>"
                             f"{f_sig(r[f'{col}_med_a'])} → {f_sig(r[f'{col}_med_b'])}: <b>×{r[f'{col}_ratio']:.3f}</b>"
                             f"<span class='ci'>[{r[f'{col}_lo']:.3f}, {r[f'{col}_hi']:.3f}] "
                             f"n = {r[f'{col}_na']}/{r[f'{col}_nb']}{', paired' if r[f'{col}_paired'] else ''}</span></td>")
            else:
                cells.append("<td class='num'>–</td>")
        if finite(r.get("build_ratio")):
            cells.append(f"<td class='num'><b>×{r['build_ratio']:.3f}</b><span class='ci'>[{r['build_lo']:.3f}, "
                         f"{r['build_hi']:.3f}] n = {r['build_n']} maps</span></td>")
        else:
            cells.append("<td class='num'>–</td>")
        body.append("<tr>" + "".join(cells) + "</tr>")
    html_ = (f"<p>A = <code>{esc(name_a)}</code>, "
             f"B = <code>{esc(name_b)}</code>. Highlighted cells: the 95 % interval excludes 1.</p>"
             "<table class='ranked'><thead><tr><th>configuration</th><th>query time µs (A → B: B/A)</th>"
             "<th>expansions (A → B: B/A)</th><th>build time B/A</th></tr></thead><tbody>" + "".join(body) +
             "</tbody></table>")
    return html_, fig


