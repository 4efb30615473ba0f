#!/usr/bin/env python3
"""One self-contained HTML report of navbench result sets (SPEC §4): run metadata, a summary per
representation x smoothing, status counts, invalid paths, build costs and the figures of plots.py
embedded (base64 PNG, or inline SVG with --svg). No external links or files.

    scripts/navpy.sh scripts/report.py RESULTS... --out DIR [--title TEXT] [--svg]

Writes DIR/report.html and DIR/summary.csv (the summary table, machine-readable).
"""
from __future__ import annotations

import argparse
import base64
import datetime
import html
import io
import json
import math
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common  # noqa: E402

common.require_plotting("report.py")

import matplotlib.pyplot as plt  # noqa: E402

import plots  # noqa: E402

CSS = """
body { font-family: system-ui, -apple-system, 'Segoe UI', sans-serif; margin: 2em auto; max-width: 1300px;
       color: #222; padding: 0 1em; }
h1 { font-size: 1.6em; } h2 { font-size: 1.25em; border-bottom: 1px solid #ccc; padding-bottom: .2em;
       margin-top: 2em; }
table { border-collapse: collapse; font-size: .85em; margin: .5em 0; }
th, td { border: 1px solid #ccc; padding: .25em .5em; }
th { background: #f0f0f0; position: sticky; top: 0; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
tr:nth-child(even) td { background: #fafafa; }
td.bad { color: #b00; font-weight: bold; }
pre { background: #f6f6f6; padding: .6em; overflow-x: auto; font-size: .8em; }
figure { margin: 1em 0; } figcaption { font-weight: bold; margin-bottom: .3em; }
figure img, figure svg { max-width: 100%; height: auto; }
.note { color: #666; font-style: italic; }
"""

MAX_META = 10  # result sets whose meta.json is shown in full


def esc(x) -> str:
    return html.escape(str(x), quote=True)


def is_num(v) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


def f_count(v) -> str:
    return str(int(v)) if is_num(v) else "–"


def f_sig(v, digits=3) -> str:
    if not is_num(v):
        return "–"
    if v == 0:
        return "0"
    mag = math.floor(math.log10(abs(v)))
    if mag >= digits + 2:
        return f"{v:.{digits}g}"
    return f"{v:.{max(0, digits - 1 - mag)}f}"


def f_pct(v) -> str:
    return f"{100 * v:.2f} %" if is_num(v) else "–"


def f_bytes(v) -> str:
    if not is_num(v):
        return "–"
    for unit, scale in (("GiB", 2 ** 30), ("MiB", 2 ** 20), ("KiB", 2 ** 10)):
        if v >= scale:
            return f"{v / scale:.1f} {unit}"
    return f"{v:.0f} B"


def table(headers: list[str], rows: list[list], num_cols: set[int] = frozenset(), bad=None) -> str:
    """An HTML table; cells are escaped; bad(row_index, col_index) marks cells to highlight."""
    out = ["<table><thead><tr>" + "".join(f"<th>{esc(h)}</th>" for h in headers) + "</tr></thead><tbody>"]
    for ri, r in enumerate(rows):
        cells = []
        for ci, c in enumerate(r):
            cls = []
            if ci in num_cols:
                cls.append("num")
            if bad is not None and bad(ri, ci):
                cls.append("bad")
            attr = f' class="{" ".join(cls)}"' if cls else ""
            cells.append(f"<td{attr}>{esc(c)}</td>")
        out.append("<tr>" + "".join(cells) + "</tr>")
    out.append("</tbody></table>")
    return "\n".join(out)


def section_meta(data: common.ResultData) -> str:
    parts = ["<h2>Runs</h2>"]
    rows = data.rows
    counts = rows["result_set"].value_counts() if len(rows) else {}
    shown = data.prefixes[:MAX_META]
    for i, prefix in enumerate(shown):
        name = prefix
        n = int(counts.get(prefix, 0))
        meta = data.meta.get(prefix)
        body = []
        if meta is None:
            body.append('<p class="note">no meta.json next to this result set</p>')
        elif isinstance(meta, dict):
            scalars = [[k, " ".join(map(str, v)) if isinstance(v, list) and all(not isinstance(x, (dict, list))
                                                                                for x in v) else v]
                       for k, v in meta.items() if not isinstance(v, dict)]
            scalars = [[k, v if isinstance(v, str) else json.dumps(v)] for k, v in scalars]
            if scalars:
                body.append(table(["field", "value"], scalars))
            for k, v in meta.items():
                if isinstance(v, dict):
                    body.append(f"<p><b>{esc(k)}</b></p><pre>{esc(json.dumps(v, indent=2, sort_keys=True))}</pre>")
        else:
            body.append(f"<pre>{esc(json.dumps(meta, indent=2))}</pre>")
        summary = f"{esc(name)} — {n} rows"
        # The first run open, the rest folded: a sweep may hold hundreds of result sets.
        parts.append(f"<details{' open' if i == 0 else ''}><summary>{summary}</summary>{''.join(body)}</details>")
    rest = data.prefixes[MAX_META:]
    if rest:
        # A sweep may hold hundreds of result sets: list the others by name and row count only.
        parts.append(f"<details><summary>{len(rest)} more result sets</summary>" +
                     table(["result set", "rows"], [[p, int(counts.get(p, 0))] for p in rest],
                           {1}) + "</details>")
    notes = data.notes[:MAX_META * 2]
    if notes:
        more = f"<br>… and {len(data.notes) - len(notes)} more" if len(data.notes) > len(notes) else ""
        parts.append("<p class='note'>" + "<br>".join(esc(n) for n in notes) + more + "</p>")
    return "\n".join(parts)


