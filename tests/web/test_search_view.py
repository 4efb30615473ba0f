"""The viewer's search view (docs/traces.md#in-navbenchs-viewer) in headless Chromium at 1280 px.
Usage: test_search_view.py NAVBENCH ROOT OUTDIR. Exit 0 = pass, 1 = fail, 77 = skipped (no
chromium, chromedriver or selenium, or no den520d map).

On den520d, grid8, quadtree, navmesh and visgraph:table=0 with "show the search" ticked, after a
real drag of the goal: each answer carries its search, whose expansions equal its row's; the canvas
shows the expanded vertices (pixels of the viridis ramp with one representation shown); the slider
steps back (fewer such pixels) and Play moves it forward; A* has no shortcut and Theta* has
shortcuts (parents other than the vertex reached from, some farther than one move); a trace
written by `navbench run --trace` opens from the file input with as many expansions as its index
says and its structure layer's segments. Screenshots go to OUTDIR (search-all.png, search-REP.png for each, search-grid8-step.png,
search-theta.png, search-file.png)."""
import csv
import json
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(__file__))
import test_viewer as tv  # noqa: E402  (its server, browser and drag helpers)

FAILURES = []


def check(cond, msg):
    if not cond:
        FAILURES.append(msg)
    return cond


# Pixels of the viridis ramp's middle (search.js colours an expanded vertex by its order).
COUNT_RAMP = """const c = document.querySelector('#canvas'), g = c.getContext('2d');
const d = g.getImageData(0, 0, c.width, c.height).data; let n = 0;
for (let i = 0; i < d.length; i += 4) { const r = d[i], gg = d[i + 1], b = d[i + 2];
  if (gg > r + 40 && gg > 80 && b > 60 && r < 120) ++n; }
return n;"""


