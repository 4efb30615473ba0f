"""What a section of the report gives the page (page.py lays them out; the sections are listed
there): a Section with an id, a title, its name in the index, and blocks of HTML and figures. A
section builds numbers it alone shows and its figures from the analysis; the page saves every
figure (SVG and PDF for papers) and puts each where its block says. Not a section itself."""
from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Block:
    """pre, then the figure as an interactive chart with its caption (when there is one) and html
    inside its <figure> (html alone without a figure), then post."""
    figure: object = None      # figures.draw.Figure or None
    html: str = ""
    pre: str = ""
    post: str = ""


@dataclass
class Section:
    id: str                    # the HTML id the index links to
    title: str
    nav: str                   # its name in the sticky index
    blocks: list = field(default_factory=list)
    open: bool = False         # shown unfolded (a long section folds: <details>)
    files: list = field(default_factory=list)  # (source, path inside the report folder) to copy

    def figures(self) -> list:
        return [b.figure for b in self.blocks if b.figure is not None]


@dataclass
class Context:
    """What the sections read: the analysis and the command line's other inputs."""
    analysis: object
    inputs: list = field(default_factory=list)      # the result sets named (their folders hold paths/)
    map_dirs: list = field(default_factory=list)    # --maps: map files or folders, for the map sizes
    path_dirs: list = field(default_factory=list)   # --paths-dir: folders of path pictures
    compare: object = None                          # (Analysis B, name A, name B) with --compare


def nothing_to_draw(section: Section) -> Section:
    """A section that has no figure says so."""
    if not section.blocks:
        section.blocks.append(Block(html="<p class='note'>Nothing to draw (see Missing data).</p>"))
    return section
