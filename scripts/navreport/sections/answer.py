"""Section "The answer" (all maps; then one per collection, folded): the verdict in one sentence, one
compact table per facet whose rows are the Pareto front's points (plain maps: median query time
and mean gap; weighted maps: cost above the reference, analysis/terrain.py) with their valid and
solved shares, build time and memory per map, the budget answers (analysis/budget.py) as marked
columns, right below it the facet's non-candidates (SPEC §14, python/navbench/candidates.py) with both
shares and why, and beside the tables the compact Pareto chart. Under them the chart of every configuration with its intervals, what the
configurations cost besides their queries, the ranked table (every estimate with its 95 % interval
and n) and the paired verdicts."""
from __future__ import annotations

import pandas as pd

from navreport.analysis import budget, terrain
from navbench.candidates import NOT_RUN_RULE, pct, rule_text
from navreport.analysis.fmt import FORMAT, esc, f_bytes, f_gap, f_sig, finite, slug, verdict_significant
from navreport.analysis.rows import METRICS, facet_order, is_terrain_facet
from navreport.io.results import OUTSIDE_NOTE, has_outside, rep_label
from navreport.figures.budget import cost_figure
from navreport.figures.pareto import front_chart, pareto_figure
from navreport.sections.base import Block, Section

MAX_FACETS = 3  # facet tables on the first screen; the ranked table has every facet
NO_ANSWER = "No configuration solved a query with a known optimum here."
# Candidates, but none with both a median time and a mean gap (no optimum: --no-optimum): no front to draw.
NO_FRONT = ("No front here: {n} configuration{s} {are} candidate{s} (every path valid, every query that has a path "
            "answered), but none has both a median query time and a mean gap (a gap needs an optimum, which runs "
            "with --no-optimum do not have). The ranked table lists {them}.")
# Queries solved, but no configuration a candidate (SPEC §14): the verdict names none, and says why.
NO_CANDIDATE = ("No configuration is a candidate here: none both returned only valid paths and answered every query "
                "that has a path (SPEC §14). The ranked table lists each with its valid and solved shares.")


def build(ctx) -> list:
    a = ctx.analysis
    if not a.scopes:
        return [Section(id="answer-all", title="The answer", nav="Answer", open=True,
                        blocks=[Block(html="<p class='verdict'>No result rows.</p>")])]
    return [scope_section(sc, a, k == 0) for k, sc in enumerate(a.scopes)]


def row_id(scope_slug: str, config: str) -> str:
    """The id of a configuration's row in a scope's ranked table (the facet tables link to it)."""
    return f"rank-{scope_slug}-{slug(config)}"


def scope_section(sc, a, first: bool) -> Section:
    sec = Section(id=f"answer-{sc.slug}", title=f"The answer: {sc.name}" if first else f"Collection {sc.name}",
                  nav="Answer" if first else sc.name, open=first)
    t = sc.table
    if not len(t):
        sec.blocks.append(Block(html="<p class='verdict'>No applicable configuration.</p>"))
        return sec
    facets = facet_answers(sc, a, first) if (t["layer"] > 0).any() else []
    solved = "solved_share" in t and bool((t["solved_share"].fillna(0) > 0).any())
    n_cand = int(t["is_candidate"].sum()) if "is_candidate" in t else 0
    no_front = NO_FRONT.format(n=n_cand, s="" if n_cand == 1 else "s", are="is a" if n_cand == 1 else "are",
                               them="it" if n_cand == 1 else "them")
    said = verdict_text(facets) if facets else no_front if n_cand else NO_CANDIDATE if solved else NO_ANSWER
    verdict = (f"<p class='verdict'>{said}</p>"
               + widening_html(a))
    if has_outside(t["representation"]):  # competition entries beside navbench's own (docs/outside-planners.md)
        verdict += f"<p class='note outside-note'>{esc(OUTSIDE_NOTE)}.</p>"
    tables = "".join(facet_table(f) for f in facets) + notes_html(sc, a, first)
    chart = (front_chart(f"front_{sc.slug}", f"The Pareto front — {sc.name}", [chart_facet(f) for f in facets])
             if first else None)
    if chart is not None:
        sec.blocks.append(Block(chart, pre=verdict + "<div class='first'><div class='tables'>" + tables +
                                "</div><div class='side'>", post="</div></div>"))
    else:
        sec.blocks.append(Block(html=verdict + tables))
    pareto = pareto_figure(sc, a)
    if pareto is not None:
        fold = ("<details class='more'><summary>Every configuration: speed against path quality, with intervals</summary>",
                "</details>") if first else ("", "")
        sec.blocks.append(Block(pareto, pre=fold[0], post=fold[1]))
    costs = cost_figure(sc, a) if first else None
    if costs is not None:
        sec.blocks.append(Block(costs, pre="<details class='more'><summary>What each configuration costs besides its "
                                           "queries: memory and build time per map</summary>", post="</details>"))
    sec.blocks.append(Block(html=ranked_html(sc)))
    return sec


