#!/usr/bin/env python3
"""navbench compare (docs/results.md#comparing-two-runs) on result sets that navbench makes here
(package_fixture.py): a sweep shaped like the default job's (plain and weighted maps, so its
report names configurations "... · plain map") against a new `navbench run` over one plain map.

- every query the two runs share (the same map, collection, start and goal, convention, terrain,
  radius, epoch) pairs, per configuration, whatever the facet names: the counts (paired, only in A,
  only in B) equal those counted here from the CSV files with the csv module, and the summary line
  prints the total; one verdict line per configuration (ratio, interval, Holm p, n), a warning
  below 30 pairs, and the line saying what the intervals cover;
- a run against itself: every time ratio 1 [1, 1] and gap difference 0 over every solved query;
- two runs of different random queries (seeds 1 and 2) on a map without a scenario share no query:
  refused with one line, exit 2; so are a run over another map and a subset B lacks;
- two configurations of one run (--a 'navmesh · none' --b 'navmesh · los', and as the report writes
  one, with its facet): the pairs and the ratio exp(median log(tb / ta)) as computed here from the
  CSV; a representation with several configurations, or --a without --b, refused with one line;
- a scenario that lists a query twice: one query, its rows reduced the same way, counted as repeated;
- --reps and --maps cut both runs; a name neither run has is refused;
- --csv writes the table; the report's section "Two runs compared" shows the same pairs.

    test_compare.py NAVBENCH ROOT     exit 0 pass, 1 fail
"""
import math
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, here)
import package_fixture  # noqa: E402
from package_fixture import check, csv_rows, finish  # noqa: E402


def key(x):
    """A row's query, by the docs' rule: map, collection, start, goal, convention, terrain, radius, epoch."""
    return (x["map"], x["collection"], float(x["sx"]), float(x["sy"]), float(x["gx"]), float(x["gy"]), x["convention"],
            x.get("terrain", ""), x.get("radius") or "0", x.get("epoch", ""))


def queries(rows):
    """configuration -> {query key: solved} from raw CSV rows (the rule of the docs, by hand)."""
    out = {}
    for x in rows:
        if x["status"] == "not_applicable":
            continue
        cfg = f"{x['representation']} · {x['smoothing']}"
        k = key(x)
        out.setdefault(cfg, {})[k] = out.get(cfg, {}).get(k, False) or x["status"] == "ok"
    return out


def compare(navbench, *args):
    return subprocess.run([navbench, "compare", *args], capture_output=True, text=True, timeout=600)


def one_line_refusal(r, what, word):
    lines = r.stderr.strip().splitlines()
    check(r.returncode == 2 and len(lines) == 1 and word in lines[0],
          f"{what}: exit {r.returncode}, one line: {lines[0] if lines else '(none)'}")


def check_two_runs(navbench, fx, tmp):
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
    lines = r.stdout.splitlines()
    m = re.search(r"(\d+) query results paired", lines[0] if lines else "")
    check(m is not None and int(m.group(1)) == want_total, f"the summary line prints the count: {lines[0] if lines else ''}")
    verdicts = [x for x in lines if re.match(r"^.+: query time B / A ×[\d.]+ \[[\d.]+, [\d.]+\], p = \S+ \(Holm\), n = \d+: ", x)]
    check(len(verdicts) == len(table) and all("warning: 10 pairs, fewer than 30" in v for v in verdicts),
          f"one verdict line per configuration, each warning of its 10 pairs ({len(verdicts)}): "
          f"{verdicts[0] if verdicts else ''}")
    check(any("cover the choice of queries, not the run-to-run noise" in x for x in lines),
          "a line says what the intervals cover")
    return table, want_total


