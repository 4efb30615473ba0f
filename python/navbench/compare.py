"""navbench compare: the same queries of two runs, or of two configurations, paired
(docs/results.md#comparing-two-runs).

A query of run A and a query of run B are the same query when their map, collection, start and
goal (sx, sy, gx, gy: the coordinates, so two runs of different random queries share none),
convention, terrain (plain or the weights' name), radius and epoch agree (PAIR_KEYS); a run
without one of the optional columns has its default there (plain map, radius 0, no epoch), so a
run over one plain map pairs with the plain rows of a sweep that also ran weighted maps. A
configuration is its representation, search, heuristic and smoothing (labels.config_label), whatever
facet names a report gives it.

Two runs: each configuration in both is compared with itself. Two configurations (config_a,
config_b; of one run, or one of each run): config_a's rows of A with config_b's of B.

A query that one configuration ran more than once in a run (a scenario listing the same start and
goal twice, the same result set read twice) is one query: its rows are reduced to one on both sides
alike (reduce_repeats: solved when one of them solved it; the median of the solved rows' times,
gaps and expansions), and the table counts them (repeated_a, repeated_b).

Per configuration (or the one pair of configurations):
- queries in A and in B (applicable rows), paired (in both and solved in both), unpaired in each;
- time_ratio: the typical per-query ratio B / A of query time, exp(median log(tb / ta)), with a
  95 % bootstrap interval over the paired queries and the Wilcoxon signed-rank p-value (Holm-corrected
  over the table: time_p_holm). The interval covers the choice of queries, not the run-to-run noise
  of the timings: a query timed again moves on its own (INTERVAL_NOTE);
- gap_diff: the mean per-query difference of gap B - A over the paired queries with a gap, with
  its interval and p-value;
- expansions_ratio: as time_ratio for A* expansions (a change of the search, not of the machine);
- first_move_ratio, first20_ratio, max_step_ratio: as time_ratio for the real-time columns (SPEC
  §15, docs/results.md#real-time-columns) over the paired queries that have them on both sides
  (none for runs written before the columns), with each side's median (first_move_median_a, ...);
- solved_a, solved_b: the share solved of each run's applicable rows of the paired maps;
- build_ratio: median build time B / A over the maps both built (paired over maps), when both
  runs have build rows.

Nothing paired at all is an InputError that says why (which keys the runs do not share).
"""
from __future__ import annotations

import re

import numpy as np

from navbench import rules, stats
from navbench.errors import InputError
from navbench.labels import config_label
from navbench.summarize import floats, statuses

# The columns that name a query within one run (the report's paired verdicts line up a run's own
# configurations by them, scripts/navreport/analysis/rows.py), with the value of a run that lacks it.
QUERY_KEYS = (("map", ""), ("collection", ""), ("scen_index", ""), ("convention", "center"), ("terrain", ""),
              ("radius", "0"), ("epoch", ""))
# The columns that make a query of one run the same query as one of another run: the start and
# goal themselves, not their index in a scenario (random queries of another seed share indices).
COORDINATES = ("sx", "sy", "gx", "gy")
PAIR_KEYS = (("map", ""), ("collection", ""), ("sx", None), ("sy", None), ("gx", None), ("gy", None),
             ("convention", "center"), ("terrain", ""), ("radius", "0"), ("epoch", ""))
CONFIG_KEYS = ("representation", "search", "heuristic", "smoothing")
MIN_PAIRS = 30  # fewer pairs: a warning (the interval and the test rest on few queries)
INTERVAL_NOTE = ("the intervals are 95 % bootstrap intervals over the paired queries: they cover the choice of "
                 "queries, not the run-to-run noise of the timings (the same queries timed again differ too)")
REDUCE_NOTE = ("a query a configuration ran more than once in a run is one query, on both sides alike: solved when "
               "one of its rows solved it, its time, gap and expansions the median over its solved rows")


