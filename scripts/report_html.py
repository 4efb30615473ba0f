"""The report's page (report.py): the ranked tables, missing data, metadata and path pictures as
HTML, and write_report, which lays the sections out and copies the figures and plotly beside it."""
from __future__ import annotations

from typing import TYPE_CHECKING

import datetime
import glob
import json
import os
import re
import shutil

import numpy as np
import pandas as pd

import common
import plots
import stats
from plots import Figure
from report_format import FORMAT, esc, f_sig, finite, slug, verdict_significant
from report_rows import METRICS, config_order, facet_order, plain

if TYPE_CHECKING:  # annotations only: report.py holds Analysis and imports this module
    from report import Analysis

OPTIONAL_SECTIONS = {"dynamic": "Changing maps", "threads": "Many agents", "radius": "Agents with a radius",
                     "quality": "Path quality", "terrain": "Terrain costs"}  # shown when the inputs have them


CSS = """
body { font-family: system-ui, -apple-system, 'Segoe UI', sans-serif; margin: 0 auto; max-width: 1220px;
       color: #222; padding: 0 16px 3em; font-size: 15px; line-height: 1.45; }
h1 { font-size: 1.55em; margin: .6em 0 .2em; } h2 { font-size: 1.3em; border-bottom: 2px solid #ddd;
  padding-bottom: .15em; margin-top: 1.6em; } h3 { font-size: 1.1em; margin: 1.2em 0 .3em; }
nav { position: sticky; top: 0; background: #fff; border-bottom: 1px solid #ddd; padding: .35em 0; z-index: 5;
      font-size: 14px; }
nav a { margin-right: 1em; color: #1f5fa8; text-decoration: none; }
.lead { color: #444; margin: .2em 0 .6em; }
ul.answer { background: #f4f8fc; border-left: 4px solid #1f77b4; padding: .5em 1em .5em 2em; margin: .6em 0; }
.warn { color: #b00; }
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
tr.front td:nth-child(2) { font-weight: 600; }
.badge { font-size: 11px; background: #1f77b4; color: #fff; border-radius: 3px; padding: 0 4px; margin-left: 4px; }
figure { margin: 1em 0; } figcaption { font-size: 14px; color: #333; margin-top: .3em; max-width: 1180px; }
figcaption b { color: #000; } .dl { font-size: 13px; }
.note { color: #666; font-style: italic; }
ul.verdicts { font-size: 14px; } ul.verdicts li.nodiff { color: #666; }
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
document.addEventListener('click', function (e) {
  var box = document.getElementById('lightbox');
  if (e.target.matches('.thumbs img')) { box.querySelector('img').src = e.target.src; box.style.display = 'flex'; }
  else if (box.contains(e.target)) { box.style.display = 'none'; }
  // A link to a collection's ranked table opens its folded details.
  var link = e.target.closest('a.to-ranked');
  if (link) { var t = document.querySelector(link.getAttribute('href')); if (t && t.tagName === 'DETAILS') t.open = true; }
});
"""


def ranked_table_html(t, scope_slug: str) -> str:
    """One table per facet (heuristic / convention), best value per column marked within it."""
    out = []
    for facet in facet_order(t["facet"]):
        sub = t[t["facet"] == facet]
        tid = f"ranked-{scope_slug}" + (f"-{slug(facet)}" if facet else "")
        if facet:
            out.append(f"<h4>{esc(facet)}</h4>")
        out.append(one_ranked_table(sub, tid, scope_slug))
    return "\n".join(out)