def check_two_configurations(navbench, fx, tmp):
    """--a/--b on one run: navmesh · none against navmesh · los, counted and computed from the CSV."""
    rows = [x for x in csv_rows(fx["one"] + ".csv") if x["representation"] == "navmesh"]
    t = {s: {key(x): x for x in rows if x["smoothing"] == s} for s in ("none", "los")}
    pairs = [k for k in t["none"] if k in t["los"] and t["none"][k]["status"] == "ok" == t["los"][k]["status"]]
    time = lambda x: sum(float(x[c] or 0) for c in ("locate_us", "search_us", "smooth_us"))  # noqa: E731
    logs = [math.log(time(t["los"][k]) / time(t["none"][k])) for k in pairs]
    want = math.exp(statistics.median(logs))
    out = os.path.join(tmp, "configs.csv")
    for name, args in (("labels", ("--a", "navmesh · none", "--b", "navmesh · los")),
                       ("the report's names with a facet", ("--a", "navmesh · none · plain map", "--b", "navmesh · los"))):
        r = compare(navbench, fx["one"], *args, "--csv", out)
        got = csv_rows(out) if r.returncode == 0 else []
        check(len(got) == 1 and int(got[0]["paired"]) == len(pairs) > 0 and
              math.isclose(float(got[0]["time_ratio"]), want, rel_tol=1e-9) and
              sum(": query time B / A ×" in x for x in r.stdout.splitlines()) == 1,
              f"two configurations of one run ({name}): {len(pairs)} pairs, ratio {want:.4f} as from the CSV "
              f"({got[0]['time_ratio'] if got else r.stderr.strip()})")
    r = compare(navbench, fx["sweep"], fx["one"], "--a", "navmesh · none", "--b", "navmesh · none", "--csv", out)
    got = csv_rows(out) if r.returncode == 0 else []
    check(len(got) == 1 and int(got[0]["paired"]) > 0, f"one configuration of each run: {got[0]['paired'] if got else r.stderr}")
    one_line_refusal(compare(navbench, fx["one"], "--a", "navmesh", "--b", "grid8 · none"),
                     "--a naming a representation with several configurations", "navmesh · los")
    one_line_refusal(compare(navbench, fx["one"], "--a", "navmesh · none"), "--a without --b", "--b")
    one_line_refusal(compare(navbench, fx["one"]), "one run without --a and --b", "run B")


def check_repeated(navbench, root, fx, tmp):
    """A scenario listing its first query twice: one query on that side, reduced, counted as repeated."""
    scen = os.path.join(root, package_fixture.ROOMS + ".scen")
    lines = open(scen, encoding="utf-8").read().splitlines()
    dup = os.path.join(tmp, "dup.scen")
    with open(dup, "w", encoding="utf-8") as f:
        f.write("\n".join(lines + [lines[1]]) + "\n")
    prefix = os.path.join(tmp, "dup")
    package_fixture.run([navbench, "run", "--map", package_fixture.ROOMS, "--scen", dup, "--rep", "grid8", "--out", prefix],
                        root)
    out = os.path.join(tmp, "dup.csv.out")
    r = compare(navbench, prefix, fx["one"], "--reps", "grid8", "--csv", out)
    got = csv_rows(out) if r.returncode == 0 else []
    n = len(lines) - 1
    check(len(got) == 1 and got[0]["repeated_a"] == "1" and got[0]["repeated_b"] == "0" and int(got[0]["queries_a"]) == n
          and int(got[0]["paired"]) == n and "repeated queries (A 1, B 0)" in r.stdout,
          f"a query listed twice is one query, reduced on both sides alike and counted: "
          f"{[got[0][c] for c in ('queries_a', 'paired', 'repeated_a')] if got else r.stderr.strip()}")


def main():
    navbench, root = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    tmp = tempfile.mkdtemp(prefix="navbench-compare.")
    fx = package_fixture.make(navbench, root, os.path.join(tmp, "fx"))
    table, want_total = check_two_runs(navbench, fx, tmp)
    out = os.path.join(tmp, "compare.csv")
    r = compare(navbench, fx["one"], fx["one"], "--csv", out)
    same = csv_rows(out) if r.returncode == 0 else []
    check(same and all(float(x["time_ratio"]) == 1 == float(x["time_ratio_lo"]) == float(x["time_ratio_hi"]) and
                       float(x["gap_diff"]) == 0 and int(x["unpaired_a"]) == 0 for x in same),
          "a run against itself: every time ratio 1 [1, 1], gap difference 0, nothing unpaired")

    noscen = os.path.join(tmp, "noscen")
    os.makedirs(noscen)
    shutil.copy(os.path.join(root, package_fixture.ROOMS), noscen)  # the map without its scenario: random queries
    for seed in ("1", "2"):
        package_fixture.run([navbench, "run", "--map", os.path.join(noscen, "rooms-16-128.map"), "--queries", "40",
                             "--seed", seed, "--rep", "grid8", "--out", os.path.join(tmp, f"random{seed}")], root)
    one_line_refusal(compare(navbench, os.path.join(tmp, "random1"), os.path.join(tmp, "random2")),
                     "two runs of 40 random queries, seeds 1 and 2", "share no query (start and goal)")
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
    check_two_configurations(navbench, fx, tmp)
    check_repeated(navbench, root, fx, tmp)

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
