"""The report's section "First move and worst step" (scripts/navreport/sections/realtime.py; SPEC
§15, docs/results.md#real-time-columns) against the raw rows: grid8, cpd and subgoal on a generated
48 x 48 rooms map, smoothing none and los; the section's table holds one row per planner (its
unsmoothed rows: the columns are the planner's), each median as results.csv has it over the solved
rows, cpd's first move below its whole query and grid8's equal to it; the candidate with the least
first move and the one with the least build time are on the front of first move and build time;
and a result set written before the columns (the same rows without them) gets the section's note
instead of numbers.
Usage: test_realtime_report.py NAVBENCH ROOT. Exit 0 = pass, 1 = fail."""
import csv
import html
import os
import re
import statistics
import subprocess
import sys
import tempfile

failures = []


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        failures.append(what)
    return cond


def report(root, results_csv, out):
    subprocess.run([os.path.join(root, "scripts/navpy.sh"), os.path.join(root, "scripts/report.py"), results_csv,
                    "--out", out, "--figures", "none"], check=True, stdout=subprocess.DEVNULL)
    with open(os.path.join(out, "report.html"), encoding="utf-8") as f:
        return f.read()


def section_rows(page):
    """The section's table rows: configuration -> [first move, first 20, worst step, whole query] and
    its four front marks."""
    m = re.search(r"<section[^>]*id=['\"]first-move['\"].*?</section>", page, re.S)
    if not m:
        return None, ""
    body = m.group(0)
    rows = {}
    for tr in re.findall(r"<tr[^>]*>(.*?)</tr>", body, re.S):
        cells = re.findall(r"<td([^>]*)>(.*?)</td>", tr, re.S)
        if len(cells) < 8:
            continue
        name = html.unescape(re.sub("<[^>]+>", "", cells[0][1]))
        nums = [float(c[1].replace(",", "")) for c in cells[3:7]]  # after valid % and solved %
        marks = [" on" in c[0] for c in cells[-4:]]
        rows[name] = (nums, marks)
    return rows, body


def main():
    nb, root = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    tmp = tempfile.mkdtemp(prefix="navbench-realtime.")
    gen = os.path.join(tmp, "rooms48")
    subprocess.run([nb, "generate", "rooms", "--width", "48", "--height", "48", "--room", "12", "--seed", "81",
                    "--queries", "60", "--out", gen], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    out = os.path.join(tmp, "rt")
    subprocess.run([nb, "run", "--map", gen + ".map", "--rep", "grid8", "--rep", "cpd", "--rep", "subgoal",
                    "--smoothing", "none,los", "--no-optimum", "--quiet", "--out", out], check=True, stderr=subprocess.DEVNULL)
    rows, body = section_rows(report(root, out + ".csv", os.path.join(tmp, "report")))
    check(rows is not None, "the report has the section first-move")
    rows = rows or {}
    with open(out + ".csv") as f:
        raw = [r for r in csv.DictReader(f) if r["status"] == "ok" and r["smoothing"] == "none"]
    for rep in ("grid8", "cpd", "subgoal"):
        mine = [r for r in raw if r["representation"] == rep]
        got = [v for k, v in rows.items() if k.split(" ")[0] == rep]
        if not check(len(got) == 1, f"{rep}: one row (its unsmoothed configuration), got {len(got)}"):
            continue
        nums, _ = got[0]
        for k, col in enumerate(("first_move_us", "first20_us", "max_step_us")):
            want = statistics.median(float(r[col]) for r in mine)
            check(abs(nums[k] - want) <= 0.006 * want, f"{rep}: median {col} {nums[k]} as results.csv's {want:.4g}")
    cpd = [v for k, v in rows.items() if k.startswith("cpd")]
    g8 = [v for k, v in rows.items() if k.startswith("grid8")]
    if cpd and g8:
        check(cpd[0][0][0] < cpd[0][0][3] / 3, f"cpd: first move {cpd[0][0][0]} well below its whole query {cpd[0][0][3]}")
        one_call = all(abs(float(r[c]) - float(r["locate_us"]) - float(r["search_us"])) <= 0.0015
                       for r in raw if r["representation"] == "grid8" for c in ("first_move_us", "max_step_us"))
        check(one_call and g8[0][0][0] == g8[0][0][1] == g8[0][0][2],
              f"grid8 answers in one call: each row's first move and worst step its locate + search, the table's "
              f"three medians equal ({g8[0][0][:3]})")
        least = min(rows.items(), key=lambda kv: kv[1][0][0])
        check(least[1][1][0], f"{least[0]}, the least first move, is on the front of first move and build time")
        check(g8[0][1][0] and g8[0][1][1], "grid8 (no table, the cheapest build) is on both first-move fronts")
    # A result set written before the columns: the section says so.
    old = os.path.join(tmp, "old")
    with open(out + ".csv") as f, open(old + ".csv", "w", newline="") as o:
        r = csv.DictReader(f)
        w = csv.DictWriter(o, [c for c in r.fieldnames if c not in ("first_move_us", "first20_us", "max_step_us")],
                           extrasaction="ignore")
        w.writeheader()
        w.writerows(r)
    for ext in (".build.csv", ".meta.json", ".unrun.csv"):
        if os.path.exists(out + ext):
            with open(out + ext) as f, open(old + ext, "w") as o:
                o.write(f.read())
    rows_old, body_old = section_rows(report(root, old + ".csv", os.path.join(tmp, "report-old")))
    check(rows_old == {} and "No real-time figures" in body_old,
          "a result set written before the columns: the section's note, no numbers")
    print("FAILED: " + "; ".join(failures) if failures else "PASS")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