def one_ranked_table(t, table_id: str, scope_slug: str) -> str:
    head = ["<th>#</th><th>configuration</th>"] + [
        f"<th>{esc(h)}<span class='unit'>{esc(u)}</span></th>" for _, h, u, _, _ in METRICS]
    best = {}
    for k, _, _, better, _ in METRICS:
        v = t[k].dropna() if k in t.columns else pd.Series(dtype=float)
        if len(v) > 1:  # a lone value is not "best"
            best[k] = v.max() if better == "max" else v.min()
    body = []
    for _, r in t.iterrows():
        cls = " class='front'" if r["layer"] == 1 else ""
        badge = "<span class='badge' title='on the Pareto front'>front</span>" if r["layer"] == 1 else ""
        cells = [f"<td class='num'>{int(r['rank'])}</td>",
                 f"<td data-config='{esc(r['config'])}'>{esc(r['representation'])} · {esc(r['smoothing'])}{badge}</td>"]
        for k, _, _, _, kind in METRICS:
            v = r.get(k)
            fmt = FORMAT[kind]
            n = int(r.get(k + "_n", 0) or 0) if finite(r.get(k + "_n", 0)) else 0
            if not finite(v):
                cells.append(f"<td class='num' data-metric='{k}' data-value=''>–<span class='ci'>n = {n}</span></td>")
                continue
            is_best = k in best and v == best[k]
            star = "<span class='star' title='best in this column'>★</span>" if is_best else ""
            cells.append(f"<td class='num{' best' if is_best else ''}' data-metric='{k}' data-value='{float(v)!r}' "
                         f"data-n='{n}'>{star}{fmt(v)}<span class='ci'>[{fmt(r[k + '_lo'])}, {fmt(r[k + '_hi'])}]</span>"
                         f"<span class='ci'>n = {n}</span></td>")
        body.append(f"<tr{cls}>" + "".join(cells) + "</tr>")
    return (f"<table class='ranked' id='{table_id}' data-scope='{esc(scope_slug)}'><thead><tr>{''.join(head)}</tr></thead><tbody>"
            + "".join(body) + "</tbody></table>")


def drawn_note(a: Analysis) -> str:
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


def figure_html(fig: Figure, static: list, extra: str = "") -> str:
    links = " · ".join(f"<a href='figures/{esc(n)}'>{esc(n.rsplit('.', 1)[1].upper())}</a>" for n in static)
    return (f"<figure id='fig-{esc(fig.stem)}' class='chart'>{plots.plotly_div(fig)}<figcaption><b>{esc(fig.title)}.</b> "
            f"{esc(fig.caption)} <span class='dl'>For papers: {links}</span></figcaption>{extra}</figure>")


