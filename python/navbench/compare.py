"""navbench compare A B: two runs' queries paired, per configuration (docs/results.md#comparing-two-runs).

A query is the same query in both runs when its map, collection, scenario index, convention,
terrain (plain or the weights' name), radius and epoch agree (QUERY_KEYS); a run without the
optional column has its default there (plain map, radius 0, no epoch), so a run over one plain map
pairs with the plain rows of a sweep that also ran weighted maps. A configuration is its
representation, search, heuristic and smoothing (labels.config_label), whatever facet names a
report gives it. Per configuration in both runs:

- queries in A and in B (applicable rows), paired (in both and solved in both), unpaired in each;
- time_ratio: the typical per-query ratio B / A of query time, exp(median log(tb / ta)), with a
  95 % bootstrap interval and the Wilcoxon signed-rank p-value (Holm-corrected over the table:
  time_p_holm);
- gap_diff: the mean per-query difference of gap B - A over the paired queries with a gap, with
  its interval and p-value;
- expansions_ratio: as time_ratio for A* expansions (a change of the search, not of the machine);
- solved_a, solved_b: the share solved of each run's applicable rows of the paired maps;
- build_ratio: median build time B / A over the maps both built (paired over maps), when both
  runs have build rows.

Nothing paired at all is an InputError that says why (which keys the runs do not share).
"""
from __future__ import annotations

import numpy as np

from navbench import rules, stats
from navbench.errors import InputError
from navbench.labels import config_label
from navbench.summarize import floats, statuses

# The columns that name a query, with the value of a run that lacks the column.
QUERY_KEYS = (("map", ""), ("collection", ""), ("scen_index", ""), ("convention", "center"), ("terrain", ""),
              ("radius", "0"), ("epoch", ""))
CONFIG_KEYS = ("representation", "search", "heuristic", "smoothing")


def _text(df, col: str, default: str) -> np.ndarray:
    """A key column as text ('' and the default where missing); numbers as %.12g, as navbench writes them."""
    import pandas as pd
    if col not in df.columns:
        return np.full(len(df), default, dtype=object)
    c = df[col]
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
    """df's rows as a frame of: query (the joined key), config (label), ok, applicable, time,
    gap, expansions, map (for the build ratio)."""
    import pandas as pd
    parts = [_text(df, c, d) for c, d in QUERY_KEYS]
    query = ["\x1f".join(t) for t in zip(*parts)] if len(df) else []
    cfg = [_text(df, c, "astar" if c == "search" else "") for c in CONFIG_KEYS]
    labels = [config_label(*t) for t in zip(*cfg)] if len(df) else []
    arr = {"query": query, "config": labels, "rep": cfg[0], "map": parts[0]}
    st = statuses(df)
    arr.update({"ok": st == "ok", "applicable": st != "not_applicable",
                "time": floats(df["query_us"]) if "query_us" in df.columns else floats(rules.query_time_us(df)),
                "gap": floats(df["gap"]) if "gap" in df.columns else np.full(len(df), np.nan),
                "expansions": floats(df["expansions"]) if "expansions" in df.columns else np.full(len(df), np.nan)})
    return pd.DataFrame(arr)


def _why_nothing_pairs(ka, kb) -> str:
    """Which part of the query key the two runs do not share (for the refusal)."""
    for name, k in (("A", ka), ("B", kb)):
        if k.empty:
            return f"run {name} has no applicable result rows (in this subset)"
    shared = set(ka["config"]) & set(kb["config"])
    if not shared:
        return (f"no configuration is in both runs (A: {', '.join(sorted(set(ka['config']))[:3])}, ...; "
                f"B: {', '.join(sorted(set(kb['config']))[:3])}, ...)")
    for i, (c, _) in enumerate(QUERY_KEYS):
        va = {q.split("\x1f")[i] for q in ka["query"]}
        vb = {q.split("\x1f")[i] for q in kb["query"]}
        if not va & vb:
            return f"the runs share no {c} (A: {', '.join(sorted(va)[:3])}; B: {', '.join(sorted(vb)[:3])})"
    return "no query is solved by a configuration in both runs"


