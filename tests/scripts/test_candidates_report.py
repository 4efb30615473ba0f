"""The report recommends only candidates (SPEC §14), checked against results.csv with plain pandas
(not the report's code, python/navbench/candidates.py): a configuration is a candidate
on a scope when every path it returned is valid, it answered every query that has a path (an
optimum or a reference cost is known, or some configuration returned a valid path for the same
query, and the query is not invalid_query / not_applicable), some query of the scope has a path
among its rows, and it ran on every map of the scope's facet that it applies to (a map without its
rows counts apart only where PREFIX.unrun.csv says its build refused the map, reason kind or cap;
for results without that file, where the set holds the map and the representation and its sweep
config does not skip it).

A run of grid8, navmesh and recast (A* with none/los/funnel and Detour's own query) on the
bundled hand-drawn and generated maps (two collections), and on a generated map weighted by a
regions cost layer; Recast's voxel mesh returns some invalid paths and misses some queries, so
recast is fast and not a candidate. On the page, per scope (all maps, each collection):
- every configuration of a front table (the front and the budgets' fronts), of the verdict
  sentence and of budgets.csv is a candidate of its scope and facet (the weighted maps pooled);
- each such facet table is followed by a "not candidates" table listing exactly the scope's
  non-candidates of that facet (applicable to some query), with their valid share (valid paths /
  paths returned) and solved share (ok / queries that have a path) as recomputed;
- in every ranked table the front's rows are candidates and no candidate comes after a non-candidate.

Usage: test_candidates_report.py NAVBENCH ROOT [--report-code DIR]
       test_candidates_report.py NAVBENCH ROOT --page REPORT_DIR --results CSV...
(--report-code: the checkout whose scripts/report.py renders the page, default ROOT; the page of
an older checkout, before the rule, fails here. --page: check a report already made, e.g. the
default job's, against the results it was made of.) Exit 0 = pass, 1 = fail."""
import argparse
import html.parser
import itertools
import json
import math
import os
import subprocess
import sys
import tempfile

import pandas as pd

LIMIT = 8


class Node:
    def __init__(self, tag, attrs, parent):
        self.tag, self.attrs, self.parent, self.kids, self.text = tag, dict(attrs), parent, [], ""

    def all(self, tag=None, cls=None):
        for k in self.kids:
            if (tag is None or k.tag == tag) and (cls is None or cls in k.attrs.get("class", "").split()):
                yield k
            yield from k.all(tag, cls)

    def full_text(self):
        return self.text + "".join(k.full_text() for k in self.kids)


class Tree(html.parser.HTMLParser):
    """The page as a tree of elements (the report writes well-formed HTML)."""
    VOID = {"meta", "br", "img", "link", "input", "hr"}

    def __init__(self):
        super().__init__()
        self.root = self.cur = Node("root", [], None)

    def handle_starttag(self, tag, attrs):
        n = Node(tag, attrs, self.cur)
        self.cur.kids.append(n)
        if tag not in self.VOID:
            self.cur = n

    def handle_endtag(self, tag):
        n = self.cur
        while n is not None and n.tag != tag:
            n = n.parent
        if n is not None and n.parent is not None:
            self.cur = n.parent

    def handle_data(self, data):
        self.cur.text += data


def run(nb, root, tmp):
    out = os.path.join(tmp, "run")
    os.makedirs(out)
    common = ["--rep", "grid8,navmesh,recast", "--search", "astar,detour", "--smoothing", "none,los,funnel",
              "--limit", str(LIMIT), "--quiet"]
    subprocess.run([nb, "run", "--map", os.path.join(root, "datasets/maps/hand"),
                    os.path.join(root, "datasets/maps/generated"), *common, "--out", os.path.join(out, "plain")], check=True)
    cave = os.path.join(root, "datasets/maps/generated/cave-45-128.map")
    subprocess.run([nb, "generate", "costs", "--map", cave, "--kind", "regions", "--seed", "2",
                    "--out", os.path.join(tmp, "cave-regions")], check=True, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)
    subprocess.run([nb, "run", "--map", cave, "--costs", os.path.join(tmp, "cave-regions.costs"), *common,
                    "--out", os.path.join(out, "weighted")], check=True)
    return out


