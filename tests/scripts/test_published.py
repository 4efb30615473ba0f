#!/usr/bin/env python3
"""The report's lattice and squeeze labels (navreport/io/results.py lattice_label) and its section
"Published results" (navreport/sections/published.py): which reproductions it finds beside a
result set, and their tables as HTML.

    test_published.py
"""
import json
import os
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts"))

from navreport.io.results import lattice_label  # noqa: E402
from navreport.sections import published  # noqa: E402

fails = 0


def check(name, ok):
    global fails
    print(("ok   " if ok else "FAIL ") + name)
    fails += not ok


check("centre_lattice", lattice_label("grid8") == "grid8 (centre lattice)")
check("centre_lattice_named", lattice_label("grid4:lattice=center") == "grid4 (centre lattice)")
check("corner_lattice", lattice_label("grid8:lattice=corner") == "grid8 (corner lattice)")
check("corner_lattice_squeezing", lattice_label("grid8:lattice=corner,pinch=allow", True, True) == "grid8 (corner lattice, squeezing)")
check("other_params_kept", lattice_label("grid8:lattice=corner,foo=1") == "grid8:foo=1 (corner lattice)")
check("no_lattice_elsewhere", lattice_label("visgraph") == "visgraph" and lattice_label("subgoal:levels=2") == "subgoal:levels=2")
check("squeeze_run_followers", lattice_label("visgraph", True, True) == "visgraph (squeezing)"
      and lattice_label("subgoal", True, False) == "subgoal (no squeezing)")

with tempfile.TemporaryDirectory() as tmp:
    run = os.path.join(tmp, "default")
    os.makedirs(run)
    open(os.path.join(run, "results.csv"), "w").write("map\n")
    rep = os.path.join(tmp, "reproduce-gppc2023-classic")
    os.makedirs(rep)
    json.dump({"config": {"reproduce": "gppc2023-classic"}}, open(os.path.join(rep, "meta.json"), "w"))
    open(os.path.join(rep, "table.md"), "w").write("A note <b>.\n\n| entry | source |\n|---|---|\n| gppc:x | measured |\n")
    other = os.path.join(tmp, "sweep-b")  # a folder with meta.json but no reproduction
    os.makedirs(other)
    json.dump({"config": {"maps": []}}, open(os.path.join(other, "meta.json"), "w"))
    open(os.path.join(other, "table.md"), "w").write("x\n")
    found = published.find_reproductions([run, os.path.join(run, "results.csv")])
    check("finds_beside_the_run_once", [(os.path.basename(f), c["reproduce"]) for f, c in found] == [("reproduce-gppc2023-classic", "gppc2023-classic")])
    # A folder whose meta.json is no reproduction's is never one; from it, the parent's reproduction is found.
    check("only_reproductions", [os.path.basename(f) for f, _ in published.find_reproductions([other])] == ["reproduce-gppc2023-classic"])
    html = published.markdown_html(open(os.path.join(rep, "table.md")).read())
    check("table_html", "<th>entry</th><th>source</th>" in html and "<td>gppc:x</td><td>measured</td>" in html and "|---" not in html)
    check("escaped", "&lt;b&gt;" in html)

sys.exit(1 if fails else 0)
