"""Section "Missing data": status counts per configuration (not applicable, no_path, invalid_query,
error, invalid paths, solved rows without a gap or time), error messages, the reasons missed paths
give (a mesh that does not reach a free point: docs/recast.md), invalid paths, notes on the input
files and the figures not drawn (the sections before it say why)."""
from __future__ import annotations

import numpy as np

from navreport.analysis.fmt import esc, f_sig, finite
from navreport.analysis.rows import config_order, nonempty_text, plain, terrain_label
from navreport.io import results as common
from navreport.sections.base import Block, Section


def build(ctx) -> list:
    a = ctx.analysis
    body = missing_html(a) if len(a.rows) else "<p>No rows.</p>"
    return [Section(id="missing", title="Missing data", nav="Missing data", blocks=[Block(html=body)])]


def missing_html(a) -> str:
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
    traced = common.traced_mask(rows).to_numpy(bool)  # timed with their trace: no time (docs/traces.md#traced-rows)
    counts["_time"] = per_config(ok & rows["query_us"].isna().to_numpy(bool) & ~traced)
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
           "every denominator; a no_path or error row of a query that has a path counts as unsolved, an invalid_query "
           "has none (docs/results.md#candidates-what-the-report-may-recommend).</p>",
           f"<details><summary>Per configuration</summary><table>{head}{''.join(body)}</table></details>"]
    if traced.any():
        out.append(f"<p class='note'>{int(traced.sum())} rows are of traced queries (<code>--trace</code>): their search "
                   "wrote its trace while it was timed, so their times are left out of every timing statistic; they "
                   "count for status, validity and gap (docs/traces.md#traced-rows).</p>")
    if status["error"].any():
        errs = plain(common.take_rows(rows, status["error"], ["config", "message"]))
        out.append(counts_table(errs, {"config": "configuration", "message": "message"}, "Error messages", open_=True))
    # A missed path with a reason: a representation that approximates the free space (recast) says
    # what it left out, per map (its row's message: docs/recast.md); the reason does not depend on
    # the smoothing, so the rows are counted per representation, search and map.
    keys = [c for c in ("representation", "search", "map", "message") if c in rows.columns]
    said = (status["no_path"] & nonempty_text(rows["message"])
            if len(keys) == 4 else np.zeros(len(rows), dtype=bool))  # older result sets: no search or message column
    if said.any():
        why = plain(common.take_rows(rows, said, keys + (["terrain"] if "terrain" in rows.columns else [])))
        if "terrain" in why.columns:  # a weighted map: its name and terrain label, as the answer names it
            label = why["terrain"].map(lambda t: t if str(t).startswith("terrain ") or t == "plain map" else terrain_label(t))
            why["map"] = why["map"].astype(str) + np.where(label.ne("plain map"), " · " + label.astype(str), "")
        out.append(counts_table(why, {k: k for k in keys}, f"Missed paths with a reason ({int(said.sum())} no_path rows)",
                                open_=False))
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


def counts_table(df, columns: dict, summary: str, open_: bool) -> str:
    """A folded table of df's rows counted per distinct value of `columns` (column -> heading)."""
    cols = list(columns)
    n = df.groupby(cols).size().reset_index(name="n")
    head = "".join(f"<th>{esc(h)}</th>" for h in columns.values())
    body = "".join("<tr>" + "".join(f"<td>{esc(r[c])}</td>" for c in cols) + f"<td class='num'>{r['n']}</td></tr>"
                   for _, r in n.iterrows())
    return (f"<details{' open' if open_ else ''}><summary>{summary}</summary><table><tr>{head}<th>rows</th></tr>"
            f"{body}</table></details>")