def smoothing_label(search, smoothing):  # docs/path-quality.md: the search joins the smoothing label
    if search in ("astar", "", "nan"):
        return smoothing
    return search if smoothing == "none" else f"{search} + {smoothing}"


def refused_maps(csvs, r):
    """{(map, representation as the page names it)} whose missing rows count apart: its build refused
    the map (PREFIX.unrun.csv's kind and cap; results without the file: a pair the set holds and its
    sweep config does not skip)."""
    out = set()
    for f, part in zip(csvs, r):
        prefix = f[:-4]
        if os.path.isfile(prefix + ".unrun.csv"):
            u = pd.read_csv(prefix + ".unrun.csv", dtype=str, keep_default_na=False)
            out |= {(m, page_rep(x)) for m, x, why in zip(u["map"], u["representation"], u["reason"]) if why in ("kind", "cap")}
            continue
        meta = {}
        for mpath in (prefix + ".meta.json", os.path.join(os.path.dirname(f), "results.meta.json")):
            if os.path.isfile(mpath):
                with open(mpath, encoding="utf-8") as fh:
                    meta = json.load(fh)
                break
        skip = set()
        for e in (meta.get("config") or {}).get("representations", []) or []:
            if isinstance(e, dict) and e.get("skip_maps"):
                params = [",".join(f"{k}={v if isinstance(v, str) else json.dumps(v)}" for k, v in zip(e.get("params", {}), combo))
                          for combo in itertools.product(*[v if isinstance(v, list) else [v] for v in e.get("params", {}).values()])]
                skip |= {(m, e["name"] + (":" + p if p else "")) for p in params for m in e["skip_maps"]}
        reps = set(part["representation"].astype(str))
        out |= {(m, page_rep(x)) for m in set(part["map"].astype(str)) for x in reps if (m, x) not in skip}
    return out


def page_rep(rep):
    return rep + " (centre lattice)" if rep in ("grid4", "grid8") else rep


def recompute(csvs):
    """{(scope, facet): DataFrame per configuration: applicable, paths, valid, with_path, answered,
    candidate}; facet 'plain map', 'terrain ...' per map kind, 'weighted maps' for the pooled weighted rows."""
    parts = [pd.read_csv(f, dtype={"message": str, "terrain": str}, low_memory=False) for f in csvs]
    refused = refused_maps(csvs, parts)
    r = pd.concat(parts, ignore_index=True)
    r["terrain"] = r["terrain"].fillna("") if "terrain" in r.columns else ""
    r["facet"] = r["terrain"].map(lambda t: f"terrain {t}" if t else "plain map")
    rep = r["representation"].astype(str).map(page_rep)
    r["rep"] = rep
    label = [smoothing_label(str(a), str(b)) for a, b in zip(r["search"].fillna("astar"), r["smoothing"])]
    r["name"] = rep + " · " + pd.Series(label, index=r.index)
    r["config"] = r["name"] + " · " + r["facet"]
    r["folded"] = r["name"]  # the weighted maps pooled: no facet
    known = pd.Series(False, index=r.index)
    for c in ("optimal", "octile_optimal", "optimal_cost", "octile_optimal_cost"):
        if c in r.columns:
            known |= pd.to_numeric(r[c], errors="coerce").notna()
    r["applicable"] = r["status"] != "not_applicable"
    # ... or a valid path of any configuration for the same query
    found = (r["status"] == "ok") & (pd.to_numeric(r["valid"], errors="coerce") == 1)
    qkey = [c for c in ("map", "collection", "scen_index", "convention", "terrain", "radius") if c in r.columns]
    known |= found.groupby([r[c].fillna("") for c in qkey]).transform("any")
    r["with_path"] = known & r["applicable"] & (r["status"] != "invalid_query")
    r["ok"] = r["status"] == "ok"
    r["valid_path"] = r["ok"] & (pd.to_numeric(r["valid"], errors="coerce") == 1)
    r["answered"] = r["ok"] & r["with_path"]

    def per(rows, key):
        g = rows.groupby(key).agg(applicable=("applicable", "sum"), paths=("ok", "sum"), valid=("valid_path", "sum"),
                                  with_path=("with_path", "sum"), answered=("answered", "sum"), rep=("rep", "first"))
        maps = set(rows["map"])
        ran = rows.groupby(key)["map"].agg(set)
        g["not_run"] = [len({m for m in maps - ran[c] if (m, g.loc[c, "rep"]) not in refused}) for c in g.index]
        g["candidate"] = ((g["with_path"] > 0) & (g["valid"] == g["paths"]) & (g["answered"] == g["with_path"])
                          & (g["not_run"] == 0))
        g["valid_share"] = [v / p if p else math.nan for v, p in zip(g["valid"], g["paths"])]
        g["solved_share"] = [a / w if w else math.nan for a, w in zip(g["answered"], g["with_path"])]
        return g

    out = {}
    scopes = {"all": r, **{c: r[r["collection"] == c] for c in r["collection"].unique()}}
    for scope, rows in scopes.items():
        for facet, g in rows.groupby("facet"):
            out[(scope, facet)] = per(g, "config")
    w = r[r["terrain"] != ""]
    out[("all", "weighted maps")] = per(w, "folded")
    return out


