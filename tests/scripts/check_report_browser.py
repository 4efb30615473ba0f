#!/usr/bin/env python3
"""Opens a navbench report in a real headless Chromium (python3-selenium + chromium-driver) and
checks what a reader sees at a 1280 px wide window:
  - no console errors (the browser log holds no SEVERE entry);
  - every <img> loaded (naturalWidth > 0) and every plotly chart rendered (an SVG with traces);
  - every figure, image, chart and table within 1280 px (and the page does not scroll sideways);
  - the overall ranked table equals a recomputation from the result CSVs done here, with plain
    pandas and without the report's code (solved % over the queries that have a path, valid % over
    the paths returned, median / p95 query time,
    mean / p95 / max gap, build ms and memory per map);
  - the first screen as the page opens: the verdict, a facet table whose rows name build time and
    memory, its budget answers and the Pareto chart within the 900 px window; the links to the
    ranked table, and each link of the sticky index, unfold and bring up their target;
  - every facet table and table of non-candidates shows valid % and solved % (SPEC §14), and every
    row of a front table is a candidate (100 % and 100 %) unless the page says the rule was widened;
and saves a screenshot of the first screen (and a full-page one, every section unfolded).

    check_report_browser.py REPORT_DIR RESULTS_CSV[,RESULTS_CSV...] SCREENSHOT.png [--full FULL.png]

Exit 0 = pass, 1 = a check failed, 77 = skipped (no selenium / chromium / chromedriver).
"""
import argparse
import glob
import math
import os
import shutil
import sys

WIDTH, HEIGHT = 1280, 900


def find(names):
    for n in names:
        p = shutil.which(n) or (n if os.path.exists(n) else None)
        if p:
            return p
    return None


