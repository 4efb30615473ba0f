#!/usr/bin/env python3
"""The report package's imports (scripts/navreport/, docs in its __init__.py), read with ast, no
module run: the graph of which navreport module imports which

  - has no circle (Tarjan's strongly connected components: each must be one module without a
    self-import);
  - points one way through the layers io -> analysis -> figures -> sections -> the page and the
    command lines (navreport/page.py, report.py, plots.py): a module imports only its own layer
    and the layers before it;
  - lists the sections in one place: only navreport/page.py imports a section module (a module of
    sections/ other than base.py), and no section imports another;

and no script of scripts/ or module of the package touches sys.path. Then every module is
imported alone, each in a fresh interpreter (python -c 'import navreport.X').

    test_imports.py [PACKAGE_DIR]     (default: scripts/navreport next to this test)
Exit 0 = pass, 1 = fail."""
import ast
import os
import subprocess
import sys

here = os.path.dirname(os.path.abspath(__file__))
LAYERS = ["io", "analysis", "figures", "sections", "entry"]
ENTRY = {"navreport.page", "navreport.report", "navreport.plots"}


def modules(pkg_dir: str) -> dict:
    """Dotted module name -> file, for every .py under the package."""
    root = os.path.dirname(pkg_dir)
    out = {}
    for d, _, files in os.walk(pkg_dir):
        for f in files:
            if f.endswith(".py"):
                rel = os.path.relpath(os.path.join(d, f), root)[:-3].split(os.sep)
                if rel[-1] == "__init__":
                    rel = rel[:-1]
                out[".".join(rel)] = os.path.join(d, f)
    return out


def imports(path: str, name: str, known: set) -> set:
    """The navreport modules a file imports (at any depth of the file: a function's import counts)."""
    tree = ast.parse(open(path, encoding="utf-8").read(), path)
    out = set()
    package = name if path.endswith("__init__.py") else name.rsplit(".", 1)[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # relative: from the importing module's package
                parts = package.split(".")
                base = ".".join(parts[:len(parts) - node.level + 1] + ([base] if base else []))
            out.add(base)
            out.update(f"{base}.{a.name}" for a in node.names)  # `from pkg import module`
    return {m for m in out if m in known and m != "navreport"} - {name}


def layer(name: str) -> int:
    if name in ENTRY:
        return LAYERS.index("entry")
    parts = name.split(".")
    return LAYERS.index(parts[1]) if len(parts) > 1 and parts[1] in LAYERS else -1


def cycles(graph: dict) -> list:
    """Strongly connected components of more than one module (Tarjan), and self-imports."""
    index, low, stack, on, out, counter = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1 or v in graph[v]:
                out.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def check(pkg_dir: str) -> list:
    fails = []
    mods = modules(pkg_dir)
    graph = {m: imports(p, m, set(mods)) for m, p in mods.items()}
    for comp in cycles(graph):
        fails.append("import circle: " + " -> ".join(comp + comp[:1]))
    for m, deps in sorted(graph.items()):
        if m != "navreport" and layer(m) < 0:
            fails.append(f"{m}: in no layer ({', '.join(LAYERS[:-1])}, or {', '.join(sorted(ENTRY))})")
        for d in sorted(deps):
            if layer(d) > layer(m):
                fails.append(f"{m} ({LAYERS[layer(m)]}) imports {d} ({LAYERS[layer(d)]}), a later layer")
            section = d.startswith("navreport.sections.") and d != "navreport.sections.base"
            if section and m != "navreport.page":
                fails.append(f"{m} imports the section {d}: only navreport/page.py lists and calls sections")
    scripts = os.path.dirname(pkg_dir)
    files = list(mods.values()) + [os.path.join(scripts, f) for f in os.listdir(scripts) if f.endswith(".py")]
    for f in files:
        if "sys.path" in open(f, encoding="utf-8").read():
            fails.append(f"{os.path.relpath(f, scripts)} touches sys.path")
    return fails, graph


def main() -> int:
    pkg_dir = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "..", "..", "scripts", "navreport"))
    fails, graph = check(pkg_dir)
    edges = sum(len(v) for v in graph.values())
    print(f"{len(graph)} modules, {edges} imports between them")
    for m in sorted(graph):  # every module alone, in a fresh interpreter
        r = subprocess.run([sys.executable, "-c", f"import {m}"], cwd=os.path.dirname(pkg_dir),
                           capture_output=True, text=True)
        if r.returncode:
            fails.append(f"import {m} alone fails: {r.stderr.strip().splitlines()[-1] if r.stderr.strip() else r.returncode}")
    for f in fails:
        print("FAIL:", f)
    if not fails:
        print("no import circle; the layers import one way; only page.py calls the sections; every module imports alone")
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