def _text(df, col: str, default) -> np.ndarray:
    """A key column as text ('' and the default where missing); numbers as %.12g, as navbench writes them."""
    import pandas as pd
    if col not in df.columns:
        if default is None:
            raise InputError(f"the rows lack the column {col} (start and goal: {', '.join(COORDINATES)}), which "
                             f"pairing needs")
        return np.full(len(df), default, dtype=object)
    c = df[col]
    default = "" if default is None else default
    if not isinstance(c.dtype, pd.CategoricalDtype) and c.dtype != object and str(c.dtype) != "string":
        v = floats(c)
        return np.array([default if not np.isfinite(x) else f"{x:.12g}" for x in v], dtype=object)
    t = c.astype(object).where(c.notna(), default).astype(str).to_numpy(dtype=object)
    t[np.isin(t, ["", "nan", "<NA>", "None"])] = default
    if col == "terrain":  # the report's facet label ('plain map', 'terrain X') back to the file's value
        t = np.array([rules.raw_terrain(x) for x in t], dtype=object)
    if col == "radius":  # the report's facet label 'r=0.5' back to the number
        t = np.array([x[2:] if x.startswith("r=") else x for x in t], dtype=object)
    return t


def keyed(df) -> "object":
    """df's rows as a frame of: query (the joined PAIR_KEYS), config (label), rep, map, terrain,
    radius (for a configuration's facet), ok, applicable, time, gap, expansions."""
    import pandas as pd
    parts = [_text(df, c, d) for c, d in PAIR_KEYS]
    query = ["\x1f".join(t) for t in zip(*parts)] if len(df) else []
    cfg = [_text(df, c, "astar" if c == "search" else "") for c in CONFIG_KEYS]
    labels = [config_label(*t) for t in zip(*cfg)] if len(df) else []
    names = [c for c, _ in PAIR_KEYS]
    arr = {"query": query, "config": labels, "rep": cfg[0], "map": parts[0],
           "terrain": parts[names.index("terrain")], "radius": parts[names.index("radius")]}
    st = statuses(df)
    arr.update({"ok": st == "ok", "applicable": st != "not_applicable",
                "time": floats(df["query_us"]) if "query_us" in df.columns else floats(rules.query_time_us(df)),
                "gap": floats(df["gap"]) if "gap" in df.columns else np.full(len(df), np.nan),
                "expansions": floats(df["expansions"]) if "expansions" in df.columns else np.full(len(df), np.nan)})
    for name, column in rules.REALTIME.items():
        arr[name] = rules.realtime_us(df, column).to_numpy(dtype=float)
    return pd.DataFrame(arr)


def reduce_repeats(g):
    """One row per query of one configuration's keyed rows (REDUCE_NOTE): ok (1.0 when one of its
    rows solved it, else 0.0), time, gap and expansions (the median over its solved rows), rows."""
    import pandas as pd
    solved = g[g["ok"].to_numpy(bool)]
    per = pd.DataFrame({"ok": g.groupby("query", sort=True)["ok"].max().astype(float),
                        "rows": g.groupby("query", sort=True).size()})
    med = solved.groupby("query", sort=True)[["time", "gap", "expansions"] + list(rules.REALTIME)].median()
    return per.join(med)


def _canonical_rep(text: str) -> str:
    """A representation as the results or the report write it, one way: the report's notes in
    parentheses dropped ('grid8 (centre lattice)' is grid8, '(corner lattice)' its parameter
    lattice=corner, '(outside)' marks a planner from outside), parameters sorted, the default
    lattice=centre dropped."""
    m = re.match(r"^(.*?)((?:\s*\([^()]*\))*)$", text.strip())
    base, notes = m.group(1), m.group(2)
    name, _, params = base.partition(":")
    ps = [p for p in params.split(",") if p]
    if "corner lattice" in notes and "lattice=corner" not in ps:
        ps.append("lattice=corner")
    ps = sorted(p for p in ps if p != "lattice=centre")
    return name + (":" + ",".join(ps) if ps else "")


def facet_part(text: str) -> bool:
    """A part of a report's configuration name that names its facet: 'plain map', 'terrain X', 'r=V'."""
    return all(w == "plain map" or w.startswith(("terrain ", "r=")) for w in text.split(" / "))