# --------------------------------------------------------------------------------------------
# The facet tables

def facet_title(facet: str, weighted: bool) -> str:
    if facet in ("", "plain map"):
        return "plain maps" if weighted or facet else ""
    return facet.replace(" / plain map", "").replace("plain map / ", "")


def facet_answers(sc, a, first: bool) -> list:
    """Per facet: title, what its y is, its rows (the ranked table's columns), its budget answers and
    where a configuration's intervals are. The plain-map facets, then (all maps) the weighted maps."""
    t = sc.table
    ranked = t[t["layer"] > 0]
    # Weighted maps are answered on cost, not length (docs/terrain.md): their facets stay off the length tables.
    on_length = [f for f in facet_order(ranked["facet"]) if not is_terrain_facet(f)] or facet_order(ranked["facet"])
    weighted = first and a.terrain is not None
    out = []
    for facet in on_length[:MAX_FACETS]:
        out.append(dict(title=facet_title(facet, weighted or len(on_length) > 1), cost=False, key=facet,
                        rows=ranked[ranked["facet"] == facet], budgets=[b for b in sc.budgets if b["facet"] == facet],
                        outside=t[(t["facet"] == facet) & ~t["is_candidate"]],
                        href=lambda cfg: "#" + row_id(sc.slug, cfg), what="ranked table"))
    if weighted:
        rows = terrain.as_table(a.terrain)
        out.append(dict(title="weighted maps", cost=True, key="weighted maps", rows=rows[rows["layer"] > 0],
                        ref=a.terrain.ref_name, maps=a.terrain.maps, budgets=budget.budget_answers(rows, sc.name),
                        outside=weighted_outside(a.terrain, rows), href=lambda cfg: "#terrain-" + slug(cfg),
                        what="Terrain costs table"))
    return out


def weighted_outside(costs, rows) -> pd.DataFrame:
    """The weighted maps' non-candidates: every configuration of candidates.summarise that applies
    to some query and is not one (those without a costed path too), with the Terrain costs' time and
    cost gap where it has them."""
    cand = costs.candidates
    if cand is None or not len(cand):
        return rows.iloc[0:0]
    return cand[~cand["is_candidate"] & (cand["applicable"] > 0)].merge(rows[["config", "time_median", "gap_mean"]], on="config", how="left")


def shown_rows(f) -> pd.DataFrame:
    """The rows a facet table shows: the front's points and the points of every budget's front, fastest first."""
    rows = f["rows"]
    keep = set(rows.loc[rows["layer"] == 1, "config"])
    for b in f["budgets"]:
        keep.update(b["front"].split(" → "))
    return rows[rows["config"].isin(keep)].sort_values(["time_median", "gap_mean"], kind="stable")


def name_of(r) -> str:
    return rep_label(f"{r['representation']} · {r['smoothing']}")


LONG_NAME = 24  # characters: a longer name may break between its parts


def name_html(name: str) -> str:
    """A configuration's name on one line; a long one (grid8 (centre lattice) · lazy-theta + los)
    may break between its parts (after a " · "), never inside one, so its table fits beside the chart."""
    parts = str(name).split(" · ") if len(str(name)) > LONG_NAME else [str(name)]
    return " ".join(f"<span class='seg'>{esc(p)}{' ·' if k < len(parts) - 1 else ''}</span>" for k, p in enumerate(parts))


def gap_text(v, cost: bool) -> str:
    return (f"{100 * v:+.2f}" if finite(v) else "–") if cost else f_gap(v)


def interval(r, key: str, fmt) -> str:
    """A cell's tooltip: the value's 95 % interval and n (the ranked table has them all)."""
    lo, hi, n = r.get(key + "_lo"), r.get(key + "_hi"), r.get(key + "_n")
    parts = []
    if finite(lo) and finite(hi):
        parts.append(f"95 % interval [{fmt(lo)}, {fmt(hi)}]")
    if finite(n):
        parts.append(f"n = {int(n)}")
    return f" title='{esc(', '.join(parts))}'" if parts else ""