def facet_of(table):
    """A facet table's facet: data-facet-key, or (a page before it) its title."""
    if "data-facet-key" in table.attrs:
        return table.attrs["data-facet-key"]
    title = table.attrs.get("data-facet", "")
    return {"": "plain map", "plain maps": "plain map", "weighted maps": "weighted maps"}.get(title, title)


def key_of(facet, config):
    """The recomputation's key of a configuration named on the page: the folded label on the weighted
    maps (as written), the full label elsewhere (a name without its facet gets it appended)."""
    if facet == "weighted maps" or config.endswith(" · " + facet):
        return config
    return f"{config} · {facet}"


def check_page(page, csvs, report_dir, fails):
    want = recompute(csvs)
    tree = Tree()
    tree.feed(page)
    seen_outside = 0
    for section in tree.root.all("section"):
        sid = section.attrs.get("id", "")
        if not sid.startswith("answer-"):
            continue
        scope = sid[len("answer-"):]
        tables = [t for t in section.all("table", "answer-table")]
        fronts = [t for t in tables if "not-candidates" not in t.attrs.get("class", "")]
        if scope == "all" and len(fronts) < 2:
            fails.append(f"{sid}: {len(fronts)} facet tables (the plain and the weighted maps expected)")
        for t in fronts:
            facet = facet_of(t)
            cand = want.get((scope, facet))
            if cand is None:
                fails.append(f"{sid}: facet table '{facet}' not in the results")
                continue
            for tr in t.all("tr"):
                cfg = tr.attrs.get("data-config")
                if cfg is not None and not cand["candidate"].get(key_of(facet, cfg), False):
                    fails.append(f"{sid} / {facet}: {cfg} is in the front table but not a candidate "
                                 f"({shares(cand, key_of(facet, cfg))})")
            outside = [o for o in tables if "not-candidates" in o.attrs.get("class", "") and facet_of(o) == facet]
            expect = cand[~cand["candidate"] & (cand["applicable"] > 0)]
            if len(expect) and len(outside) != 1:
                fails.append(f"{sid} / {facet}: {len(outside)} 'not candidates' tables, one expected for "
                             f"{len(expect)} non-candidates")
                continue
            got = {}
            for tr in (outside[0].all("tr") if outside else []):
                if "data-config" in tr.attrs:
                    cells = {td.attrs.get("data-metric"): td.attrs.get("data-value", "") for td in tr.all("td")}
                    got[key_of(facet, tr.attrs["data-config"])] = cells
            seen_outside += len(got)
            if set(got) != set(expect.index):
                fails.append(f"{sid} / {facet}: 'not candidates' lists {sorted(set(got) - set(expect.index))} too many, "
                             f"{sorted(set(expect.index) - set(got))} missing")
            for cfg, cells in got.items():
                for k in ("valid_share", "solved_share"):
                    w = cand.loc[cfg, k] if cfg in cand.index else math.nan
                    g = float(cells[k]) if cells.get(k) else math.nan
                    if not ((math.isnan(w) and math.isnan(g)) or abs(g - w) < 1e-12):
                        fails.append(f"{sid} / {facet}: {cfg} {k} page {cells.get(k)!r}, recomputed {w}")
        check_verdict(section, scope, fronts, want, fails)
        check_ranked(section, scope, want, fails)
    if seen_outside == 0:
        fails.append("no configuration in a 'not candidates' table (recast should be there)")
    if not len(want[("all", "plain map")].query("~candidate")):
        fails.append("the run has no non-candidate on the plain maps: the test would not test")
    budgets = pd.read_csv(os.path.join(report_dir, "budgets.csv"))
    for _, b in budgets.iterrows():
        scope = "all" if b["scope"] == "all maps" else b["scope"]
        facet = b["facet"] if isinstance(b["facet"], str) and b["facet"] else "weighted maps"
        cand = want.get((scope, facet))
        for cfg in str(b["front"]).split(" → "):
            if cand is None or not cand["candidate"].get(key_of(facet, cfg), False):
                fails.append(f"budgets.csv {scope} / {facet} ({b['kind']} ≤ {b['budget_text']}): {cfg} is not a candidate")


