#!/usr/bin/python3
"""Dead-path check (ctest docs_paths, label unit): every repository path the docs and comments name
exists, and every link between docs pages lands.

Checked:
- in every *.md file: each backticked token, and each word of a C++/Python/JS/shell/CMake comment,
  whose first folder is a top-level folder of the repository (`docs/radius.md`,
  harness/bench/bench_fixture.cpp); a trailing :LINE or #anchor is dropped; a * and the
  placeholders (`scripts/sweeps/NAME.json`, `tests/test_<name>.cpp`: capitals, <...>, {...}) make a
  glob that must match a file; outputs (what .gitignore leaves out: results/, a download in
  datasets/movingai/) are excepted;
- in every *.md file: each relative link [text](target) and #anchor, against the files and the
  headings (GitHub's anchors) of the target page.
The files are those git would commit (tracked, or new and not ignored). Prints each dead path as
FILE:LINE: path and exits 1 when there is one. Usage: check_paths.py [REPO_ROOT]
"""
import glob
import os
import re
import subprocess
import sys

COMMENT_EXT = {".cpp": "c", ".hpp": "c", ".h": "c", ".js": "c", ".py": "hash", ".sh": "hash"}
WORD = r"[A-Za-z0-9_.*<>{}/:#-]+"


def repo_files(root):
    try:
        out = subprocess.run(["git", "-C", root, "ls-files", "--cached", "--others", "--exclude-standard"],
                             check=True, capture_output=True, text=True).stdout
        return sorted(f for f in set(out.splitlines()) if os.path.exists(os.path.join(root, f)))
    except (OSError, subprocess.CalledProcessError):
        found = []
        for d, dirs, files in os.walk(root):
            dirs[:] = [x for x in dirs if not x.startswith((".git", "build", "results"))]
            found += [os.path.relpath(os.path.join(d, f), root) for f in files]
        return sorted(found)


def comment_kind(path, root):
    name = os.path.basename(path)
    if name == "CMakeLists.txt":
        return "hash"
    ext = os.path.splitext(name)[1]
    if ext in COMMENT_EXT:
        return COMMENT_EXT[ext]
    if ext == "":
        try:
            with open(os.path.join(root, path), "rb") as f:
                first = f.readline()
        except OSError:
            return None
        if first.startswith(b"#!") and (b"sh" in first or b"python" in first):
            return "hash"
    return None


def comments(text, kind):
    """(line number, comment text) of each line that holds a comment."""
    out, in_block = [], False
    for n, line in enumerate(text.splitlines(), 1):
        s = line.strip()
        if kind == "hash":
            if s.startswith("#") and not s.startswith("#!"):
                out.append((n, s[1:]))
            elif " # " in line:
                out.append((n, line.split(" # ", 1)[1]))
            continue
        if in_block:
            out.append((n, line))
            in_block = "*/" not in line
            continue
        m = re.search(r"(?<![:\"'])//(.*)$", line)
        if m:
            out.append((n, m.group(1)))
        elif s.startswith("/*"):
            out.append((n, s))
            in_block = "*/" not in s
    return out


def as_glob(token):
    """The token with its placeholders (<name>, {a,b}, NAME in capitals) as *."""
    token = re.sub(r"<[^>]*>|\{[^}]*\}", "*", token)
    return re.sub(r"(?<![A-Za-z0-9])[A-Z][A-Z0-9_]*(?![a-z])",
                  lambda m: m.group(0) if m.group(0) in ("README", "CMakeLists") else "*", token)


