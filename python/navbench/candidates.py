"""The candidate rule (SPEC §14): which configurations an answer may recommend.

A configuration (representation with its parameters, search, smoothing, facet) is a **candidate**
on a scope (all maps, a collection, the weighted maps) when, over its rows there,
- every path it returned is valid (SPEC §1): its **valid share**, paths whose `valid` is 1 over the
  rows with status `ok`, is 1 (a path whose validity is unknown is not counted valid);
- it answered every query for which a path exists: its **solved share**, `ok` rows over its rows
  whose query has a path, is 1;
- some query of the scope has a path among its rows (else nothing judged it);
- it ran on every map of the scope (of its facet) it applies to: a map it was not run on (a sweep's
  skip_maps, a missing shard, a run without it) is not a map it passed, so it is a candidate only
  on the scopes it ran entirely (the report says so under its tables).

A query has a path (path_exists) when the optimum says so — its row carries a finite `optimal`
(the exact one, SPEC §2, for a disc §6), `octile_optimal` (the scenario's), the report's
`length_ref` (one of the two) or, on a weighted map, a reference cost (`optimal_cost`,
`octile_optimal_cost`) — or when any configuration returned a valid path for it (status `ok`,
`valid` 1): the rows of one query are matched by its identity (QUERY_COLUMNS: map, collection,
scen_index, convention, terrain, radius, epoch, those present), never by their order. A row whose
own status is `invalid_query` (no free start or goal: no path) or `not_applicable` (the combination
cannot run by construction; SPEC §3) has none. So a run without the exact optimum (--no-optimum)
still counts a roadmap's no_path as a miss where another configuration found the path.

Maps counted apart (`na_maps`), neither solved nor missed, named: those on which every row of a
configuration is `not_applicable`, and those on which it has no row because its build refused the
map (a map kind it refuses, or a limit it declares such as labels_mb or table_mb: reason `kind` or
`cap` in PREFIX.unrun.csv, docs/results.md#maps-not-run). A map of the scope (of the configuration's
facet, where the rows have one) on which it has no row otherwise is a map it was not run on
(`unrun_maps`: reason `skip_maps`, or no record at all) and keeps it off the candidates there.
absent_table() gathers those reasons per (map, representation) from the result files; summarise
without one (absent=None: results read without their records) counts every map without rows
apart, as navbench did before the records existed, and says so in `apart_why`.

A reader may widen the rule (Widening): up to `invalid_pct` percent of a configuration's paths
invalid and up to `unsolved_pct` percent of its queries with a path missed; both 0 by default.

    summarise(rows, by="config", widening=Widening(), has_path=None, absent=None) -> DataFrame

takes the per-query rows of one scope (columns: `by`, `status`, `valid`, `map`, the optimum
columns above that exist, the query's identity columns, `representation` for absent, optionally
`facet`) and returns one row per configuration (in order of first appearance): `applicable` (rows
not `not_applicable`), `paths` (ok rows), `valid_paths`, `invalid_paths`, `valid_share`,
`with_path` (rows whose query has a path), `answered` (ok among them), `missed`, `solved_share`,
`na_maps`, `unrun_maps` (tuples of map names), `apart_why` (a tuple of (map, why) for both),
`is_candidate` and `reason` (why it falls short, "" when it does not; a widened candidate keeps its
reason). Only numpy and pandas: nothing else of the report.
"""
from __future__ import annotations

import json
import math
import os
from dataclasses import dataclass

import numpy as np
import pandas as pd

# The columns whose finite value says a path exists (SPEC §2, §6; docs/terrain.md), where present.
PATH_COLUMNS = ("optimal", "octile_optimal", "length_ref", "optimal_cost", "octile_optimal_cost")
NO_PATH_STATUSES = ("invalid_query", "not_applicable")
# The columns that name a query (as navbench.compare.QUERY_KEYS): its rows under every
# configuration share them. map and scen_index are needed; the others are used where present.
QUERY_COLUMNS = ("map", "collection", "scen_index", "convention", "terrain", "radius", "epoch")
# PREFIX.unrun.csv's reasons (docs/results.md#maps-not-run): not run, or does not apply.
NOT_RUN_REASONS = ("skip_maps",)
REFUSED_REASONS = ("kind", "cap")
NOT_RECORDED = "no record of why (written before navbench recorded it)"


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


