"""The answer weighs build time and memory too.

The first screen's Pareto front is over query time and gap; a representation also costs its build
on every map load and its memory per map (OMPL's Planner Arena and Bench-MR let the reader choose
the metric). Here, from a scope's ranked table (one row per configuration: median query time, mean
gap, and build ms and memory bytes as means over maps, each with its 95 % interval):
- each front point's build time and memory, said beside it;
- budget answers: "with at most X of memory per map, the front is ...", for budgets taken from the
  data that split the configurations (each budget is a configuration's own value, the largest one
  below a front point's, so that point and everything dearer drop out);
(the charts of memory and of build time against median query time are figures/budget.py's).
budgets.csv (next to summary.csv) holds the budget answers for tests/scripts/test_budget.py.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from navbench import stats
from navreport.analysis.fmt import f_bytes, f_sig

# (ranked-table column, what a budget on it is called, how its values are printed)
BUDGETS = [("memory", "memory", "bytes"), ("build_ms", "build time", "ms")]
MAX_BUDGETS = 2  # per kind and facet: the first screen stays short


# The ranked table's formats, so that a budget reads as its table cell.
FORMATS = {"bytes": f_bytes, "ms": f_sig}


def fmt_value(v, unit: str) -> str:
    if not np.isfinite(v):
        return "–"
    return FORMATS["bytes"](v) if unit == "bytes" else f"{FORMATS['ms'](v)} ms"


def front(sub: pd.DataFrame) -> pd.DataFrame:
    """The configurations of sub on its time/gap Pareto front, fastest first."""
    ok = sub[np.isfinite(sub["time_median"].to_numpy(float)) & np.isfinite(sub["gap_mean"].to_numpy(float))]
    if not len(ok):
        return ok
    layers = stats.pareto_layers(list(zip(ok["time_median"], ok["gap_mean"])))
    return ok[np.array(layers) == 1].sort_values(["time_median", "gap_mean"], kind="stable")


def budget_answers(table: pd.DataFrame, scope: str) -> list:
    """Per facet and budget kind, up to MAX_BUDGETS budgets that change the front, largest first:
    dicts scope, facet, kind, budget, excluded (configurations over it), front (configs in order)."""
    out = []
    if not len(table):
        return out
    for facet in pd.unique(table["facet"]):
        sub = table[(table["facet"] == facet) & (table["layer"] > 0)]
        if not len(sub):
            continue
        for col, name, unit in BUDGETS:
            if col not in sub.columns:
                continue
            known = sub[np.isfinite(sub[col].to_numpy(float))]
            values = np.sort(np.unique(known[col].to_numpy(float)))
            previous = list(front(known)["config"])
            made = 0
            # Walk down from the whole front: each budget drops the dearest front point left.
            cap = np.inf
            while made < MAX_BUDGETS:
                cur = known[known[col] <= cap]
                f = front(cur)
                if not len(f):
                    break
                dearest = f[col].max()
                below = values[values < dearest]
                if not len(below):
                    break
                cap = float(below[-1])
                within = known[known[col] <= cap]
                fr = list(front(within)["config"])
                if not fr or fr == previous:
                    continue
                out.append({"scope": scope, "facet": facet, "kind": name, "column": col, "budget": cap,
                            "budget_text": fmt_value(cap, unit), "configurations": len(within),
                            "of": len(known), "front": " → ".join(fr)})
                previous = fr
                made += 1
    return out
