#!/usr/bin/env python3
"""Planner Arena (OMPL's R Shiny app) on navbench's OMPL export (docs/results.md#ompls-benchmark-log):
navbench makes a small result set (tests/scripts/package_fixture.py), `navbench export --ompl`
writes its logs, OMPL's ompl_benchmark_statistics turns them into its database, and the app starts
on 127.0.0.1 with that database (Rscript -e shiny::runApp). In headless Chromium at 1280 px:

- the "Overall performance" page lists navbench's configurations as its planners (every one of
  them, the names as navbench writes them) and draws its plot (an image the server rendered);
- with every planner selected, the plot as Planner Arena exports it (its "Download plot as PDF")
  names every configuration: the plot shows navbench's configurations;
- the attribute menu offers navbench's run properties (time, solved, length, valid, clearance,
  turning);
- the database holds the same rows as a run of a second commit too, and the Regression page offers
  both navbench versions and draws its plot.

The app comes from Debian's ompl-plannerarena, unpacked by scripts/setup into
/opt/navbench/plannerarena (or $NAVBENCH_PLANNERARENA: the folder holding server.R); Debian 12
lacks its R dependency `pool`, for which tests/web/plannerarena-pool/ is installed into a temporary
R library (dbPool: one DBI connection). Screenshots: OUT/plannerarena.png, OUT/plannerarena-regression.png.

    test_plannerarena.py NAVBENCH ROOT OUT     exit 0 pass, 1 fail, 77 skipped (no R, app, OMPL script or browser)
"""
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "..", "scripts"))
import package_fixture  # noqa: E402
from package_fixture import check, finish  # noqa: E402
APP_DIRS = [os.environ.get("NAVBENCH_PLANNERARENA", ""), "/usr/share/ompl/plannerarena",
            "/opt/navbench/plannerarena/usr/share/ompl/plannerarena"]
R_PACKAGES = ["shiny", "shinyjs", "dplyr", "dbplyr", "tidyr", "ggplot2", "Hmisc", "RSQLite", "markdown", "rlang"]


def skip(why):
    print(f"SKIP: {why}")
    sys.exit(77)


def prerequisites():
    app = next((d for d in APP_DIRS if d and os.path.isfile(os.path.join(d, "server.R"))), None)
    if app is None:
        skip("Planner Arena not found (scripts/setup unpacks it into /opt/navbench/plannerarena)")
    for tool in ("Rscript", "R", "ompl_benchmark_statistics", "pdftotext"):
        if shutil.which(tool) is None:
            skip(f"{tool} not found (scripts/setup installs r-base-core, ompl-demos, poppler-utils)")
    if not (os.path.exists("/usr/bin/chromium") and os.path.exists("/usr/bin/chromedriver")):
        skip("/usr/bin/chromium or /usr/bin/chromedriver is missing")
    try:
        import selenium  # noqa: F401
    except ImportError:
        skip("python3-selenium is missing")
    probe = "cat(all(sapply(c(%s), requireNamespace, quietly = TRUE)))" % ", ".join(f"'{p}'" for p in R_PACKAGES)
    r = subprocess.run(["Rscript", "-e", probe], capture_output=True, text=True, timeout=120)
    if r.stdout.strip() != "TRUE":
        skip(f"R packages missing (need {', '.join(R_PACKAGES)}; scripts/setup installs them)")
    return app


LATER = "f" * 40  # the commit of the second run: the same rows as of a later navbench


def later_run(sweep, tmp):
    """The sweep's result set again as a run of another commit (its meta.json's git_commit changed)."""
    import json
    prefix = os.path.join(tmp, "later")
    for suffix in (".csv", ".build.csv"):
        shutil.copy(os.path.join(sweep, "results" + suffix), prefix + suffix)
    meta = json.load(open(os.path.join(sweep, "results.meta.json")))
    meta["git_commit"], meta["git_dirty"] = LATER, False
    json.dump(meta, open(prefix + ".meta.json", "w"))
    return prefix, meta


def ompl_database(navbench, root, tmp):
    """OMPL's database of the sweep and of the same rows as a run of another commit; the labels
    of the configurations and the two versions."""
    fx = package_fixture.make(navbench, root, os.path.join(tmp, "fx"))
    later, _ = later_run(fx["sweep"], tmp)
    logs = os.path.join(tmp, "logs")
    subprocess.run([navbench, "export", fx["sweep"], later, "--ompl", logs], check=True, capture_output=True, timeout=300)
    db = os.path.join(tmp, "benchmark.db")
    files = sorted(os.path.join(logs, f) for f in os.listdir(logs))
    subprocess.run(["ompl_benchmark_statistics", *files, "-d", db], check=True, capture_output=True, timeout=300)
    labels = sorted({f"{r} · {s}" for r in package_fixture.REPS for s in package_fixture.SMOOTHING})
    import json
    meta = json.load(open(os.path.join(fx["sweep"], "results.meta.json")))
    first = f"navbench {meta['git_commit'][:12]}" + ("-dirty" if meta.get("git_dirty") else "")
    return db, labels, sorted([first, f"navbench {LATER[:12]}"])


