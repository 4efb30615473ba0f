"""How the report draws: one description per figure (Figure, Panel, Series), drawn twice — as an
interactive plotly chart for the HTML report and as a matplotlib figure written as SVG and PDF
(and PNG) for papers. Both drawings share one pixel layout (1180 px wide unless a figure says
otherwise, legend right of the data, text >= 11 px), so what the report shows is what the paper
gets. Also the colours and the split of many series over panels that every chart shares.
"""
from __future__ import annotations

import functools
import math
import os
from dataclasses import dataclass, field

import numpy as np

from navbench import style as paper_style
from navbench.style import rc
from navreport.io import workers
from navreport.io.results import rep_label

WIDTH = 1180          # px: fits a 1280 px window with the page's margins
MARGIN = {"l": 84, "r": 250, "t": 40, "b": 62}   # px around the panels; the legend lives in "r"
GAP_X, GAP_Y = 90, 96  # px between panels (room for tick labels and panel titles)
FONT = 13             # px, base text; ticks 12, point labels 11: all >= 10 px at 100 % zoom
LABEL_FONT = 11
MAX_SERIES = 10       # per panel; more are split over facets
# navbench.style's colours (Tableau 10, then the darker tones of tab20b/tab20c) and marker shapes: a
# colour per representation that never repeats however many there are (paper_style.colour), a
# marker per search and smoothing label (smoothing_marker), so every configuration is its own pair.
PALETTE = paper_style.COLOURS
MARKERS = [plotly for _, plotly in paper_style.MARKERS]
MPL_MARKERS = {plotly: mpl for mpl, plotly in paper_style.MARKERS}
# Every search and smoothing label its own shape (docs/path-quality.md): A*'s smoothers, then Theta*,
# Lazy Theta* and Detour's query with theirs (twelve shapes, as many as navbench.style.MARKERS).
LABEL_ORDER = ("none", "los", "funnel", "theta", "theta + los", "theta + funnel", "lazy-theta", "lazy-theta + los",
               "lazy-theta + funnel", "detour", "detour + los", "detour + funnel")


def smoothing_marker(label: str) -> str:
    """The plotly marker of a search and smoothing label: distinct for every label of LABEL_ORDER
    (others after them, by name)."""
    label = str(label)
    i = LABEL_ORDER.index(label) if label in LABEL_ORDER else len(LABEL_ORDER) + sum(map(ord, label))
    return MARKERS[i % len(MARKERS)]


# --------------------------------------------------------------------------------------------
# Figure description

@dataclass
class Series:
    name: str
    x: object
    y: object
    kind: str = "markers"            # markers | lines | step
    color: str = "#1f77b4"
    marker: str = "circle"
    size: float = 8
    xerr: tuple | None = None        # (lo, hi) arrays: absolute interval ends
    yerr: tuple | None = None
    band: tuple | None = None        # (lo, hi) arrays: a shaded band under a line
    hover: list | None = None        # one text per point
    labels: list | None = None       # one label per point, placed without overlaps
    static_labels: list | None = None  # the static copy's labels when they differ (names where the page numbers points)
    label_keep: list | None = None   # per point: its label stays in a paper's crowded panel (e.g. the Pareto front)
    legend: bool = True
    marks: bool = False              # a line also drawn with its marker every few points (a paper's figure)
    dash: str | None = None          # None | dash | dot
    opacity: float = 1.0
    width: float = 2.0

    def __post_init__(self):
        self.name = rep_label(self.name)  # a planner from outside is marked in every legend and label
        if self.labels is not None:
            self.labels = [rep_label(x) for x in self.labels]
        if self.static_labels is not None:
            self.static_labels = [rep_label(x) for x in self.static_labels]

    def labels_for(self, static: bool):
        """The point labels of the page (static False) or of the static copy."""
        return self.static_labels if static and self.static_labels is not None else self.labels


@dataclass
class Panel:
    title: str
    xlabel: str
    ylabel: str
    series: list = field(default_factory=list)
    xlog: bool = False
    ylog: bool = False
    yticks: tuple | None = None      # (positions, labels): a categorical y axis
    xticks: tuple | None = None      # (positions, labels): e.g. whole thread counts
    xrange: tuple | None = None      # (lo, hi) in data units: cut the x axis (e.g. a long tail)
    note: str = ""                   # a line under the panel title