def missing_html(a: Analysis) -> str:
    rows = a.rows
    cfg_code = rows["config"].cat.codes.to_numpy().astype(np.int64)
    n_cfg = len(rows["config"].cat.categories)

    def per_config(mask):
        return np.bincount(cfg_code[mask], minlength=n_cfg)

    status = {s: (rows["status"] == s).to_numpy(bool) for s in common.STATUSES}
    ok = status["ok"]
    bad_mask = ok & (rows["valid"] == 0).to_numpy(bool)
    counts = {s: per_config(m) for s, m in status.items()}
    counts["_rows"] = per_config(np.ones(len(rows), dtype=bool))
    counts["_invalid"] = per_config(bad_mask)
    counts["_gap"] = per_config(ok & rows["gap"].isna().to_numpy(bool))
    counts["_time"] = per_config(ok & rows["query_us"].isna().to_numpy(bool))
    code_of = {c: k for k, c in enumerate(rows["config"].cat.categories)}
    body = []
    for cfg in config_order(rows):
        k = code_of[cfg]
        cells = [int(counts[x][k]) for x in ("_rows", "ok", "no_path", "invalid_query", "error", "not_applicable",
                                              "_invalid", "_gap", "_time")]
        tds = "".join(f"<td class='num{' warnc' if (i in (4, 6) and v) else ''}'>{v}</td>" for i, v in enumerate(cells))
        body.append(f"<tr><td>{esc(cfg)}</td>{tds}</tr>")
    tot = {s: int(m.sum()) for s, m in status.items()}
    head = ("<tr><th>configuration</th><th>rows</th><th>ok</th><th>no_path</th><th>invalid_query</th><th>error</th>"
            "<th>not applicable</th><th>invalid path</th><th>solved, gap unknown</th><th>solved, time missing</th></tr>")
    out = [f"<p>{len(rows)} rows: " + ", ".join(f"{v} {k.replace('_', ' ')}" for k, v in tot.items()) +
           ". Not applicable rows (a combination that cannot run by construction, docs/results.md#query-status) are left out of "
           "every denominator; no_path, invalid_query and error count as unsolved.</p>",
           f"<details><summary>Per configuration</summary><table>{head}{''.join(body)}</table></details>"]
    if status["error"].any():
        errs = plain(common.take_rows(rows, status["error"], ["config", "message"]))
        msgs = errs.groupby(["config", "message"]).size().reset_index(name="n")
        out.append("<details open><summary>Error messages</summary><table><tr><th>configuration</th><th>message</th>"
                   "<th>rows</th></tr>" + "".join(f"<tr><td>{esc(r['config'])}</td><td>{esc(r['message'])}</td>"
                                                   f"<td class='num'>{r['n']}</td></tr>" for _, r in msgs.iterrows())
                   + "</table></details>")
    if bad_mask.any():
        bad = common.take_rows(rows, np.flatnonzero(bad_mask)[:100])
        out.append(f"<details open><summary class='warn'>Invalid paths ({int(bad_mask.sum())})</summary><table><tr><th>map</th>"
                   "<th>query</th><th>configuration</th><th>length</th><th>optimal</th></tr>" + "".join(
                       f"<tr><td>{esc(r['map'])}</td><td class='num'>{int(r['scen_index']) if finite(r['scen_index']) else '?'}</td>"
                       f"<td>{esc(r['config'])}</td><td class='num'>{f_sig(r['length'], 6)}</td>"
                       f"<td class='num'>{f_sig(r['optimal'], 6)}</td></tr>" for _, r in bad.iterrows())
                   + "</table></details>")
    if a.data.notes:
        out.append("<details><summary>Notes on the input files</summary><ul>" +
                   "".join(f"<li>{esc(n)}</li>" for n in a.data.notes[:200]) + "</ul></details>")
    if a.skipped:
        out.append("<p class='note'>Figures not drawn: " + "; ".join(f"{esc(s)} ({esc(r)})" for s, r in a.skipped) + ".</p>")
    return "\n".join(out)


def meta_html(data: common.ResultData) -> str:
    parts = []
    counts = data.rows["result_set"].value_counts() if len(data.rows) else {}
    for prefix in data.prefixes[:20]:
        meta = data.meta.get(prefix)
        shown = {k: v for k, v in meta.items() if k != "schema"} if isinstance(meta, dict) else meta
        body = ("<p class='note'>no meta.json next to this result set</p>" if meta is None else
                f"<pre>{esc(json.dumps(shown, indent=2, sort_keys=True))}</pre>")
        parts.append(f"<details><summary>{esc(prefix)} — {int(counts.get(prefix, 0))} rows</summary>{body}</details>")
    if len(data.prefixes) > 20:
        parts.append(f"<p class='note'>… and {len(data.prefixes) - 20} more result sets: " +
                     ", ".join(esc(p) for p in data.prefixes[20:200]) + "</p>")
    return "\n".join(parts)


def find_path_pictures(inputs: list, extra: list) -> list:
    dirs = list(extra)
    for item in inputs:
        base = item if os.path.isdir(item) else os.path.dirname(os.path.abspath(item))
        dirs.append(os.path.join(base, "paths"))
        if os.path.isdir(item):  # a folder of sweep shards: its merged results' pictures too
            dirs.append(os.path.join(common.resolve_folder(item), "paths"))
    pics = []
    for d in dict.fromkeys(os.path.abspath(x) for x in dirs):
        pics.extend(sorted(glob.glob(os.path.join(d, "*.png"))))
    return pics


