"""The candidate rule (python/navbench/candidates.py, SPEC §14) on hand-made rows whose
answer is known: which configurations are candidates, their shares, the maps counted apart, the
reasons, and the reader's widening at its boundary. Exit 0 = pass, 1 = fail."""
import math
import os
import sys

import numpy as np
import pandas as pd

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts"))
from navbench import candidates  # noqa: E402  (python/navbench/candidates.py)

fails = []


def check(cond, what):
    print(("ok:   " if cond else "FAIL: ") + what)
    if not cond:
        fails.append(what)


def rows(config, map_, status, valid=None, optimal=1.0, **extra):
    return dict(config=config, map=map_, status=status, valid=valid, optimal=optimal, **extra)


data = []
# exact: 10 valid paths on m1 and m2, one query without a path (no optimum, no_path), one invalid query
data += [rows("exact", "m1" if k < 5 else "m2", "ok", 1) for k in range(10)]
data += [rows("exact", "m1", "no_path", optimal=np.nan), rows("exact", "m2", "invalid_query", optimal=np.nan)]
# clipping: 8 paths, 2 of them invalid (25 %)
data += [rows("clipping", "m1", "ok", 1 if k < 6 else 0) for k in range(8)]
# missing: 9 valid paths, 1 no_path and 1 error where a path exists: missed 2 of 11
data += [rows("missing", "m1", "ok", 1) for _ in range(9)] + [rows("missing", "m1", "no_path"), rows("missing", "m2", "error")]
# partial: not applicable on every row of m2 (counted apart), all answered on m1; no row on m3
data += [rows("partial", "m1", "ok", 1) for _ in range(4)] + [rows("partial", "m2", "not_applicable", optimal=np.nan) for _ in range(3)]
# unknown: a path whose validity is unknown counts as not valid
data += [rows("unknown", "m1", "ok", 1), rows("unknown", "m1", "ok", None)]
# weighted: no length optimum, a reference cost says a path exists
data += [rows("weighted", "m3", "ok", 1, optimal=np.nan, optimal_cost=5.0),
         rows("weighted", "m3", "no_path", optimal=np.nan, octile_optimal_cost=4.0)]
# never: every row not applicable
data += [rows("never", "m1", "not_applicable", optimal=np.nan)]
df = pd.DataFrame(data)
for c in ("optimal_cost", "octile_optimal_cost"):
    df[c] = df[c].astype(float)
df["config"] = df["config"].astype("category")  # as the report holds it

s = candidates.summarise(df).set_index("config")
check(list(s.index) == ["exact", "clipping", "missing", "partial", "unknown", "weighted", "never"],
      f"one row per configuration in order of appearance ({list(s.index)})")
e = s.loc["exact"]
check(e["is_candidate"] and e["paths"] == 10 and e["with_path"] == 10 and e["valid_share"] == 1 and e["solved_share"] == 1
      and e["reason"] == "", "exact: a candidate; the query without a path and the invalid query are not counted")
c = s.loc["clipping"]
check(not c["is_candidate"] and c["invalid_paths"] == 2 and c["valid_share"] == 0.75 and c["reason"] == "25.0 % of its paths invalid",
      f"clipping: 2 of 8 paths invalid, no candidate ({c['reason']!r})")
m = s.loc["missing"]
check(not m["is_candidate"] and m["missed"] == 2 and math.isclose(m["solved_share"], 9 / 11)
      and m["reason"] == "missed 2 of 11 queries that have a path", f"missing: no_path and error are misses ({m['reason']!r})")
p = s.loc["partial"]
check(p["is_candidate"] and p["na_maps"] == ("m2",) and p["unrun_maps"] == ("m3",) and p["with_path"] == 4,
      f"partial: m2 not applicable and m3 not run, counted apart ({p['na_maps']}, {p['unrun_maps']})")
u = s.loc["unknown"]
check(not u["is_candidate"] and u["valid_share"] == 0.5, "a path of unknown validity is not valid")
w = s.loc["weighted"]
check(not w["is_candidate"] and w["with_path"] == 2 and w["answered"] == 1,
      "on a weighted map a reference cost (optimal_cost, octile_optimal_cost) says a path exists")
n = s.loc["never"]
check(not n["is_candidate"] and n["reason"] == "applies to no query here", "a configuration that applies nowhere is none")

# Widening: at its boundary a configuration is admitted, just below it not.
wide = candidates.summarise(df, widening=candidates.Widening(invalid_pct=25, unsolved_pct=100 * 2 / 11)).set_index("config")
check(wide.loc["clipping", "is_candidate"] and wide.loc["missing", "is_candidate"]
      and wide.loc["clipping", "reason"] == "25.0 % of its paths invalid",
      "--accept-invalid 25 admits 25 % invalid paths, --accept-unsolved 18.18.. admits 2 of 11 missed; the reason stays")