def shares(cand, cfg):
    if cfg not in cand.index:
        return "not in the results"
    r = cand.loc[cfg]
    return f"{int(r['valid'])} of {int(r['paths'])} paths valid, {int(r['answered'])} of {int(r['with_path'])} answered"


def check_verdict(section, scope, fronts, want, fails):
    """Every configuration the verdict names is a candidate of its facet."""
    verdict = next(section.all("p", "verdict"), None)
    if verdict is None:
        fails.append(f"answer-{scope}: no verdict")
        return
    facets = [facet_of(t) for t in fronts]
    named = [(b.attrs.get("data-config"), b.full_text()) for b in verdict.all("b")]
    if not any(c for c, _ in named):  # a page before data-config: the names, each facet's after its title
        titles = {t.attrs.get("data-facet", "").lower(): facet_of(t) for t in fronts}
        facet, named_plain = facets[0] if facets else "", []
        for _, text in named:
            if text.lower() in titles:
                facet = titles[text.lower()]
            else:
                named_plain.append((facet, text))
        pairs = named_plain
    else:
        pairs = []
        for cfg, _ in named:
            if cfg:
                facet = next((f for f in facets if key_of(f, cfg) in want.get((scope, f), pd.DataFrame()).index), "")
                pairs.append((facet, cfg))
    if not pairs:
        fails.append(f"answer-{scope}: the verdict names no configuration")
    for facet, cfg in pairs:
        cand = want.get((scope, facet))
        if cand is None or not cand["candidate"].get(key_of(facet, cfg), False):
            fails.append(f"answer-{scope}: the verdict names {cfg} ({facet}), not a candidate"
                         + (f" ({shares(cand, key_of(facet, cfg))})" if cand is not None else ""))


def check_ranked(section, scope, want, fails):
    """The ranked tables: front rows are candidates, candidates come first."""
    for t in section.all("table", "ranked"):
        after_out = False
        for tr in t.all("tr"):
            cell = next((td for td in tr.all("td") if "data-config" in td.attrs), None)
            if cell is None:
                continue
            cfg = cell.attrs["data-config"]
            facet = cfg.rsplit(" · ", 1)[1]
            cand = want.get((scope, facet))
            ok = cand is not None and bool(cand["candidate"].get(cfg, False))
            if "front" in tr.attrs.get("class", "") and not ok:
                fails.append(f"{t.attrs.get('id')}: {cfg} marked on the front, not a candidate")
            if ok and after_out:
                fails.append(f"{t.attrs.get('id')}: candidate {cfg} ranked after a non-candidate")
            after_out = after_out or not ok