def compare(a_rows, b_rows, a_builds=None, b_builds=None, seed: int = 1, boot: int | None = None):
    """The paired comparison B / A per configuration (module docstring), a DataFrame in A's
    order of configurations. a_rows, b_rows: result rows (navbench.load's queries, or the
    report's). InputError when no query pairs."""
    import pandas as pd
    ka, kb = keyed(a_rows), keyed(b_rows)
    ka, kb = ka[ka["applicable"].to_numpy(bool)], kb[kb["applicable"].to_numpy(bool)]
    recs = []
    for cfg in [c for c in pd.unique(ka["config"]) if c in set(kb["config"])]:
        ga, gb = ka[ka["config"] == cfg], kb[kb["config"] == cfg]
        pa = ga.groupby("query", sort=True)[["time", "gap", "expansions", "ok"]].mean()
        pb = gb.groupby("query", sort=True)[["time", "gap", "expansions", "ok"]].mean()
        both = pa.index.intersection(pb.index)
        solved = both[(pa.loc[both, "ok"] == 1).to_numpy() & (pb.loc[both, "ok"] == 1).to_numpy()]
        maps = set(ga.loc[ga["query"].isin(both), "map"])
        rec = {"configuration": cfg, "representation": ga["rep"].iat[0], "queries_a": len(pa), "queries_b": len(pb),
               "in_both": len(both), "paired": len(solved), "unpaired_a": len(pa) - len(both),
               "unpaired_b": len(pb) - len(both),
               "solved_a": float(ga.loc[ga["map"].isin(maps), "ok"].mean()) if maps else np.nan,
               "solved_b": float(gb.loc[gb["map"].isin(maps), "ok"].mean()) if maps else np.nan}
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
        rec.update(_build_ratio(a_builds, b_builds, rec["representation"], maps, seed, cfg, boot))
        recs.append(rec)
    t = pd.DataFrame(recs)
    if t.empty or int(t["paired"].sum()) == 0:
        raise InputError("nothing pairs: " + _why_nothing_pairs(ka, kb))
    for what in ("time", "gap"):
        t[f"{what}_p_holm"] = stats.holm(t[f"{what}_p"].tolist())
    return t


def _build_ratio(a_builds, b_builds, rep: str, maps: set, seed: int, cfg: str, boot) -> dict:
    """Median build time B / A over the maps both runs built for rep (paired over maps)."""
    if a_builds is None or b_builds is None or not len(a_builds) or not len(b_builds) or not maps:
        return {}
    ba = rules.build_per_map(a_builds.assign(representation=a_builds["representation"].astype(str),
                                             map=a_builds["map"].astype(str)), {rep}, maps)
    bb = rules.build_per_map(b_builds.assign(representation=b_builds["representation"].astype(str),
                                             map=b_builds["map"].astype(str)), {rep}, maps)
    ba, bb = (b if "terrain" in b.columns else b.assign(terrain="") for b in (ba, bb))  # no column: plain maps
    j = ba.merge(bb, on=["representation", "map", "terrain"], suffixes=("_a", "_b"))
    if j.empty:
        return {}
    r = stats.ratio_of_medians(j["build_ms_a"].to_numpy(float), j["build_ms_b"].to_numpy(float),
                               stats.seed_for(seed, "compare", cfg, "build"), paired=True, n_boot=boot)
    if r["na"] < 3:  # a bootstrap of one or two maps is no interval
        r["lo"] = r["hi"] = np.nan
    return {"build_ratio": r["ratio"], "build_ratio_lo": r["lo"], "build_ratio_hi": r["hi"], "build_maps": r["na"]}


def summary_line(t, name_a: str, name_b: str) -> str:
    """One line saying what was paired: configurations, queries paired and unpaired."""
    return (f"navbench compare: {len(t)} configuration(s) in both runs; {int(t['paired'].sum())} query results paired "
            f"(queries solved by the same configuration in both), {int(t['unpaired_a'].sum())} only in A ({name_a}), "
            f"{int(t['unpaired_b'].sum())} only in B ({name_b})")
