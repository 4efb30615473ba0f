"""Section "Published results": the reproductions of published tables (`navbench reproduce NAME`,
docs/reproduce.md) found beside the result sets, each as it printed its table (table.md) with a
link to its own page. Looked for in each input's folder and the folder above it (the default job
writes results/default, reproductions go to results/reproduce-NAME); the section is left out when
there are none."""
from __future__ import annotations

import glob
import json
import os

from navreport.analysis.fmt import esc
from navreport.sections.base import Block, Section


def find_reproductions(inputs: list) -> list:
    """(folder, meta config) of every reproduction folder beside the inputs, each once, by name."""
    seen, out = set(), []
    for item in inputs:
        d = item if os.path.isdir(item) else os.path.dirname(os.path.abspath(item))
        for folder in (d, os.path.dirname(os.path.abspath(d))):
            for meta in sorted(glob.glob(os.path.join(folder, "*", "meta.json")) + [os.path.join(folder, "meta.json")]):
                real = os.path.realpath(os.path.dirname(meta))
                if real in seen or not os.path.isfile(os.path.join(real, "table.md")):
                    continue
                try:
                    with open(meta, encoding="utf-8") as f:
                        config = json.load(f).get("config", {})
                except (OSError, ValueError):
                    continue
                if isinstance(config, dict) and config.get("reproduce"):
                    seen.add(real)
                    out.append((real, config))
    return out


def markdown_html(md: str) -> str:
    """The reproductions' Markdown (paragraphs and pipe tables) as HTML."""
    out, table, head = [], False, False
    for line in md.splitlines():
        if line.startswith("|"):
            if line.startswith("|---"):
                continue
            if not table:
                out.append("<table class='published'>")
                table, head = True, True
            cells = line.strip().strip("|").split("|")
            tag = "th" if head else "td"
            out.append("<tr>" + "".join(f"<{tag}>{esc(c.strip())}</{tag}>" for c in cells) + "</tr>")
            head = False
            continue
        if table:
            out.append("</table>")
            table = False
        if line.strip():
            out.append(f"<p class='small'>{esc(line)}</p>")
    if table:
        out.append("</table>")
    return "\n".join(out)


def build(ctx) -> list:
    found = find_reproductions(ctx.inputs)
    if not found:
        return []
    blocks = [Block(html="<p class='lead'>What <code>navbench reproduce NAME</code> printed (docs/reproduce.md): "
                         "navbench under each publication's conventions (lattice, squeeze rule, query points) beside "
                         "the published figures. Each folder holds the per-query numbers, meta.json and its own page.</p>")]
    for folder, config in found:
        with open(os.path.join(folder, "table.md"), encoding="utf-8") as f:
            md = f.read()
        name = str(config.get("reproduce"))
        blocks.append(Block(html=f"<h3 id='published-{esc(name)}'>{esc(name)}</h3>"
                                 f"<p class='small'>{esc(folder)}/index.html</p>" + markdown_html(md)))
    return [Section(id="published", title="Published results", nav="Published", blocks=blocks)]