def section_summary(summary, keys) -> str:
    if summary is None or len(summary) == 0:
        return "<h2>Summary</h2><p class='note'>no result rows</p>"
    headers = keys + ["queries", "solved", "valid", "invalid paths", "no_path", "invalid_query", "error",
                      "mean gap", "p95 gap", "max gap", "median search µs", "p95 search µs",
                      "median query µs", "mean expansions", "build ms (mean/map)", "memory (mean/map)"]
    rows = []
    for _, r in summary.iterrows():
        rows.append([r[k] for k in keys] + [
            f_count(r["queries"]), f_count(r["solved"]), f_count(r["valid"]), f_count(r["invalid_paths"]),
            f_count(r["no_path"]), f_count(r["invalid_query"]), f_count(r["error"]),
            f_pct(r["gap_mean"]), f_pct(r["gap_p95"]), f_pct(r["gap_max"]),
            f_sig(r["search_us_median"]), f_sig(r["search_us_p95"]), f_sig(r["query_us_median"]),
            f_sig(r["expansions_mean"]), f_sig(r["build_ms_mean"]), f_bytes(r["memory_bytes_mean"]),
        ])
    k = len(keys)
    num = set(range(k, len(headers)))
    inv_col = k + 3
    bad = (lambda ri, ci: ci == inv_col and summary.iloc[ri]["invalid_paths"] > 0)
    out = ["<h2>Summary per configuration</h2>",
           "<p>Gap = length / optimal − 1 over solved queries (status ok) with a known optimum; times are "
           "over solved queries; query time = locate + search + smooth; build columns are the mean over "
           "the maps this configuration ran on (PREFIX.build.csv).</p>",
           table(headers, rows, num, bad)]
    errs = [(common.config_label(r.to_dict(), keys), r["error_messages"]) for _, r in summary.iterrows()
            if r["error_messages"]]
    if errs:
        out.append("<p>Error messages:</p>" + table(["configuration", "messages"], [list(e) for e in errs]))
    return "\n".join(out)


def section_collections(data: common.ResultData) -> str:
    rows = data.rows
    ok = rows[(rows["status"] == "ok") & rows["gap"].notna()] if len(rows) else rows
    if len(ok) == 0:
        return ""
    keys = common.config_keys(rows)
    configs = common.sort_key_tuples(common.groups(ok, keys).keys(), keys)
    colls = sorted(set(ok["collection"]))
    by = common.groups(ok, keys + ["collection"])
    body = []
    for c in configs:
        line = [common.config_label(dict(zip(keys, c)), keys)]
        for coll in colls:
            g = by.get(c + (coll,))
            line.append(f_pct(float(g["gap"].mean())) if g is not None else "–")
        body.append(line)
    return ("<h2>Mean gap by map collection</h2>" +
            table(["configuration"] + [c or "(none)" for c in colls], body, set(range(1, len(colls) + 1))))


def section_invalid(data: common.ResultData, limit=50) -> str:
    rows = data.rows
    bad = rows[(rows["status"] == "ok") & (rows["valid"] == 0)] if len(rows) else rows
    if len(bad) == 0:
        n = int((rows["status"] == "ok").sum()) if len(rows) else 0
        return f"<h2>Invalid paths</h2><p>None of the {n} reported paths failed the exact validity test.</p>"
    cols = ["map", "scen_index", "representation", "heuristic", "smoothing", "convention", "length", "optimal",
            "raw_valid"]
    body = [[r[c] if not is_num(r[c]) else (f_count(r[c]) if c in ("scen_index", "raw_valid") else f_sig(r[c], 6))
             for c in cols] for _, r in bad.head(limit).iterrows()]
    more = f"<p class='note'>… and {len(bad) - limit} more</p>" if len(bad) > limit else ""
    return (f"<h2>Invalid paths ({len(bad)})</h2><p>Paths that failed the exact validity test (SPEC §1); "
            "raw_valid tells whether the path before smoothing was valid.</p>" +
            table(cols, body, {1, 6, 7}) + more)


