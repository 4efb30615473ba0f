"""The candidate rule (SPEC §14): which configurations an answer may recommend.

A configuration (representation with its parameters, search, smoothing, facet) is a **candidate**
on a scope (all maps, a collection, the weighted maps) when, over its rows there,
- every path it returned is valid (SPEC §1): its **valid share**, paths whose `valid` is 1 over the
  rows with status `ok`, is 1 (a path whose validity is unknown is not counted valid);
- it answered every query for which a path exists: its **solved share**, `ok` rows over its rows
  whose query has a path, is 1.

A query has a path when its row carries a finite optimum (`optimal`, the exact one, SPEC §2, for a
disc §6; `octile_optimal`, the scenario's; the report's `length_ref`, one of the two) or, on a
weighted map, a reference cost (`optimal_cost`, `octile_optimal_cost`), and its status is neither
`invalid_query` (no free start or goal: no path) nor `not_applicable` (the combination cannot run
by construction; SPEC §3). Each row is judged by its own columns (every row of a query carries the
same optimum). A map on which every row of a configuration is `not_applicable` is counted apart
and named (`na_maps`), neither solved nor missed; so is a map of the scope (of the configuration's
facet, where the rows have one) on which the configuration has no row at all (`unrun_maps`: a map
kind it refuses, a sweep's `skip_maps`).

A reader may widen the rule (Widening): up to `invalid_pct` percent of a configuration's paths
invalid and up to `unsolved_pct` percent of its queries with a path missed; both 0 by default.

    summarise(rows, by="config", widening=Widening(), has_path=None) -> DataFrame

takes the per-query rows of one scope (columns: `by`, `status`, `valid`, `map`, the optimum
columns above that exist, optionally `facet`) and returns one row per configuration (in order of
first appearance): `applicable` (rows not `not_applicable`), `paths` (ok rows), `valid_paths`, `invalid_paths`, `valid_share`, `with_path`
(rows whose query has a path), `answered` (ok among them), `missed`, `solved_share`, `na_maps`,
`unrun_maps` (tuples of map names), `is_candidate` and `reason` (why it falls short, "" when it
does not; a widened candidate keeps its reason). Only numpy and pandas: nothing else of the report.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd

# The columns whose finite value says a path exists (SPEC §2, §6; docs/terrain.md), where present.
PATH_COLUMNS = ("optimal", "octile_optimal", "length_ref", "optimal_cost", "octile_optimal_cost")
NO_PATH_STATUSES = ("invalid_query", "not_applicable")


@dataclass(frozen=True)
class Widening:
    """How far a reader widens the candidates: percent of paths invalid and percent of queries with
    a path missed that a candidate may have (report.py --accept-invalid, --accept-unsolved)."""
    invalid_pct: float = 0.0
    unsolved_pct: float = 0.0

    def widened(self) -> bool:
        return self.invalid_pct > 0 or self.unsolved_pct > 0


def _text(col) -> np.ndarray:
    """A column's values as plain text (NaN as "")."""
    if isinstance(col.dtype, pd.CategoricalDtype):
        cats = np.array(["" if pd.isna(c) else str(c) for c in col.cat.categories] + [""], dtype=object)
        return cats[col.cat.codes.to_numpy()]  # code -1 (NaN) picks the trailing ""
    return col.astype(object).where(col.notna(), "").astype(str).to_numpy()


def _codes(col):
    """(integer code per row, the values) of a column; NaN gets a code of its own."""
    if isinstance(col.dtype, pd.CategoricalDtype):
        codes = col.cat.codes.to_numpy().astype(np.int64)
        values = list(col.cat.categories)
        if (codes < 0).any():
            codes = np.where(codes < 0, len(values), codes)
            values.append("")
        return codes, values
    codes, uniq = pd.factorize(col, use_na_sentinel=False)
    return codes.astype(np.int64), list(uniq)


def path_exists(rows) -> np.ndarray:
    """Per row: whether its query has a path (the rule above)."""
    n = len(rows)
    known = np.zeros(n, dtype=bool)
    for c in PATH_COLUMNS:
        if c in rows.columns:
            known |= np.isfinite(pd.to_numeric(rows[c], errors="coerce").to_numpy(dtype=float))
    status = _text(rows["status"]) if n else np.empty(0, dtype=object)
    return known & ~np.isin(status, NO_PATH_STATUSES)


