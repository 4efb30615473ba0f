#!/usr/bin/env python3
"""Opens a navbench report in a real headless Chromium (python3-selenium + chromium-driver) and
checks what a reader sees at a 1280 px wide window:
  - no console errors (the browser log holds no SEVERE entry);
  - every <img> loaded (naturalWidth > 0) and every plotly chart rendered (an SVG with traces);
  - every figure, image, chart and table within 1280 px (and the page does not scroll sideways);
  - the overall ranked table equals a recomputation from the result CSVs done here, with plain
    pandas and without the report's code (solved %, valid %, median / p95 query time,
    mean / p95 / max gap, build ms and memory per map);
and saves a screenshot of the first screen (and a full-page one).

    check_report_browser.py REPORT_DIR RESULTS_CSV[,RESULTS_CSV...] SCREENSHOT.png [--full FULL.png]

Exit 0 = pass, 1 = a check failed, 77 = skipped (no selenium / chromium / chromedriver).
"""
import argparse
import glob
import math
import os
import shutil
import sys

WIDTH, HEIGHT = 1280, 1000


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
    varying = [c for c in ("heuristic", "convention", "radius") if c in r.columns and r[c].nunique() > 1]
    if "radius" in varying:
        r["radius"] = "r=" + r["radius"].astype(str)
    smoothing = r["smoothing"].astype(str)
    if "search" in r.columns:  # docs/path-quality.md: Theta* rows are configurations of their own ("theta + los")
        s = r["search"].fillna("astar").astype(str)
        smoothing = smoothing.where(s == "astar", s.where(smoothing == "none", s + " + " + smoothing))
    r["config"] = r["representation"] + " · " + smoothing
    if varying:
        r["config"] = r["config"] + " · " + r[varying].astype(str).agg(" / ".join, axis=1)
    t = r[["locate_us", "search_us", "smooth_us"]]
    r["qt"] = t.fillna(0).sum(axis=1).where(t.notna().any(axis=1))
    out = {}
    for cfg, g in r.groupby("config"):
        app = g[g["status"] != "not_applicable"]
        if app.empty:
            continue
        ok = app[app["status"] == "ok"]
        v = {"solved_pct": len(ok) / len(app),
             "valid_pct": (ok["valid"] == 1).sum() / ok["valid"].notna().sum() if ok["valid"].notna().any() else math.nan,
             "time_median": ok["qt"].median(), "time_p95": ok["qt"].quantile(0.95),
             "gap_mean": ok["gap"].mean(), "gap_p95": ok["gap"].quantile(0.95), "gap_max": ok["gap"].max()}
        if b is not None:
            rep = g["representation"].iloc[0]
            bsel = b[(b["representation"] == rep) & b["map"].isin(set(g["map"]))]
            if "radius" in varying and "radius" in bsel.columns:  # each radius's own builds
                bsel = bsel[[f"r={float(v):.12g}" == g["radius"].iloc[0] for v in bsel["radius"]]]
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
                      if not p.endswith((".build.csv", ".paths.csv", ".structure.csv")))
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
        inner = drv.execute_script("return window.innerWidth")
        check(inner == WIDTH, f"window is {WIDTH} px wide (innerWidth {inner})")
        first = drv.execute_script("""
            const a = document.querySelector('ul.answer'), c = document.querySelector('.plotly-graph-div');
            return [a ? a.getBoundingClientRect().top : 1e9, c ? c.getBoundingClientRect().top : 1e9]""")
        check(first[0] < HEIGHT / 2 and first[1] < HEIGHT * 0.8,
              f"the answer and the Pareto chart start on the first screen (at {first[0]:.0f} and {first[1]:.0f} px)")
        # The answer weighs build time and memory: every front point names both, the budget answers
        # are on the first screen, and a link under the answer leads to the ranked table.
        ans = drv.execute_script("""
            const a = document.querySelector('ul.answer'); if (!a) return null;
            const li = a.querySelector('li'), fronts = li ? Array.from(li.querySelectorAll('.front-point')) : [];
            return [fronts.length, fronts.filter(f => / build .*, .* per map\)$/.test(f.textContent)).length,
                    a.querySelectorAll('span.budget').length,
                    Array.from(a.querySelectorAll('span.budget')).map(s => s.getBoundingClientRect().top)]""")
        check(ans is not None and ans[0] > 0 and ans[0] == ans[1],
              f"each front point of the answer names its build time and memory ({ans and ans[1]} of {ans and ans[0]})")
        check(ans is not None and ans[2] > 0 and max(ans[3]) < HEIGHT,
              f"budget answers on the first screen ({ans and ans[2]})")
        link = drv.find_elements("css selector", "ul.answer a.to-ranked")
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
              const labels = Array.from(d.querySelectorAll('g.annotation')).filter(g => g.querySelector('.annotation-arrow-g'))
                .map(g => [g.textContent, g.querySelector('rect.bg').getBoundingClientRect()]);
              const marks = Array.from(d.querySelectorAll('.scatterlayer .point')).map(p => p.getBoundingClientRect())
                .filter(r => r.width > 0);
              labels.forEach(([t, r], i) => {
                labels.slice(i + 1).forEach(([u, q]) => { if (hit(r, q)) out.push(d.id + ': ' + t + ' / ' + u); });
                marks.forEach(m => { if (hit(r, m)) out.push(d.id + ': ' + t + ' over a marker'); });
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
        # Open every <details> so hidden tables and charts are measured too.
        drv.execute_script("document.querySelectorAll('details').forEach(d => d.open = true)")
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
        drv.execute_script("document.querySelectorAll('details').forEach(d => d.open = false)")
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
        drv.execute_script("window.scrollTo(0, 0)")
        drv.save_screenshot(args.screenshot)
        print(f"screenshot: {args.screenshot}")
        if args.full:
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