def main():
    nb, root, out = sys.argv[1], sys.argv[2], sys.argv[3]
    den = os.path.join(root, "../shared/datasets/movingai/dao/den520d.map")
    if not (os.path.exists(den) and os.path.exists("/usr/bin/chromium") and os.path.exists("/usr/bin/chromedriver")):
        print("test_search_view: no den520d map or no chromium/chromedriver; skipped")
        return 77
    try:
        import selenium  # noqa: F401
    except ImportError:
        print("test_search_view: no selenium; skipped")
        return 77
    os.makedirs(out, exist_ok=True)
    # Trace files to open: den520d's queries 0 and 444 on grid8, quadtree, navmesh, visgraph:table=0
    # and visgraph (a table answer).
    prefix = os.path.join(out, "run", "den")
    subprocess.run([nb, "run", "--map", den, "--rep", "visgraph,quadtree,navmesh", "--rep", "visgraph:table=0", "--rep", "grid8",
                    "--limit", "2", "--trace", "2", "--quiet", "--no-optimum", "--out", prefix], check=True)
    index = list(csv.DictReader(open(os.path.join(out, "run", "traces", "den.traces.csv"))))
    reps = ["grid8", "quadtree", "navmesh", "visgraph:table=0"]
    srv = tv.Server(nb, [den])
    try:
        d = tv.chrome(1280, 860)
        try:
            d.get(srv.url)
            tv.wait_for(d, "return window.navbenchViewer && navbenchViewer.state.map", "the map")
            d.execute_script("addRep('visgraph:table=0', 'custom parameters');"
                             "navbenchViewer.state.reps.forEach(r => r.selected = arguments[0].includes(r.spec)); renderReps();", reps)
            d.find_element("id", "searchon").click()
            d.execute_script("navbenchViewer.setPoints([60.5, 180.5], [200.5, 150.5])")
            tv.wait_for(d, "const r = navbenchViewer.state.results; return r && r.results.some(x => x.trace)", "a traced answer")
            # a real drag of the goal to its final place
            frm = d.execute_script("return navbenchViewer.mapToClient(200.5, 150.5)")
            to = d.execute_script("return navbenchViewer.mapToClient(230.5, 120.5)")
            tv.drag(d, frm, to)
            tv.wait_for(d, "const r = navbenchViewer.state.results; return r && r.results.every(x => x.trace) && "
                           "navbenchViewer.state.goal[0] > 220 && navbenchViewer.state.shownQuery.join() == "
                           "[...navbenchViewer.state.start, ...navbenchViewer.state.goal].join()", "the dragged query's searches")
            time.sleep(0.5)
            res = d.execute_script("return navbenchViewer.state.results.results.filter(r => r.trace)"
                                   ".map(r => [r.representation, r.expansions, r.generated, r.trace.expansions, r.trace.generated,"
                                   " r.trace.expanded.length / 4, r.trace.frontier.length / 2, r.trace.shortcut.reduce((a, b) => a + b, 0)])")
            for rep, exp, gen, texp, tgen, kept, front, short in res:
                check(exp == texp == kept and gen == tgen, f"{rep}: trace {texp}/{tgen} (kept {kept}) vs row {exp}/{gen}")
                check(short == 0, f"{rep}: A* has {short} shortcuts")
                check(exp > 0 and front > 0, f"{rep}: no expansions or no frontier")
            check(sorted(r[0] for r in res) == sorted(reps), f"answers of {[r[0] for r in res]}")
            d.save_screenshot(os.path.join(out, "search-all.png"))
            d.execute_script("document.querySelector('#searchsec').scrollIntoView()")
            for rep in reps:  # each search alone, on the viridis ramp
                d.execute_script("const s = document.querySelector('#searchonly'); s.value = arguments[0]; s.dispatchEvent(new Event('change'))", rep)
                time.sleep(0.3)
                check(d.execute_script(COUNT_RAMP) > 0, f"{rep}'s search alone draws nothing")
                d.save_screenshot(os.path.join(out, f"search-{rep.replace(':', '_')}.png"))
            # one representation, stepped back to a third of its expansions, then played
            d.execute_script("const s = document.querySelector('#searchonly'); s.value = 'grid8'; s.dispatchEvent(new Event('change'))")
            time.sleep(0.3)
            whole = d.execute_script(COUNT_RAMP)
            n = d.execute_script("return +document.querySelector('#searchstep').max")
            d.execute_script("const s = document.querySelector('#searchstep'); s.value = arguments[0]; s.dispatchEvent(new Event('input'))", n // 3)
            time.sleep(0.3)
            part = d.execute_script(COUNT_RAMP)
            check(whole > 1000 and 0 < part < whole, f"viridis pixels: {part} at step {n // 3}, {whole} at the end")
            check(d.execute_script("return document.querySelector('#searchstepval').textContent") == f"{n // 3} / {n}", "the step's text")
            d.execute_script("document.querySelector('#searchsec').scrollIntoView()")
            d.save_screenshot(os.path.join(out, "search-grid8-step.png"))
            d.find_element("id", "searchplay").click()
            time.sleep(1.0)
            later = d.execute_script("return navbenchViewer.search.step")
            check(later > n // 3, f"Play did not move the step ({later})")
            d.find_element("id", "searchplay").click()
            # Theta*: parent links
            d.execute_script("const s = document.querySelector('#search'); s.value = 'theta'; s.dispatchEvent(new Event('change'))")
            tv.wait_for(d, "const r = navbenchViewer.state.results; return r && r.results.some(x => x.search == 'theta' && x.trace)", "Theta*'s search")
            time.sleep(0.5)
            # its parent changes: shortcuts, some of them longer than one move, drawn as dark links
            sc = d.execute_script("const t = navbenchViewer.state.results.results.find(x => x.search == 'theta' && x.trace).trace, e = t.expanded;"
                                  "let n = 0, far = 0; t.shortcut.forEach((s, i) => { if (!s) return; ++n;"
                                  " if (Math.hypot(e[4*i] - e[4*i+2], e[4*i+1] - e[4*i+3]) > 1.5) ++far; }); return [n, far, t.shortcut.length]")
            check(sc[0] > 0 and sc[1] > 0 and sc[2] > 0, f"Theta*'s trace: {sc[0]} shortcuts, {sc[1]} longer than a move, of {sc[2]} expansions")
            d.save_screenshot(os.path.join(out, "search-theta.png"))
            # a trace file
            d.execute_script("const s = document.querySelector('#search'); s.value = 'astar'; s.dispatchEvent(new Event('change'))")
            d.find_element("id", "searchon").click()  # off: only the file's search
            for t in index:  # every file opens, with its expansions (the last: grid8's long query)
                d.execute_script("navbenchViewer.search.file = null; document.querySelector('#tracefile').value = ''")
                d.find_element("id", "tracefile").send_keys(os.path.abspath(os.path.join(out, "run", "traces", t["file"])))
                tv.wait_for(d, "return navbenchViewer.search.file", "the trace file " + t["file"])
                got = d.execute_script("const f = navbenchViewer.search.file; "
                                       "return [f.trace.expanded.length / 4, f.trace.answered, f.structure ? f.structure.length / 4 : 0]")
                check(got[0] == int(t["expand"]), f"{t['file']} shows {got[0]} expansions, its index {t['expand']}")
                drawn = json.load(open(os.path.join(out, "run", "traces", t["file"])))["events"][0].get("drawn", -1)
                check(got[2] == drawn > 0, f"{t['file']}: the viewer holds {got[2]} structure segments, the file {drawn}")
                check((got[1] == "table") == (t["representation"] == "visgraph"), f"{t['file']}: answered {got[1]}")
            d.execute_script("const f = navbenchViewer.search.file; navbenchViewer.setPoints([f.start.x, f.start.y], [f.goal.x, f.goal.y])")
            tv.wait_for(d, "const f = navbenchViewer.search.file, q = navbenchViewer.state.shownQuery; return q && q[2] == f.goal.x", "the file's query")
            time.sleep(0.5)
            d.save_screenshot(os.path.join(out, "search-file.png"))
            errors = [e for e in d.get_log("browser") if e["level"] == "SEVERE"]
            check(not errors, f"console errors: {errors[:3]}")
        finally:
            d.quit()
    finally:
        srv.stop()
    for f in FAILURES:
        print("FAIL:", f)
    print(f"test_search_view: {len(FAILURES)} failures; screenshots in {out}")
    return 1 if FAILURES else 0


if __name__ == "__main__":
    sys.exit(main())
