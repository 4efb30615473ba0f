"""The report's figures made into a paper's (scripts/plots.py --paper, docs/results.md#figures-for-papers):

- every configuration drawn distinct by colour and marker, however many (distinct_markers): a
  representation keeps the report's colour (never repeated, navbench.style.colour) and gets a
  marker of its own (navbench.style.marker, by its place in the run), its points drawn with it and
  its lines marked with it every few points; where a point's marker already says its search and
  smoothing (the Pareto and budget charts, draw.smoothing_marker), the points keep it;
- for one column (--paper single, fit_column): one panel per file, at most PAPER_MAX_HEIGHT
  inches tall: a panel whose legend would not leave it room is cut into panels of fewer
  representations, each a file of its own, its legend holding what it draws.
"""
from __future__ import annotations

import dataclasses
import re
import textwrap

import numpy as np

from navbench import style as paper_style
from navreport.figures.draw import FONT, Figure, fit_text, for_paper

MIN_PANEL = 150   # px: the smallest panel a paper's figure is given before its series are cut apart
LEGEND_FONT = 10  # px: a one-column paper figure's legend text (6.2 pt at 8 pt body text)
TICK_LINE = 14    # px a line of a category's name on a categorical axis (12 px text)
TICK_CHARS = 26   # characters a line of a category's name holds beside a one-column panel (half its width)


def _points(s) -> int:
    try:
        return len(s.x)
    except TypeError:
        return 0


def _legend_names(fig: Figure) -> set:
    return {s.name for p in fig.panels for s in p.series if s.legend}


def distinct_markers(fig: Figure, order: list) -> Figure:
    """fig with a marker per representation (order: the run's representations; other names after
    them), on the points of series drawn with one marker and, every few points, on their lines."""
    names = list(order) + sorted({s.name for p in fig.panels for s in p.series} - set(order))
    marker = {n: paper_style.marker(i, plotly=True) for i, n in enumerate(names)}
    per_point = {s.name for p in fig.panels for s in p.series if s.kind == "markers" and not isinstance(s.marker, str)}
    legend = _legend_names(fig)
    panels = []
    for p in fig.panels:
        series = []
        for s in p.series:
            if (s.name in per_point or s.name not in legend
                    or (s.name not in order and s.kind == "markers" and not _points(s))):
                series.append(s)  # a point's own marker (its smoothing), a key, an unnamed series: as they are
            elif s.kind == "markers":
                series.append(dataclasses.replace(s, marker=marker[s.name]))
            elif s.dash is None:  # a line of a named series (not a fitted or reference line): marked
                series.append(dataclasses.replace(s, marker=marker[s.name], marks=True))
            else:
                series.append(s)
        panels.append(dataclasses.replace(p, series=series))
    return dataclasses.replace(fig, panels=panels)


def slug(text: str) -> str:
    s = re.sub(r"[^a-z0-9]+", "-", str(text).lower()).strip("-")
    return s[:48].rstrip("-") or "panel"


def _tick_labels(fig: Figure, p):
    """A categorical panel's tick labels: its own, or those of a panel of the figure with the same
    positions (the report names a row once, in its first panel)."""
    if p.yticks is None or any(str(t) for t in p.yticks[1]):
        return p.yticks
    for q in fig.panels:
        if q.yticks is not None and list(q.yticks[0]) == list(p.yticks[0]) and any(str(t) for t in q.yticks[1]):
            return q.yticks
    return p.yticks


def short_tick(label: str, order: list) -> str:
    """A category (a configuration) named for a one-column panel: without its representation, which
    its point's colour and marker name in the legend, wrapped into lines of TICK_CHARS."""
    text = str(label).replace("\n", " ")  # (a name wrapped before: the same lines again)
    for rep in sorted(order, key=len, reverse=True):
        if text.startswith(rep + " · "):
            text = "· " + text[len(rep) + 3:]
            break
    lines = []
    for i, part in enumerate(text.split(" · ")):  # lines break between a name's parts where they can
        part = part if i == 0 else "· " + part
        if lines and len(lines[-1]) + 1 + len(part) <= TICK_CHARS:
            lines[-1] += " " + part
        else:
            lines.extend(textwrap.wrap(part, TICK_CHARS) or [part])
    return "\n".join(lines) or text