class Checker:
    def __init__(self, root):
        self.root = root
        self.files = repo_files(root)
        self.fileset = set(self.files)
        self.dirs = {os.path.dirname(f) for f in self.files}
        for d in list(self.dirs):
            while d:
                self.dirs.add(d)
                d = os.path.dirname(d)
        self.top = {d for d in self.dirs if "/" not in d and d} - {"results"}
        self.dead = []
        self.anchor_cache = {}

    def exists(self, rel):
        rel = os.path.normpath(rel)
        return rel in self.fileset or rel in self.dirs

    def check_token(self, where, token):
        token = token.strip().rstrip(".,;:)'\"").lstrip("('\"")
        token = re.sub(r"(:\d+(-\d+)?)+$", "", token).split("#", 1)[0].rstrip("/")
        if "/" not in token or token.split("/", 1)[0] not in self.top or "//" in token:
            return
        pattern = as_glob(token)
        if "*" in pattern:
            if not glob.glob(os.path.join(self.root, pattern)):
                self.dead.append((where, token, pattern))
        elif not self.exists(token):
            self.dead.append((where, token, token))

    def anchors(self, rel):
        if rel not in self.anchor_cache:
            seen, found = {}, set()
            with open(os.path.join(self.root, rel), encoding="utf-8") as f:
                text = f.read()
            text = re.sub(r"^```.*?^```", "", text, flags=re.S | re.M)
            for m in re.finditer(r"^#{1,6}\s+(.*?)\s*#*\s*$", text, re.M):
                h = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", m.group(1))
                slug = re.sub(r"[^\w\- ]", "", h.replace("\\", "").lower()).replace(" ", "-")
                k = seen.get(slug, 0)
                seen[slug] = k + 1
                found.add(slug if k == 0 else f"{slug}-{k}")
            found |= set(re.findall(r"<a\s+(?:id|name)=\"([^\"]+)\"", text))
            self.anchor_cache[rel] = found
        return self.anchor_cache[rel]

    def check_link(self, where, page, target):
        if re.match(r"^[a-z][a-z0-9+.-]*:", target) or target.startswith("//"):
            return
        path, _, anchor = target.partition("#")
        rel = os.path.normpath(os.path.join(os.path.dirname(page), path)) if path else page
        if rel.startswith(".."):
            return  # beside the repository (../shared): not part of it
        if not self.exists(rel):
            self.dead.append((where, "link " + target, None))
        elif anchor and rel.endswith(".md") and anchor not in self.anchors(rel):
            self.dead.append((where, f"link {target} (no such heading)", None))

    def check_markdown(self, rel, text):
        fence = False
        for n, line in enumerate(text.splitlines(), 1):
            if line.lstrip().startswith("```"):
                fence = not fence
                continue
            where = f"{rel}:{n}"
            if fence:
                continue
            for tok in re.findall(r"`([^`]+)`", line):
                for word in tok.split():
                    self.check_token(where, word)
            for target in re.findall(r"\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)", line):
                self.check_link(where, rel, target)

    def run(self):
        for rel in self.files:
            full = os.path.join(self.root, rel)
            if rel.startswith(("results/", "tests/fuzz/corpus/", "tests/scripts/data/")):
                continue
            kind = "md" if rel.endswith(".md") else comment_kind(rel, self.root)
            if kind is None:
                continue
            try:
                with open(full, encoding="utf-8") as f:
                    text = f.read()
            except (OSError, UnicodeDecodeError):
                continue
            if kind == "md":
                self.check_markdown(rel, text)
                continue
            for n, c in comments(text, kind):
                for word in re.findall(WORD, c.replace("`", " ")):
                    self.check_token(f"{rel}:{n}", word)
        return [f"{w}: {t}" for w, t, path in self.dead if path is None or not self.ignored(path)]

    def ignored(self, path):
        """Outputs: paths .gitignore leaves out (results/, a download in datasets/movingai/)."""
        path = path.split("*")[0].rstrip("/")
        return any(subprocess.run(["git", "-C", self.root, "check-ignore", "-q", "--no-index", p],
                                  capture_output=True).returncode == 0 for p in (path, path + "/x"))


def main():
    root = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", ".."))
    dead = Checker(root).run()
    for d in dead:
        print(d)
    print(f"check_paths: {len(dead)} dead path(s)" if dead else "check_paths: every path and link exists")
    return 1 if dead else 0


if __name__ == "__main__":
    sys.exit(main())