def facet_table(f) -> str:
    rows, cost = shown_rows(f), f["cost"]
    kinds = {c: name for c, name, _ in budget.BUDGETS}
    marks = [("front", "<th class='mark' data-front='1' title='the Pareto front of every configuration'>front"
                       "<span class='unit'>no budget</span></th>", None)]
    for b in f["budgets"]:
        marks.append(("budget", f"<th class='mark budget' data-kind='{esc(b['column'])}' data-budget='{b['budget']!r}' "
                                f"title='{b['configurations']} of {b['of']} configurations fit'>{esc(b['kind'])}"
                                f"<span class='unit'>≤ {esc(b['budget_text'])}</span></th>",
                      set(b["front"].split(" → "))))
    what = f"cost above {f.get('ref', '')}" if cost else "mean gap"
    head = ("<tr><th title='its point in the chart'>#</th><th>configuration</th><th>median query<span class='unit'>µs</span></th>"
            f"<th>{'cost above ref.' if cost else 'mean gap'}<span class='unit'>%</span></th>" + SHARE_HEADS +
            "<th>build<span class='unit'>ms per map</span></th><th>memory<span class='unit'>per map</span></th>"
            + "".join(h for _, h, _ in marks) + "</tr>")
    body = []
    for k, (_, r) in enumerate(rows.iterrows()):
        cfg = r["config"]
        cells = [f"<td class='key'>{k + 1}</td>",
                 f"<td><a href='{esc(f['href'](cfg))}' title='its row in the {esc(f['what'])}'>"
                 f"{name_html(cfg if cost else name_of(r))}</a></td>",
                 f"<td class='num' data-metric='time_median'{interval(r, 'time_median', f_sig)}>"
                 f"{f_sig(r['time_median'])}</td>",
                 f"<td class='num' data-metric='gap_mean'{interval(r, 'gap_mean', lambda v: gap_text(v, cost))}>"
                 f"{gap_text(r['gap_mean'], cost)}</td>", share_cells(r),
                 f"<td class='num' data-metric='build_ms'{interval(r, 'build_ms', f_sig)}>{f_sig(r.get('build_ms'))}</td>",
                 f"<td class='num' data-metric='memory'{interval(r, 'memory', f_bytes)}>{f_bytes(r.get('memory'))}</td>"]
        for kind, _, members in marks:
            on = (r["layer"] == 1) if members is None else (cfg in members)
            cls = "mark" + (" on" if on else "") + (" budget" if kind == "budget" else "")
            cells.append(f"<td class='{cls}'>{'●' if on else ''}</td>")
        body.append(f"<tr class='{'front' if r['layer'] == 1 else 'budget-front'}' data-config='{esc(cfg)}'>"
                    + "".join(cells) + "</tr>")
    missing = [kinds[c] for c in kinds if c in f["rows"].columns and not any(b["column"] == c for b in f["budgets"])]
    none = (f" No {' or '.join(missing)} budget changes this front." if missing else "")
    title = f["title"][:1].upper() + f["title"][1:] if f["title"] else ""
    if "maps" in f:
        title += f" ({f['maps']} map{'s' if f['maps'] != 1 else ''})"
    title += ": " if title else ""
    caption = f"{title}the front of query time and {what}"
    return (f"<table class='answer-table' data-facet='{esc(f['title'])}' data-facet-key='{esc(f['key'])}'>"
            f"<caption>{esc(caption[:1].upper() + caption[1:])}"
            f"<span class='note' style='font-weight:normal'>{esc(none)}</span></caption><thead>{head}"
            "</thead><tbody>" + "".join(body) + "</tbody></table>" + marks_note(f, len(rows)) + outside_table(f))


def marks_note(f, shown: int) -> str:
    """Under a facet table: what its marked columns and its rows are (the budgets' thresholds said)."""
    front = int((f["rows"]["layer"] == 1).sum())
    out = [f"● front: the {front} candidate{'s' if front != 1 else ''} on the Pareto front (nothing both faster "
           "and better)."]
    if f["budgets"]:
        out.append("● memory or build time ≤ X: the front of the candidates within that budget per map; X is a "
                   "candidate's own value, the largest below the front's dearest point, which drops out.")
    if shown > front:
        out.append(f"{shown - front} row{'s are' if shown - front != 1 else ' is'} on a budget's front only "
                   "(orange diamonds in the chart).")
    return f"<p class='note marks-note' data-facet-key='{esc(f['key'])}'>{esc(' '.join(out))}</p>"