def section_build(data: common.ResultData) -> str:
    b = data.build
    if b is None or len(b) == 0:
        return "<h2>Build</h2><p class='note'>no build rows</p>"
    body = []
    by = common.groups(b, ["representation"])
    for (rep,) in common.sort_key_tuples(by.keys(), ["representation"]):
        g = by[(rep,)]
        body.append([rep, f_count(g["map"].nunique()), f_sig(float(g["build_ms"].mean())),
                     f_sig(float(g["build_ms"].max())), f_sig(float(g["vertices"].mean())),
                     f_sig(float(g["edges"].mean())), f_bytes(float(g["memory_bytes"].mean())),
                     f_bytes(float(g["memory_bytes"].max()))])
    return ("<h2>Build cost per representation</h2>" +
            table(["representation", "maps", "mean build ms", "max build ms", "mean vertices", "mean edges",
                   "mean memory", "max memory"], body, set(range(1, 8))))


def embed(fig, svg: bool, prefix: str) -> str:
    buf = io.BytesIO()
    if svg:
        # Text as <text> (no per-figure glyph definitions whose ids would clash between the inline
        # SVGs), and no RDF metadata block (it names matplotlib's web site).
        with plt.rc_context({"svg.fonttype": "none"}):
            fig.savefig(buf, format="svg", metadata={"Creator": None, "Date": None, "Format": None, "Type": None})
        text = buf.getvalue().decode("utf-8")
        text = text[text.index("<svg"):]  # drop the XML prolog and DOCTYPE
        text = re.sub(r"<metadata>.*?</metadata>", "", text, flags=re.DOTALL)
        # Element ids (figure_1, clip paths, markers) repeat between figures: make them unique.
        p = f"{prefix}-"
        text = re.sub(r'\bid="', f'id="{p}', text)
        text = text.replace('href="#', f'href="#{p}').replace("url(#", f"url(#{p}")
        return text
    fig.savefig(buf, format="png", dpi=110)
    return f'<img alt="figure" src="data:image/png;base64,{base64.b64encode(buf.getvalue()).decode("ascii")}">'


def section_figures(data: common.ResultData, svg: bool) -> str:
    out = ["<h2>Figures</h2>"]
    for stem, title, fig, reason in plots.make_figures(data):
        if fig is None:
            common.note(f"report.py: skipped figure {stem}: {reason}")
            out.append(f"<figure><figcaption>{esc(title)}</figcaption><p class='note'>skipped: {esc(reason)}</p>"
                       "</figure>")
            continue
        out.append(f"<figure id='{esc(stem)}'><figcaption>{esc(title)}</figcaption>{embed(fig, svg, stem)}</figure>")
        plt.close(fig)
    return "\n".join(out)


def build_html(data: common.ResultData, title: str, svg: bool):
    summary, keys = common.summary_table(data)
    n = len(data.rows)
    solved = int((data.rows["status"] == "ok").sum()) if n else 0
    generated = datetime.datetime.now().astimezone().strftime("%Y-%m-%d %H:%M %Z")
    parts = [
        "<!DOCTYPE html>", "<html lang='en'><head><meta charset='utf-8'>",
        f"<title>{esc(title)}</title><style>{CSS}</style></head><body>",
        f"<h1>{esc(title)}</h1>",
        f"<p>{n} query rows from {len(data.prefixes)} result set(s), {solved} solved; "
        f"generated {esc(generated)}.</p>",
        section_meta(data),
        section_summary(summary, keys),
        section_collections(data),
        section_invalid(data),
        section_build(data),
        section_figures(data, svg),
        "</body></html>",
    ]
    return "\n".join(p for p in parts if p), summary


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("results", nargs="+", help="result-set PREFIX, PREFIX.csv or directory")
    ap.add_argument("--out", required=True, help="output directory (created)")
    ap.add_argument("--title", default="navbench report")
    ap.add_argument("--svg", action="store_true", help="embed figures as inline SVG instead of PNG")
    args = ap.parse_args()
    data = common.load(args.results)
    for n in data.notes:
        common.note(f"report.py: note: {n}")
    os.makedirs(args.out, exist_ok=True)
    page, summary = build_html(data, args.title, args.svg)
    path = os.path.join(args.out, "report.html")
    with open(path, "w", encoding="utf-8") as f:
        f.write(page)
    summary.to_csv(os.path.join(args.out, "summary.csv"), index=False)
    print(f"report.py: wrote {path} ({len(page) // 1024} KiB) and summary.csv")
    return 0


if __name__ == "__main__":
    common.run_main("report.py", main)