def text_in(col, texts) -> np.ndarray:
    """Per row whether its value as plain text (_text) is one of texts: a categorical's answered
    once per category and read off its codes (a bool a row, not an object a row). summarize reads the
    statuses with it too."""
    if isinstance(col.dtype, pd.CategoricalDtype):
        lut = np.array([("" if pd.isna(c) else str(c)) in texts for c in col.cat.categories] + ["" in texts], dtype=bool)
        return lut[col.cat.codes.to_numpy()]  # code -1 (NaN) picks the trailing ""
    return np.isin(_text(col), list(texts))


def is_one(col) -> np.ndarray:
    """Per row whether the value is 1 (valid: 1, 0 or missing): load's nullable boolean read as
    bools, missing False, without the float64 copy _floats makes of it (80 MB at 10 M rows)."""
    if isinstance(col.dtype, pd.BooleanDtype):
        return col.to_numpy(dtype=bool, na_value=False)
    return _floats(col) == 1


def _floats(col) -> np.ndarray:
    """A column's values as float64 (NaN where empty or not a number; nullable types too)."""
    if col.dtype in (np.float64, np.float32):  # its own values, read only (to_numpy with na_value copies: 80 MB at 10 M rows)
        return col.to_numpy()
    v = pd.to_numeric(col, errors="coerce")
    return v.astype(float) if isinstance(v, np.ndarray) else v.to_numpy(dtype=float, na_value=np.nan)


def _codes(col, narrow: bool = False):
    """(integer code per row, the values) of a column; NaN gets a code of its own. Codes are int64
    (safe in arithmetic); narrow: a categorical's keep their own width (a byte or two a row, not
    eight), for a caller that only adds them to an int64 array."""
    if isinstance(col.dtype, pd.CategoricalDtype):
        codes = col.cat.codes.to_numpy()
        values = list(col.cat.categories)
        if (codes < 0).any():
            codes = np.where(codes < 0, np.int64(len(values)), codes)
            values.append("")
        return (codes if narrow else codes.astype(np.int64)), values
    codes, uniq = pd.factorize(col, use_na_sentinel=False)
    return codes.astype(np.int64, copy=False), list(uniq)


def combined_codes(rows, cols) -> np.ndarray:
    """Per row an integer naming its combination of values in cols (0..k-1). The mixed-radix key
    is built in place: at ten million rows each eight-byte temporary of `key * width + k` took
    80 MB more."""
    key = np.zeros(len(rows), dtype=np.int64)
    bound = 1
    for c in cols:
        k, values = _codes(rows[c], narrow=True)
        width = len(values) + 1
        if bound * width >= 2 ** 62:  # keep the mixed-radix key in 64 bits: renumber densely
            key = pd.factorize(key)[0].astype(np.int64, copy=False)
            bound = int(key.max(initial=0)) + 1
        key *= width
        key += k
        del k
        bound *= width
    return pd.factorize(key)[0].astype(np.int64, copy=False)


def query_codes(rows):
    """Per row an integer naming its query (QUERY_COLUMNS present), or None when the rows lack map
    or scen_index (then only the optimum can say a path exists)."""
    if not {"map", "scen_index"} <= set(rows.columns):
        return None
    return combined_codes(rows, [c for c in QUERY_COLUMNS if c in rows.columns])


def path_exists(rows) -> np.ndarray:
    """Per row: whether its query has a path (the module docstring): a finite optimum or reference
    cost on the row, or a valid path any row of the same query returned; never on a row whose own
    status is invalid_query or not_applicable."""
    n = len(rows)
    known = np.zeros(n, dtype=bool)
    for c in PATH_COLUMNS:
        if c in rows.columns:
            known |= np.isfinite(_floats(rows[c]))
    if not n:
        return known
    q = query_codes(rows) if "valid" in rows.columns else None
    if q is not None:
        found = text_in(rows["status"], ("ok",))
        found &= is_one(rows["valid"])
        known |= (np.bincount(q[found], minlength=int(q.max()) + 1) > 0)[q]
        del q, found
    known &= ~text_in(rows["status"], NO_PATH_STATUSES)
    return known


