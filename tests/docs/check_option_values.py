#!/usr/bin/python3
"""Help and docs that agree with the code (ctest docs_option_values, label unit): every value a
docs page (README.md, docs/*.md) gives, in code, to an option of `navbench run` with a fixed set
of values -- --search, --smoothing, --rep (names, with parameters where given), --heuristic,
--convention, --pinch -- must be

- accepted by navbench: `navbench run --map TINY [--rep grid8] OPTION VALUE` parses and passes the run's checks,
  ending at the missing --out (no map is read, no query runs); a representation on the corner
  lattice is asked with --convention corner, as it must run;
- named in that option's text of `navbench run --help` (each name of a list; a heuristic without
  its *W weight; for --rep, the representation's name), and for --rep each parameter key in
  `navbench list` (`parameter NAME KEY ...`). A planner from outside (`gppc:path=...`) is asked
  with the repository's example entry of its track in place of its program (path=), and scratch
  folders in place of its store= and log=: its keys and their values are checked by navbench.

Values in code spans and code blocks count (prose is not a value). Placeholders (capitals, `...`,
`$`, `<...>`: `--rep SPEC`, `gppc:path=P`) and the values a page gives on purpose as not navbench's
(NOT_OURS, with the reason) are left out. Before the pages, the checker is checked: a value that is
not navbench's must fail both ways. Usage: check_option_values.py NAVBENCH ROOT CLASSIC_ENTRY ANYANGLE_ENTRY. Exit 0 = pass, 1 = fail.
"""
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile

OPTIONS = ("--search", "--smoothing", "--rep", "--heuristic", "--convention", "--pinch")
# (page, option, value) -> why the page gives a value that is not navbench's.
NOT_OURS = {
    ("docs/adding-a-representation.md", "--rep", "tiles:links=2"): "the page's example representation being added",
    ("docs/adding-a-representation.md", "--rep", "tiles:links=9"): "the page's example of a value its declaration refuses",
    ("docs/measurements.md", "--rep", "swapped"): "a command's description (the two --rep options swapped), not a value",
    ("docs/command-line.md", "--rep", "prm,prm:samples=20000"): "the page's example of the comma rule's error",
}
VALUE = re.compile(r"(?<![\w-])(" + "|".join(map(re.escape, OPTIONS)) + r")(?:=|[ \t]+)([^\s`]+)")


def code_texts(text):
    """The code of a markdown page: each line of a fenced block, and each inline code span elsewhere."""
    fenced, out = False, []
    for line in text.splitlines():
        if line.lstrip().startswith("```"):
            fenced = not fenced
            continue
        if fenced:
            out.append(line)
        else:
            out.extend(re.findall(r"`([^`]+)`", line))
    return out


def doc_values(root):
    """[(page, option, value)] in page order, each once."""
    pages = [os.path.join(root, "README.md")] + sorted(glob.glob(os.path.join(root, "docs", "*.md")))
    seen, out = set(), []
    for page in pages:
        rel = os.path.relpath(page, root)
        with open(page, encoding="utf-8") as f:
            for code in code_texts(f.read()):
                for opt, value in VALUE.findall(code.replace("\\|", "|")):
                    value = value.rstrip("\\;")
                    if (rel, opt, value) not in seen:
                        seen.add((rel, opt, value))
                        out.append((rel, opt, value))
    return out


def placeholder(value):
    return bool(re.search(r"[A-Z]|\.\.\.|\$|<|\{", value))


def help_blocks(nb):
    """Option -> its text in `navbench run --help` (the line naming it and its continuation lines)."""
    text = subprocess.run([nb, "run", "--help"], capture_output=True, text=True).stdout
    blocks, current = {}, None
    for line in text.splitlines():
        s = line.strip()
        m = re.match(r"(--[\w-]+)", s)
        if m:
            current = m.group(1)
            blocks[current] = s
        elif current and s and line.startswith(" "):
            blocks[current] += " " + s
        else:
            current = None
    return blocks


def named(word, text):
    return re.search(r"(?<![\w-])" + re.escape(word) + r"(?![\w-])", text) is not None


def rep_parts(spec):
    """'navmesh:merge=1' -> [('navmesh', ['merge'])]; 'grid8,quadtree' -> [('grid8', []), ('quadtree', [])]."""
    if ":" in spec:
        name, params = spec.split(":", 1)
        return [(name, [kv.split("=", 1)[0] for kv in params.split(",") if kv])]
    return [(n, []) for n in spec.split(",") if n]


def alternatives(value):
    """'forbid|allow' -> forbid, allow; 'recast:tile=64|32' -> recast:tile=64, recast:tile=32 (the
    alternatives a page writes with |, each for the last name or value)."""
    parts = value.split("|")
    cut = max(parts[0].rfind(c) for c in "=,:") + 1
    return [parts[0]] + [parts[0][:cut] + p for p in parts[1:]]