def paths_html(pics: list, out_dir: str) -> str:
    if not pics:
        return ("<p class='note'>No path pictures in the results folder's paths/ directory (draw them with "
                "scripts/pathviz.py --scen-index auto, see results/README.md).</p>")
    os.makedirs(os.path.join(out_dir, "paths"), exist_ok=True)
    groups = {}
    for p in pics:
        name = os.path.basename(p)
        shutil.copyfile(p, os.path.join(out_dir, "paths", name))
        m = re.match(r"paths_(.+)_(\d+)(?:_[a-z-]+)?\.png$", name)
        groups.setdefault(m.group(1) if m else "other", []).append((name, f"query {m.group(2)}" if m else name))
    out = ["<p>Per map a few queries (shortest, median, longest, worst gap when drawn with --scen-index auto); each "
           "panel one representation: its structure faint, the raw path dashed, smoothed paths solid. "
           "Click a picture to enlarge it.</p>"]
    for mp, names in groups.items():
        out.append(f"<h3>{esc(mp)}</h3><div class='thumbs'>" + "".join(
            f"<figure><img src='paths/{esc(n)}' alt='{esc(n)}' title='{esc(n)}: click to enlarge'>"
            f"<figcaption>{esc(mp)}, {esc(c)} <a href='paths/{esc(n)}'>full size</a></figcaption></figure>"
            for n, c in sorted(names, key=lambda x: (len(x[1]), x[1]))) + "</div>")
    return "\n".join(out)