# --------------------------------------------------------------------------------------------
# Why a configuration has no rows on a map (docs/results.md#maps-not-run)

def read_unrun(prefix: str):
    """PREFIX.unrun.csv as text columns (map, representation, reason, message, ...), or None when
    the result set has none (written before navbench recorded why)."""
    path = prefix + ".unrun.csv"
    if not os.path.isfile(path):
        return None
    return pd.read_csv(path, dtype=str, keep_default_na=False)


def _skip_maps_of(meta):
    """The skip_maps of a sweep config in meta.json: [(representation name, [{param: text}, ...]
    (one per combination; [{}] without params), [maps])]."""
    cfg = meta.get("config") if isinstance(meta, dict) else None
    reps = cfg.get("representations") if isinstance(cfg, dict) else None
    out = []
    for r in reps if isinstance(reps, list) else []:
        if not isinstance(r, dict) or not r.get("skip_maps") or not isinstance(r.get("name"), str):
            continue
        combos = [{}]
        for key, values in (r.get("params") or {}).items():
            values = values if isinstance(values, list) else [values]
            combos = [dict(c, **{key: v if isinstance(v, str) else json.dumps(v)}) for c in combos for v in values]
        out.append((r["name"], combos, [str(m) for m in r["skip_maps"]]))
    return out


def _rep_params(representation: str):
    """(name, {param: text}) of a representation as the rows name it (a label's " (...)" dropped)."""
    raw = str(representation).split(" (")[0]
    name, _, params = raw.partition(":")
    return name, dict(kv.split("=", 1) for kv in params.split(",") if "=" in kv)


def absent_table(rows, unrun=None, metas=None, recorded=()) -> pd.DataFrame:
    """Why each (map, representation) that may lack rows lacks them: a frame of map,
    representation, status ("not_run" or "not_applicable") and why, from
    - the records of PREFIX.unrun.csv (`unrun`: their rows, the representation named as the result
      rows name it): skip_maps -> not_run, kind and cap -> not_applicable, why its message;
    - for the result sets without records (rows' result_set not in `recorded`; metas: prefix ->
      meta.json): a map and a representation both in such a set that the set's sweep config
      (meta.json "config") lists in the representation's skip_maps -> not_run; any other pair of
      the set -> not_applicable, its build having refused the map (navbench wrote no rows then,
      and did not yet say why).
    A pair in neither is one no run planned (summarise: not run)."""
    parts = []
    if unrun is not None and len(unrun):
        u = unrun
        reason = u["reason"].astype(str)
        known = reason.isin(NOT_RUN_REASONS + REFUSED_REASONS)
        u = u[known]
        why = [("the sweep's skip_maps" if r == "skip_maps" else ("declared cap: " if r == "cap" else "") + str(m))
               for r, m in zip(u["reason"].astype(str), u["message"].astype(str))]
        parts.append(pd.DataFrame({"map": u["map"].astype(str).to_numpy(), "representation": u["representation"].astype(str).to_numpy(),
                                   "status": np.where(u["reason"].astype(str).isin(NOT_RUN_REASONS), "not_run", "not_applicable"),
                                   "why": why}))
    if rows is not None and len(rows) and "result_set" in rows.columns:
        sets = _codes(rows["result_set"], narrow=True)  # compared and indexed only
        maps, reps = _codes(rows["map"], narrow=True), _codes(rows["representation"], narrow=True)
        for s, prefix in enumerate(sets[1]):
            if prefix in recorded:
                continue
            here = sets[0] == s
            m_here = sorted({str(maps[1][i]) for i in np.unique(maps[0][here])})
            r_here = sorted({str(reps[1][i]) for i in np.unique(reps[0][here])})
            skips = _skip_maps_of((metas or {}).get(prefix))
            for rep in r_here:
                name, params = _rep_params(rep)
                skipped = {m for n, combos, ms in skips if n == name and params in combos for m in ms}
                parts.append(pd.DataFrame({
                    "map": m_here, "representation": rep,
                    "status": ["not_run" if m in skipped else "not_applicable" for m in m_here],
                    "why": ["the sweep's skip_maps, from its config in meta.json" if m in skipped else
                            "its build refused the map; " + NOT_RECORDED for m in m_here]}))
    if not parts:
        return pd.DataFrame(columns=["map", "representation", "status", "why"])
    out = pd.concat(parts, ignore_index=True)
    # One answer per pair: a record of not running wins (never a map passed by mistake).
    out = out.sort_values("status", key=lambda s: s != "not_run", kind="stable")
    return out.drop_duplicates(["map", "representation"]).reset_index(drop=True)


