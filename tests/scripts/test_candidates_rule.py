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

# The shares as the page writes them: never 100 below 1, never 0 above 0.
check([candidates.pct(v) for v in (1, 0, 0.313, 0.99996, 0.0004)] == ["100", "0", "31.3", "99.996", "0.04"],
      "pct: 100 and 0 only when exact")
check(candidates.summarise(df.iloc[0:0]).empty, "no rows: an empty table")
sys.exit(1 if fails else 0)
