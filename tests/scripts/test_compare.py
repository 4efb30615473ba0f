#!/usr/bin/env python3
"""navbench compare (docs/results.md#comparing-two-runs) on result sets that navbench makes here
(package_fixture.py): a sweep shaped like the default job's (plain and weighted maps, so its
report names configurations "... · plain map") against a new `navbench run` over one plain map.

- every query the two runs share pairs, per configuration, whatever the facet names: the counts
  (paired, only in A, only in B) equal those counted here from the CSV files with the csv module,
  and the summary line prints the total;
- a run against itself: every time ratio 1 [1, 1] and gap difference 0 over every solved query;
- nothing pairs (a run over another map; a subset B lacks): one line saying why, exit 2;
- --reps and --maps cut both runs; a name neither run has is refused;
- --csv writes the table; the report's section "Two runs compared" shows the same pairs.

    test_compare.py NAVBENCH ROOT     exit 0 pass, 1 fail
"""
import os
import re
import subprocess
import sys
import tempfile

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, here)
import package_fixture  # noqa: E402
from package_fixture import check, csv_rows, finish  # noqa: E402


def queries(rows):
    """configuration -> {query key: solved} from raw CSV rows (the rule of the docs, by hand)."""
    out = {}
    for x in rows:
        if x["status"] == "not_applicable":
            continue
        cfg = f"{x['representation']} · {x['smoothing']}"
        key = (x["map"], x["collection"], x["scen_index"], x["convention"], x.get("terrain", ""), x.get("radius") or "0",
               x.get("epoch", ""))
        out.setdefault(cfg, {})[key] = x["status"] == "ok"
    return out


def compare(navbench, *args):
    return subprocess.run([navbench, "compare", *args], capture_output=True, text=True, timeout=600)


def one_line_refusal(r, what, word):
    lines = r.stderr.strip().splitlines()
    check(r.returncode == 2 and len(lines) == 1 and word in lines[0],
          f"{what}: exit {r.returncode}, one line: {lines[0] if lines else '(none)'}")


def main():
    navbench, root = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    tmp = tempfile.mkdtemp(prefix="navbench-compare.")
    fx = package_fixture.make(navbench, root, os.path.join(tmp, "fx"))
    a, b = queries(csv_rows(os.path.join(fx["sweep"], "results.csv"))), queries(csv_rows(fx["one"] + ".csv"))
    out = os.path.join(tmp, "compare.csv")
    r = compare(navbench, fx["sweep"], fx["one"], "--csv", out)
    check(r.returncode == 0, f"compare sweep one: exit {r.returncode} {r.stderr.strip()}")
    table = {x["configuration"]: x for x in csv_rows(out)} if os.path.exists(out) else {}
    want_total, bad = 0, []
    for cfg in sorted(set(a) & set(b)):
        both = set(a[cfg]) & set(b[cfg])
        paired = sum(a[cfg][k] and b[cfg][k] for k in both)
        want_total += paired
        got = table.get(cfg, {})
        want = (paired, len(a[cfg]) - len(both), len(b[cfg]) - len(both))
        have = tuple(int(got.get(c, -1)) for c in ("paired", "unpaired_a", "unpaired_b"))
        if want != have:
            bad.append(f"{cfg}: {have}, want {want}")
    check(want_total > 0 and not bad and len(table) == len(set(a) & set(b)),
          f"every shared query pairs, per configuration, as counted from the CSVs ({want_total} pairs)" +
          (f": {bad}" if bad else ""))
    m = re.search(r"(\d+) query results paired", r.stdout)
    check(m is not None and int(m.group(1)) == want_total, f"the summary line prints the count: {r.stdout.splitlines()[0] if r.stdout else ''}")

    r = compare(navbench, fx["one"], fx["one"], "--csv", out)
    same = csv_rows(out) if r.returncode == 0 else []
    check(same and all(float(x["time_ratio"]) == 1 == float(x["time_ratio_lo"]) == float(x["time_ratio_hi"]) and
                       float(x["gap_diff"]) == 0 and int(x["unpaired_a"]) == 0 for x in same),
          "a run against itself: every time ratio 1 [1, 1], gap difference 0, nothing unpaired")

    other = os.path.join(tmp, "maze")
    package_fixture.run([navbench, "run", "--map", "datasets/maps/generated/maze-4-128.map", "--rep", "grid8", "--out", other],
                        root)
    one_line_refusal(compare(navbench, fx["one"], other), "a run over another map", "share no map")
    one_line_refusal(compare(navbench, fx["sweep"], fx["one"], "--maps", "cave-45-128"),
                     "--maps of a map only A ran", "run B has no applicable result rows")
    one_line_refusal(compare(navbench, fx["sweep"], fx["one"], "--reps", "quadtree"), "--reps naming a representation "
                     "neither run has", "quadtree")
    r = compare(navbench, fx["sweep"], fx["one"], "--reps", "grid8", "--csv", out)
    check(r.returncode == 0 and {x["configuration"] for x in csv_rows(out)} == {"grid8 · none", "grid8 · los"},
          "--reps grid8: grid8's configurations only")

    rep = os.path.join(tmp, "report")
    r = subprocess.run([os.path.join(root, "scripts", "navpy.sh"), os.path.join(root, "scripts", "report.py"), fx["sweep"],
                        "--compare", fx["one"], "--out", rep, "--figures", "none"], capture_output=True, text=True, timeout=600)
    page = open(os.path.join(rep, "report.html"), encoding="utf-8").read() if r.returncode == 0 else ""
    cells = re.findall(r"data-metric='paired' data-value='(\d+)'", page)
    check(len(cells) == len(table) and sum(map(int, cells)) == want_total and f"{want_total} query results paired" in page,
          f"the report's section 'Two runs compared' shows the same pairs ({sum(map(int, cells))})")
    return finish(tmp, "compare")


if __name__ == "__main__":
    sys.exit(main())
