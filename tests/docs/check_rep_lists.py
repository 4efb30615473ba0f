#!/usr/bin/python3
"""The docs' representation lists against `navbench list` (ctest docs_rep_lists, label unit).

Each page that lists the representations marks its list with `<!-- representations -->` and
`<!-- /representations -->` (README.md, docs/architecture.md, docs/command-line.md,
docs/radius.md). Inside a marked list:
- every representation `navbench list` registers appears as a backticked name (none forgotten);
- every line that begins a table row or a list item with backticked names names only registered
  representations, smoothers (`navbench list`'s `smoothing` lines), `gppc` (an outside planner,
  not listed) or a representation's folder (algorithms/representations/<folder>/): none stale.
Prints each difference as FILE: what, exits 1 when there is one.
Usage: check_rep_lists.py NAVBENCH REPO_ROOT
"""
import os
import re
import subprocess
import sys

PAGES = ["README.md", "docs/architecture.md", "docs/command-line.md", "docs/radius.md"]
OPEN, CLOSE = "<!-- representations -->", "<!-- /representations -->"
NAME = re.compile(r"`([a-z][a-z0-9-]*)`")
LEADING = re.compile(r"^\s*(?:\||-)\s*((?:`[a-z][a-z0-9-]*`(?:\s*,\s*|\s+and\s+|\s*)?)+)")


def listed(navbench):
    out = subprocess.run([navbench, "list"], check=True, capture_output=True, text=True).stdout
    reps = [l.split()[1] for l in out.splitlines() if l.startswith("representation ")]
    smoothers = [l.split()[1] for l in out.splitlines() if l.startswith("smoothing ")]
    return reps, smoothers


def regions(text):
    """The marked lists of a page, each as its lines."""
    out, pos = [], 0
    while (start := text.find(OPEN, pos)) >= 0:
        end = text.find(CLOSE, start)
        if end < 0:
            return out + [None]
        out.append(text[start + len(OPEN):end].splitlines())
        pos = end + len(CLOSE)
    return out


def check(root, reps, smoothers):
    folders = {d for d in os.listdir(os.path.join(root, "algorithms/representations"))
               if os.path.isfile(os.path.join(root, "algorithms/representations", d, "CMakeLists.txt"))}
    allowed = set(reps) | set(smoothers) | {"gppc"} | folders
    problems = []
    for page in PAGES:
        with open(os.path.join(root, page), encoding="utf-8") as f:
            found = regions(f.read())
        if not found:
            problems.append(f"{page}: no list marked {OPEN} ... {CLOSE}")
            continue
        for lines in found:
            if lines is None:
                problems.append(f"{page}: {OPEN} without {CLOSE}")
                continue
            names = set(NAME.findall("\n".join(lines)))
            for r in reps:
                if r not in names:
                    problems.append(f"{page}: `{r}` (navbench list) missing from its representation list")
            for line in lines:
                m = LEADING.match(line)
                for n in NAME.findall(m.group(1)) if m else []:
                    if n not in allowed:
                        problems.append(f"{page}: `{n}` listed, but navbench list registers no such representation")
    return problems


def main():
    navbench, root = sys.argv[1], sys.argv[2]
    reps, smoothers = listed(navbench)
    if not reps:
        print("check_rep_lists: navbench list printed no representation")
        return 1
    problems = check(root, reps, smoothers)
    for p in problems:
        print(p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
