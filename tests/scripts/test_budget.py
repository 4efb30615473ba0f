"""The report's budget answers (scripts/navreport/analysis/budget.py), recomputed from results.csv and results.build.csv
with plain Python (not the report's code): per configuration the median query time and mean gap over
its ok rows, build time and memory as the mean over maps of each map's mean; the time/gap Pareto
front; then, walking down from the whole front, each budget is the largest value of a configuration
below the dearest front point left, and the front of the configurations within it. The report's
budgets.csv and the table of its first screen (a column per budget, its front marked) must say the same,
and every row of that table must name its build time and memory.
Usage: test_budget.py NAVBENCH ROOT. Exit 0 = pass, 1 = fail."""
import csv
import html
import math
import os
import re
import statistics
import subprocess
import sys
import tempfile
from collections import defaultdict

MAX_BUDGETS = 2


def label(search, smoothing):  # the configuration label of docs/path-quality.md
    if search == "astar":
        return smoothing
    return search if smoothing == "none" else f"{search} + {smoothing}"


def front(points):
    """{config: (time, gap)} -> the non-dominated configs, fastest first."""
    out = [c for c, (t, g) in points.items()
           if not any((t2 <= t and g2 <= g) and (t2 < t or g2 < g) for c2, (t2, g2) in points.items() if c2 != c)]
    return sorted(out, key=lambda c: points[c])


