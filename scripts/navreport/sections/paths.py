"""Section "Path pictures": the PNGs found in the results folder's paths/ directory (or --paths-dir),
grouped by map, click to enlarge; the page copies them into the report's paths/."""
from __future__ import annotations

import glob
import os
import re

from navreport.analysis.fmt import esc
from navreport.io import results as common
from navreport.sections.base import Block, Section


def build(ctx) -> list:
    pics = find_path_pictures(ctx.inputs, list(ctx.path_dirs))
    return [Section(id="paths", title="Path pictures", nav="Paths", blocks=[Block(html=paths_html(pics))],
                    files=[(p, os.path.join("paths", os.path.basename(p))) for p in pics])]


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


def paths_html(pics: list) -> str:
    if not pics:
        return ("<p class='note'>No path pictures in the results folder's paths/ directory (draw them with "
                "scripts/pathviz.py --scen-index auto, see results/README.md).</p>")
    groups = {}
    for p in pics:
        name = os.path.basename(p)
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
