"""The report's page: the sections in page order (SECTIONS, the one place that lists them and the
only caller of their build()), the sticky index, the folding, and the files beside report.html
(plotly.min.js, figures/*.svg|pdf, paths/, summary.csv, budgets.csv, update_summary.csv)."""
from __future__ import annotations

import datetime
import os
import shutil

import pandas as pd

from navbench import stats
from navreport.analysis.fmt import esc
from navreport.figures import draw
from navreport.sections import (answer, compare, cost, dist, dynamic, meta, metres, missing, paths, published, quality,
                                radius, realtime, roadmaps, terrain, threads)

# Page order. A section module has build(ctx) -> [Section]; an empty list leaves it out (a run
# without changing maps has no "Changing maps").
SECTIONS = [answer, compare, cost, realtime, dist, dynamic, threads, radius, roadmaps, quality, terrain, metres, paths, published, missing, meta]

CSS = """
body { font-family: system-ui, -apple-system, 'Segoe UI', sans-serif; margin: 0 auto; max-width: 1220px;
       color: #222; padding: 0 16px 3em; font-size: 15px; line-height: 1.45; }
h1 { font-size: 1.45em; margin: .45em 0 .1em; } h2 { font-size: 1.3em; margin: 0; display: inline; }
h3 { font-size: 1.1em; margin: 1.2em 0 .3em; }
section { margin-top: 1.1em; } section > details > summary { border-bottom: 2px solid #ddd; padding-bottom: .15em; }
section > details > summary::marker { color: #888; }
[id] { scroll-margin-top: 42px; }
nav { position: sticky; top: 0; background: #fff; border-bottom: 1px solid #ddd; padding: .35em 0; z-index: 5;
      font-size: 14px; }
nav a { margin-right: 1em; color: #1f5fa8; text-decoration: none; }
.lead { color: #444; margin: .1em 0 .4em; font-size: 13px; }
p.verdict { font-size: 16px; margin: .5em 0 .6em; background: #f4f8fc; border-left: 4px solid #1f77b4;
  padding: .35em .8em; }
.first { display: flex; gap: 14px; align-items: flex-start; }
.first .tables { flex: 1 1 auto; min-width: 0; overflow-x: auto; } .first .side { flex: 0 0 auto; }
.first .side figure { margin: 0; } .first figcaption { font-size: 12px; }
table.answer-table { margin: .2em 0 .5em; } table.answer-table caption { text-align: left; font-weight: 600;
  font-size: 14px; padding: 2px 0; caption-side: top; }
table.answer-table { font-size: 12.5px; } table.answer-table td, table.answer-table th { padding: 2px 4px; }
table.answer-table .seg { white-space: nowrap; }
table.answer-table td.key { color: #666; text-align: right; font-size: 12px; }
table.answer-table th { font-size: 12px; } table.answer-table th .unit { font-size: 11px; }
table.answer-table th.mark, table.answer-table td.mark { text-align: center; width: 40px; }
table.answer-table th.mark { background: #eef3fa; } table.answer-table td.on { color: #1f5fa8; font-weight: 700; }
table.realtime th.mark, table.realtime td.mark { text-align: center; width: 44px; font-size: 12px; }
table.realtime th.mark { background: #eef3fa; } table.realtime td.on { color: #1f5fa8; font-weight: 700; }
table.answer-table th.budget { background: #fdf1e8; } table.answer-table td.on.budget { color: #c2410c; }
table.answer-table tr.front td:nth-child(2) { font-weight: 600; }
table.answer-table a { color: inherit; text-decoration: none; border-bottom: 1px dotted #888; }
p.small { font-size: 13px; color: #444; margin: .3em 0; }
.warn { color: #b00; }
table.not-candidates caption { font-weight: 600; } table.not-candidates td.reason { font-size: 12px; color: #444; }
table.answer-table.not-candidates td, table.answer-table.not-candidates th { padding: 1px 4px; }
table.not-candidates { margin-top: 0; } td.share.warn { color: #b00; font-weight: 600; }
.badge.out { background: #999; } tr.not-candidate td { color: #666; }
table { border-collapse: collapse; font-size: 13px; margin: .5em 0; }
th, td { border: 1px solid #d4d4d4; padding: 3px 6px; vertical-align: top; }
th { background: #f0f0f0; font-weight: 600; text-align: left; }
th .unit { font-weight: normal; color: #666; display: block; font-size: 12px; }
td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
td .ci { display: block; color: #666; font-size: 11px; }
table.ranked td:nth-child(2) { max-width: 230px; overflow-wrap: anywhere; }
table.ranked th { max-width: 95px; }
td.best { background: #e3f4e1; font-weight: 600; } .star { color: #2a7d2a; margin-right: 3px; }
h4 { margin: 1em 0 .2em; font-size: 1em; }
tr.front td:nth-child(2) { font-weight: 600; } tr:target td { background: #fff6cc; }
.badge { font-size: 11px; background: #1f77b4; color: #fff; border-radius: 3px; padding: 0 4px; margin-left: 4px; }
figure { margin: 1em 0; } figcaption { font-size: 14px; color: #333; margin-top: .3em; max-width: 1180px; }
figcaption b { color: #000; } .dl { font-size: 13px; }
.note { color: #666; font-style: italic; }
details.na summary { font-weight: normal; color: #666; font-size: 13px; } ul.na { font-size: 13px; color: #444; margin: .2em 0; }
ul.verdicts { font-size: 14px; } ul.verdicts li.nodiff { color: #666; }
ul.answer { background: #f4f8fc; border-left: 4px solid #1f77b4; padding: .5em 1em .5em 2em; margin: .6em 0; }
.thumbs { display: flex; flex-wrap: wrap; gap: 10px; }
.thumbs figure { margin: 0; width: 590px; } .thumbs img { width: 590px; height: auto; border: 1px solid #ccc;
  cursor: zoom-in; display: block; } .thumbs figcaption { font-size: 13px; }
#lightbox { display: none; position: fixed; inset: 0; background: rgba(0,0,0,.82); z-index: 10; cursor: zoom-out;
  align-items: center; justify-content: center; }
#lightbox img { max-width: 96vw; max-height: 94vh; background: #fff; }
details { margin: .5em 0; } summary { cursor: pointer; font-weight: 600; }
pre { background: #f6f6f6; padding: .6em; overflow-x: auto; font-size: 12px; max-width: 1180px; }
.chart { width: 1180px; }
"""