# --------------------------------------------------------------------------------------------
# The rule

def summarise(rows, by: str = "config", widening: Widening = Widening(), has_path=None, absent=None) -> pd.DataFrame:
    """Per configuration (the values of column `by`): the shares, the maps counted apart or not run,
    whether it is a candidate and why not (module docstring). has_path: path_exists(rows), when at
    hand. absent: absent_table(...) of the result sets (None: no records, every map without rows
    counted apart)."""
    cols = ["applicable", "paths", "valid_paths", "invalid_paths", "valid_share", "with_path", "answered", "missed",
            "solved_share", "na_maps", "unrun_maps", "apart_why", "is_candidate", "reason"]
    if not len(rows):
        return pd.DataFrame(columns=[by] + cols)
    cfg, names = _codes(rows[by], narrow=True)  # indexes and counts only (pairs below widened first)
    k = len(names)
    # Each a bool a row, read off the status's categories (its text per row took 8 bytes a row).
    ok = text_in(rows["status"], ("ok",))
    applicable = ~text_in(rows["status"], ("not_applicable",))
    valid = ok & is_one(rows["valid"])
    has_path = path_exists(rows) if has_path is None else np.asarray(has_path, dtype=bool)
    count = lambda mask: np.bincount(cfg[mask], minlength=k)  # noqa: E731
    n_rows, n_app = np.bincount(cfg, minlength=k), count(applicable)
    paths, valid_paths, with_path, answered = count(ok), count(valid), count(has_path), count(ok & has_path)
    del ok, valid
    first = np.full(k, len(cfg))  # each configuration's first row
    np.minimum.at(first, cfg, np.arange(len(cfg), dtype=np.int32 if len(cfg) < 2 ** 31 else np.int64))
    apart = _maps_apart(rows, cfg, k, applicable, absent, first)
    out = []
    for j in np.argsort(first, kind="stable"):
        if n_rows[j] == 0:
            continue
        na, unrun, why = apart[j]
        inv, miss = int(paths[j] - valid_paths[j]), int(with_path[j] - answered[j])
        # Counts against the reader's percentages (a relative 1e-12 for the rounding of PCT x count).
        ok_invalid = inv * 100 <= widening.invalid_pct * paths[j] * (1 + 1e-12)
        ok_missed = miss * 100 <= widening.unsolved_pct * with_path[j] * (1 + 1e-12)
        not_run = unrun if absent is not None else ()  # without records nothing tells a skip from a refusal
        out.append({by: names[j], "applicable": int(n_app[j]), "paths": int(paths[j]), "valid_paths": int(valid_paths[j]), "invalid_paths": inv,
                    "valid_share": valid_paths[j] / paths[j] if paths[j] else math.nan,
                    "with_path": int(with_path[j]), "answered": int(answered[j]), "missed": miss,
                    "solved_share": answered[j] / with_path[j] if with_path[j] else math.nan,
                    "na_maps": na, "unrun_maps": unrun, "apart_why": why,
                    "is_candidate": bool(with_path[j] > 0 and ok_invalid and ok_missed and not not_run),
                    "reason": reason(int(paths[j]), inv, int(with_path[j]), miss, int(n_app[j]),
                                     not_run=not_run, why=dict(why))})
    return pd.DataFrame(out, columns=[by] + cols)