def recompute(csvs):
    """Overall ranked-table values per configuration, from the CSV files alone."""
    import numpy as np
    import pandas as pd
    frames, builds = [], []
    for c in csvs:
        frames.append(pd.read_csv(c, dtype={"message": str, "radius": str}, keep_default_na=True))
        b = c[:-4] + ".build.csv"
        if os.path.exists(b):
            builds.append(pd.read_csv(b))
    r = pd.concat(frames, ignore_index=True)
    b = pd.concat(builds, ignore_index=True) if builds else None
    legacy = (r["status"] == "error") & r["message"].fillna("").str.contains("not applicable", case=False)
    r.loc[legacy, "status"] = "not_applicable"
    if "terrain" in r.columns:  # docs/terrain.md: weighted maps are a facet of their own
        r["terrain_raw"] = r["terrain"].fillna("").astype(str)
        r["terrain"] = r["terrain_raw"].map(lambda t: f"terrain {t}" if t else "plain map")
    varying = [c for c in ("heuristic", "convention", "radius", "terrain") if c in r.columns and r[c].nunique() > 1]
    if "radius" in varying:
        r["radius"] = "r=" + r["radius"].astype(str)
    smoothing = r["smoothing"].astype(str)
    if "search" in r.columns:  # docs/path-quality.md: Theta* rows are configurations of their own ("theta + los")
        s = r["search"].fillna("astar").astype(str)
        smoothing = smoothing.where(s == "astar", s.where(smoothing == "none", s + " + " + smoothing))
    rep = r["representation"].astype(str)
    rep = rep.where(~rep.isin(["grid4", "grid8"]), rep + " (centre lattice)")  # the report names the lattice
    # A planner from outside (its type declares `outside` in the results' metadata: gppc:NAME) is
    # marked " (outside)" after its name (docs/outside-planners.md).
    outside = set()
    for c in csvs:
        m = c[:-4] + ".meta.json"
        if os.path.exists(m):
            import json
            with open(m) as f:
                reps = json.load(f).get("representations", {})
            outside |= {k for k, v in reps.items() if "outside" in v.get("capabilities", [])}
    if outside:
        rep = rep.where(~rep.str.split(":").str[0].isin(outside), rep + " (outside)")
    r["config"] = rep + " · " + smoothing
    if varying:
        r["config"] = r["config"] + " · " + r[varying].astype(str).agg(" / ".join, axis=1)
    t = r[["locate_us", "search_us", "smooth_us"]]
    r["qt"] = t.fillna(0).sum(axis=1).where(t.notna().any(axis=1))
    out = {}
    # SPEC §14: a query has a path when an optimum or a reference cost is known, or some configuration
    # returned a valid path for the same query, and it is a valid query.
    known = pd.Series(False, index=r.index)
    for c in ("optimal", "octile_optimal", "optimal_cost", "octile_optimal_cost"):
        if c in r.columns:
            known |= pd.to_numeric(r[c], errors="coerce").notna()
    found = (r["status"] == "ok") & (pd.to_numeric(r["valid"], errors="coerce") == 1)
    qkey = [c for c in ("map", "collection", "scen_index", "convention", "terrain", "radius") if c in r.columns]
    known |= found.groupby([r[c].astype(str) for c in qkey]).transform("any")
    r["with_path"] = known & ~r["status"].isin(["invalid_query", "not_applicable"])
    for cfg, g in r.groupby("config"):
        app = g[g["status"] != "not_applicable"]
        if app.empty:
            continue
        ok = app[app["status"] == "ok"]
        wp = app[app["with_path"]]
        v = {"solved_pct": (wp["status"] == "ok").sum() / len(wp) if len(wp) else math.nan,  # over queries with a path
             "valid_pct": (ok["valid"] == 1).sum() / len(ok) if len(ok) else math.nan,  # over the paths returned
             "time_median": ok["qt"].median(), "time_p95": ok["qt"].quantile(0.95),
             "gap_mean": ok["gap"].mean(), "gap_p95": ok["gap"].quantile(0.95), "gap_max": ok["gap"].max()}
        if b is not None:
            rep = g["representation"].iloc[0]
            bsel = b[(b["representation"] == rep) & b["map"].isin(set(g["map"]))]
            if "radius" in varying and "radius" in bsel.columns:  # each radius's own builds
                bsel = bsel[[f"r={float(v):.12g}" == g["radius"].iloc[0] for v in bsel["radius"]]]
            if "terrain" in varying and "terrain" in bsel.columns:  # the builds of its own maps, plain or weighted
                bsel = bsel[bsel["terrain"].fillna("").astype(str) == g["terrain_raw"].iloc[0]]
            bb = bsel.groupby("map")[["build_ms", "memory_bytes"]].mean()
            v["build_ms"] = bb["build_ms"].mean() if len(bb) else math.nan
            v["memory"] = bb["memory_bytes"].mean() if len(bb) else math.nan
        out[cfg] = {k: (float(x) if x is not None and not (isinstance(x, float) and math.isnan(x)) and
                        np.isfinite(float(x)) else math.nan) for k, x in v.items()}
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("report_dir")
    ap.add_argument("results", help="comma-separated result CSVs, or a folder (all *.csv but companions)")
    ap.add_argument("screenshot")
    ap.add_argument("--full", help="also save a full-page screenshot here")
    args = ap.parse_args()
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        print("SKIP: python3-selenium not installed")
        return 77
    chromium = find(["chromium", "chromium-browser", "google-chrome"])
    driver_bin = find(["/usr/bin/chromedriver", "chromedriver"])
    if not chromium or not driver_bin:
        print("SKIP: chromium or chromedriver not found")
        return 77
    if os.path.isdir(args.results):
        csvs = sorted(p for p in glob.glob(os.path.join(args.results, "**", "*.csv"), recursive=True)
                      if not p.endswith((".build.csv", ".paths.csv", ".structure.csv", ".unrun.csv")))
    else:
        csvs = args.results.split(",")
    failures = []

    def check(cond, what):
        print(("ok:   " if cond else "FAIL: ") + what)
        if not cond:
            failures.append(what)

    opts = webdriver.ChromeOptions()
    opts.binary_location = chromium
    for a in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
              f"--window-size={WIDTH},{HEIGHT}", "--hide-scrollbars", "--force-device-scale-factor=1"):
        opts.add_argument(a)
    opts.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    drv = webdriver.Chrome(service=Service(driver_bin), options=opts)
    try:
        drv.set_window_size(WIDTH, HEIGHT)
        # The window's own bars take some of its height: grow it until the page sees HEIGHT px.
        extra = HEIGHT - drv.execute_script("return window.innerHeight")
        if extra > 0:
            drv.set_window_size(WIDTH, HEIGHT + extra)
        drv.set_page_load_timeout(120)
        drv.get("file://" + os.path.abspath(os.path.join(args.report_dir, "report.html")))
        drv.execute_script("return document.readyState")
        import time
        deadline = time.time() + 60
        while time.time() < deadline:
            done = drv.execute_script(
                "return document.readyState === 'complete' && Array.from(document.images).every(i => i.complete)")
            if done:
                break
            time.sleep(0.2)
        inner = drv.execute_script("return [window.innerWidth, window.innerHeight]")
        check(inner[0] == WIDTH, f"window is {WIDTH} px wide (innerWidth {inner[0]}, innerHeight {inner[1]})")
        # The first screen as a reader opens the page: the verdict, the facet tables (the front's
        # points with build time and memory per map, the budget answers as marked columns) and the
        # compact Pareto chart beside them, all within the window; a link leads to the ranked table.
        first = drv.execute_script("""
            const v = document.querySelector('p.verdict'), t = document.querySelector('table.answer-table'),
                  c = document.querySelector('.first .plotly-graph-div') || document.querySelector('.plotly-graph-div');
            const box = e => e ? [e.getBoundingClientRect().top, e.getBoundingClientRect().bottom] : [1e9, 1e9];
            return [box(v), box(t), box(c)]""")
        check(first[0][1] < HEIGHT / 3 and first[1][0] < HEIGHT / 2 and first[1][1] <= HEIGHT and first[2][0] < HEIGHT / 2,
              f"the verdict, the first facet table and the Pareto chart are on the first screen "
              f"(verdict ends at {first[0][1]:.0f}, table {first[1][0]:.0f}-{first[1][1]:.0f}, chart from {first[2][0]:.0f} px)")
        # The facet tables fit their column beside the chart: wider, they scroll sideways inside it
        # (before that fallback a wide table ran under the chart, its last columns hidden).
        cramped = drv.execute_script("""
            return Array.from(document.querySelectorAll('.first .tables'))
              .filter(e => e.getBoundingClientRect().width > 0 && e.scrollWidth > e.clientWidth + 1)
              .map(e => (e.closest('section') || e).id + ': ' + e.scrollWidth + ' > ' + e.clientWidth + ' px')""")
        check(not cramped, "the facet tables fit beside the Pareto chart" + (f" (not: {cramped})" if cramped else ""))
        ans = drv.execute_script("""
            const first = document.getElementById('answer-all') || document;
            const fronts = 'table.answer-table:not(.not-candidates)';
            const rows = Array.from(first.querySelectorAll(fronts + ' tbody tr'));
            const named = rows.filter(r => ['build_ms', 'memory'].every(m => {
                const c = r.querySelector("td[data-metric='" + m + "']"); return c && c.textContent.trim() !== ''; }));
            // The first facet table's budget answers (the tables below it may run past the first screen).
            const t0 = first.querySelector(fronts);
            const marks = t0 ? Array.from(t0.querySelectorAll('th.mark.budget')) : [];
            const none = t0 ? Array.from(t0.querySelectorAll('caption')).filter(c => / budget changes this front/.test(c.textContent)) : [];
            return [rows.length, named.length, first.querySelectorAll('table.answer-table tr.front').length,
                    marks.length, marks.map(m => m.getBoundingClientRect().bottom).concat(none.map(c => c.getBoundingClientRect().bottom)),
                    none.length]""")
        check(ans[0] > 0 and ans[0] == ans[1] and ans[2] > 0,
              f"every row of the facet tables names its build time and memory ({ans[1]} of {ans[0]}; {ans[2]} on the front)")
        check(ans[3] + ans[5] > 0 and max(ans[4]) <= HEIGHT,
              f"the first facet table's budget answers are on the first screen ({ans[3]} budget columns, {ans[5]} 'no budget' notes)")
        # SPEC §14: every front and not-candidates table shows valid % and solved %; a front row is a
        # candidate (both 100 %) unless the page says the reader widened the rule.
        shares = drv.execute_script("""
            const out = {tables: 0, lacking: [], short: [], widened: !!document.querySelector('p.widened')};
            document.querySelectorAll('table.answer-table').forEach(t => {
              out.tables++;
              const heads = Array.from(t.tHead.rows[0].cells).map(c => c.textContent);
              const cells = Array.from(t.tBodies[0].rows).map(r => ['valid_share', 'solved_share'].map(m =>
                  r.querySelector("td[data-metric='" + m + "']")));
              if (!['valid', 'solved'].every(h => heads.some(x => x.startsWith(h))) || cells.some(c => !c[0] || !c[1]))
                out.lacking.push(t.dataset.facet);
              if (!t.classList.contains('not-candidates'))
                Array.from(t.tBodies[0].rows).forEach((r, i) => cells[i].forEach(c => {
                  if (c && c.dataset.value !== '1.0') out.short.push(r.dataset.config + ' ' + c.dataset.metric + ' ' + c.dataset.value); }));
            });
            return out;""")
        check(shares["tables"] > 0 and not shares["lacking"],
              f"every facet table shows valid % and solved % ({shares['tables']} tables" +
              (f"; not: {shares['lacking']}" if shares["lacking"] else "") + ")")
        check(shares["widened"] or not shares["short"],
              "every row of a front table has 100 % valid and 100 % solved" + (f" (not: {shares['short'][:3]})" if shares["short"] else ""))
        drv.save_screenshot(args.screenshot)
        print(f"screenshot: {args.screenshot}")
        link = drv.find_elements("css selector", "a.to-ranked")
        if link:
            link[0].click()
            time.sleep(0.3)
            target = "#" + link[0].get_attribute("href").split("#", 1)[1]
            top = drv.execute_script("const t = document.querySelector(arguments[0]); return t ? t.getBoundingClientRect().top : 1e9",
                                     target)
            check(abs(top) < 50, f"the link under the answer brings the ranked table to the top (at {top:.0f} px)")
            drv.execute_script("window.scrollTo(0, 0)")
        else:
            check(False, "a link from the answer to the ranked table")
        # A configuration's name in a facet table unfolds and shows its row of the ranked table.
        row = drv.execute_script("""
            const a = document.querySelector("table.answer-table a[href^='#rank-']"); if (!a) return null;
            a.click(); const t = document.querySelector(a.getAttribute('href'));
            return t ? [t.getBoundingClientRect().top, t.getBoundingClientRect().height] : [1e9, 0]""")
        if row is not None:
            time.sleep(0.3)
            check(row[1] > 0 and 0 <= row[0] < HEIGHT, f"a name in a facet table leads to its ranked-table row (at {row[0]:.0f} px)")
            drv.execute_script("window.scrollTo(0, 0)")
        # Every section is reachable from the sticky index: a click unfolds it and brings it up.
        ids = drv.execute_script("return Array.from(document.querySelectorAll('nav a')).map(a => a.getAttribute('href'))")
        lost = []
        for href in ids:
            drv.execute_script("document.querySelector(\"nav a[href='\" + arguments[0] + \"']\").click()", href)
            time.sleep(0.05)
            top = drv.execute_script("""const s = document.querySelector(arguments[0]); const d = s && s.querySelector('details');
                return s && (!d || d.open) ? s.getBoundingClientRect().top : 1e9""", href)
            if not -5 < top < HEIGHT - 40:
                lost.append(f"{href} at {top:.0f}")
        check(ids and not lost, f"each of the {len(ids)} index links unfolds its section and brings it up" +
              (f" (not: {lost[:3]})" if lost else ""))
        drv.execute_script("window.scrollTo(0, 0)")
        drv.execute_script("document.querySelectorAll('details').forEach(d => d.open = true)")
        dyn = drv.execute_script("""
            const s = document.getElementById('dynamic'); if (!s) return null;
            const a = s.querySelector('#dynamic-answer'), c = s.querySelector('.plotly-graph-div');
            return [a ? a.querySelectorAll('li').length : 0, a && c ? a.getBoundingClientRect().top < c.getBoundingClientRect().top : false]""")
        if dyn is not None:
            check(dyn[0] > 0 and dyn[1], f"'Changing maps' opens with its answer, one line per scenario ({dyn[0]} lines)")
        logs = drv.get_log("browser")
        severe = [e for e in logs if e.get("level") == "SEVERE"]
        check(not severe, "no console errors" + (f": {severe[:3]}" if severe else ""))
        imgs = drv.execute_script(
            "return Array.from(document.images).filter(i => i.getAttribute('src')).map(i => [i.getAttribute('src'), i.naturalWidth])")
        bad = [s for s, w in imgs if not w]
        check(not bad, f"all {len(imgs)} images loaded" + (f" (not: {bad[:3]})" if bad else ""))
        charts = drv.execute_script("""
            return Array.from(document.querySelectorAll('.plotly-graph-div')).map(d => [
                d.id, !!d._fullLayout, d.querySelectorAll('.main-svg').length,
                d.querySelectorAll('.scatterlayer .trace').length])""")
        check(len(charts) > 0, f"{len(charts)} plotly charts on the page")
        broken = [c for c in charts if not (c[1] and c[2] > 0 and c[3] > 0)]
        check(not broken, "every plotly chart rendered with traces" + (f" (not: {broken[:3]})" if broken else ""))
        # Point labels (annotations with a leader line) overlap neither each other nor any marker.
        clashes = drv.execute_script("""
            const out = [];
            const hit = (a, b) => a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1;
            document.querySelectorAll('.plotly-graph-div').forEach(d => {
              const name = (d.closest('figure') || d).id;  // fig-<stem>: which chart
              const labels = Array.from(d.querySelectorAll('g.annotation')).filter(g => g.querySelector('.annotation-arrow-g'))
                .map(g => [g.textContent, g.querySelector('rect.bg').getBoundingClientRect()]);
              const marks = Array.from(d.querySelectorAll('.scatterlayer .point')).map(p => p.getBoundingClientRect())
                .filter(r => r.width > 0);
              labels.forEach(([t, r], i) => {
                labels.slice(i + 1).forEach(([u, q]) => { if (hit(r, q)) out.push(name + ': ' + t + ' / ' + u); });
                marks.forEach(m => { if (hit(r, m)) out.push(name + ': ' + t + ' over a marker'); });
              });
            });
            return out;""")
        check(not clashes, "point labels overlap no other label and no marker" + (f" ({clashes[:4]})" if clashes else ""))
        # A colour names one series per chart: two legend entries never share a colour.
        shared = drv.execute_script("""
            const out = [];
            document.querySelectorAll('.plotly-graph-div').forEach(d => {
              const seen = {};
              (d._fullData || []).forEach(t => {
                if (!t.showlegend || !t.name) return;
                const markers = String(t.mode || '').includes('markers') && t.marker && typeof t.marker.color === 'string';
                const c = String(markers ? t.marker.color : (t.line && t.line.color) || '').toLowerCase();
                if (!c || c === '#aaaaaa' || c === '#555555') return;  // marker-shape keys, the Pareto front
                if (seen[c] && seen[c] !== t.name) out.push(d.id + ': ' + seen[c] + ' / ' + t.name + ' (' + c + ')');
                else seen[c] = t.name;
              });
            });
            return out;""")
        check(not shared, "no two legend entries of a chart share a colour" + (f" ({len(shared)} charts, e.g. {shared[:4]})" if shared else ""))
        # Every <details> is open from here on, so hidden tables and charts are measured too.
        wide = drv.execute_script(f"""
            return Array.from(document.querySelectorAll('figure, img, .plotly-graph-div, table, svg.main-svg'))
              .map(e => [e.tagName + '#' + (e.id || e.className || ''), e.getBoundingClientRect().right])
              .filter(x => x[1] > {WIDTH});""")
        check(not wide, f"every figure, image, chart and table within {WIDTH} px" + (f" (not: {wide[:3]})" if wide else ""))
        sw = drv.execute_script("return document.documentElement.scrollWidth")
        check(sw <= WIDTH, f"no horizontal scrolling (scrollWidth {sw})")
        small = drv.execute_script("""
            return Array.from(document.querySelectorAll('.plotly-graph-div text, td, th, li, p, figcaption'))
              .filter(e => e.textContent.trim() && e.getBoundingClientRect().width > 0)
              .map(e => parseFloat(getComputedStyle(e).fontSize)).filter(s => s < 10).length""")
        check(small == 0, f"no visible text below 10 px ({small} elements)")
        # The ranked table against the recomputation.
        cells = drv.execute_script("""
            const ts = document.querySelectorAll("table.ranked[data-scope='all']"); if (!ts.length) return null;
            return Array.from(ts).flatMap(t => Array.from(t.tBodies[0].rows)).map(r => [r.cells[1].dataset.config,
              Array.from(r.querySelectorAll('td[data-metric]')).map(c => [c.dataset.metric, c.dataset.value])]);""")
        check(cells is not None and len(cells) > 0, "overall ranked table present")
        expect = recompute(csvs)
        mism = []
        for cfg, vals in cells or []:
            if cfg not in expect:
                mism.append(f"{cfg}: not in the CSVs")
                continue
            for metric, text in vals:
                want = expect[cfg].get(metric, math.nan)
                got = float(text) if text else math.nan
                if math.isnan(want) and math.isnan(got):
                    continue
                if math.isnan(want) or math.isnan(got) or abs(got - want) > 1e-9 * max(1.0, abs(want)):
                    mism.append(f"{cfg} {metric}: page {got}, recomputed {want}")
        applicable = set(expect)
        shown = {c for c, _ in cells or []}
        check(shown == applicable, f"table lists the {len(applicable)} applicable configurations")
        check(not mism, "ranked table equals the recomputation from results.csv" + (f": {mism[:4]}" if mism else ""))
        if args.full:
            drv.execute_script("window.scrollTo(0, 0)")
            h = drv.execute_script("return document.documentElement.scrollHeight")
            drv.set_window_size(WIDTH, min(h, 16000))
            drv.save_screenshot(args.full)
            print(f"full page: {args.full}")
    finally:
        drv.quit()
    if failures:
        print(f"{len(failures)} check(s) failed", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
