"""A planner from outside in the viewer (docs/outside-planners.md#8-in-the-viewer), in headless
Chromium at 1280 px. Usage: test_viewer_outside.py NAVBENCH ROOT ENTRY OUTDIR, ENTRY the example
any-angle entry's program. Exit 0 = pass, 1 = fail, 77 = skipped (no chromium, chromedriver or selenium).

`navbench serve --rep gppc:path=ENTRY,track=anyangle,name=vis` on rooms-16-128: the page lists
gppc:vis selected; after a real drag of start and goal the points sit on cell corners (the
any-angle track's), and the table holds gppc:vis's row beside visgraph's with the same length
(the example is exact), valid; its path is drawn. The API takes a planner from outside only by a
name given on the command line (a program named in a request is refused before it runs), and
serve refuses --rep of navbench's own. Screenshot: OUTDIR/viewer-outside.png."""
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(__file__))
import test_viewer as tv  # noqa: E402  (its server, browser and drag helpers)

FAILURES = []


def check(cond, msg):
    print(("ok   " if cond else "FAIL ") + msg, flush=True)
    if not cond:
        FAILURES.append(msg)
    return cond


def api_checks(nb, rooms, entry, srv):
    status, res = srv.query({"map": 0, "reps": ["gppc:vis", "visgraph"], "start": [3, 3], "goal": [120, 100]})
    rows = {r["representation"]: r for r in res.get("results", [])}
    check(status == 200 and rows.get("gppc:vis", {}).get("status") == "ok" and rows["gppc:vis"].get("valid") is True
          and abs(rows["gppc:vis"]["length"] - rows["visgraph"]["length"]) < 1e-9,
          f"the API answers gppc:vis beside visgraph: {[(r['representation'], r['status'], r.get('length')) for r in rows.values()]}")
    marker = os.path.join(os.path.dirname(entry), "never-run")
    status, res = srv.query({"map": 0, "reps": [f"gppc:path=/usr/bin/touch,track=classic,name={marker}"], "start": [3, 3], "goal": [9, 9]})
    check(status == 400 and "command line" in res.get("error", "") and not os.path.exists(marker),
          f"a program named in a request is refused before it runs: {status} {res.get('error', '')[:80]}")
    p = subprocess.run([nb, "serve", "--map", rooms, "--port", "0", "--rep", "grid8"], capture_output=True, text=True, timeout=30)
    check(p.returncode == 2 and "planners from outside" in p.stderr, f"serve --rep grid8: exit {p.returncode}, {p.stderr.strip()[:90]}")


def browser_checks(srv, out):
    driver = tv.chrome(width=1280, height=860)
    try:
        driver.get(srv.url + "?map=0")
        tv.wait_for(driver, "return document.querySelectorAll('#results tbody tr').length >= 2", "the first results", 60)
        listed = driver.execute_script("return navbenchViewer.state.reps.filter(r => r.selected).map(r => r.spec)")
        check("gppc:vis" in listed, f"gppc:vis is listed and selected: {listed}")
        box = driver.find_element("css selector", '#reps li[data-rep="visgraph"] input[type=checkbox]')
        if not box.is_selected():
            box.click()
        cur = driver.execute_script("return [navbenchViewer.state.start, navbenchViewer.state.goal]")
        targets = [(10.3, 12.6), (117.2, 104.7)]  # dropped inside cells: the any-angle track snaps to a corner
        for i, t in enumerate(targets):
            frm = driver.execute_script("return navbenchViewer.mapToClient(...arguments[0])", cur[i])
            to = driver.execute_script("return navbenchViewer.mapToClient(...arguments[0])", list(t))
            tv.drag(driver, frm, to)
        pts = driver.execute_script("return [navbenchViewer.state.start, navbenchViewer.state.goal]")
        check(all(float(v).is_integer() for p in pts for v in p) and all(abs(p[k] - t[k]) <= 1.0 for p, t in zip(pts, targets) for k in (0, 1)),
              f"the dragged points snap to cell corners: {pts}")
        want = json.dumps([*pts[0], *pts[1]], separators=(",", ":"))
        tv.wait_for(driver, f"return document.querySelector('#results').dataset.query == {json.dumps(want)} && "
                            "[...document.querySelectorAll('#results tbody tr')].some(tr => tr.dataset.rep == 'gppc:vis') && "
                            "!document.querySelector('#status').textContent.includes('building')", "the table for the dragged points", 60)
        rows = {r["rep"]: r for r in tv.table(driver)}
        e, v = rows.get("gppc:vis", {}), rows.get("visgraph", {})
        check(e.get("status") == "ok" and e.get("valid") in ("1", "true") and v.get("status") == "ok"
              and abs(float(e.get("length", "nan")) - float(v.get("length", "nan"))) < 1e-6,
              f"the entry's row beside visgraph's: {e} / {v}")
        drawn = driver.execute_script("""const res = navbenchViewer.state.results;
            const r = res && res.results.find(x => x.representation == 'gppc:vis' && x.status == 'ok');
            return r ? r.path.length : 0""")
        check(drawn >= 2, f"the entry's path is in the page's answer ({drawn} points)")
        legend = driver.execute_script("return document.querySelector('#legend') ? document.querySelector('#legend').textContent : ''")
        check("gppc:vis" in legend, "the legend names gppc:vis")
        check(driver.execute_script("return document.documentElement.scrollWidth") <= 1280, "the page fits 1280 px")
        errors = [l for l in driver.get_log("browser") if l["level"] == "SEVERE"]
        check(not errors, f"no console errors: {errors[:2]}")
        driver.save_screenshot(os.path.join(out, "viewer-outside.png"))
    finally:
        driver.quit()


def main():
    nb, root, entry, out = sys.argv[1:5]
    if not (os.path.exists("/usr/bin/chromium") and os.path.exists("/usr/bin/chromedriver")):
        print("skip: /usr/bin/chromium or /usr/bin/chromedriver is missing")
        return 77
    try:
        import selenium  # noqa: F401
    except ImportError:
        print("skip: no selenium")
        return 77
    os.makedirs(out, exist_ok=True)
    rooms = os.path.join(root, "datasets/maps/generated/rooms-16-128.map")
    srv = tv.Server(nb, [rooms], extra=["--rep", f"gppc:path={entry},track=anyangle,name=vis,log={os.path.join(out, 'entry.log')}"])
    try:
        api_checks(nb, rooms, entry, srv)
        browser_checks(srv, out)
    finally:
        srv.stop()
    return 1 if FAILURES else 0


if __name__ == "__main__":
    sys.exit(main())