def names_of(opt, value):
    """The names a value gives that the option's help must name."""
    if opt == "--rep":
        return [n for n, _ in rep_parts(value)]
    if opt == "--heuristic":
        return [v.split("*", 1)[0] for v in value.split(",") if v]
    return [v for v in value.split(",") if v]


def entry_spec(value, examples, scratch):
    """A gppc: value with the example entry of its track as path= and scratch folders as store= and
    log= (a placeholder track, `track=T`, as classic); None for a placeholder without keys."""
    kv = [p.split("=", 1) for p in value[5:].split(",") if "=" in p]
    if not kv:
        return None
    track = dict(kv).get("track", "classic")
    track = track if track in examples else "classic"
    swap = {"path": examples[track], "track": track, "store": os.path.join(scratch, "store"), "log": os.path.join(scratch, "log")}
    return "gppc:" + ",".join(f"{k}={swap.get(k, v)}" for k, v in kv)


class Checker:
    def __init__(self, nb, root, examples, scratch):
        self.nb, self.root, self.examples, self.scratch = nb, root, examples, scratch
        self.help = help_blocks(nb)
        listing = subprocess.run([nb, "list"], capture_output=True, text=True).stdout
        self.params = {tuple(l.split()[1:3]) for l in listing.splitlines() if l.startswith("parameter ")}
        self.map = os.path.join(root, "datasets", "maps", "hand", "two-areas.map")

    def accepted(self, opt, value):
        """'' when `navbench run` takes it, else its one-line error."""
        rep = [] if opt == "--rep" else ["--rep", "grid8"]  # a run needs one

        def ask(extra):
            p = subprocess.run([self.nb, "run", "--map", self.map, *rep, opt, value, *extra], capture_output=True, text=True)
            return p.stderr.strip()
        err = ask([])
        if "needs the corner convention" in err:
            err = ask(["--convention", "corner"])
        return "" if "needs --out" in err else (err or "ran without --out")

    def problems(self, opt, value):
        out = []
        text = self.help.get(opt, "")
        if not text:
            return [f"run --help has no {opt}"]
        if opt == "--rep" and value.startswith("gppc:"):  # its program is not here: the example entry's
            spec = entry_spec(value, self.examples, self.scratch)
            if spec is not None and (err := self.accepted(opt, spec)):
                out.append(f"navbench run refuses it (as {spec}): {err}")
            return out + ([] if named("gppc", text) else ["run --help does not name gppc under --rep"])
        for alt in alternatives(value):
            if err := self.accepted(opt, alt):
                out.append(f"navbench run refuses {alt}: {err}")
            out += [f"run --help does not name '{n}' under {opt}" for n in names_of(opt, alt) if not named(n, text)]
            if opt == "--rep":
                out += [f"navbench list has no parameter {n} {k}" for n, ks in rep_parts(alt) for k in ks
                        if (n, k) not in self.params]
        return out


def main():
    nb, root = sys.argv[1], sys.argv[2]
    scratch = tempfile.mkdtemp(prefix="navbench-options.")
    c = Checker(nb, root, {"classic": sys.argv[3], "anyangle": sys.argv[4]}, scratch)
    fails = []
    # The checker itself: a value that is not navbench's fails both checks, one that is passes.
    for opt, bad, good in (("--search", "bogus", "detour"), ("--smoothing", "bogus", "funnel"), ("--rep", "bogus:k=1", "grid8"),
                           ("--heuristic", "bogus", "octile*2"), ("--convention", "bogus", "corner"), ("--pinch", "bogus", "allow"),
                           ("--rep", "gppc:path=P,track=classic,bogus=1", "gppc:path=P,track=anyangle,name=N")):
        got = " | ".join(c.problems(opt, bad))
        both = "refuses" in got and ("does not name" in got or bad.startswith("gppc:"))  # gppc is named; its bad key is not
        if not both:
            fails.append(f"self-check: {opt} {bad} is not refused both ways: {got}")
        if c.problems(opt, good):
            fails.append(f"self-check: {opt} {good}: {c.problems(opt, good)}")
    checked = skipped = 0
    for page, opt, value in doc_values(root):
        if (page, opt, value) in NOT_OURS or placeholder(value) and not value.startswith("gppc:"):
            skipped += 1
            continue
        checked += 1
        fails += [f"{page}: {opt} {value}: {p}" for p in c.problems(opt, value)]
    shutil.rmtree(scratch, ignore_errors=True)
    for f in fails:
        print("FAIL", f)
    print(f"check_option_values: {checked} values checked, {skipped} placeholders or not navbench's left out, {len(fails)} failures")
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
