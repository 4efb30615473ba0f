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
imported alone: each in a process of its own that holds no navreport module yet (forked from this
one, which has loaded the packages outside the project that the modules import, numpy, pandas,
matplotlib, plotly..., once, instead of a fresh interpreter loading them again for each of the
~40 modules, most of this test's time). An import that needs another navreport module
imported first, or a circle that fails at import time, fails there as in a fresh interpreter.

    test_imports.py [PACKAGE_DIR]     (default: scripts/navreport next to this test)
Exit 0 = pass, 1 = fail."""
import ast
import importlib
import os
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


def outside_imports(pkg_dir: str) -> set:
    """The absolute imports of the package's files that name no project package (numpy, pandas,
    matplotlib.pyplot, plotly.io, the standard library's), dotted as written."""
    out = set()
    for path in modules(pkg_dir).values():
        for node in ast.walk(ast.parse(open(path, encoding="utf-8").read(), path)):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
                names = [node.module]
            out.update(n for n in names if n.split(".")[0] not in ("navreport", "navbench"))
    return out


def preload(names: set) -> None:
    """Imports each outside module once here, before the forks (one that fails is left to the child,
    whose import then fails as it would alone). No project module: the children must start without
    navreport's (and navbench's) modules."""
    for n in sorted(names):
        try:
            importlib.import_module(n)
        except Exception:  # noqa: BLE001 - the child reports it
            pass
    loaded = sorted(k for k in sys.modules if k.split(".")[0] in ("navreport", "navbench"))
    assert not loaded, f"a project module was loaded before the forks: {loaded}"


def import_alone(module: str, scripts_dir: str):
    """Imports `module` in a forked child with scripts_dir first on its path (as `python -c` run
    there): None when it imports, else the exception's last line."""
    sys.stdout.flush()
    sys.stderr.flush()
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: import, report, and leave without running the parent's exit handlers
        os.close(read)
        code = 0
        try:
            sys.path.insert(0, scripts_dir)
            importlib.import_module(module)
        except BaseException as e:  # noqa: BLE001 - any failure of the import is the finding
            os.write(write, f"{type(e).__name__}: {e}".encode()[-2000:])
            code = 1
        os._exit(code)
    os.close(write)
    message = b""
    while chunk := os.read(read, 4096):
        message += chunk
    os.close(read)
    _, status = os.waitpid(pid, 0)
    if os.waitstatus_to_exitcode(status) == 0:
        return None
    return message.decode(errors="replace").strip().splitlines()[-1] if message.strip() else f"exit {status}"


def main() -> int:
    pkg_dir = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "..", "..", "scripts", "navreport"))
    fails, graph = check(pkg_dir)
    edges = sum(len(v) for v in graph.values())
    print(f"{len(graph)} modules, {edges} imports between them")
    preload(outside_imports(pkg_dir))
    for m in sorted(graph):  # every module alone, in a process that holds no navreport module
        error = import_alone(m, os.path.dirname(pkg_dir))
        if error is not None:
            fails.append(f"import {m} alone fails: {error}")
    for f in fails:
        print("FAIL:", f)
    if not fails:
        print("no import circle; the layers import one way; only page.py calls the sections; every module imports alone")
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