# The candidate rule's two shares (python/navbench/candidates.py), in every facet and ranked table.
SHARE_HEADS = ("<th title='valid %: valid paths over the paths it returned (SPEC §1)'>valid<span class='unit'>%</span></th>"
               "<th title='solved %: answered over the queries that have a path'>solved<span class='unit'>%</span></th>")


def share_text(v) -> str:
    return pct(v) if finite(v) else "–"


def share_cells(r) -> str:
    """The valid and solved shares of a configuration, as two cells (data-value: the share 0..1)."""
    out = []
    for key, part, whole, what in (("valid_share", "valid_paths", "paths", "paths valid"),
                                   ("solved_share", "answered", "with_path", "queries with a path answered")):
        v = r.get(key)
        val = f"{float(v)!r}" if finite(v) else ""
        warn = " warn" if finite(v) and v < 1 else ""
        n = (f" title='{int(r[part]):,} of {int(r[whole]):,} {what}'" if finite(r.get(part)) and finite(r.get(whole))
             else "")
        out.append(f"<td class='num share{warn}' data-metric='{key}' data-value='{val}'{n}>"
                   f"{share_text(v)}</td>")
    return "".join(out)


def outside_table(f) -> str:
    """Right below a facet's front: its configurations that are not candidates (SPEC §14), each
    with both shares, its median query time and gap, and why; fastest first."""
    rows = f.get("outside")
    if rows is None or not len(rows):
        return ""
    cost = f["cost"]
    rows = rows.sort_values("time_median", na_position="last", kind="stable")
    body = "".join(
        f"<tr data-config='{esc(r['config'])}'><td>{name_html(r['config'] if cost else name_of(r))}</td>{share_cells(r)}"
        f"<td class='num' data-metric='time_median'>{f_sig(r.get('time_median'))}</td>"
        f"<td class='num' data-metric='gap_mean'>{gap_text(r.get('gap_mean'), cost)}</td>"
        f"<td class='reason'>{esc(r['reason'])}</td></tr>" for _, r in rows.iterrows())
    n = len(rows)
    return (f"<table class='answer-table not-candidates' data-facet='{esc(f['title'])}' data-facet-key='{esc(f['key'])}'>"
            f"<caption>Not candidates ({n}): <span class='note' style='font-weight:normal'>an invalid path, a missed "
            "query or a map not run keeps a configuration off the front, the verdict and the budgets "
            "(<a href='#missing'>why</a>)"
            "</span></caption><thead><tr><th>configuration</th>" + SHARE_HEADS +
            f"<th>median query<span class='unit'>µs</span></th><th>{'cost above ref.' if cost else 'mean gap'}"
            "<span class='unit'>%</span></th><th>why not</th></tr></thead><tbody>" + body + "</tbody></table>")


def chart_facet(f) -> dict:
    """A facet table as a panel of the compact chart: every configuration, the table's rows numbered
    as in the table (names would crowd a small panel; the hover names every point)."""
    shown = {c: k + 1 for k, c in enumerate(shown_rows(f)["config"])}
    rows, cost = f["rows"], f["cost"]
    pts = []
    for _, r in rows.iterrows():
        kind = "front" if r["layer"] == 1 else ("budget" if r["config"] in shown else "other")
        label = r["config"] if cost else name_of(r)
        pts.append((float(r["time_median"]), 100 * float(r["gap_mean"]), str(shown.get(r["config"], "")), kind,
                    f"<b>{esc(label)}</b><br>median query time {f_sig(r['time_median'])} µs<br>"
                    f"{'cost above ref.' if cost else 'mean gap'} {gap_text(r['gap_mean'], cost)} %<br>"
                    f"valid {share_text(r.get('valid_share'))} %, solved {share_text(r.get('solved_share'))} %", label))
    return dict(title=f["title"] or "every configuration", points=pts,
                ylabel="cost above ref. (%)" if cost else "mean gap (%)")


