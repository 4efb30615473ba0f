"""Figures for papers: the matplotlib settings and the colours and markers every figure navbench
writes uses (the report's static figures, scripts/plots.py, the recipes of docs/results.md), for a
reader's own figures too (docs/results.md#figures-for-papers).

- Fonts are embedded as TrueType (pdf.fonttype 42, ps.fonttype 42): matplotlib's default, Type 3,
  is refused by many venues' PDF checks (`pdffonts FILE.pdf` lists the type of each font).
- The paper preset: a figure 3.4 in wide (one column of a two-column page) or 7 in (both columns)
  with 8 pt text; scripts/plots.py --paper single keeps each file within PAPER_MAX_HEIGHT.
- Every configuration drawn distinct, however many: `colours(names)` gives each name its own
  colour (COLOURS, then further hues: never one given before), `markers(names)` its own marker
  shape (MARKERS; they repeat after 12), `styles(names)` both: a (colour, marker) pair no other
  name has, its shape differing from every other's while there are at most 12 names.

    from navbench import style
    with matplotlib.rc_context(style.rc(style.PAPER_FONT)):
        fig, ax = plt.subplots(figsize=(style.PAPER_WIDTHS["single"], 2.6))
        for name, (colour, marker) in style.styles(names).items():
            ax.plot(x[name], y[name], color=colour, marker=marker, label=name)
"""
from __future__ import annotations

from navbench.errors import InputError

PAPER_WIDTHS = {"single": 3.4, "double": 7.0}   # inches
PAPER_MAX_HEIGHT = {"single": 4.0}              # inches: --paper single, one panel per file
PAPER_FONT = 8.0                                # points
FORMATS = ("pdf", "svg", "png")

# Tableau 10, then the darker tones of matplotlib's tab20b/tab20c: 20 colours told apart in print.
COLOURS = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f",
           "#bcbd22", "#17becf", "#393b79", "#637939", "#8c6d31", "#843c39", "#7b4173", "#3182bd",
           "#e6550d", "#31a354", "#756bb1", "#636363"]
# Marker shapes, matplotlib's names with plotly's (the report's interactive charts) beside them.
MARKERS = [("o", "circle"), ("s", "square"), ("D", "diamond"), ("^", "triangle-up"), ("v", "triangle-down"),
           ("X", "x"), ("P", "cross"), ("*", "star"), ("<", "triangle-left"), (">", "triangle-right"),
           ("p", "pentagon"), ("h", "hexagon")]


def rc(font_pt: float | None = None) -> dict:
    """matplotlib rcParams for navbench's figures: TrueType fonts in PDF and PostScript, and the
    base text size when given (use with matplotlib.rc_context)."""
    out = {"pdf.fonttype": 42, "ps.fonttype": 42}
    if font_pt:
        out.update({"font.size": font_pt, "axes.titlesize": font_pt, "axes.labelsize": font_pt,
                    "xtick.labelsize": font_pt * 0.9, "ytick.labelsize": font_pt * 0.9, "legend.fontsize": font_pt * 0.9})
    return out


def colour(i: int) -> str:
    """The i-th colour: COLOURS, then hues spaced by the golden angle at two lightnesses (never a
    colour given before)."""
    if i < len(COLOURS):
        return COLOURS[i]
    import colorsys
    k = i - len(COLOURS)
    h = (0.07 + k * 0.618034) % 1.0
    r, g, b = colorsys.hls_to_rgb(h, 0.35 if k % 2 else 0.55, 0.65)
    return "#%02x%02x%02x" % (round(r * 255), round(g * 255), round(b * 255))


def marker(i: int, plotly: bool = False) -> str:
    """The i-th marker shape (matplotlib's name, or plotly's), repeating after len(MARKERS)."""
    m = MARKERS[i % len(MARKERS)]
    return m[1] if plotly else m[0]


def colours(names) -> dict:
    """name -> its own colour, in the order given (a name given twice keeps its first)."""
    return {n: colour(i) for i, n in enumerate(dict.fromkeys(names))}


def markers(names, plotly: bool = False) -> dict:
    """name -> its own marker shape, in the order given (distinct for up to len(MARKERS) names)."""
    return {n: marker(i, plotly) for i, n in enumerate(dict.fromkeys(names))}


def styles(names, plotly: bool = False) -> dict:
    """name -> (colour, marker), in the order given: every name its own colour (colour(i)) and the
    i-th marker shape, so no two names share a pair and names next to each other differ in both."""
    return {n: (colour(i), marker(i, plotly)) for i, n in enumerate(dict.fromkeys(names))}


def width_inches(spec) -> float:
    """A figure width: 'single' (3.4 in), 'double' (7 in) or a number of inches (1 to 20)."""
    if spec in PAPER_WIDTHS:
        return PAPER_WIDTHS[spec]
    try:
        w = float(spec)
    except (TypeError, ValueError):
        raise InputError(f"--width: '{spec}' is neither single, double nor a number of inches")
    if not 1 <= w <= 20:
        raise InputError(f"--width: {w} in is outside 1..20 inches")
    return w


def formats(text: str) -> list:
    """--formats: comma-separated pdf, svg, png."""
    out = [f.strip().lower() for f in str(text).split(",") if f.strip()]
    bad = [f for f in out if f not in FORMATS]
    if bad or not out:
        raise InputError(f"--formats: unsupported format(s) {','.join(bad) or '(none)'}; use pdf,svg,png")
    return out
