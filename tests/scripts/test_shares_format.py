"""One formatter for shares (SPEC §14: a share below 100 % is never shown as 100, nor one above 0 as
0): the report's f_pct is navbench.candidates.pct, and every place the page writes a share uses it.

Hand-made results whose shares sit at 99.96 %: 2,500 queries on one map at two agent radii;
prm:samples=40 misses one query that has a path (solved 2,499 of 2,500), prm:samples=400 returns
one invalid path (valid 2,499 of 2,500), grid8 solves all. The page must write 99.96 in the ranked
table, the chart's hover, the non-candidates table, the roadmaps table and the radius table, and
write no share as 100.0 or 100 where it is below 1.
Usage: test_shares_format.py ROOT. Exit 0 = pass, 1 = fail."""
import csv
import html
import os
import re
import subprocess
import sys
import tempfile

ROOT = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
sys.path.insert(0, os.path.join(ROOT, "python"))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
from navbench.candidates import pct  # noqa: E402
from navreport.analysis.fmt import f_pct  # noqa: E402

N = 2500
fails = []


def check(cond, what):
    print(("ok:   " if cond else "FAIL: ") + what)
    if not cond:
        fails.append(what)


check([f_pct(v) for v in (0.9996, 0.99996, 0.0004, 1, 0, 0.5)] == ["99.96", "99.996", "0.04", "100", "0", "50.0"]
      and all(f_pct(v) == pct(v) for v in (0.9996, 0.31, 1e-9, 1 - 1e-9)),
      "f_pct is candidates.pct: 99.96 % reads 99.96, never 100.0")

HEAD = ("map,collection,scen_index,bucket,representation,heuristic,smoothing,convention,sx,sy,gx,gy,status,length,optimal,"
        "octile_optimal,gap,valid,expansions,path_points,locate_us,search_us,smooth_us,message,search,radius").split(",")
tmp = tempfile.mkdtemp(prefix="navbench-shares.")
prefix = os.path.join(tmp, "r")
with open(prefix + ".csv", "w", newline="") as f:
    w = csv.writer(f)
    w.writerow(HEAD)
    for radius in ("0", "0.5"):
        for rep, miss, invalid in (("grid8", -1, -1), ("prm:samples=40", 7, -1), ("prm:samples=400", -1, 11)):
            for q in range(N):
                opt = 10 + q * 0.001
                ok = q != miss
                w.writerow(["m", "c", q, q % 10, rep, "euclidean", "none", "center", 1, 1, 9, 9,
                            "ok" if ok else "no_path", f"{opt * 1.01:.9g}" if ok else "", f"{opt:.9g}", "",
                            "0.01" if ok else "", ("0" if q == invalid else "1") if ok else "", 10, 3,
                            1.0, 5.0 + (q % 7) + (3 if rep == "grid8" else 0), 0.0,
                            "" if ok else "no sample connects the start", "astar", radius])
with open(prefix + ".build.csv", "w", newline="") as f:
    w = csv.writer(f)
    w.writerow(["map", "representation", "params", "build_ms", "vertices", "edges", "memory_bytes", "radius"])
    for radius in ("0", "0.5"):
        for rep, params in (("grid8", ""), ("prm:samples=40", "samples=40"), ("prm:samples=400", "samples=400")):
            w.writerow(["m", rep, params, 2.0, 100, 400, 4096, radius])
r = subprocess.run([os.path.join(ROOT, "scripts/navpy.sh"), os.path.join(ROOT, "scripts/report.py"), prefix,
                    "--out", os.path.join(tmp, "report"), "--figures", "none", "--boot", "100"],
                   capture_output=True, text=True)
check(r.returncode == 0, "report.py on the hand-made results" + ("" if r.returncode == 0 else ": " + r.stderr[-800:]))
page = open(os.path.join(tmp, "report", "report.html"), encoding="utf-8").read() if r.returncode == 0 else ""


def section(pattern):
    m = re.search(pattern, page, flags=re.S)
    return m.group(0) if m else ""


def cells(text):
    return [html.unescape(re.sub(r"<[^>]+>", "", c)).strip() for c in re.findall(r"<td[^>]*>(.*?)</td>", text, flags=re.S)]


ranked = section(r"<table class='ranked'.*?</table>")
solved = re.findall(r"data-metric='solved_pct' data-value='([^']*)'[^>]*>(?:<span[^>]*>[^<]*</span>)?([^<]*)<", ranked)
valid = re.findall(r"data-metric='valid_pct' data-value='([^']*)'[^>]*>(?:<span[^>]*>[^<]*</span>)?([^<]*)<", ranked)
check(("0.9996", "99.96") in solved and ("0.9996", "99.96") in valid,
      f"ranked table: solved and valid 99.96 ({solved[:4]}, {valid[:4]})")
check(not any(v != "1.0" and t.startswith("100") for v, t in solved + valid), "ranked table: no share below 1 written 100")
outside = section(r"<table class='answer-table not-candidates'.*?</table>")
check(outside.count(">99.96<") >= 2, "non-candidates table: solved 99.96 and valid 99.96")
check("solved 99.96 %" in page and "valid 99.96 %" in page, "the chart's hover: solved 99.96 %, valid 99.96 %")
road = cells(section(r"<table id='roadmaps-table'>.*?</table>"))
check(road.count("99.96") >= 2, f"roadmaps table: samples=40 solved 99.96 %, samples=400 valid 99.96 % ({road[:16]})")
rad = cells(section(r"<table id='radius-table'>.*?</table>"))
check(rad.count("99.96") >= 4, f"radius table: 99.96 at both radii ({rad[:10]})")
check("100.0" not in re.sub(r"<script.*?</script>", "", page, flags=re.S) and "100.0 %" not in page,
      "no share written 100.0 anywhere on the page")
print(f"kept: {tmp}" if fails else "ok: every share on the page by the one formatter")
sys.exit(1 if fails else 0)