narrow = candidates.summarise(df, widening=candidates.Widening(invalid_pct=24.9, unsolved_pct=18)).set_index("config")
check(not narrow.loc["clipping", "is_candidate"] and not narrow.loc["missing", "is_candidate"], "just below, neither is admitted")
check(candidates.Widening().widened() is False and candidates.Widening(invalid_pct=1).widened(), "Widening.widened")

# Facets: a configuration's unrun maps are those of its own facet.
f = df[df["config"].isin(["exact", "partial"])].assign(facet="a")
f = pd.concat([f, pd.DataFrame([rows("other", "m9", "ok", 1, facet="b")])], ignore_index=True)
sf = candidates.summarise(f).set_index("config")
check(sf.loc["exact", "unrun_maps"] == () and sf.loc["other", "unrun_maps"] == (), "a map of another facet is not 'not run'")

# A run without the exact optimum (--no-optimum; no octile one either): a query has a path when any
# configuration returned a valid path for it, matched by the query's identity (map, scen_index, ...),
# not by row order. "prm" misses q1 and q2, which "exact" solved; nobody solved q3 (no path known);
# "clip" returned an invalid path for q4, which proves nothing.
nq = []
for q in range(4):
    nq += [dict(config="exact", map="m1", scen_index=q, status="ok" if q < 3 else "no_path", valid=1 if q < 3 else None)]
nq[2] = dict(config="exact", map="m1", scen_index=2, status="no_path", valid=None)
nq += [dict(config="prm", map="m1", scen_index=q, status="ok" if q == 0 else "no_path", valid=1 if q == 0 else None)
       for q in range(4)]
nq += [dict(config="clip", map="m1", scen_index=3, status="ok", valid=0)]
nq += [dict(config="lonely", map="m1", scen_index=2, status="no_path", valid=None)]
no_opt = pd.DataFrame(nq).assign(optimal=np.nan, octile_optimal=np.nan)
no_opt = no_opt.sample(frac=1, random_state=3).reset_index(drop=True)  # row order must not matter
hp = pd.Series(candidates.path_exists(no_opt), index=no_opt.index)
check(set(no_opt.loc[hp, "scen_index"]) == {0, 1}, f"no optimum: q0 and q1 have a path (a valid path returned), q2 and "
      f"q3 not ({sorted(set(no_opt.loc[hp, 'scen_index']))})")
sn = candidates.summarise(no_opt).set_index("config")
check(sn.loc["exact", "is_candidate"] and sn.loc["exact", "with_path"] == 2,
      "no optimum: exact, which found every path found, is a candidate")
check(not sn.loc["prm", "is_candidate"] and sn.loc["prm", "missed"] == 1 and sn.loc["prm", "with_path"] == 2
      and sn.loc["prm", "reason"] == "missed 1 of 2 queries that have a path",
      f"no optimum: prm's no_path where exact found the path is a miss ({sn.loc['prm', 'reason']!r})")
check(not sn.loc["clip", "is_candidate"] and not sn.loc["lonely", "is_candidate"]
      and sn.loc["lonely", "reason"] == "none of its queries here has a known path (nothing judged it)",
      f"no judged query: not a candidate ({sn.loc['lonely', 'reason']!r}; clip: {sn.loc['clip', 'reason']!r})")
other_map = no_opt.assign(map="m2", config=no_opt["config"].astype(str) + "-b")
both = pd.concat([no_opt[no_opt["config"] != "prm"], other_map[other_map["config"] == "prm-b"]], ignore_index=True)
hb = candidates.path_exists(both)
check(not hb[((both["config"] == "prm-b") & (both["scen_index"] == 1)).to_numpy()].any()
      and hb[((both["config"] == "exact") & (both["scen_index"] == 1)).to_numpy()].all(),
      "a valid path for m1's query 1 says nothing of m2's query 1 (queries matched by identity)")