def main() -> int:
    nb, root = sys.argv[1], sys.argv[2]
    tmp = tempfile.mkdtemp(prefix="navbench-budget.")
    out = os.path.join(tmp, "r")
    maps = [os.path.join(root, "datasets/maps/generated", m) for m in ("rooms-16-128.map", "maze-4-128.map", "cave-45-128.map")]
    subprocess.run([nb, "run", "--map", *maps, "--rep", "grid8,visgraph,subgoal", "--rep", "navmesh:merge=1",
                    "--rep", "quadtree:merge=1",
                    "--smoothing", "none,los,funnel", "--limit", "25", "--out", out, "--quiet"], check=True)
    subprocess.run([os.path.join(root, "scripts/navpy.sh"), os.path.join(root, "scripts/report.py"), out + ".csv",
                    "--out", os.path.join(tmp, "report"), "--figures", "none"], check=True, stdout=subprocess.DEVNULL)
    fails = []
    times, gaps, rep_of, maps_seen = defaultdict(list), defaultdict(list), {}, set()
    unapplicable = defaultdict(set)  # representation -> labels with a not_applicable row
    with open(out + ".csv") as f:
        for r in csv.DictReader(f):
            maps_seen.add(r["map"])
            cfg = f"{r['representation']} · {label(r['search'], r['smoothing'])}"
            if r["status"] == "not_applicable":
                unapplicable[r["representation"]].add(label(r["search"], r["smoothing"]))
                continue
            rep_of[cfg] = r["representation"]
            times[cfg]  # applicable: a configuration of the table
            if r["status"] != "ok":
                continue
            times[cfg].append(sum(float(r[k]) for k in ("locate_us", "search_us", "smooth_us")))
            if r["gap"]:
                gaps[cfg].append(float(r["gap"]))
    per_map = defaultdict(lambda: defaultdict(list))  # rep -> map -> [(build, memory)]
    with open(out + ".build.csv") as f:
        for b in csv.DictReader(f):
            if b["map"] in maps_seen:
                per_map[b["representation"]][b["map"]].append((float(b["build_ms"]), float(b["memory_bytes"])))
    cost = {}
    for rep, by_map in per_map.items():
        means = [(statistics.fmean(x[0] for x in v), statistics.fmean(x[1] for x in v)) for v in by_map.values()]
        cost[rep] = {"build_ms": statistics.fmean(m[0] for m in means), "memory": statistics.fmean(m[1] for m in means)}
    points = {c: (statistics.median(times[c]), statistics.fmean(gaps[c])) for c in times if times[c] and gaps[c]}
    whole = front(points)
    want = []
    for col in ("memory", "build_ms"):
        known = {c: p for c, p in points.items() if rep_of[c] in cost}
        values = sorted({cost[rep_of[c]][col] for c in known})
        previous, cap, made = front(known), math.inf, 0
        while made < MAX_BUDGETS:
            f = front({c: p for c, p in known.items() if cost[rep_of[c]][col] <= cap})
            if not f:
                break
            dearest = max(cost[rep_of[c]][col] for c in f)
            below = [v for v in values if v < dearest]
            if not below:
                break
            cap = below[-1]
            within = {c: p for c, p in known.items() if cost[rep_of[c]][col] <= cap}
            fr = front(within)
            if not fr or fr == previous:
                continue
            want.append((col, cap, fr, len(within), len(known)))
            previous, made = fr, made + 1
    with open(os.path.join(tmp, "report/budgets.csv")) as f:
        got = [b for b in csv.DictReader(f) if b["scope"] == "all maps"]
    if len(got) != len(want):
        fails.append(f"{len(got)} budget answers in budgets.csv, {len(want)} recomputed: {want}")
    for g, (col, cap, fr, n, of) in zip(got, want):
        if g["column"] != col or not math.isclose(float(g["budget"]), cap, rel_tol=1e-9):
            fails.append(f"budget {g['column']} {g['budget']}, recomputed {col} {cap}")
        if g["front"].split(" → ") != fr:
            fails.append(f"{col} <= {cap}: front {g['front']}, recomputed {' → '.join(fr)}")
        if (int(g["configurations"]), int(g["of"])) != (n, of):
            fails.append(f"{col} <= {cap}: {g['configurations']} of {g['of']} fit, recomputed {n} of {of}")
    if not any(c == "memory" for c, *_ in want) or not any(c == "build_ms" for c, *_ in want):
        fails.append(f"the run should split its configurations by memory and by build time: {want}")
    with open(os.path.join(tmp, "report/report.html"), encoding="utf-8") as f:
        page = f.read()
    answer = page[page.index("id='answer-all'"):]
    answer = answer[:answer.index("</section>")]
    # The first screen's table: the front's points and each budget's front as a marked column.
    table = answer[answer.index("<table class='answer-table'"):]
    table = html.unescape(table[:table.index("</table>")])
    heads = re.findall(r"<th class='mark[^']*'([^>]*)>", table)
    rows = re.findall(r"<tr class='(front|budget-front)' data-config='([^']*)'>(.*?)</tr>", table, flags=re.S)
    marked = [[c for _, c, body in rows if re.findall(r"<td class='(mark[^']*)'>", body)[k].startswith("mark on")]
              for k in range(len(heads))] if rows else [[] for _ in heads]
    on_front = [c for kind, c, _ in rows if kind == "front"]
    if sorted(on_front) != sorted(whole) or (marked and sorted(marked[0]) != sorted(whole)):
        fails.append(f"the table's front {on_front} (marked {marked[:1]}), recomputed {whole}")
    for kind, c, body in rows:
        cells = dict(re.findall(r"<td class='num' data-metric='(\w+)'[^>]*>([^<]*)</td>", body))
        if not (cells.get("build_ms", "–") != "–" and cells.get("memory", "–") != "–"):
            fails.append(f"{c}: its row should name build time and memory: {cells}")
    for g in got:
        k = next((i for i, h in enumerate(heads) if f"data-kind='{g['column']}'" in h
                  and math.isclose(float(re.search(r"data-budget='([^']*)'", h).group(1)), float(g["budget"]), rel_tol=1e-12)), None)
        if k is None:
            fails.append(f"no first-screen column for the {g['kind']} budget {g['budget_text']}")
            continue
        if f"title='{g['configurations']} of {g['of']} configurations fit'" not in heads[k]:
            fails.append(f"{g['kind']} <= {g['budget_text']}: the column does not say {g['configurations']} of {g['of']} fit")
        if sorted(marked[k]) != sorted(g["front"].split(" → ")):
            fails.append(f"{g['kind']} <= {g['budget_text']}: marked {marked[k]}, budgets.csv's front {g['front']}")
    # The verdict's count is the table's: its front rows, and the rows on a budget's front only said
    # as such; the marked columns and the chart's diamonds are explained where they appear.
    verdict = html.unescape(re.sub(r"<[^>]+>", "", answer[answer.index("<p class='verdict'>"):].split("</p>", 1)[0]))
    extra = len(rows) - len(on_front)
    said = re.search(r"(\d+) configurations on the front", verdict)
    if len(on_front) > 1 and (not said or int(said.group(1)) != len(on_front)):
        fails.append(f"the verdict counts {said.group(1) if said else 'no'} configurations on the front, the table "
                     f"marks {len(on_front)}: {verdict}")
    if extra and f"({extra} more in its table on a memory or build-time budget's front only)" not in verdict:
        fails.append(f"the table has {extra} rows on a budget's front only; the verdict does not say so: {verdict}")
    if not extra:
        fails.append("the run should have rows on a budget's front only (the verdict's count would not be tested)")
    note = re.search(r"<p class='note marks-note'[^>]*>(.*?)</p>", answer, flags=re.S)
    explained = note and "memory or build time ≤ X: the front of the candidates within that budget" in note.group(1)
    if not explained or (extra and "orange diamonds in the chart" not in note.group(1)):
        fails.append(f"no explanation of the marked columns under the first-screen table: {note.group(1) if note else None}")
    if "orange diamonds: on the front of a memory or build-time budget only" not in page:
        fails.append("the compact chart's caption does not say what its orange diamonds are")
    if "href='#table-all'" not in answer or "id='table-all'" not in page:
        fails.append("no link from the answer to the ranked table")
    # The configurations that never apply (every row not_applicable), folded under the ranked table:
    # one line per representation naming what it lacks, and their count.
    lacking = {rep: {lab for lab in labs if f"{rep} · {lab}" not in times} for rep, labs in unapplicable.items()}
    lacking = {rep: labs for rep, labs in lacking.items() if labs}
    ranked = page[page.index("id='table-all'"):]
    folded = re.search(r"<details class='na'><summary>Not applicable here: (\d+) configurations? of (\d+) "
                       r"representations?.*?</summary><ul class='na'>(.*?)</ul></details>", ranked, flags=re.S)
    if not lacking:
        fails.append("the run should have configurations that never apply (grid8 · funnel)")
    elif not folded:
        fails.append("no folded list of the configurations that never apply under the ranked table")
    else:
        n = sum(len(labs) for labs in lacking.values())
        if (int(folded.group(1)), int(folded.group(2))) != (n, len(lacking)):
            fails.append(f"the folded list says {folded.group(1)} of {folded.group(2)}, recomputed {n} of {len(lacking)}")
        lines = {html.unescape(b).split(" ")[0]: html.unescape(rest)
                 for b, rest in re.findall(r"<li><b>(.*?)</b>: (.*?)</li>", folded.group(3))}
        for rep, labs in lacking.items():
            listed = {x.strip() for part in lines.get(rep, "").split("; ") for x in part.split(", ")}
            if labs - listed:
                fails.append(f"{rep}: the folded list names {sorted(listed)}, recomputed {sorted(labs)}")
    for m in fails:
        print("FAIL:", m)
    print(f"{len(want)} budget answers checked" if not fails else f"kept: {tmp}")
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
