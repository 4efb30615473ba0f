#!/usr/bin/python3
"""navbench is citable (ctest docs_version): one version everywhere, the commit beside it, the licence.

- CMakeLists.txt's project(VERSION) is the version of CITATION.cff, python/pyproject.toml and
  navbench.__version__, and the one `navbench --version` prints, with the commit of the checkout
  (git rev-parse HEAD) and "uncommitted changes" exactly when `git status` shows some;
- a run's meta.json records the same version and commit;
- CITATION.cff has its title, the authors "navbench contributors" and the licence GPL-3.0-or-later,
  which LICENSE (the GPL's full text, Debian's /usr/share/common-licenses/GPL-3 where it exists) and
  README.md's licence paragraph state.

    check_version.py NAVBENCH ROOT     exit 0 pass, 1 fail
"""
import json
import os
import re
import subprocess
import sys
import tempfile

FAILS = []


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what, flush=True)
    if not cond:
        FAILS.append(what)


def read(root, name):
    with open(os.path.join(root, name), encoding="utf-8") as f:
        return f.read()


def cff(text):
    """The top-level scalars of a CITATION.cff, and its authors' names (the plain YAML it holds)."""
    import yaml
    data = yaml.safe_load(text)
    return data, [a.get("name") or f"{a.get('given-names', '')} {a.get('family-names', '')}".strip()
                  for a in data.get("authors", [])]


def main():
    navbench, root = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    m = re.search(r"^project\(navbench VERSION ([0-9.]+)", read(root, "CMakeLists.txt"), re.M)
    version = m.group(1) if m else None
    check(version is not None and version.count(".") == 2, f"CMakeLists.txt: project(navbench VERSION {version})")
    data, authors = cff(read(root, "CITATION.cff"))
    check(str(data.get("version")) == version, f"CITATION.cff version {data.get('version')}")
    check(data.get("cff-version") == "1.2.0" and data.get("title", "").startswith("navbench") and
          authors == ["navbench contributors"] and data.get("license") == "GPL-3.0-or-later",
          f"CITATION.cff: title, authors {authors}, licence {data.get('license')}")
    py = re.search(r'^version = "([^"]+)"', read(root, "python/pyproject.toml"), re.M)
    init = re.search(r'^__version__ = "([^"]+)"', read(root, "python/navbench/__init__.py"), re.M)
    check(py and init and py.group(1) == init.group(1) == version,
          f"python/pyproject.toml {py and py.group(1)}, navbench.__version__ {init and init.group(1)}")

    head = subprocess.run(["git", "-C", root, "rev-parse", "HEAD"], capture_output=True, text=True).stdout.strip()
    dirty = bool(subprocess.run(["git", "-C", root, "status", "--porcelain", "--untracked-files=no"],
                                capture_output=True, text=True).stdout.strip())
    r = subprocess.run([navbench, "--version"], capture_output=True, text=True)
    line = r.stdout.strip()
    want = f"navbench {version} (commit {head}" + (", uncommitted changes" if dirty else "") + ")"
    check(r.returncode == 0 and line == want and not r.stderr, f"navbench --version: '{line}' (want '{want}')")
    with tempfile.TemporaryDirectory(prefix="navbench-version.") as tmp:
        out = os.path.join(tmp, "run")
        subprocess.run([navbench, "run", "--map", os.path.join(root, "datasets/maps/hand/polygons.wkt"), "--rep", "visgraph",
                        "--limit", "1", "--out", out], capture_output=True, check=True)
        meta = json.load(open(out + ".meta.json"))
    check(meta.get("version") == version and meta.get("git_commit") == head and meta.get("git_dirty") == dirty,
          f"meta.json: version {meta.get('version')}, git_commit {meta.get('git_commit')}, git_dirty {meta.get('git_dirty')}")

    licence = read(root, "LICENSE")
    debian = "/usr/share/common-licenses/GPL-3"
    check(licence.lstrip().startswith("GNU GENERAL PUBLIC LICENSE") and "Version 3, 29 June 2007" in licence and
          "END OF TERMS AND CONDITIONS" in licence and (not os.path.exists(debian) or open(debian).read() == licence),
          "LICENSE: the GNU GPL version 3, full text" + (" (Debian's copy)" if os.path.exists(debian) else ""))
    readme = read(root, "README.md")
    part = readme.split("## Citing and licence", 1)[1] if "## Citing and licence" in readme else ""
    check("GPL-3.0-or-later" in part and "[LICENSE](LICENSE)" in part and "zlib" in part and "Boost Software License" in part
          and "SOURCES.md" in part, "README.md: the licence, the third-party licences and the maps' own terms")
    print(f"{len(FAILS)} check(s) failed" if FAILS else "all version checks passed")
    return 1 if FAILS else 0


if __name__ == "__main__":
    sys.exit(main())