def r_library(tmp):
    """A library holding `pool` when R lacks it (Debian 12 does): the stand-in of plannerarena-pool/."""
    lib = os.path.join(tmp, "rlib")
    os.makedirs(lib)
    r = subprocess.run(["Rscript", "-e", "cat(requireNamespace('pool', quietly = TRUE))"], capture_output=True, text=True)
    if r.stdout.strip() != "TRUE":
        subprocess.run(["R", "CMD", "INSTALL", "-l", lib, os.path.join(here, "plannerarena-pool")], check=True,
                       capture_output=True, timeout=300)
        print("note: R has no package pool; installed the stand-in tests/web/plannerarena-pool (dbPool: one connection)")
    return lib


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_app(app, db, lib, tmp):
    """Planner Arena on 127.0.0.1 with db as its default database (APP/www/benchmark.db)."""
    copy = os.path.join(tmp, "plannerarena")
    shutil.copytree(app, copy)
    shutil.copy(db, os.path.join(copy, "www", "benchmark.db"))
    port = free_port()
    log = open(os.path.join(tmp, "plannerarena.log"), "w")
    env = dict(os.environ, R_LIBS=lib + (":" + os.environ["R_LIBS"] if os.environ.get("R_LIBS") else ""))
    proc = subprocess.Popen(["Rscript", "-e", f"shiny::runApp('{copy}', host = '127.0.0.1', port = {port}L, "
                             "launch.browser = FALSE)"], stdout=log, stderr=subprocess.STDOUT, env=env,
                            start_new_session=True)
    url = f"http://127.0.0.1:{port}/"
    end = time.time() + 90
    while time.time() < end and proc.poll() is None:
        try:
            with urllib.request.urlopen(url, timeout=5) as r:
                if r.status == 200:
                    return proc, url
        except OSError:
            time.sleep(0.5)
    proc.kill()
    log.close()
    print(open(os.path.join(tmp, "plannerarena.log")).read()[-2000:])
    check(False, "Planner Arena started and answered on 127.0.0.1")
    sys.exit(1)


def chrome():
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    o = webdriver.ChromeOptions()
    o.binary_location = "/usr/bin/chromium"
    for arg in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-dev-shm-usage",
                "--window-size=1280,1000", "--force-device-scale-factor=1", "--no-proxy-server"]:
        o.add_argument(arg)
    d = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=o)
    d.set_page_load_timeout(60)
    return d


def wait_for(what, fn, timeout=90):
    end = time.time() + timeout
    while time.time() < end:
        try:
            v = fn()
            if v:
                return v
        except Exception:  # noqa: BLE001 (the page is still being built by the server)
            pass
        time.sleep(0.5)
    check(False, f"timed out waiting for {what}")
    return None


def plot_src(d):
    """The plot image's source once drawn and not being redrawn (Shiny marks it 'recalculating')."""
    return d.execute_script("var p = document.querySelector('#perf_plot'), i = p && p.querySelector('img');"
                            "return i && i.complete && i.naturalWidth > 0 && !p.classList.contains('recalculating')"
                            " && !document.documentElement.classList.contains('shiny-busy') ? i.src : null;")


def regression(d, versions, out):
    """The Regression page: both navbench versions offered, a plot drawn."""
    d.find_element("link text", "Regression").click()
    drawn = wait_for("the regression plot", lambda: d.execute_script(
        "var p = document.querySelector('#regr_plot'), i = p && p.querySelector('img');"
        "return i && i.complete && i.naturalWidth > 0 && !p.classList.contains('recalculating');"))
    got = sorted(b.get_attribute("value") for b in d.find_elements("css selector", "input[name='regr_versions']"))
    check(drawn and got == versions, f"the Regression page compares navbench's two commits: {got}")
    time.sleep(1)
    d.save_screenshot(os.path.join(out, "plannerarena-regression.png"))


def browse(url, labels, versions, out):
    d = chrome()
    try:
        d.get(url)
        first = wait_for("the performance plot", lambda: plot_src(d))
        check(bool(first), "Planner Arena draws its performance plot from navbench's database")
        boxes = wait_for("the planner checkboxes",
                         lambda: d.find_elements("css selector", "input[name='perf_planners']"))
        names = sorted(b.get_attribute("value") for b in boxes or [])
        check(names == labels, f"its planners are navbench's configurations: {names}")
        for b in boxes or []:
            if not b.is_selected():
                d.execute_script("arguments[0].click();", b)
        wait_for("the plot of every planner", lambda: plot_src(d) not in (None, first))
        attrs = d.execute_script("var s = document.querySelector('select#perf_attr');"  # a selectize menu
                                 "return s && s.selectize ? Object.keys(s.selectize.options) : [];")
        check({"time", "solved", "length", "valid", "clearance", "turning"} <= set(attrs),
              f"the attribute menu offers navbench's run properties: {attrs}")
        time.sleep(1)
        d.save_screenshot(os.path.join(out, "plannerarena.png"))
        link = d.find_element("css selector", "#perf_download_plot").get_attribute("href")
        pdf = os.path.join(out, "perfplot.pdf")
        with urllib.request.urlopen(link, timeout=60) as r, open(pdf, "wb") as f:
            f.write(r.read())
        text = subprocess.run(["pdftotext", "-layout", pdf, "-"], capture_output=True, text=True).stdout
        missing = [x for x in labels if x not in text]
        check(not missing, f"Planner Arena's plot (its PDF export) names every configuration{': missing ' + str(missing) if missing else ''}")
        regression(d, versions, out)
    finally:
        d.quit()


def main():
    navbench, root, out = (os.path.abspath(a) for a in sys.argv[1:4])
    app = prerequisites()
    os.makedirs(out, exist_ok=True)
    tmp = tempfile.mkdtemp(prefix="navbench-plannerarena.")
    db, labels, versions = ompl_database(navbench, root, tmp)
    proc, url = start_app(app, db, r_library(tmp), tmp)
    try:
        browse(url, labels, versions, out)
    finally:
        os.killpg(proc.pid, 15)
        try:
            proc.wait(20)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, 9)
    print(f"screenshots: {os.path.join(out, 'plannerarena.png')}, {os.path.join(out, 'plannerarena-regression.png')}")
    return finish(tmp, "Planner Arena")


if __name__ == "__main__":
    sys.exit(main())