@dataclass
class Figure:
    stem: str
    title: str
    caption: str
    panels: list
    ncols: int = 1
    panel_h: int = 420
    legend_title: str = ""
    margin_l: int = MARGIN["l"]      # px left of the panels (wider for long category labels)
    width: int = WIDTH               # px: a chart beside a table is narrower
    margin_r: int = MARGIN["r"]      # px right of the panels: the legend's room
    legend_below: int = 0            # px below the panels for the legend (a paper's figure, Style), else 0
    title_h: int = 0                 # px above the panels for the figure's title (the static copies), else 0
    labels_inside: bool = False      # point labels kept inside their panel (a paper's figure: no room around it)
    legend_font: int = 12            # px, the legend's text (a one-column paper figure's is smaller)

    def geometry(self):
        """Pixel boxes (x0, y0, w, h; y from the top) of the panels, and the figure height."""
        nrows = math.ceil(len(self.panels) / self.ncols)
        pw = (self.width - self.margin_l - self.margin_r - GAP_X * (self.ncols - 1)) / self.ncols
        height = (MARGIN["t"] + MARGIN["b"] + nrows * self.panel_h + (nrows - 1) * GAP_Y + self.legend_below +
                  self.title_h)
        boxes = []
        for i in range(len(self.panels)):
            r, c = divmod(i, self.ncols)
            boxes.append((self.margin_l + c * (pw + GAP_X), MARGIN["t"] + self.title_h + r * (self.panel_h + GAP_Y), pw,
                          self.panel_h))
        return boxes, height


@dataclass
class Style:
    """How the static copies are drawn (navbench.style): by default the report's, the figure's own
    pixel layout at 100 px per inch (0.72 pt per px: 13 px text is 9.4 pt); with width_in and/or
    font_pt, a paper's: the layout redone at the width, in pixels of font_pt / FONT points, so
    that text is font_pt points at width_in inches; panels one per row (two in a figure over 6 in
    wide), the legend below them."""
    width_in: float | None = None
    font_pt: float | None = None

    def pt_per_px(self) -> float:
        return self.font_pt / FONT if self.font_pt else 0.72

    def paper(self) -> bool:
        return self.width_in is not None or self.font_pt is not None


def legend_names(fig: Figure) -> list:
    """The legend's entries, in order (one per name)."""
    names = []
    for p in fig.panels:
        for s in p.series:
            if s.legend and s.name not in names:
                names.append(s.name)
    return names


def legend_height(fig: Figure, rows: int) -> int:
    """px of a legend of `rows` rows below the panels: the report's 20 px a row (12 px text), a
    smaller legend's rows closer (legend_spacing)."""
    if fig.legend_font >= 12:
        return 30 + rows * 20 + (22 if fig.legend_title else 0)
    return 16 + rows * round(fig.legend_font * 1.45) + (round(fig.legend_font * 1.8) if fig.legend_title else 0)


def legend_spacing(fig: Figure) -> float:
    """matplotlib's labelspacing (in font sizes) that gives legend_height's rows."""
    return 0.5 if fig.legend_font >= 12 else 0.3