def verdict_text(facets: list) -> str:
    """The answer in one sentence: per facet, the front from its fastest to its best point."""
    parts = []
    for f in facets:
        front = f["rows"][f["rows"]["layer"] == 1].sort_values("time_median")
        if not len(front):
            continue
        cost = f["cost"]
        best, unit = ("cheapest", "% cost above ref.") if cost else ("shortest", "% gap")
        pre = f"<b>{esc(f['title'][:1].upper() + f['title'][1:])}</b>: " if f["title"] else ""
        first, last = front.iloc[0], front.iloc[-1]
        extra = len(shown_rows(f)) - len(front)  # the table's rows besides the front: a budget's front only
        more = (f" ({extra} more in its table on a memory or build-time budget's front only)" if extra else "")
        name = lambda r: (f"<b data-config='{esc(r['config'])}'>{esc(r['config'] if cost else name_of(r))}</b>"  # noqa: E731
                          + shortfall(r))
        if len(front) == 1:
            parts.append(f"{pre}{name(first)} is both the fastest and the {best} ({f_sig(first['time_median'])} µs, "
                         f"{gap_text(first['gap_mean'], cost)} {unit}; {f_sig(first.get('build_ms'))} ms and "
                         f"{f_bytes(first.get('memory'))} per map to build){more}")
        else:
            parts.append(f"{pre}from {name(first)}, the fastest ({f_sig(first['time_median'])} µs, "
                         f"{gap_text(first['gap_mean'], cost)} {unit}), to {name(last)}, the {best} "
                         f"({f_sig(last['time_median'])} µs, {gap_text(last['gap_mean'], cost)} {unit}): "
                         f"{len(front)} configurations on the front{more}")
    return "; ".join(parts) + "." if parts else NO_ANSWER


def shortfall(r) -> str:
    """After a name in the verdict: what a candidate admitted by a widened rule falls short of
    (its valid and solved shares below 100 %), and the maps it was not run on or does not apply to
    (SPEC §14: counted apart and named); nothing for a configuration that ran everywhere and meets the rule."""
    parts = [f"{pct(r[k])} % {what}" for k, what in (("valid_share", "of its paths valid"),
                                                       ("solved_share", "of the queries with a path solved"))
             if finite(r.get(k)) and r[k] < 1]
    out = f" (<span class='warn'>{esc(', '.join(parts))}</span>)" if parts else ""
    # The maps counted apart (its numbers are over the others): said beside the name, listed under the tables.
    apart = [f"{what} {len(r[col])} map{'' if len(r[col]) == 1 else 's'}"
             for col, what in (("unrun_maps", "not run on"), ("na_maps", "does not apply to"))
             if isinstance(r.get(col), tuple) and r[col]]
    return out + (f" <span class='note'>({esc(', '.join(apart))})</span>" if apart else "")


def widening_html(a) -> str:
    """Near the verdict, when the reader widened the candidates (report.py --accept-invalid,
    --accept-unsolved): the widened rule, said plainly."""
    if not a.widening.widened():
        return ""
    return f"<p class='verdict widened warn'>{esc(rule_text(a.widening))}.</p>"


def notes_html(sc, a, first: bool) -> str:
    t = sc.table
    out = [f"{sc.queries:,} queries on {sc.maps} map(s). Medians and means; hover a number for its 95 % interval "
           f"and n; a name leads to its row in <a class='to-ranked' href='#table-{sc.slug}'>the ranked table</a>"
           + (" (weighted maps: the <a href='#terrain'>Terrain costs</a> table)" if first and a.terrain is not None else "")
           + "."]
    facets = [f for f in facet_order(t.loc[t["layer"] > 0, "facet"]) if not is_terrain_facet(f)]
    if len(facets) > MAX_FACETS:
        out.append(f"{len(facets) - MAX_FACETS} more facet(s) ({esc(', '.join(facets[MAX_FACETS:]))}): in the ranked table.")
    out.append(esc(rule_text(a.widening)) + ": the fronts, the verdict and the budgets hold only those; valid % "
               "is over the paths returned, solved % over the queries that have a path (an optimum, or a valid path "
               "of any configuration, says one exists). " + esc(NOT_RUN_RULE) + ".")
    if first:
        out.append(recast_standing(t))
    return "<p class='small'>" + " ".join(x for x in out if x) + "</p>" + apart_html(t)