def write_report(a: Analysis, inputs: list, out_dir: str, title: str, compare=None, path_dirs=()) -> str:
    import plotly.offline
    os.makedirs(os.path.join(out_dir, "figures"), exist_ok=True)
    with open(os.path.join(out_dir, "plotly.min.js"), "w", encoding="utf-8") as f:
        f.write(plotly.offline.get_plotlyjs())
    rows = a.rows
    n_maps = rows["map"].nunique() if len(rows) else 0
    n_colls = rows["collection"].nunique() if len(rows) else 0
    generated = datetime.datetime.now().astimezone().strftime("%Y-%m-%d %H:%M %Z")
    nav = ["<a href='#answer-all'>Answer</a>"] + [f"<a href='#answer-{s.slug}'>{esc(s.name)}</a>" for s in a.scopes[1:]]
    nav += ["<a href='#compare'>Compare</a>"] if compare else []
    nav += ["<a href='#cost'>Cost vs work</a>", "<a href='#dist'>Distributions</a>"]
    nav += [f"<a href='#{sec}'>{name}</a>" for sec, name in OPTIONAL_SECTIONS.items() if any(s == sec for s, _, _ in a.figures)]
    nav += ["<a href='#paths'>Paths</a>",
            "<a href='#missing'>Missing data</a>", "<a href='#meta'>Config</a>"]
    parts = ["<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>",
             f"<title>{esc(title)}</title><style>{CSS}</style><script src='plotly.min.js'></script></head><body>",
             f"<h1>{esc(title)}</h1>",
             f"<p class='lead'>{len(rows):,} query rows · {rows['config'].nunique() if len(rows) else 0} configurations · "
             f"{n_maps} maps in {n_colls} collection(s) · generated {esc(generated)}. Intervals are 95 % bootstrap "
             f"intervals ({stats.N_BOOT} resamples, seed {a.seed}); n = queries (maps for build and memory) behind each value."
             + drawn_note(a) + "</p>",
             "<nav>" + "".join(nav) + "</nav>"]
    static = plots.save_static_all(a.all_figures(), os.path.join(out_dir, "figures"))
    summaries = []
    for i, sc in enumerate(a.scopes):
        parts.append(f"<section id='answer-{sc.slug}'><h2>{'The answer: ' if i == 0 else 'Collection '}{esc(sc.name)}"
                     f"</h2><ul class='answer'>" + "".join(f"<li>{x}</li>" for x in sc.answer) + "</ul>")
        if sc.pareto is not None:
            parts.append(figure_html(sc.pareto, static[sc.pareto.stem]))
        if sc.budget_fig is not None:
            parts.append(figure_html(sc.budget_fig, static[sc.budget_fig.stem]))
        if len(sc.table):
            table = ranked_table_html(sc.table, sc.slug)
            cap = ("<p>Ranked by Pareto layer (1 = on the front), then by median query time; one table per "
                   "heuristic/convention when several ran. Values over applicable "
                   "queries; times and gaps over solved ones; build and memory: mean over maps. ★ best per column. "
                   "Small print: 95 % interval and n.</p>")
            if sc.unapplicable:
                cap += f"<p class='note'>Not applicable here: {esc(', '.join(sc.unapplicable))}.</p>"
            ver = ("<ul class='verdicts'>" + "".join(
                f"<li class='{'' if verdict_significant(v) else 'nodiff'}'>{esc(v['text'])}</li>"
                for v in sc.verdicts) + "</ul>") if sc.verdicts else "<p class='note'>No pairs to compare.</p>"
            ver_head = ("<h3>Paired verdicts</h3><p>Neighbours on the Pareto front and the two fastest configurations, on "
                        "the queries both solved: Wilcoxon signed-rank test, p-values Holm-corrected over this list; "
                        "a difference is claimed only when the test rejects at 5 % and the effect's 95 % interval "
                        "agrees. Time effects are typical per-query ratios (median of log ratios).</p>")
            if i == 0:
                parts.append(f"<h3 id='table-{sc.slug}'>Ranked table</h3>" + cap + table + ver_head + ver)
            else:
                parts.append(f"<details id='table-{sc.slug}'><summary>Ranked table and verdicts</summary>" + cap + table +
                             ver_head + ver + "</details>")
            summaries.append(sc.table)
        parts.append("</section>")
    if compare:
        chtml, _, cfig = compare
        parts.append(chtml)
        if cfig is not None:
            parts.append(figure_html(cfig, plots.save_static(cfig, os.path.join(out_dir, "figures"))))
        parts.append("</section>")
    for sec, title_ in (("cost", "Cost as the work grows"), ("dist", "Distributions"),
                        ("dynamic", "Changing maps"), ("threads", "Many agents"), ("radius", "Agents with a radius"),
                        ("quality", "Path quality"), ("terrain", "Terrain costs")):
        figs = [(f, extra) for s, f, extra in a.figures if s == sec]
        if sec in OPTIONAL_SECTIONS and not figs:
            continue  # only runs that have them (dynamic scenarios, thread scaling)
        parts.append(f"<section id='{sec}'><h2>{title_}</h2>")
        if not figs:
            parts.append("<p class='note'>Nothing to draw (see Missing data).</p>")
        for f, extra in figs:
            parts.append(figure_html(f, static[f.stem], extra) if f is not None else extra)
        parts.append("</section>")
    parts.append("<section id='paths'><h2>Path pictures</h2>" + paths_html(find_path_pictures(inputs, list(path_dirs)), out_dir)
                 + "</section>")
    parts.append("<section id='missing'><h2>Missing data</h2>" + (missing_html(a) if len(rows) else "<p>No rows.</p>")
                 + "</section>")
    parts.append("<section id='meta'><h2>Config and metadata</h2>" + meta_html(a.data) + "</section>")
    parts.append("<div id='lightbox'><img alt='enlarged path picture'></div>")
    parts.append(f"<script>{JS}</script></body></html>")
    page = "\n".join(parts)
    with open(os.path.join(out_dir, "report.html"), "w", encoding="utf-8") as f:
        f.write(page)
    if summaries:
        summary = pd.concat(summaries, ignore_index=True)
        for c in [c for c in summary.columns if c.endswith("_n")]:
            summary[c] = summary[c].fillna(0).astype(int)
        summary.to_csv(os.path.join(out_dir, "summary.csv"), index=False)
    budgets = [b for sc in a.scopes for b in sc.budgets]
    pd.DataFrame(budgets, columns=["scope", "facet", "kind", "column", "budget", "budget_text", "configurations", "of",
                                   "front"]).to_csv(os.path.join(out_dir, "budgets.csv"), index=False)
    if a.update_summary is not None and len(a.update_summary):
        a.update_summary.to_csv(os.path.join(out_dir, "update_summary.csv"), index=False)
    return page