JS = """
// A link inside the page (the index, a configuration's name, 'the ranked table') unfolds the
// <details> that hold its target before the browser scrolls there.
function unfold(hash) {
  var t = hash && hash.length > 1 ? document.getElementById(decodeURIComponent(hash.slice(1))) : null;
  for (var e = t; e; e = e.parentElement) { if (e.tagName === 'DETAILS') e.open = true; }
  if (t && t.tagName === 'SECTION') { var d = t.querySelector(':scope > details'); if (d) d.open = true; }
}
document.addEventListener('click', function (e) {
  var box = document.getElementById('lightbox');
  if (e.target.matches('.thumbs img')) { box.querySelector('img').src = e.target.src; box.style.display = 'flex'; }
  else if (box.contains(e.target)) { box.style.display = 'none'; }
  var link = e.target.closest('a[href^="#"]');
  if (link) unfold(link.getAttribute('href'));
});
unfold(location.hash);
"""


def build_sections(ctx) -> list:
    """Every section of the page, in order (each module's build(ctx)). When the rows are a subset
    (--maps, --collections, --reps), every figure's title names it."""
    out = []
    for module in SECTIONS:
        out.extend(module.build(ctx))
    scopes = ctx.analysis.scopes
    subset = scopes[0].name if scopes else "all maps"
    if subset != "all maps":
        for f in (f for sec in out for f in sec.figures()):
            if subset not in f.title:
                f.title = f"{f.title} — {subset}"
    return out


def drawn_note(a) -> str:
    """A sentence when some interval rests on more rows than stats.EXACT_ROWS: those resamples
    are not drawn row by row (stats.drawn_stats)."""
    sizes = [0]
    for sc in a.scopes:
        t = sc.table
        if t is not None and len(t):
            sizes += [int(v) for c in ("applicable", "build_ms_n") if c in t.columns for v in t[c].fillna(0)]
        sizes += [int(v.get("n", 0)) for v in sc.verdicts]
    if max(sizes) <= stats.EXACT_ROWS:
        return ""
    return (f" Samples of more than {stats.EXACT_ROWS:,} are not resampled row by row: each resample's statistic is "
            "drawn from its distribution given the sample (exact for shares, quantiles and maxima; normal for means).")


def figure_html(fig, static: list, extra: str = "") -> str:
    width = f" style='width: {fig.width}px'" if fig.width != draw.WIDTH else ""
    links = " · ".join(f"<a href='figures/{esc(n)}'>{esc(n.rsplit('.', 1)[1].upper())}</a>" for n in static)
    return (f"<figure id='fig-{esc(fig.stem)}' class='chart'{width}>{draw.plotly_div(fig)}<figcaption><b>{esc(fig.title)}.</b> "
            f"{esc(fig.caption)}" + (f" <span class='dl'>For papers: {links}</span>" if links else "") +
            f"</figcaption>{extra}</figure>")