def apart_html(t) -> str:
    """The maps some configuration of the scope has no verdict on, named with why (SPEC §14): those it
    does not apply to (not_applicable rows, a map kind its build refuses, a declared cap), counted
    apart, neither solved nor missed; and those it was not run on (a sweep's skip_maps, no run of it
    included the map), which keep it off the candidates of the scope. One line per reason and set
    of maps (folded)."""
    groups: dict = {}  # (what, why, maps) -> configurations
    for _, r in t.iterrows():
        why = dict(r.get("apart_why") or ())
        for col, what in (("unrun_maps", "not run on"), ("na_maps", "does not apply to")):
            maps = r.get(col)
            if not isinstance(maps, tuple) or not maps:
                continue
            by_why: dict = {}
            for m in maps:
                by_why.setdefault(why.get(m, ""), []).append(m)
            for text, ms in by_why.items():
                groups.setdefault((what, text, tuple(ms)), []).append(name_of(r))
    if not groups:
        return ""
    counts = {what: len({c for (w, _, _), cfgs in groups.items() if w == what for c in cfgs})
              for what in ("does not apply to", "not run on")}
    parts = ([f"{counts['does not apply to']} configuration{'' if counts['does not apply to'] == 1 else 's'} not "
              "applying to some maps (counted apart, neither solved nor missed)"] if counts["does not apply to"] else []) + \
            ([f"{counts['not run on']} not run on some maps (off the candidates of the scope)"] if counts["not run on"] else [])
    items = "".join(
        f"<li><b>{what} {len(maps)} map{'' if len(maps) == 1 else 's'}</b> "
        f"({esc(', '.join(maps[:8]) + (', ...' if len(maps) > 8 else ''))}){': ' + esc(why) if why else ''} — "
        f"{esc(', '.join(dict.fromkeys(cfgs)))}</li>"
        for (what, why, maps), cfgs in sorted(groups.items(), key=lambda g: (g[0][0], g[0][1], len(g[0][2]))))
    return (f"<details class='na apart'><summary>Maps without a verdict: {esc('; '.join(parts))}</summary>"
            f"<ul class='na'>{items}</ul></details>")


def recast_standing(t) -> str:
    """Where Recast/Detour stands (docs/recast.md), on the first screen: what it is and why its
    configurations are (or are not) candidates; their shares are in the tables of non-candidates."""
    if "config" not in t.columns:
        return ""
    # The shared A* + funnel (the mesh judged as ours are) and Detour's own query (what a game runs),
    # on plain maps: a name is "recast[:params] · funnel", with " · plain map" when weighted maps ran too.
    parts = t["config"].astype(str).str.split(" · ")
    plain = parts.map(lambda p: len(p) == 2 or (len(p) == 3 and p[2] == "plain map"))
    rc = t[parts.map(lambda p: p[0].startswith("recast") and len(p) > 1) & plain]
    if not len(rc):
        return ""
    n_in = int(rc["is_candidate"].sum())
    where = ("none of them is a candidate: see 'Not candidates' for their valid and solved shares" if n_in == 0 else
             f"{n_in} of them candidates" + ("" if n_in == len(rc) else ", the others under 'Not candidates'"))
    return ("<span class='recast'><b>Recast/Detour</b> (<a href='https://github.com/recastnavigation/recastnavigation'>"
            "the navmesh games ship</a>; voxelised and simplified, so some paths clip obstacles and some queries find "
            f"no path — counted, not hidden): {len(rc)} configuration{'' if len(rc) == 1 else 's'} on plain maps, "
            f"{esc(where)}.</span>")


# --------------------------------------------------------------------------------------------
# The ranked table and the paired verdicts

def ranked_html(sc) -> str:
    table = ranked_table_html(sc.table, sc.slug)
    cap = ("<p>Candidates (every path valid, every query that has a path answered) ranked by Pareto layer "
           "(1 = on the front), then by median query time; then the configurations that are not candidates (hover "
           "'not a candidate' for why). One table per heuristic/convention when several ran. Solved: over the "
           "queries that have a path; valid: over the paths returned; times and gaps over solved queries; build "
           "and memory: mean over maps. ★ best candidate per column. Small print: 95 % interval and n.</p>")
    if sc.unapplicable:
        cap += unapplicable_html(sc.unapplicable)
    ver = ("<ul class='verdicts'>" + "".join(
        f"<li class='{'' if verdict_significant(v) else 'nodiff'}'>{esc(v['text'])}</li>"
        for v in sc.verdicts) + "</ul>") if sc.verdicts else "<p class='note'>No pairs to compare.</p>"
    ver_head = ("<h3>Paired verdicts</h3><p>Neighbours on the Pareto front and the two fastest configurations, on "
                "the queries both solved: Wilcoxon signed-rank test, p-values Holm-corrected over this list; "
                "a difference is claimed only when the test rejects at 5 % and the effect's 95 % interval "
                "agrees. Time effects are typical per-query ratios (median of log ratios).</p>")
    return f"<h3 id='table-{sc.slug}'>Ranked table</h3>" + cap + table + ver_head + ver