def split_panels(fig: Figure) -> list:
    """One figure per panel (the figure's stem, and the panel title's words after it when there are
    several), each with the legend of what its panel draws: a series named in the figure's legend
    shows there in every panel that draws it (the report names a series once per figure); the
    marker keys (legend-only, 'smoothing ...') of the figure go with every panel that uses their marker."""
    legend = _legend_names(fig)
    keys = {}
    for p in fig.panels:
        for s in p.series:
            if s.legend and not _points(s) and s.kind == "markers" and isinstance(s.marker, str):
                keys.setdefault(s.name, s)
    # A key's name as the end of a configuration's ('· theta + los' after 'navmesh'): short enough
    # for two legend columns in one page column.
    keys = {n: dataclasses.replace(s, name="· " + n[len("smoothing "):] if n.startswith("smoothing ") else n)
            for n, s in keys.items()}
    out, seen = [], set()
    for k, p in enumerate(fig.panels):
        used = {m for s in p.series if _points(s) and s.kind == "markers"
                for m in ([s.marker] if isinstance(s.marker, str) else s.marker)}
        drawn = {s.name for s in p.series if _points(s)}
        series, named = [], set()
        for s in p.series:
            if _points(s) and s.name in legend and s.name not in named and s.name not in keys:
                s = dataclasses.replace(s, legend=True)  # shown once in this file's legend
            elif _points(s) and s.legend and (s.name in named or s.name in keys):
                s = dataclasses.replace(s, legend=False)
            if s.legend:
                named.add(s.name)
            series.append(s)
        series = [s for s in series if _points(s) or s.name not in keys]  # the keys again below, once, renamed
        for name, key in keys.items():  # keys of names this panel draws, and of the markers it uses
            if name in drawn or key.marker in used:
                series.append(key)
        series = [s for s in series if _points(s) or not s.legend or s.name in drawn or s.marker in used]
        p = dataclasses.replace(p, yticks=_tick_labels(fig, p))
        base = stem = fig.stem if len(fig.panels) == 1 else f"{fig.stem}-{slug(p.title)}"
        n = 1
        while stem in seen:  # panels of one title (the report's chunks of ten representations): -2, -3
            n += 1
            stem = f"{base}-{n}"
        seen.add(stem)
        out.append(dataclasses.replace(fig, stem=stem, panels=[dataclasses.replace(p, series=series)], ncols=1))
    return out


def height_inches(fig: Figure, style) -> float:
    """The height of fig's static copy at the style (as draw.to_matplotlib lays it out)."""
    f = for_paper(fig, style)
    title = fit_text(f.title, f.width - 20, FONT + 2)
    f = dataclasses.replace(f, title_h=8 + 20 * (title.count("\n") + 1))
    _, height = f.geometry()
    return height * (style.width_in * 72 / f.width if style.width_in else style.pt_per_px()) / 72


def _groups(fig: Figure, order: list) -> list:
    """The representations a one-panel figure draws, in order: the parts its series can be cut into."""
    drawn = {s.name for s in fig.panels[0].series if _points(s)}
    return [n for n in order if n in drawn]


def _part(fig: Figure, names: list, order: list, rows=None) -> Figure:
    """fig's panel with only the series of representations `names` (and what every part shares:
    fronts, reference lines, the marker keys of the markers it still uses); rows: of a categorical
    axis, only the points on these rows (positions)."""
    p = fig.panels[0]
    others = set(order) - set(names)
    series = [s for s in p.series if s.name not in others]
    if rows is not None:
        keep_rows = {float(y) for y in rows}

        def cut(s):
            if not _points(s):
                return s
            k_ = np.array([float(y) in keep_rows for y in np.ravel(s.y)], dtype=bool)
            pick = (lambda v: None if v is None else tuple(np.asarray(e)[k_] for e in v))
            items = (lambda v: None if v is None or isinstance(v, str) else [t for t, keep in zip(v, k_) if keep])
            return dataclasses.replace(s, x=np.asarray(s.x)[k_], y=np.asarray(s.y)[k_], xerr=pick(s.xerr),
                                       yerr=pick(s.yerr), hover=items(s.hover), labels=items(s.labels),
                                       static_labels=items(s.static_labels), label_keep=items(s.label_keep),
                                       marker=s.marker if isinstance(s.marker, str) else items(s.marker),
                                       size=s.size if np.isscalar(s.size) else items(s.size))
        series = [c for s, c in zip(series, map(cut, series)) if not _points(s) or _points(c)]
    used = {m for s in series if _points(s) and s.kind == "markers"
            for m in ([s.marker] if isinstance(s.marker, str) else s.marker)}
    drawn = {s.name for s in series if _points(s)}
    series = [s for s in series if _points(s) or not s.legend or s.name in drawn or s.marker in used]
    yticks = p.yticks
    if yticks is not None:  # a categorical axis: only the rows this part draws, numbered again in order
        kept = sorted({float(y) for s in series if _points(s) for y in np.ravel(s.y)})
        at = {y: i for i, y in enumerate(kept)}
        names_at = dict(zip((float(v) for v in yticks[0]), yticks[1]))
        series = [dataclasses.replace(s, y=np.array([at[float(y)] for y in np.ravel(s.y)])) if _points(s) else s
                  for s in series]
        yticks = (list(range(len(kept))), [names_at.get(y, "") for y in kept])
    return dataclasses.replace(fig, panels=[dataclasses.replace(p, series=series, yticks=yticks)])


