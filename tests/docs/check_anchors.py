#!/usr/bin/python3
"""Every pointer to a section of the docs lands (ctest docs_anchors), and the docs' index lists
every page.

- Each `FILE.md#anchor` written anywhere in the repository (code comments, strings such as the
  `--help` texts, Markdown, JSON) names a page that exists and a heading of it (GitHub's anchors,
  as check_paths.py makes them): relative to the file that writes it or to one of its folders up
  to the root (docs/measurements/*.json are rendered into docs/measurements.md);
- with NAVBENCH: the same for what the commands print: `navbench help`, `navbench CMD --help` of
  every command, and the --help of the scripts that cite the docs;
- docs/README.md links every page of docs/ (each docs/*.md).
Prints each dead pointer as FILE:LINE: pointer and exits 1 when there is one.

    check_anchors.py ROOT [NAVBENCH]
"""
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from check_paths import Checker  # noqa: E402

POINTER = re.compile(r"((?:\.\.?/)*(?:[\w.-]+/)*[\w.-]+\.md)#([\w-]+)")
SKIP = ("tests/fuzz/corpus/", "results/", "tests/scripts/data/")
SCRIPTS = ("scripts/report.py", "scripts/plots.py", "scripts/pathviz.py")


def pointers(text):
    """(line number, page, anchor) of each FILE.md#anchor in text that is not part of a URL."""
    for n, line in enumerate(text.splitlines(), 1):
        for m in POINTER.finditer(line):
            start = m.start()
            while start > 0 and not line[start - 1].isspace() and line[start - 1] not in "`'\"(<[{,;=":
                start -= 1
            if "://" in line[start:m.end()]:
                continue  # a web address (github.com/.../README.md#...): not a page of this repository
            yield n, m.group(1), m.group(2)


class Anchors(Checker):
    def resolve(self, where_dir, page):
        """The repository file a pointer names: relative to where_dir or one of its parents."""
        d = where_dir
        while True:
            rel = os.path.normpath(os.path.join(d, page))
            if not rel.startswith("..") and rel in self.fileset:
                return rel
            if not d:
                return None
            d = os.path.dirname(d)

    def check_text(self, where, where_dir, text, dead):
        for n, page, anchor in pointers(text):
            rel = self.resolve(where_dir, page)
            stem = os.path.basename(page)[:-3]
            if rel is None and stem.isupper() and not any(os.path.basename(f) == stem + ".md" for f in self.files):
                continue  # a placeholder (FILE.md#anchor), as check_paths.py reads capitals
            if rel is None:
                if not page.startswith("../"):  # beside the repository (../shared): not part of it
                    dead.append(f"{where}:{n}: {page}#{anchor} (no such page)")
            elif anchor not in self.anchors(rel):
                dead.append(f"{where}:{n}: {page}#{anchor} (no such heading in {rel})")

    def run_files(self):
        dead = []
        for rel in self.files:
            if rel.startswith(SKIP):
                continue
            try:
                with open(os.path.join(self.root, rel), encoding="utf-8") as f:
                    text = f.read()
            except (OSError, UnicodeDecodeError):
                continue
            self.check_text(rel, os.path.dirname(rel), text, dead)
        return dead


def help_texts(root, navbench):
    """(name, text) of every --help the commands and the scripts print."""
    def out(cmd):
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=120, cwd=root)
        return r.stdout + r.stderr
    top = out([navbench, "help"])
    yield "navbench help", top
    commands = re.findall(r"^  (\w+) ", top, re.M)
    for c in commands:
        yield f"navbench {c} --help", out([navbench, c, "--help"])
    navpy = os.path.join(root, "scripts", "navpy.sh")
    for s in SCRIPTS:
        yield f"{s} --help", out([navpy, os.path.join(root, s), "--help"])


def index_misses(root):
    """The pages of docs/ that docs/README.md does not link."""
    with open(os.path.join(root, "docs", "README.md"), encoding="utf-8") as f:
        linked = {os.path.normpath(t.split("#")[0]) for t in re.findall(r"\]\(([^)\s]+)\)", f.read())}
    pages = sorted(p for p in os.listdir(os.path.join(root, "docs")) if p.endswith(".md") and p != "README.md")
    return [p for p in pages if p not in linked]


def main():
    root = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", ".."))
    checker = Anchors(root)
    dead = checker.run_files()
    helps = 0
    if len(sys.argv) > 2:
        for name, text in help_texts(root, os.path.abspath(sys.argv[2])):
            helps += 1
            checker.check_text(name, "", text, dead)
    missing = index_misses(root)
    for d in dead:
        print(d)
    for p in missing:
        print(f"docs/README.md: does not list docs/{p}")
    print(f"check_anchors: {len(dead)} dead pointer(s) in {len(checker.files)} files and {helps} --help texts; "
          f"docs/README.md lists {'every page' if not missing else 'all but ' + str(len(missing)) + ' page(s)'}")
    return 1 if dead or missing else 0


if __name__ == "__main__":
    sys.exit(main())
