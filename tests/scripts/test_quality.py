"""The report's any-angle configurations and its "Path quality" table, checked against the raw rows
(docs/path-quality.md). Runs navbench with A*, Theta* and Lazy Theta* on a bundled map, builds the
report, and recomputes from results.csv alone (plain csv, not the report's code): every search has
configurations of its own in summary.csv, and the table's mean clearance and mean turning per
configuration equal the means over its ok rows.
Usage: test_quality.py NAVBENCH ROOT. Exit 0 = pass, 1 = fail."""
import csv
import html.parser
import os
import subprocess
import sys
import tempfile
from collections import defaultdict


class Table(html.parser.HTMLParser):
    """The cells of <table id='quality-table'>, row by row."""

    def __init__(self):
        super().__init__()
        self.on, self.rows, self.cell = False, [], None

    def handle_starttag(self, tag, attrs):
        if tag == "table" and ("id", "quality-table") in attrs:
            self.on = True
        elif self.on and tag == "tr":
            self.rows.append([])
        elif self.on and tag == "td":
            self.cell = ""

    def handle_endtag(self, tag):
        if tag == "table":
            self.on = False
        elif self.on and tag == "td" and self.cell is not None:
            self.rows[-1].append(self.cell.strip())
            self.cell = None

    def handle_data(self, data):
        if self.cell is not None:
            self.cell += data


def label(search, smoothing):  # the configuration label of docs/path-quality.md, written out here
    if search == "astar":
        return smoothing
    return search if smoothing == "none" else f"{search} + {smoothing}"


def main() -> int:
    nb, root = sys.argv[1], sys.argv[2]
    tmp = tempfile.mkdtemp(prefix="navbench-quality.")
    out = os.path.join(tmp, "r")
    subprocess.run([nb, "run", "--map", os.path.join(root, "datasets/maps/generated/rooms-16-128.map"), "--rep",
                    "grid8,visgraph", "--search", "astar,theta,lazy-theta", "--smoothing", "none,los", "--limit", "30",
                    "--out", out, "--quiet"], check=True)
    subprocess.run([os.path.join(root, "scripts/navpy.sh"), os.path.join(root, "scripts/report.py"), out + ".csv",
                    "--out", os.path.join(tmp, "report"), "--figures", "none"], check=True, stdout=subprocess.DEVNULL)
    fails = []
    sums = defaultdict(lambda: [0, 0.0, 0.0])
    with open(out + ".csv") as f:
        for r in csv.DictReader(f):
            if r["status"] != "ok":
                continue
            rep = r["representation"] + (" (centre lattice)" if r["representation"] in ("grid4", "grid8") else "")  # the report names the lattice
            s = sums[f"{rep} · {label(r['search'], r['smoothing'])}"]
            s[0] += 1
            s[1] += float(r["clearance"])
            s[2] += float(r["turn"])
    with open(os.path.join(tmp, "report/summary.csv")) as f:
        configs = {r["config"] for r in csv.DictReader(f)}
    for want in ("grid8 (centre lattice) · theta", "grid8 (centre lattice) · lazy-theta + los", "grid8 (centre lattice) · los", "visgraph · none"):
        if want not in configs:
            fails.append(f"summary.csv lacks the configuration '{want}' (has {sorted(configs)})")
    if any("visgraph · theta" in c for c in configs):
        fails.append("visgraph's not_applicable Theta* rows became a configuration")
    t = Table()
    with open(os.path.join(tmp, "report/report.html")) as f:
        t.feed(f.read())
    rows = [r for r in t.rows if r]
    if not rows:
        fails.append("no quality-table in the report")
    for cells in rows:
        cfg, n = cells[0], int(cells[1])
        if cfg not in sums:
            fails.append(f"quality-table row '{cfg}' is no configuration of the rows")
            continue
        k, cl, tu = sums[cfg]
        if n != k:
            fails.append(f"{cfg}: {n} ok paths in the table, {k} in results.csv")
        if not cells[3].startswith(f"{cl / k:.3g} ["):
            fails.append(f"{cfg}: mean clearance '{cells[3]}', recomputed {cl / k:.3g}")
        if not cells[5].startswith(f"{tu / k:.4g} ["):
            fails.append(f"{cfg}: mean turning '{cells[5]}', recomputed {tu / k:.4g}")
    if len(rows) != len(sums):
        fails.append(f"{len(rows)} quality-table rows for {len(sums)} configurations with ok rows")
    for m in fails:
        print("FAIL:", m)
    print(f"{len(rows)} configurations checked" if not fails else f"kept: {tmp}")
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