def _fits(fig: Figure, style, max_in: float) -> bool:
    """fig is at most max_in tall, and a categorical axis has room for its rows' names."""
    if height_inches(fig, style) > max_in:
        return False
    p = fig.panels[0]
    if p.yticks is None:
        return True
    need = len(p.yticks[1]) * max([str(t).count("\n") + 1 for t in p.yticks[1]] or [1]) * TICK_LINE
    return need <= for_paper(fig, style).panel_h


def fit_column(fig: Figure, style, order: list, max_in: float) -> list:
    """A one-panel figure as files of at most max_in inches: as it is; else with a smaller panel
    (down to 200 px); else cut into two parts of half its representations (one representation's
    rows of a categorical axis: half its rows) each, each fitted the same way. Parts are titled
    (k/n) and written as STEM-k."""
    out = []
    for piece in _by_facet(fig, order):
        parts = _fit(piece, style, order, max_in)
        out.extend(parts if len(parts) == 1 else [dataclasses.replace(f, stem=f"{piece.stem}-{k}", panels=[
            dataclasses.replace(f.panels[0], title=f"{piece.panels[0].title} ({k}/{len(parts)})")])
            for k, f in enumerate(parts, 1)])
    return out


def _facet_of(label: str) -> str:
    """The facet a category's name ends with ('plain map', 'terrain X', 'r=0.5'), '' without one."""
    from navbench.compare import facet_part
    last = str(label).split(" · ")[-1]
    return last if " · " in str(label) and facet_part(last) else ""


def _by_facet(fig: Figure, order: list) -> list:
    """A categorical panel whose rows are of several facets (the path-quality dot plot of plain and
    weighted maps) as one figure per facet, the facet in its title and out of its rows' names;
    other figures as they are."""
    p = fig.panels[0]
    if p.yticks is None:
        return [fig]
    facets = [_facet_of(t) for t in p.yticks[1]]
    if len(set(facets)) < 2:
        return [fig]
    out = []
    for facet in dict.fromkeys(facets):
        rows = [pos for pos, f in zip(p.yticks[0], facets) if f == facet]
        part = _part(fig, _groups(fig, order), order, rows=rows)
        q = part.panels[0]
        names = [str(t)[:-len(" · " + facet)] if facet and str(t).endswith(" · " + facet) else t for t in q.yticks[1]]
        out.append(dataclasses.replace(part, stem=f"{fig.stem}-{slug(facet or 'other')}", panels=[dataclasses.replace(
            q, title=f"{q.title} — {facet}" if facet else q.title, yticks=(q.yticks[0], names))]))
    return out


def _fit(fig: Figure, style, order: list, max_in: float) -> list:
    fig = dataclasses.replace(fig, legend_font=LEGEND_FONT)
    p = fig.panels[0]
    if p.yticks is not None:
        fig = dataclasses.replace(fig, panels=[dataclasses.replace(
            p, yticks=(p.yticks[0], [short_tick(t, order) for t in p.yticks[1]]))])
    if _fits(fig, style, max_in):
        return [fig]
    for h in range(fig.panel_h - 20, 199, -20):
        small = dataclasses.replace(fig, panel_h=h)
        if _fits(small, style, max_in):
            return [small]
    groups = _groups(fig, order)
    if len(groups) < 2:
        p = fig.panels[0]
        if p.yticks is not None and len(p.yticks[0]) > 1:  # one representation's many rows: half of them a file
            pos = sorted(float(v) for v in p.yticks[0])
            half = len(pos) // 2
            parts = [_part(fig, groups, order, rows=pos[half:]), _part(fig, groups, order, rows=pos[:half])]
            return [f for part in parts for f in _fit(part, style, order, max_in)]
        return [dataclasses.replace(fig, panel_h=MIN_PANEL)]
    half = (len(groups) + 1) // 2
    parts = [_part(fig, groups[:half], order), _part(fig, groups[half:], order)]
    return [f for part in parts for f in _fit(part, style, order, max_in)]


def paper_figures(figures: list, style, order: list, max_in: float | None) -> list:
    """The report's figures for a paper (module docstring): distinct markers always; with max_in
    (one column), one panel per file within max_in inches."""
    out = []
    for fig in figures:
        fig = distinct_markers(fig, order)
        if max_in is None:
            out.append(fig)
            continue
        for one in split_panels(fig):
            out.extend(fit_column(one, style, order, max_in))
    return out