def pick_config(k, wanted: str, which: str):
    """The rows of keyed rows k of the configuration named wanted: a label (config_label: 'navmesh ·
    funnel'), a configuration as the report writes it ('grid8 (centre lattice) · los · plain map': its
    facet keeps only those rows), or a representation alone when it has exactly one configuration.
    InputError (one line, listing the configurations) otherwise."""
    labels = list(dict.fromkeys(k["config"]))
    parts = [p.strip() for p in str(wanted).split(" · ")]
    facet = [p for p in parts[1:] if facet_part(p)]
    how = [p for p in parts[1:] if not facet_part(p)]
    rep = _canonical_rep(parts[0])
    canon = {lab: _canonical_rep(lab.split(" · ")[0]) for lab in labels}
    tail = " · ".join(how)

    def matching(same_rep):
        return [lab for lab in labels if same_rep(canon[lab]) and (not how or lab.split(" · ", 1)[1] == tail)]
    hits = matching(lambda c: c == rep)
    if not hits and ":" not in rep:  # 'navmesh': every parameter set of it, as --reps reads it
        hits = matching(lambda c: c.split(":")[0] == rep)
    if len(hits) != 1:
        named = hits or [lab for lab in labels if canon[lab].split(":")[0] == rep.split(":")[0]] or labels
        why = "names no configuration" if not hits else f"names {len(hits)} configurations"
        more = f", ... ({len(named)} in all)" if len(named) > 24 else ""
        raise InputError(f"--{which} '{wanted}' {why} of run {which.upper()}; give one of: {', '.join(named[:24])}{more}")
    rows = k[k["config"] == hits[0]]
    for f in facet:
        for w in f.split(" / "):
            if w == "plain map":
                rows = rows[rows["terrain"] == ""]
            elif w.startswith("terrain "):
                rows = rows[rows["terrain"] == w[len("terrain "):]]
            else:
                rows = rows[rows["radius"] == w[2:]]
    if rows.empty:
        raise InputError(f"--{which} '{wanted}': configuration {hits[0]} has no rows on that facet in run {which.upper()}")
    return hits[0] + (" · " + " · ".join(facet) if facet else ""), rows


def _why_nothing_pairs(ka, kb) -> str:
    """Which part of the query key the two sides do not share (for the refusal)."""
    for name, k in (("A", ka), ("B", kb)):
        if k.empty:
            return f"run {name} has no applicable result rows (in this subset)"
    shared = set(ka["config"]) & set(kb["config"])
    if not shared and "pair" not in ka.columns:
        return (f"no configuration is in both runs (A: {', '.join(sorted(set(ka['config']))[:3])}, ...; "
                f"B: {', '.join(sorted(set(kb['config']))[:3])}, ...)")
    names = [c for c, _ in PAIR_KEYS]
    groups = [("map", [names.index("map")]), ("collection", [names.index("collection")]),
              ("query (start and goal)", [names.index(c) for c in COORDINATES]),
              ("convention", [names.index("convention")]), ("terrain", [names.index("terrain")]),
              ("radius", [names.index("radius")]), ("epoch", [names.index("epoch")])]
    sa = [q.split("\x1f") for q in set(ka["query"])]
    sb = [q.split("\x1f") for q in set(kb["query"])]
    for what, idx in groups:
        va = {tuple(p[i] for i in idx) for p in sa}
        vb = {tuple(p[i] for i in idx) for p in sb}
        if not va & vb:
            def show(v):
                text = sorted((f"({x[0]}, {x[1]}) to ({x[2]}, {x[3]})" if len(x) == 4 else "/".join(x)) for x in v)
                return ", ".join(text[:3]) + (", ..." if len(v) > 3 else "")
            return f"the runs share no {what} (A: {show(va)}; B: {show(vb)})"
    return "no query is solved by the configurations on both sides"


