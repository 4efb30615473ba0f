"""Figures for papers: matplotlib settings every figure navbench writes uses (the report's
static figures, scripts/plots.py, the recipes of docs/results.md).

- Fonts are embedded as TrueType (pdf.fonttype 42, ps.fonttype 42): matplotlib's default, Type 3,
  is refused by many venues' PDF checks (`pdffonts FILE.pdf` lists the type of each font).
- The paper preset: a figure 3.4 in wide (one column of a two-column page) or 7 in (both columns)
  with 8 pt text.
"""
from __future__ import annotations

from navbench.errors import InputError

PAPER_WIDTHS = {"single": 3.4, "double": 7.0}   # inches
PAPER_FONT = 8.0                                # points
FORMATS = ("pdf", "svg", "png")


def rc(font_pt: float | None = None) -> dict:
    """matplotlib rcParams for navbench's figures: TrueType fonts in PDF and PostScript, and the
    base text size when given (use with matplotlib.rc_context)."""
    out = {"pdf.fonttype": 42, "ps.fonttype": 42}
    if font_pt:
        out.update({"font.size": font_pt, "axes.titlesize": font_pt, "axes.labelsize": font_pt,
                    "xtick.labelsize": font_pt * 0.9, "ytick.labelsize": font_pt * 0.9, "legend.fontsize": font_pt * 0.9})
    return out


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