def legend_columns(fig: Figure, names: list) -> int:
    """Columns of a legend below the panels: as many entries of the longest name as fit the width."""
    longest = max((len(n) for n in names), default=1)
    return max(1, min(len(names), int((fig.width - 20) // (longest * fig.legend_font * 0.6 + 34))))


CROWDED = 0.25  # labels covering more than this share of a panel crowd it


def thin_labels(p: Panel, w: float, h: float) -> Panel:
    """A panel whose static labels would cover more than CROWDED of its w x h px keeps only the
    labels its series mark to keep (label_keep: the Pareto front's points); the others' points
    stay, unnamed. Other panels as they are."""
    import dataclasses
    area = sum((LABEL_FONT * 0.6 * len(t) + 10) * (LABEL_FONT * 1.25 + 6)
               for s in p.series for t in (s.labels_for(True) or []) if t)
    if area <= CROWDED * w * h or not any(s.label_keep for s in p.series):
        return p
    series = [dataclasses.replace(s, static_labels=[t if keep else "" for t, keep in zip(s.labels_for(True), s.label_keep)])
              if s.label_keep is not None and s.labels_for(True) else s for s in p.series]
    return dataclasses.replace(p, series=series)


def for_paper(fig: Figure, style: Style) -> Figure:
    """The figure laid out for a page (Style): width_in at style.pt_per_px, legend below, labels
    inside their panels and, in a crowded panel, only those marked to keep (thin_labels)."""
    import dataclasses
    if not style.paper():
        return fig
    k = style.pt_per_px()
    width = int(round((style.width_in or fig.width * 0.72 / 72) * 72 / k))
    ncols = 1 if width * k < 6 * 72 else min(fig.ncols, 2)
    margin_r = 16
    # A categorical axis's names may take half the width, and its panel the height of its rows, each as
    # tall as the longest name's lines (14 px a line): in one column its rows' names are the figure.
    rows = max((len(p.yticks[1]) * max([str(t).count("\n") + 1 for t in p.yticks[1]] or [1])
                for p in fig.panels if p.yticks is not None), default=0)
    margin_l = min(fig.margin_l, width // 2 if rows else width // 3)
    pw = (width - margin_l - margin_r - GAP_X * (ncols - 1)) / ncols
    out = dataclasses.replace(fig, width=width, ncols=ncols, margin_r=margin_r, margin_l=margin_l,
                              panel_h=int(max(150, min(fig.panel_h, max(pw * 0.75, 14 * rows)))))
    names = legend_names(out)
    if names:
        rows = math.ceil(len(names) / legend_columns(out, names))
        out.legend_below = legend_height(out, rows)
    boxes, _ = out.geometry()
    out.panels = [thin_labels(p, b[2], b[3]) for p, b in zip(out.panels, boxes)]
    out.labels_inside = True
    return out


def log_wanted(values) -> bool:
    """Log axis when the positive values span more than two decades."""
    v = np.asarray(values, dtype=float).ravel()  # None -> NaN
    v = v[np.isfinite(v) & (v > 0)]
    return len(v) > 1 and v.max() / v.min() > 100


def _range(values, log: bool, pad=0.06):
    v = np.asarray([x for x in values if x is not None and np.isfinite(x) and (x > 0 or not log)], dtype=float)
    if len(v) == 0:
        return (0, 1) if not log else (0, 1)
    if log:
        lo, hi = math.log10(v.min()), math.log10(v.max())
    else:
        lo, hi = float(v.min()), float(v.max())
    span = hi - lo or (abs(hi) * 0.2 if hi else 1.0)
    return lo - pad * span, hi + pad * span


def panel_ranges(p: Panel):
    """Axis ranges (in axis units: log10 for log axes) that hold every point, interval and band."""
    xs, ys = [], []
    for s in p.series:
        xs.extend(np.ravel(s.x).tolist())
        ys.extend(np.ravel(s.y).tolist())
        for e, acc in ((s.xerr, xs), (s.yerr, ys), (s.band, ys)):
            if e is not None:
                acc.extend(np.ravel(e[0]).tolist())
                acc.extend(np.ravel(e[1]).tolist())
    xs = [x for x in xs if x is not None]
    ys = [y for y in ys if y is not None]
    xr = _range(xs, p.xlog)
    if p.xrange is not None:
        xr = tuple(math.log10(v) for v in p.xrange) if p.xlog else tuple(p.xrange)
    return xr, _range(ys, p.ylog, pad=0.08)


# --------------------------------------------------------------------------------------------
# Labels without overlaps

def place_labels(px, py, labels, box_w, box_h, font=LABEL_FONT, marker_r=7, outside_cost=2):
    """Greedy placement of point labels in pixel space (y down): for each point, the first of a
    ring of candidate offsets, growing outwards, whose text box overlaps no marker, no label
    placed before and stays inside the panel. Returns (dx, dy) per label: the offset of the
    label's centre from its point. Long labels and crowded points are placed first."""
    n = len(labels)
    char_w = font * 0.6  # a little wider than the font's mean advance, and 2 px of room each side:
    sizes = [(char_w * len(t) + 10, font * 1.25 + 6) for t in labels]  # the browser's boxes are a bit larger
    markers = [(px[i] - marker_r, py[i] - marker_r, px[i] + marker_r, py[i] + marker_r) for i in range(n)]

    # Every candidate box of a label is tested at once (numpy): the same boxes, costs and choice (the
    # first of the lowest cost) as testing them one by one, which took ~20 s of the default job's report.
    marker_arr = np.array(markers, dtype=float).reshape(-1, 4)
    placed = np.empty((n, 4))
    n_placed = 0
    cos24 = np.array([math.cos(2 * math.pi * k / 24) for k in range(24)])
    sin24 = np.array([math.sin(2 * math.pi * k / 24) for k in range(24)])
    rings = (0, 1, 2, 3, 4, 5, 6, 8, 10, 12, 14, 17, 20, 24, 28, 33, 40)  # (the far rings: crowded panels)
    ring_d = np.array([r * 12 + 4 for r in rings], dtype=float)

    def hits(cand, others):
        """How many of others each candidate box overlaps (touching edges do not)."""
        if not len(others):
            return np.zeros(len(cand))
        c, o = cand[:, None, :], others[None, :, :]
        inside = (c[..., 2] > o[..., 0]) & (o[..., 2] > c[..., 0]) & (c[..., 3] > o[..., 1]) & (o[..., 3] > c[..., 1])
        return np.count_nonzero(inside, axis=1)

    out = [(0.0, 0.0)] * n
    order = sorted(range(n), key=lambda i: -sum(1 for j in range(n) if abs(px[j] - px[i]) + abs(py[j] - py[i]) < 60))
    for i in order:
        if not labels[i]:  # an unnamed point: only a marker the labels avoid
            continue
        w, h = sizes[i]
        # Label sits beside the point: its near edge d px away along the direction, 24 directions per
        # ring; the rings are searched outwards until one holds a box of cost below 1 (nothing hit).
        cx = px[i] + (cos24[None, :] * (ring_d[:, None] + w / 2)).ravel()
        cy = py[i] - (sin24[None, :] * (ring_d[:, None] + h / 2)).ravel()
        cand = np.stack([cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2], axis=1)
        c = hits(cand, marker_arr) + 3.0 * hits(cand, placed[:n_placed])
        outside = (cand[:, 0] < 0) | (cand[:, 1] < 0) | (cand[:, 2] > box_w) | (cand[:, 3] > box_h)
        c = c + np.where(outside, float(outside_cost), 0.0) + 0.001 * np.repeat(ring_d, 24)
        free = np.flatnonzero(c < 1)
        last = (free[0] // 24 + 1) * 24 if len(free) else len(c)  # the end of the first ring with a free box
        k = int(np.argmin(c[:last]))
        best = (float(cx[k]) - px[i], float(cy[k]) - py[i], cand[k])
        placed[n_placed] = best[2]
        n_placed += 1
        out[i] = (best[0], best[1])
    return out


def label_offsets(fig: Figure, static: bool = False):
    """{(panel index, series index): [(dx, dy) px]} for every series that has labels (the static
    copy's labels when static)."""
    boxes, _ = fig.geometry()
    res = {}
    for pi, p in enumerate(fig.panels):
        (x0, x1), (y0, y1) = panel_ranges(p)
        _, _, w, h = boxes[pi]
        pts, owners = [], []
        for si, s in enumerate(p.series):
            if not s.labels_for(static) and not any(q.labels_for(static) for q in p.series):
                continue
            if s.kind != "markers":
                continue
            # The markers of unnamed series count too: labels keep off them (their label is "").
            for k, (x, y) in enumerate(zip(s.x, s.y)):
                if (p.xlog and x <= 0) or (p.ylog and y <= 0) or not (math.isfinite(x) and math.isfinite(y)):
                    continue
                xv = math.log10(x) if p.xlog else x
                yv = math.log10(y) if p.ylog else y
                names = s.labels_for(static)
                pts.append(((xv - x0) / (x1 - x0) * w, h - (yv - y0) / (y1 - y0) * h, names[k] if names else ""))
                owners.append((si, k))
        if not pts:
            continue
        offs = place_labels([q[0] for q in pts], [q[1] for q in pts], [q[2] for q in pts], w, h,
                            outside_cost=8 if fig.labels_inside else 2)
        for (si, k), o in zip(owners, offs):
            res.setdefault((pi, si), {})[k] = o
    return res


# --------------------------------------------------------------------------------------------
# plotly

def _rgba(hex_colour: str, alpha: float) -> str:
    h = hex_colour.lstrip("#")
    return f"rgba({int(h[0:2], 16)},{int(h[2:4], 16)},{int(h[4:6], 16)},{alpha})"


@functools.lru_cache(maxsize=None)
def _plotly_template() -> dict:
    """plotly's default template as JSON: what go.Figure would put in every chart's layout."""
    import plotly.io as pio
    return pio.templates[pio.templates.default].to_plotly_json()


def to_plotly(fig: Figure) -> dict:
    """The chart as plotly's figure JSON (data, layout). Written as plain dicts: plotly's graph
    objects validate every property on construction, which took most of the page's drawing time on
    the default job (26 charts), and the JSON is the same (the default template added as go.Figure does)."""
    boxes, height = fig.geometry()
    W = fig.width
    traces, layout_axes, annotations = [], {}, []
    offsets = label_offsets(fig)
    seen_legend = set()
    for pi, p in enumerate(fig.panels):
        ax = "" if pi == 0 else str(pi + 1)
        x0, y0, w, h = boxes[pi]
        (xr0, xr1), (yr0, yr1) = panel_ranges(p)
        layout_axes[f"xaxis{ax}"] = dict(
            domain=[x0 / W, (x0 + w) / W], anchor=f"y{ax}", type="log" if p.xlog else "linear",
            range=[xr0, xr1], title=dict(text=p.xlabel, font=dict(size=FONT)), tickfont=dict(size=14 if p.xlog else 12),
            showline=True, linecolor="#444", mirror=True, gridcolor="#e5e5e5", zeroline=False)
        yax = dict(domain=[1 - (y0 + h) / height, 1 - y0 / height], anchor=f"x{ax}",
                   type="log" if p.ylog else "linear", range=[yr0, yr1],
                   title=dict(text=p.ylabel, font=dict(size=FONT)), tickfont=dict(size=14 if p.ylog else 12),
                   showline=True, linecolor="#444", mirror=True, gridcolor="#e5e5e5", zeroline=False)
        if p.yticks is not None:
            yax.update(tickmode="array", tickvals=list(p.yticks[0]), ticktext=list(p.yticks[1]))
        if p.xticks is not None:
            layout_axes[f"xaxis{ax}"].update(tickmode="array", tickvals=list(p.xticks[0]), ticktext=list(p.xticks[1]))
        layout_axes[f"yaxis{ax}"] = yax
        title = f"<b>{_html(p.title)}</b>" + (f"<br><span style='font-size:12px'>{_html(p.note)}</span>"
                                                 if p.note else "")
        annotations.append(dict(text=title, x=(x0 + w / 2) / W, y=1 - (y0 - 8) / height, xref="paper",
                                yref="paper", showarrow=False, xanchor="center", yanchor="bottom",
                                font=dict(size=FONT + 1)))
        for si, s in enumerate(p.series):
            x = list(np.ravel(s.x))
            y = list(np.ravel(s.y))
            if not x:  # a legend-only entry: plotly leaves empty traces out of the legend
                x, y = [None], [None]
            show = s.legend and s.name not in seen_legend
            if show:
                seen_legend.add(s.name)
            common_kw = dict(xaxis=f"x{ax}", yaxis=f"y{ax}", legendgroup=s.name, name=s.name)
            if s.band is not None:
                lo, hi = list(np.ravel(s.band[0])), list(np.ravel(s.band[1]))
                traces.append(dict(type="scatter", x=x, y=lo, mode="lines", line=dict(width=0, shape="linear"),
                                   showlegend=False, hoverinfo="skip", **common_kw))
                traces.append(dict(type="scatter", x=x, y=hi, mode="lines", line=dict(width=0), fill="tonexty",
                                   fillcolor=_rgba(s.color, 0.18), showlegend=False, hoverinfo="skip", **common_kw))
            kw = dict(common_kw, showlegend=show, x=x, y=y, opacity=s.opacity)
            if s.hover is not None:
                kw.update(hovertext=list(s.hover), hoverinfo="text")
            if s.kind == "markers":
                kw.update(mode="markers", marker=dict(color=s.color, symbol=s.marker if isinstance(s.marker, str)
                                                      else list(s.marker), size=s.size if np.isscalar(s.size)
                                                      else list(s.size),
                                                      line=dict(width=0.5, color="#333")))
            else:
                kw.update(mode="lines", line=dict(color=s.color, width=s.width, dash=s.dash or "solid",
                                                  shape="hv" if s.kind == "step" else "linear"))
            for key, err in (("error_x", s.xerr), ("error_y", s.yerr)):
                if err is not None:
                    vals = x if key == "error_x" else y
                    kw[key] = dict(type="data", symmetric=False, color=s.color, thickness=1.2, width=3,
                                   array=[max(0.0, b - v) for b, v in zip(np.ravel(err[1]), vals)],
                                   arrayminus=[max(0.0, v - a) for a, v in zip(np.ravel(err[0]), vals)])
            traces.append(dict(type="scatter", **kw))
            if s.labels:
                for k, (xv, yv) in enumerate(zip(x, y)):
                    dx, dy = offsets.get((pi, si), {}).get(k, (0, 0))
                    annotations.append(dict(
                        x=math.log10(xv) if p.xlog else xv, y=math.log10(yv) if p.ylog else yv,
                        xref=f"x{ax}", yref=f"y{ax}", text=_html(s.labels[k]), showarrow=True, ax=dx, ay=dy,
                        arrowhead=0, arrowwidth=0.8, arrowcolor="#888", standoff=5,
                        font=dict(size=LABEL_FONT, color="#222"), bgcolor="rgba(255,255,255,0.75)"))
    layout = dict(
        template=_plotly_template(), width=W, height=height, autosize=False, margin=dict(l=0, r=0, t=0, b=0), font=dict(size=FONT),
        plot_bgcolor="white", annotations=annotations, hovermode="closest",
        legend=dict(x=(W - fig.margin_r + 24) / W, y=1 - MARGIN["t"] / height, xanchor="left", yanchor="top",
                    font=dict(size=12), title=dict(text=fig.legend_title), tracegroupgap=2),
        **layout_axes)
    return {"data": traces, "layout": layout}


def _html(text: str) -> str:
    import html
    return html.escape(str(text))


def plotly_div(fig: Figure) -> str:
    """The chart as an HTML <div> that needs plotly.min.js loaded once by the page."""
    import plotly.io as pio
    return pio.to_html(to_plotly(fig), validate=False, full_html=False, include_plotlyjs=False,
                       config={"displaylogo": False, "responsive": False,
                              "toImageButtonOptions": {"format": "svg", "filename": fig.stem}})


# --------------------------------------------------------------------------------------------
# matplotlib

def narrow_log_ticks(ax, p: Panel, spans) -> None:
    """A log axis spanning less than a decade has no decade to label, and matplotlib labels every
    minor tick instead (they overlap): there, a few plain numbers."""
    from matplotlib.ticker import LogLocator, NullFormatter, ScalarFormatter
    for log, span, axis in ((p.xlog, spans[0], ax.xaxis), (p.ylog, spans[1], ax.yaxis)):
        if log and span < 1:
            axis.set_major_locator(LogLocator(subs=(1.0, 2.0, 3.0, 5.0)))
            axis.set_major_formatter(ScalarFormatter())
            axis.set_minor_formatter(NullFormatter())


def fit_text(text: str, width_px: float, font_px: float) -> str:
    """text wrapped at spaces into lines that fit width_px (a narrow paper figure's titles and axis
    labels; a page's fit on one line and are returned as they are)."""
    import textwrap
    chars = max(12, int(width_px / (font_px * 0.56)))
    return text if len(text) <= chars else "\n".join(textwrap.wrap(text, chars))


def to_matplotlib(fig: Figure, style: Style | None = None):
    """The figure drawn by matplotlib (fig laid out for the style first: for_paper)."""
    import matplotlib.pyplot as plt
    import dataclasses
    style = style or Style()
    fig = for_paper(fig, style)
    title = fit_text(fig.title, fig.width - 20, FONT + 2)  # a file alone says what it shows (and of which subset)
    fig = dataclasses.replace(fig, title_h=8 + 20 * (title.count("\n") + 1))
    boxes, height = fig.geometry()
    W = fig.width
    # px -> points: a paper's figure is exactly width_in wide (its layout width was rounded to whole px)
    pt = style.width_in * 72 / W if style.width_in else style.pt_per_px()
    dpi = 72 / pt  # one layout pixel per figure pixel at this dpi (PNG)
    mfig = plt.figure(figsize=(W * pt / 72, height * pt / 72), dpi=dpi)
    offsets = label_offsets(fig, static=True)
    handles, names = [], []
    for pi, p in enumerate(fig.panels):
        x0, y0, w, h = boxes[pi]
        ax = mfig.add_axes([x0 / W, 1 - (y0 + h) / height, w / W, h / height])
        (xr0, xr1), (yr0, yr1) = panel_ranges(p)
        if p.xlog:
            ax.set_xscale("log")
            ax.set_xlim(10 ** xr0, 10 ** xr1)
        else:
            ax.set_xlim(xr0, xr1)
        if p.ylog:
            ax.set_yscale("log")
            ax.set_ylim(10 ** yr0, 10 ** yr1)
        else:
            ax.set_ylim(yr0, yr1)
        if p.yticks is not None:
            ax.set_yticks(list(p.yticks[0]))
            ax.set_yticklabels(list(p.yticks[1]))
        if p.xticks is not None:
            ax.set_xticks(list(p.xticks[0]))
            ax.set_xticklabels(list(p.xticks[1]))
        ax.set_xlabel(fit_text(p.xlabel, w, FONT), fontsize=FONT * pt)
        ax.set_ylabel(fit_text(p.ylabel, h, FONT), fontsize=FONT * pt)
        ax.tick_params(which="both", labelsize=12 * pt)
        narrow_log_ticks(ax, p, (xr1 - xr0, yr1 - yr0))
        ax.grid(True, which="major", color="#e5e5e5", linewidth=0.6)
        ax.set_axisbelow(True)
        ax.set_title(fit_text(p.title, w + GAP_X // 2, FONT + 1) + (f"\n{fit_text(p.note, w + GAP_X // 2, FONT + 1)}"
                                                                  if p.note else ""), fontsize=(FONT + 1) * pt)
        for si, s in enumerate(p.series):
            x = np.asarray(np.ravel(s.x), dtype=float)
            y = np.asarray(np.ravel(s.y), dtype=float)
            if s.band is not None:
                ax.fill_between(x, np.ravel(s.band[0]), np.ravel(s.band[1]), color=s.color, alpha=0.18,
                                linewidth=0)
            if s.kind == "markers":
                mk = [s.marker] * len(x) if isinstance(s.marker, str) else list(s.marker)
                sz = [s.size] * len(x) if np.isscalar(s.size) else list(s.size)
                art = ax.scatter([], [], s=(8 * pt * 1.3) ** 2, color=s.color, edgecolors="#333", linewidths=0.4,
                                 marker=MPL_MARKERS.get(mk[0] if mk else s.marker, "o"))
                for m_ in sorted(set(mk)):  # matplotlib takes one marker shape per call
                    k_ = [i for i in range(len(x)) if mk[i] == m_]
                    ax.scatter(x[k_], y[k_], s=[(sz[i] * pt * 1.3) ** 2 for i in k_], color=s.color,
                               marker=MPL_MARKERS.get(m_, "o"), edgecolors="#333", linewidths=0.4, zorder=3,
                               alpha=s.opacity, rasterized=len(x) > 3000)
            else:
                marks = {}
                if s.marks and len(x):  # the line's marker at a few points: told apart without colour
                    marks = dict(marker=MPL_MARKERS.get(s.marker, "o"), markersize=s.size * pt * 0.6,
                                 markevery=max(1, len(x) // 6), markeredgecolor="#333", markeredgewidth=0.3)
                (art,) = ax.plot(x, y, color=s.color, linewidth=s.width * pt * 1.2, alpha=s.opacity,
                                 linestyle={"dash": "--", "dot": ":"}.get(s.dash, "-"),
                                 drawstyle="steps-post" if s.kind == "step" else "default", **marks)
            if s.xerr is not None or s.yerr is not None:
                xe = None if s.xerr is None else np.vstack([np.maximum(0, x - np.ravel(s.xerr[0])),
                                                             np.maximum(0, np.ravel(s.xerr[1]) - x)])
                ye = None if s.yerr is None else np.vstack([np.maximum(0, y - np.ravel(s.yerr[0])),
                                                             np.maximum(0, np.ravel(s.yerr[1]) - y)])
                ax.errorbar(x, y, xerr=xe, yerr=ye, fmt="none", ecolor=s.color, elinewidth=0.9, capsize=2, zorder=2)
            if s.labels_for(True):
                for k in range(len(x)):
                    dx, dy = offsets.get((pi, si), {}).get(k, (0, 0))
                    ax.annotate(s.labels_for(True)[k], (x[k], y[k]), xytext=(dx * pt, -dy * pt), textcoords="offset points",
                                ha="center", va="center", fontsize=LABEL_FONT * pt,
                                bbox=dict(boxstyle="square,pad=0.1", fc="white", ec="none", alpha=0.75),
                                arrowprops=dict(arrowstyle="-", color="#888", linewidth=0.6, shrinkA=0, shrinkB=4))
            if s.legend and s.name not in names:
                names.append(s.name)
                handles.append(art)
    mfig.text(0.5, 1 - 6 / height, title, ha="center", va="top", fontsize=(FONT + 2) * pt, fontweight="bold")
    if handles and fig.legend_below:  # a paper's figure: the legend in rows under the panels
        mfig.legend(handles, names, loc="upper center", fontsize=fig.legend_font * pt, frameon=False,
                    ncol=legend_columns(fig, names), title=fig.legend_title or None, title_fontsize=fig.legend_font * pt,
                    labelspacing=legend_spacing(fig), bbox_to_anchor=(0.5, fig.legend_below / height))
    elif handles:
        mfig.legend(handles, names, loc="upper left", fontsize=12 * pt, frameon=False,
                    title=fig.legend_title or None, title_fontsize=12 * pt,
                    bbox_to_anchor=((W - fig.margin_r + 20) / W, 1 - (MARGIN["t"] + fig.title_h) / height))
    return mfig


def save_static(fig: Figure, out_dir: str, formats=("svg", "pdf"), style: Style | None = None) -> list:
    """Writes the matplotlib drawing as out_dir/<stem>.<fmt> with TrueType fonts (navbench.style.rc);
    returns the file names."""
    import matplotlib
    import matplotlib.pyplot as plt
    with matplotlib.rc_context(rc()):
        mfig = to_matplotlib(fig, style)
        names = []
        for fmt in formats:
            name = f"{fig.stem}.{fmt}"
            kw = {"metadata": {"Creator": None, "Date": None}} if fmt == "svg" else {}
            if fmt == "png" and style is not None and style.paper():
                kw["dpi"] = 300  # a page's figure is a few inches wide
            mfig.savefig(os.path.join(out_dir, name), format=fmt, **kw)
            names.append(name)
    plt.close(mfig)
    return names


def _save_static_task(task):
    fig, out_dir, formats, style = task
    return fig.stem, save_static(fig, out_dir, formats, style)


def save_static_all(figs, out_dir: str, formats=("svg", "pdf"), jobs: int | None = None, style: Style | None = None) -> dict:
    """save_static for many figures, spread over processes (one per core: matplotlib draws on one
    core, and the SVG and PDF of a report's ~20 figures are half its time; the report's workers,
    navreport/io/workers.py, when they are started). Returns stem -> names."""
    tasks = [(f, out_dir, tuple(formats), style) for f in figs]
    if jobs == 1:
        return dict(map(_save_static_task, tasks))
    return dict(workers.pool_map(_save_static_task, tasks, jobs=jobs))


# --------------------------------------------------------------------------------------------
# Colours and panels shared by every chart

def series_chunks(items: list) -> list:
    """At most MAX_SERIES per panel, the panels filled evenly (11 series: 6 + 5, not 10 + 1)."""
    k = max(1, math.ceil(len(items) / MAX_SERIES))
    size = max(1, math.ceil(len(items) / k))
    return [items[i:i + size] for i in range(0, len(items), size)] or [[]]


def run_colours(analysis) -> dict:
    """The run's colour per representation, in the order the run listed them (never one twice)."""
    return {r: paper_style.colour(i) for i, r in enumerate(analysis.reps)}


def rep_colours(analysis, reps) -> dict:
    """The run's colour per representation, new ones (only in a companion file) after them."""
    run = run_colours(analysis)
    out, k = {}, len(run)
    for r in reps:
        if r in run:
            out[r] = run[r]
        else:
            out[r] = paper_style.colour(k)
            k += 1
    return out