def compare(a_rows, b_rows, a_builds=None, b_builds=None, seed: int = 1, boot: int | None = None,
            config_a: str | None = None, config_b: str | None = None):
    """The paired comparison B / A (module docstring), a DataFrame: per configuration in both
    runs, in A's order, or (config_a and config_b given) one row, config_a's rows of A against
    config_b's rows of B. a_rows, b_rows: result rows (navbench.load's queries, or the report's;
    the same frame twice compares two configurations of one run). InputError when no query pairs."""
    import pandas as pd
    ka, kb = keyed(a_rows), keyed(b_rows)
    ka, kb = ka[ka["applicable"].to_numpy(bool)], kb[kb["applicable"].to_numpy(bool)]
    if (config_a is None) != (config_b is None):
        raise InputError("give both --a and --b (a configuration of each side), or neither")
    if config_a is not None:
        if ka.empty or kb.empty:
            raise InputError("nothing pairs: " + _why_nothing_pairs(ka, kb))
        name_a, ga = pick_config(ka, config_a, "a")
        name_b, gb = pick_config(kb, config_b, "b")
        pairs = [(f"{name_a} → {name_b}", ga, gb)]
        ka, kb = ga.assign(pair=1), gb.assign(pair=1)
    else:
        pairs = [(cfg, ka[ka["config"] == cfg], kb[kb["config"] == cfg])
                 for cfg in [c for c in pd.unique(ka["config"]) if c in set(kb["config"])]]
    recs = []
    for cfg, ga, gb in pairs:
        pa, pb = reduce_repeats(ga), reduce_repeats(gb)
        both = pa.index.intersection(pb.index)
        solved = both[(pa.loc[both, "ok"] == 1).to_numpy() & (pb.loc[both, "ok"] == 1).to_numpy()]
        maps_a = set(ga.loc[ga["query"].isin(both), "map"])
        maps_b = set(gb.loc[gb["query"].isin(both), "map"])
        rec = {"configuration": cfg, "representation": ga["rep"].iat[0], "representation_b": gb["rep"].iat[0],
               "queries_a": len(pa), "queries_b": len(pb), "in_both": len(both), "paired": len(solved),
               "unpaired_a": len(pa) - len(both), "unpaired_b": len(pb) - len(both),
               "repeated_a": int((pa["rows"] > 1).sum()), "repeated_b": int((pb["rows"] > 1).sum()),
               "solved_a": float(ga.loc[ga["map"].isin(maps_a), "ok"].mean()) if maps_a else np.nan,
               "solved_b": float(gb.loc[gb["map"].isin(maps_b), "ok"].mean()) if maps_b else np.nan}
        ta, tb = pa.loc[solved, "time"].to_numpy(), pb.loc[solved, "time"].to_numpy()
        r = stats.paired_time(tb, ta, stats.seed_for(seed, "compare", cfg, "time"), boot)
        rec.update({"time_median_a": float(np.nanmedian(ta)) if len(ta) else np.nan,
                    "time_median_b": float(np.nanmedian(tb)) if len(tb) else np.nan,
                    "time_ratio": r["ratio"], "time_ratio_lo": r["lo"], "time_ratio_hi": r["hi"], "time_n": r["n"],
                    "time_p": r["p"]})
        r = stats.paired_diff(pb.loc[solved, "gap"].to_numpy(), pa.loc[solved, "gap"].to_numpy(),
                              stats.seed_for(seed, "compare", cfg, "gap"), boot)
        rec.update({"gap_diff": r["diff"], "gap_diff_lo": r["lo"], "gap_diff_hi": r["hi"], "gap_n": r["n"],
                    "gap_p": r["p"]})
        r = stats.paired_time(pb.loc[solved, "expansions"].to_numpy(), pa.loc[solved, "expansions"].to_numpy(),
                              stats.seed_for(seed, "compare", cfg, "expansions"), boot)
        rec.update({"expansions_ratio": r["ratio"], "expansions_ratio_lo": r["lo"], "expansions_ratio_hi": r["hi"],
                    "expansions_n": r["n"]})
        for name in rules.REALTIME:  # SPEC §15: paired where both sides have the column
            xa, xb = pa.loc[solved, name].to_numpy(), pb.loc[solved, name].to_numpy()
            r = stats.paired_time(xb, xa, stats.seed_for(seed, "compare", cfg, name), boot)
            rec.update({f"{name}_median_a": float(np.nanmedian(xa)) if np.isfinite(xa).any() else np.nan,
                        f"{name}_median_b": float(np.nanmedian(xb)) if np.isfinite(xb).any() else np.nan,
                        f"{name}_ratio": r["ratio"], f"{name}_ratio_lo": r["lo"], f"{name}_ratio_hi": r["hi"],
                        f"{name}_n": r["n"]})
        rec.update(_build_ratio(a_builds, b_builds, rec["representation"], rec["representation_b"], maps_a & maps_b,
                                seed, cfg, boot))
        recs.append(rec)
    t = pd.DataFrame(recs)
    if t.empty or int(t["paired"].sum()) == 0:
        raise InputError("nothing pairs: " + _why_nothing_pairs(ka, kb))
    for what in ("time", "gap"):
        t[f"{what}_p_holm"] = stats.holm(t[f"{what}_p"].tolist())
    return t