def _maps_apart(rows, cfg, k: int, applicable, absent, first=None):
    """Per configuration code: (maps it does not apply to, maps of its facet it was not run on,
    ((map, why), ...) for both), the maps sorted by name."""
    none = [((), (), ())] * k
    if "map" not in rows.columns:
        return none
    mp, map_names = _codes(rows["map"], narrow=True)  # only added to int64 arrays
    map_names = [str(m) for m in map_names]
    m = len(map_names)
    # In place, in four bytes a row where the pairs fit: each eight-byte temporary is 80 MB at 10 M rows.
    pair = cfg.astype(np.int32 if k * m < 2 ** 31 else np.int64)
    pair *= m
    pair += mp
    n_pair = np.bincount(pair, minlength=k * m).reshape(k, m)
    app_pair = np.bincount(pair[applicable], minlength=k * m).reshape(k, m)
    del pair
    # The maps of each configuration's facet (the whole scope without a facet column).
    if "facet" in rows.columns:
        fc, _ = _codes(rows["facet"], narrow=True)
        f_of = np.zeros(k, dtype=np.int64)
        f_of[cfg] = fc
        nf = int(fc.max()) + 1
        fm = fc.astype(np.int32 if nf * m < 2 ** 31 else np.int64)
        fm *= m
        fm += mp
        in_facet = np.bincount(fm, minlength=nf * m).reshape(nf, m) > 0
        del fc, fm
    else:
        f_of, in_facet = np.zeros(k, dtype=np.int64), (n_pair.sum(axis=0) > 0)[None, :]
    rep_of = [""] * k
    if absent is not None and "representation" in rows.columns:
        rc, rep_names = _codes(rows["representation"])
        if first is None:  # each configuration's first row
            first = np.full(k, len(cfg))
            np.minimum.at(first, cfg, np.arange(len(cfg)))
        rep_of = [""] * k  # (np.unique(cfg, return_index=True) sorted a copy of the codes: 16 bytes a row)
        for c in np.flatnonzero(first < len(cfg)):
            rep_of[c] = str(rep_names[rc[first[c]]])
    lookup = ({} if absent is None else
              {(str(a), str(b)): (s, w) for a, b, s, w in zip(absent["map"], absent["representation"], absent["status"], absent["why"])})
    out = []
    for j in range(k):
        na = [map_names[i] for i in np.flatnonzero((n_pair[j] > 0) & (app_pair[j] == 0))]
        why = [(x, "not_applicable rows") for x in na]
        unrun = []
        for i in np.flatnonzero(in_facet[f_of[j]] & (n_pair[j] == 0)):
            name = map_names[i]
            if absent is None:
                unrun.append(name)
                why.append((name, NOT_RECORDED))
                continue
            status, text = lookup.get((name, rep_of[j]), ("not_run", "not run: no run of it included the map"))
            (na if status == "not_applicable" else unrun).append(name)
            why.append((name, text))
        out.append((tuple(sorted(na)), tuple(sorted(unrun)), tuple(sorted(why))))
    return out


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


def reason(paths: int, invalid: int, with_path: int, missed: int, applicable: int = 1, not_run=(), why=None) -> str:
    """Why a configuration falls short of the rule, in words ("" when it does not). not_run: the
    maps of the scope it was not run on; why: map -> why it has no rows there."""
    if applicable == 0:
        return "applies to no query here"
    out = []
    if with_path == 0:
        out.append("none of its queries here has a known path (nothing judged it)")
    if invalid:
        out.append(f"{pct(invalid / paths)} % of its paths invalid")
    if missed:
        out.append(f"missed {missed:,} of {with_path:,} queries that have a path")
    if not_run:
        whys = sorted({(why or {}).get(m, "") for m in not_run} - {""})
        out.append(f"not run on {len(not_run)} map{'' if len(not_run) == 1 else 's'} of this scope"
                   + (f" ({'; '.join(whys)})" if whys else ""))
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


# How the report applies SPEC §14 to maps not run (the page says it under its tables).
NOT_RUN_RULE = ("A configuration not run on every map of a scope that it applies to (a sweep's skip_maps, a missing "
                "shard) is a candidate only on the scopes it ran entirely; maps it does not apply to (a map kind it "
                "refuses, a declared cap) are counted apart, neither solved nor missed")