# Maps without rows, and why (PREFIX.unrun.csv, docs/results.md#maps-not-run): a sweep's skip_maps
# keeps a configuration off the scope's candidates, a refused kind or a declared cap is counted
# apart, a map no record explains is not run.
ab = []
for mp in ("g1", "g2", "g3", "poly"):
    for q in range(3):
        ab.append(dict(config="grid8 · none", representation="grid8", map=mp, scen_index=q, status="ok", valid=1, optimal=1.0))
        if mp != "poly":
            ab.append(dict(config="subgoal · none", representation="subgoal", map=mp, scen_index=q, status="ok", valid=1,
                           optimal=1.0))
        if mp not in ("g3", "poly"):
            ab.append(dict(config="labels · none", representation="subgoal:labels=1", map=mp, scen_index=q, status="ok",
                           valid=1, optimal=1.0))
        if mp != "g2":
            ab.append(dict(config="hub · none", representation="subgoal:table=1", map=mp, scen_index=q, status="ok",
                           valid=1, optimal=1.0))
abd = pd.DataFrame(ab)
unrun = pd.DataFrame([
    dict(map="poly", collection="c", representation="subgoal", convention="center", reason="kind", message="subgoal needs a grid map"),
    dict(map="poly", collection="c", representation="subgoal:labels=1", convention="center", reason="kind",
         message="subgoal needs a grid map"),
    dict(map="g3", collection="c", representation="subgoal:labels=1", convention="center", reason="skip_maps",
         message="the sweep config's skip_maps of subgoal:labels=1 names g3"),
    dict(map="g2", collection="c", representation="subgoal:table=1", convention="center", reason="cap",
         message="subgoal: table=1 needs fewer than 65,535 subgoals (70000)")])
absent = candidates.absent_table(abd, unrun, recorded=("set",))
sa = candidates.summarise(abd, absent=absent).set_index("config")
check(sa.loc["subgoal · none", "is_candidate"] and sa.loc["subgoal · none", "na_maps"] == ("poly",)
      and sa.loc["subgoal · none", "unrun_maps"] == ()
      and dict(sa.loc["subgoal · none", "apart_why"])["poly"] == "subgoal needs a grid map",
      "a refused map kind: counted apart, named with its reason, still a candidate")
lab = sa.loc["labels · none"]
check(not lab["is_candidate"] and lab["unrun_maps"] == ("g3",) and lab["na_maps"] == ("poly",)
      and lab["reason"] == "not run on 1 map of this scope (the sweep's skip_maps)",
      f"a sweep's skip_maps: not run there, not a candidate on the scope ({lab['reason']!r})")
hub = sa.loc["hub · none"]
check(hub["is_candidate"] and hub["na_maps"] == ("g2",) and dict(hub["apart_why"])["g2"].startswith("declared cap: "),
      f"a declared cap: counted apart and named ({dict(hub['apart_why']).get('g2')!r})")
sa_no = candidates.summarise(abd[abd["map"] != "g1"].reset_index(drop=True),
                             absent=candidates.absent_table(abd, unrun.iloc[0:0], recorded=("set",))).set_index("config")
check(not sa_no.loc["subgoal · none", "is_candidate"] and sa_no.loc["subgoal · none", "unrun_maps"] == ("poly",),
      "a map no record explains: not run, not a candidate")
check(candidates.summarise(abd[abd["map"] != "g3"].reset_index(drop=True), absent=absent).set_index("config")
      .loc["labels · none", "is_candidate"], "on a scope without the skipped map it is a candidate (it ran it entirely)")
# Results written before the records (no PREFIX.unrun.csv): the sweep config in meta.json says
# which maps skip_maps left out; any other map without rows was refused by the build.
legacy = abd.assign(result_set="old")
meta = {"old": {"config": {"representations": ["grid8", {"name": "subgoal", "params": {"labels": [1]},
                                                            "skip_maps": ["g3"]}]}}}
la = candidates.absent_table(legacy, None, meta).set_index(["map", "representation"])
check(la.loc[("g3", "subgoal:labels=1"), "status"] == "not_run" and la.loc[("poly", "subgoal"), "status"] == "not_applicable"
      and la.loc[("poly", "subgoal:labels=1"), "status"] == "not_applicable",
      "legacy results: skip_maps from the sweep config not run, other maps without rows refused")
sl = candidates.summarise(legacy, absent=candidates.absent_table(legacy, None, meta)).set_index("config")
check(not sl.loc["labels · none", "is_candidate"] and sl.loc["subgoal · none", "is_candidate"],
      "legacy results: the skipped configuration is off the candidates, the refused kind counted apart")

# The shares as the page writes them: never 100 below 1, never 0 above 0.
check([candidates.pct(v) for v in (1, 0, 0.313, 0.99996, 0.9996, 0.0004)] == ["100", "0", "31.3", "99.996", "99.96", "0.04"],
      "pct: 100 and 0 only when exact")
check(candidates.summarise(df.iloc[0:0]).empty, "no rows: an empty table")
sys.exit(1 if fails else 0)