def _build_ratio(a_builds, b_builds, rep_a: str, rep_b: str, maps: set, seed: int, cfg: str, boot) -> dict:
    """Median build time B / A over the maps both runs built (rep_a in A, rep_b in B; paired over maps)."""
    if a_builds is None or b_builds is None or not len(a_builds) or not len(b_builds) or not maps:
        return {}
    ba = rules.build_per_map(a_builds.assign(representation=a_builds["representation"].astype(str),
                                             map=a_builds["map"].astype(str)), {rep_a}, maps)
    bb = rules.build_per_map(b_builds.assign(representation=b_builds["representation"].astype(str),
                                             map=b_builds["map"].astype(str)), {rep_b}, maps)
    ba, bb = (b if "terrain" in b.columns else b.assign(terrain="") for b in (ba, bb))  # no column: plain maps
    j = ba.drop(columns=["representation"]).merge(bb.drop(columns=["representation"]), on=["map", "terrain"],
                                                  suffixes=("_a", "_b"))
    if j.empty:
        return {}
    r = stats.ratio_of_medians(j["build_ms_a"].to_numpy(float), j["build_ms_b"].to_numpy(float),
                               stats.seed_for(seed, "compare", cfg, "build"), paired=True, n_boot=boot)
    if r["na"] < 3:  # a bootstrap of one or two maps is no interval
        r["lo"] = r["hi"] = np.nan
    return {"build_ratio": r["ratio"], "build_ratio_lo": r["lo"], "build_ratio_hi": r["hi"], "build_maps": r["na"]}


def summary_line(t, name_a: str, name_b: str) -> str:
    """One line saying what was paired: configurations, queries paired and unpaired, repeats."""
    two = len(t) == 1 and " → " in str(t["configuration"].iat[0])
    what = "the two configurations" if two else f"{len(t)} configuration(s) in both runs"
    rep = int(t["repeated_a"].sum()), int(t["repeated_b"].sum())
    return (f"navbench compare: {what}; {int(t['paired'].sum())} query results paired (the same map, start and goal, "
            f"convention, terrain, radius and epoch, solved on both sides), {int(t['unpaired_a'].sum())} only in A "
            f"({name_a}), {int(t['unpaired_b'].sum())} only in B ({name_b})"
            + (f"; repeated queries (A {rep[0]}, B {rep[1]}): {REDUCE_NOTE}" if any(rep) else ""))


def verdict_line(r) -> str:
    """One configuration's verdict: B / A time ratio, interval, Holm-corrected p, n; a warning below
    MIN_PAIRS pairs."""
    def f(x):
        return "–" if x is None or not np.isfinite(x) else f"{x:.3f}"
    lo, hi, p = r["time_ratio_lo"], r["time_ratio_hi"], r["time_p_holm"]
    if np.isfinite(lo) and np.isfinite(hi) and (hi < 1 or lo > 1) and np.isfinite(p) and p < stats.ALPHA:
        word = "B faster" if hi < 1 else "B slower"
    else:
        word = "no difference shown"
    n = int(r["time_n"])
    warn = (f"; warning: {n} pair{'s' if n != 1 else ''}, fewer than {MIN_PAIRS}: a rough interval and test"
            if n < MIN_PAIRS else "")
    p_text = "–" if not np.isfinite(p) else (f"{p:.2g}" if p >= 1e-4 else f"{p:.1e}")
    first = r.get("first_move_ratio", np.nan)  # SPEC §15: where both sides have the column
    first_text = (f"; first move B / A ×{f(first)} [{f(r['first_move_ratio_lo'])}, {f(r['first_move_ratio_hi'])}]"
                  if first is not None and np.isfinite(first) else "")
    return (f"{r['configuration']}: query time B / A ×{f(r['time_ratio'])} [{f(lo)}, {f(hi)}], "
            f"p = {p_text} (Holm), n = {n}: {word}{first_text}{warn}")