def section_html(sec, static: dict) -> str:
    """A section: its title as the summary of a <details> (open when sec.open), then its blocks."""
    body = []
    for b in sec.blocks:
        body.append(b.pre)
        if b.figure is not None:
            body.append(figure_html(b.figure, static[b.figure.stem], b.html))
        else:
            body.append(b.html)
        body.append(b.post)
    return (f"<section id='{esc(sec.id)}'><details{' open' if sec.open else ''}><summary><h2>{esc(sec.title)}</h2>"
            "</summary>" + "\n".join(x for x in body if x) + "</details></section>")


def write_report(ctx, out_dir: str, title: str, figures=("svg", "pdf")) -> str:
    """report.html and the files beside it; returns the page. `figures`: the formats of each chart's
    static copy in out_dir/figures (none: no copies, and no links to them)."""
    import plotly.offline
    a = ctx.analysis
    os.makedirs(os.path.join(out_dir, "figures"), exist_ok=True)
    with open(os.path.join(out_dir, "plotly.min.js"), "w", encoding="utf-8") as f:
        f.write(plotly.offline.get_plotlyjs())
    sections = build_sections(ctx)
    figs = [f for s in sections for f in s.figures()]
    static = draw.save_static_all(figs, os.path.join(out_dir, "figures"), figures) if figures else {f.stem: [] for f in figs}
    for s in sections:
        for src, dest in s.files:
            os.makedirs(os.path.dirname(os.path.join(out_dir, dest)), exist_ok=True)
            shutil.copyfile(src, os.path.join(out_dir, dest))
    rows = a.rows
    n_maps = rows["map"].nunique() if len(rows) else 0
    n_colls = rows["collection"].nunique() if len(rows) else 0
    generated = datetime.datetime.now().astimezone().strftime("%Y-%m-%d %H:%M %Z")
    nav = "".join(f"<a href='#{esc(s.id)}'>{esc(s.nav)}</a>" for s in sections)
    parts = ["<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>",
             f"<title>{esc(title)}</title><style>{CSS}</style><script src='plotly.min.js'></script></head><body>",
             f"<h1>{esc(title)}</h1>",
             f"<p class='lead'>{len(rows):,} query rows · {rows['config'].nunique() if len(rows) else 0} configurations · "
             f"{n_maps} maps in {n_colls} collection(s) · generated {esc(generated)}. Intervals are 95 % bootstrap "
             f"intervals ({stats.N_BOOT} resamples, seed {a.seed}); n = queries (maps for build and memory) behind each value."
             + drawn_note(a) + "</p>",
             "<nav>" + nav + "</nav>"]
    parts += [section_html(s, static) for s in sections]
    parts.append("<div id='lightbox'><img alt='enlarged path picture'></div>")
    parts.append(f"<script>{JS}</script></body></html>")
    page = "\n".join(parts)
    with open(os.path.join(out_dir, "report.html"), "w", encoding="utf-8") as f:
        f.write(page)
    write_tables(a, out_dir)
    return page


def write_tables(a, out_dir: str) -> None:
    """summary.csv (the ranked tables of every scope), budgets.csv and update_summary.csv."""
    summaries = [sc.table for sc in a.scopes if len(sc.table)]
    if summaries:
        summary = pd.concat(summaries, ignore_index=True)
        for c in [c for c in summary.columns if c.endswith("_n")]:
            summary[c] = summary[c].fillna(0).astype(int)
        for c in ("na_maps", "unrun_maps"):  # the maps counted apart or not run (python/navbench/candidates.py), as text
            if c in summary.columns:
                summary[c] = summary[c].map(lambda v: ";".join(v) if isinstance(v, tuple) else "")
        if "apart_why" in summary.columns:  # map: why, one per map without a verdict
            summary["apart_why"] = summary["apart_why"].map(
                lambda v: ";".join(f"{m}: {w}" for m, w in v) if isinstance(v, tuple) else "")
        summary.to_csv(os.path.join(out_dir, "summary.csv"), index=False)
    budgets = [b for sc in a.scopes for b in sc.budgets]
    pd.DataFrame(budgets, columns=["scope", "facet", "kind", "column", "budget", "budget_text", "configurations", "of",
                                   "front"]).to_csv(os.path.join(out_dir, "budgets.csv"), index=False)
    if a.update_summary is not None and len(a.update_summary):
        a.update_summary.to_csv(os.path.join(out_dir, "update_summary.csv"), index=False)