def summarise(rows, by: str = "config", widening: Widening = Widening(), has_path=None) -> pd.DataFrame:
    """Per configuration (the values of column `by`): the shares, the maps counted apart, whether
    it is a candidate and why not (module docstring). has_path: path_exists(rows), when at hand."""
    cols = ["applicable", "paths", "valid_paths", "invalid_paths", "valid_share", "with_path", "answered", "missed",
            "solved_share", "na_maps", "unrun_maps", "is_candidate", "reason"]
    if not len(rows):
        return pd.DataFrame(columns=[by] + cols)
    cfg, names = _codes(rows[by])
    k = len(names)
    status = _text(rows["status"])
    ok = status == "ok"
    applicable = status != "not_applicable"
    valid = ok & (pd.to_numeric(rows["valid"], errors="coerce").to_numpy(dtype=float) == 1)
    has_path = path_exists(rows) if has_path is None else np.asarray(has_path, dtype=bool)
    count = lambda mask: np.bincount(cfg[mask], minlength=k)  # noqa: E731
    n_rows, n_app = count(np.ones(len(cfg), dtype=bool)), count(applicable)
    paths, valid_paths, with_path, answered = count(ok), count(valid), count(has_path), count(ok & has_path)
    na_maps, unrun_maps = _maps_apart(rows, cfg, k, applicable)
    first = np.full(k, len(cfg))
    np.minimum.at(first, cfg, np.arange(len(cfg)))
    out = []
    for j in np.argsort(first, kind="stable"):
        if n_rows[j] == 0:
            continue
        inv, miss = int(paths[j] - valid_paths[j]), int(with_path[j] - answered[j])
        # Counts against the reader's percentages (a relative 1e-12 for the rounding of PCT x count).
        ok_invalid = inv * 100 <= widening.invalid_pct * paths[j] * (1 + 1e-12)
        ok_missed = miss * 100 <= widening.unsolved_pct * with_path[j] * (1 + 1e-12)
        out.append({by: names[j], "applicable": int(n_app[j]), "paths": int(paths[j]), "valid_paths": int(valid_paths[j]), "invalid_paths": inv,
                    "valid_share": valid_paths[j] / paths[j] if paths[j] else math.nan,
                    "with_path": int(with_path[j]), "answered": int(answered[j]), "missed": miss,
                    "solved_share": answered[j] / with_path[j] if with_path[j] else math.nan,
                    "na_maps": na_maps[j], "unrun_maps": unrun_maps[j],
                    "is_candidate": bool(n_app[j] > 0 and ok_invalid and ok_missed),
                    "reason": reason(int(paths[j]), inv, int(with_path[j]), miss, int(n_app[j]))})
    return pd.DataFrame(out, columns=[by] + cols)


def _maps_apart(rows, cfg, k: int, applicable):
    """Per configuration code: (maps where every row of it is not_applicable, maps of its facet
    where it has no row), each a sorted tuple of names."""
    none = [()] * k
    if "map" not in rows.columns:
        return none, list(none)
    mp, map_names = _codes(rows["map"])
    m = len(map_names)
    pair = cfg * m + mp
    n_pair = np.bincount(pair, minlength=k * m).reshape(k, m)
    app_pair = np.bincount(pair[applicable], minlength=k * m).reshape(k, m)
    na = [tuple(sorted(str(map_names[i]) for i in np.flatnonzero((n_pair[j] > 0) & (app_pair[j] == 0))))
          for j in range(k)]
    # The maps of each configuration's facet (the whole scope without a facet column).
    if "facet" in rows.columns:
        fc, _ = _codes(rows["facet"])
        f_of = np.zeros(k, dtype=np.int64)
        f_of[cfg] = fc
        nf = int(fc.max()) + 1
        in_facet = np.bincount(fc * m + mp, minlength=nf * m).reshape(nf, m) > 0
    else:
        f_of, in_facet = np.zeros(k, dtype=np.int64), (n_pair.sum(axis=0) > 0)[None, :]
    unrun = [tuple(sorted(str(map_names[i]) for i in np.flatnonzero(in_facet[f_of[j]] & (n_pair[j] == 0))))
             for j in range(k)]
    return na, unrun


def pct(share: float) -> str:
    """A share as percent: "100" and "0" exactly, else one decimal, with more digits near either
    end, so a share below 1 never reads 100 and a share above 0 never reads 0."""
    p = 100 * share
    if p in (0, 100):
        return f"{p:.0f}"
    digits = 1
    while digits < 12 and (round(p, digits) >= 100 or round(p, digits) <= 0):
        digits += 1
    return f"{p:.{digits}f}"


def reason(paths: int, invalid: int, with_path: int, missed: int, applicable: int = 1) -> str:
    """Why a configuration falls short of the rule, in words ("" when it does not)."""
    if applicable == 0:
        return "applies to no query here"
    out = []
    if invalid:
        out.append(f"{pct(invalid / paths)} % of its paths invalid")
    if missed:
        out.append(f"missed {missed:,} of {with_path:,} queries that have a path")
    return "; ".join(out)


def rule_text(widening: Widening) -> str:
    """The rule in one sentence, as the page states it."""
    if not widening.widened():
        return ("Candidates: configurations whose every path is valid and that answered every query that has a "
                "path (SPEC §14)")
    parts = []
    if widening.invalid_pct > 0:
        parts.append(f"up to {widening.invalid_pct:g} % of their paths invalid")
    if widening.unsolved_pct > 0:
        parts.append(f"up to {widening.unsolved_pct:g} % of the queries that have a path missed")
    return ("Candidates widened by the reader: configurations with " + " and ".join(parts) +
            " count as candidates (the rule, SPEC §14, asks every path valid and every such query answered)")