def unapplicable_html(configs: list) -> str:
    """The configurations without an applicable query (a search or smoothing the representation does
    not have: Theta* needs segment edges, the funnel a corridor), given as (representation,
    search/smoothing, facet), folded: per representation what it lacks, the facets (map kinds) named
    only where it lacks it on some of them, rather than a paragraph of every label."""
    all_facets = list(dict.fromkeys(f for _, _, f in configs))
    facets_of: dict = {}  # representation -> {search/smoothing: {facets}}
    for rep, middle, facet in configs:
        facets_of.setdefault(rep_label(rep), {}).setdefault(middle, set()).add(facet)
    items = []
    for rep, middles in facets_of.items():
        groups: dict = {}  # the same facets -> the searches/smoothings lacking on them
        for middle, facets in middles.items():
            groups.setdefault(tuple(f for f in all_facets if f in facets), []).append(middle)
        parts = [", ".join(ms) + ("" if len(fs) == len(all_facets) else f" (on {'; '.join(f for f in fs if f)})")
                 for fs, ms in groups.items()]
        items.append(f"<li><b>{esc(rep)}</b>: {esc('; '.join(parts))}</li>")
    n_rep = len(facets_of)
    return (f"<details class='na'><summary>Not applicable here: {len(configs)} configuration"
            f"{'' if len(configs) == 1 else 's'} of {n_rep} representation{'' if n_rep == 1 else 's'} "
            "(a search or smoothing the representation does not have: not_applicable rows, docs/results.md#query-status)"
            f"</summary><ul class='na'>{''.join(items)}</ul></details>")


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
    cand = t[t["is_candidate"]] if "is_candidate" in t.columns else t
    for k, _, _, better, _ in METRICS:  # the best of the candidates (SPEC §14)
        v = cand[k].dropna() if k in cand.columns else pd.Series(dtype=float)
        if len(v) > 1:  # a lone value is not "best"
            best[k] = v.max() if better == "max" else v.min()
    body = []
    for _, r in t.iterrows():
        out = not r.get("is_candidate", True)
        cls = " class='front'" if r["layer"] == 1 else (" class='not-candidate'" if out else "")
        badge = ("<span class='badge' title='on the Pareto front'>front</span>" if r["layer"] == 1 else
                 f"<span class='badge out' title='{esc(r.get('reason', ''))}'>not a candidate</span>" if out else "")
        cells = [f"<td class='num'>{'–' if out else int(r['rank'])}</td>",
                 f"<td data-config='{esc(r['config'])}'>{esc(rep_label(r['representation']))} · {esc(r['smoothing'])}{badge}</td>"]
        for k, _, _, _, kind in METRICS:
            v = r.get(k)
            fmt = FORMAT[kind]
            n = int(r.get(k + "_n", 0) or 0) if finite(r.get(k + "_n", 0)) else 0
            if not finite(v):
                cells.append(f"<td class='num' data-metric='{k}' data-value=''>–<span class='ci'>n = {n}</span></td>")
                continue
            is_best = k in best and v == best[k] and not out
            star = "<span class='star' title='best in this column'>★</span>" if is_best else ""
            cells.append(f"<td class='num{' best' if is_best else ''}' data-metric='{k}' data-value='{float(v)!r}' "
                         f"data-n='{n}'>{star}{fmt(v)}<span class='ci'>[{fmt(r[k + '_lo'])}, {fmt(r[k + '_hi'])}]</span>"
                         f"<span class='ci'>n = {n}</span></td>")
        body.append(f"<tr{cls} id='{row_id(scope_slug, r['config'])}'>" + "".join(cells) + "</tr>")
    return (f"<table class='ranked' id='{table_id}' data-scope='{esc(scope_slug)}'><thead><tr>{''.join(head)}</tr></thead><tbody>"
            + "".join(body) + "</tbody></table>")