def check_no_optimum(nb, root, code, tmp, fails):
    """A run without the exact optimum (--no-optimum) on the polygon map (no octile optimum either) and
    a grid map: the paths visgraph finds say which queries have a path, so prm's no_path there are
    misses and prm is not a candidate on all maps; the polygon map's queries are judged too. Without
    a gap there is no front: the verdict says the candidates are there, never that there are none."""
    out = os.path.join(tmp, "noopt")
    subprocess.run([nb, "run", "--map", os.path.join(root, "datasets/maps/hand/polygons.wkt"),
                    os.path.join(root, "datasets/maps/generated/rooms-16-128.map"), "--rep", "visgraph",
                    "--rep", "prm:samples=30", "--smoothing", "none", "--limit", str(LIMIT), "--no-optimum", "--quiet",
                    "--out", out], check=True, stderr=subprocess.DEVNULL)
    want = recompute([out + ".csv"])
    all_maps = want[("all", "plain map")]
    hand = want[("hand", "plain map")]
    if not (all_maps["candidate"].get("visgraph · none · plain map") and not all_maps["candidate"].get("prm:samples=30 · none · plain map")
            and hand.loc["visgraph · none · plain map", "with_path"] > 0):
        fails.append(f"--no-optimum: visgraph a candidate, prm not, the polygon map's queries judged, expected:\n{all_maps}\n{hand}")
    subprocess.run([os.path.join(code, "scripts/navpy.sh"), os.path.join(code, "scripts/report.py"), out + ".csv",
                    "--out", out + "-report", "--figures", "none", "--boot", "200"], check=True, stdout=subprocess.DEVNULL)
    with open(os.path.join(out + "-report", "report.html"), encoding="utf-8") as f:
        page = f.read()
    tree = Tree()
    tree.feed(page)
    for section in tree.root.all("section"):
        sid = section.attrs.get("id", "")
        if not sid.startswith("answer-"):
            continue
        scope = sid[len("answer-"):]
        cand = want[(scope, "plain map")]["candidate"]
        verdict = next(section.all("p", "verdict"), None)
        text = verdict.full_text() if verdict is not None else ""
        if cand.sum() and not text.startswith(f"No front here: {int(cand.sum())} configuration"):
            fails.append(f"--no-optimum, {sid}: {int(cand.sum())} candidates and no gap, the verdict says: {text}")
        seen = 0
        for t in section.all("table", "ranked"):
            for tr in t.all("tr"):
                cell = next((td for td in tr.all("td") if "data-config" in td.attrs), None)
                if cell is None:
                    continue
                seen += 1
                cfg = key_of("plain map", cell.attrs["data-config"])
                if bool(cand.get(cfg, False)) == ("not a candidate" in tr.full_text()):
                    fails.append(f"--no-optimum, {sid}: {cfg} is {'' if cand.get(cfg) else 'not '}a candidate, the "
                                 f"ranked table says: {tr.full_text()}")
        if seen != len(cand):
            fails.append(f"--no-optimum, {sid}: {seen} ranked rows, {len(cand)} configurations")
    if all_maps["candidate"].get("prm:samples=30 · none · plain map", True):
        fails.append("--no-optimum: prm should miss paths on all maps (the test would not test)")


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("navbench")
    ap.add_argument("root")
    ap.add_argument("--report-code", help="checkout whose scripts/report.py renders the page (default ROOT)")
    ap.add_argument("--page", metavar="REPORT_DIR", help="check this report (of --results) instead of a run of its own")
    ap.add_argument("--results", nargs="+", default=[], metavar="CSV", help="with --page: the results.csv it was made of")
    args = ap.parse_args()
    if args.page:  # e.g. the default job's report: --page results/default/report --results results/default/results.csv
        report, csvs = args.page, args.results
    else:
        tmp = tempfile.mkdtemp(prefix="navbench-candidates.")
        folder = run(args.navbench, args.root, tmp)
        csvs = [os.path.join(folder, f) for f in ("plain.csv", "weighted.csv")]
        code = args.report_code or args.root
        report = os.path.join(tmp, "report")
        subprocess.run([os.path.join(code, "scripts/navpy.sh"), os.path.join(code, "scripts/report.py"), folder,
                        "--out", report, "--figures", "none", "--boot", "200"], check=True, stdout=subprocess.DEVNULL)
    with open(os.path.join(report, "report.html"), encoding="utf-8") as f:
        page = f.read()
    fails = []
    check_page(page, csvs, report, fails)
    if not args.page:
        check_no_optimum(args.navbench, args.root, args.report_code or args.root, tmp, fails)
    for x in fails:
        print(f"FAIL: {x}")
    if not fails:
        print(f"ok: the fronts, verdicts, budgets and ranked tables hold candidates only; every non-candidate is "
              f"listed with its shares ({', '.join(csvs)})")
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
