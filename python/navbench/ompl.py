"""navbench export --ompl DIR: result sets as OMPL benchmark logs (docs/results.md#ompls-benchmark-log),
the text format of ompl::tools::Benchmark::saveResultsToFile, which OMPL's own
ompl_benchmark_statistics turns into its SQLite database and Planner Arena plots.

One log file per experiment: a map (named collection/map) of one result set, and its terrain,
convention and radius when the rows vary in them (as experiment properties, which Planner Arena
offers as the problem's parameters). Its planners are navbench's configurations
(labels.config_label: 'grid8 · los', 'grid8 · theta + los'), the same names on every map; its
runs are the configuration's queries on that map, one per result row, in scenario order. Rows of
status not_applicable are left out (the configuration cannot run there); a configuration with no
other row on a map is not a planner of that experiment. Run properties:

    time REAL        query time, locate + search + smooth, in seconds (OMPL's unit); empty for a
                     traced row (rules.query_time_us)
    solved BOOLEAN   status ok
    status ENUM      ok, no_path, invalid_query, error (the enum 'status')
    length REAL      path length (map units); empty unless solved
    gap REAL         length / optimal - 1
    valid BOOLEAN    the path passed navbench's exact validity test
    clearance REAL   least distance from the path to an obstacle (map units)
    turning REAL     sum of absolute heading changes (degrees; navbench's column `turn`)
    expansions INTEGER  A* node expansions

The experiment's version line is 'navbench version COMMIT' (Planner Arena compares versions), its
setup the run's command line, cpuinfo the machine, 'seconds per run' and 'MB per run' 0 (navbench
sets neither limit).
"""
from __future__ import annotations

import math
import os
import re

import numpy as np

from navbench import rules
from navbench.errors import InputError
from navbench.labels import config_label
from navbench.summarize import floats, statuses

ENUM_STATUS = ("ok", "no_path", "invalid_query", "error")
PROPERTIES = (("time", "REAL"), ("solved", "BOOLEAN"), ("status", "ENUM"), ("length", "REAL"), ("gap", "REAL"),
              ("valid", "BOOLEAN"), ("clearance", "REAL"), ("turning", "REAL"), ("expansions", "INTEGER"))


def _num(v, integer=False) -> str:
    """A value as the log writes it: empty when missing (OMPL's reader stores NULL)."""
    if v is None or (isinstance(v, float) and not math.isfinite(v)):
        return ""
    return str(int(v)) if integer else f"{float(v):.9g}"


def _one_line(text) -> str:
    return " ".join(str(text).split())


def experiment_keys(q) -> list:
    """The columns whose values make an experiment: collection and map, and terrain, convention and
    radius where the rows hold more than one value."""
    keys = ["collection", "map"]
    for c in ("terrain", "convention", "radius"):
        if c in q.columns and q[c].astype(str).nunique() > 1:
            keys.append(c)
    return keys


def experiment_name(key: dict) -> str:
    """collection/map: one word (OMPL's reader takes the line's last word as the name)."""
    return "_".join(f"{key['collection']}/{key['map']}".split())


def experiment_properties(key: dict) -> list:
    """The experiment's terrain, convention and radius when the rows vary in them, as OMPL's
    experiment properties ('terrain TEXT = plain'): Planner Arena offers each as a parameter of the
    problem (the map)."""
    out = []
    for c, typ in (("terrain", "TEXT"), ("convention", "TEXT"), ("radius", "REAL")):
        if c in key:
            v = str(key[c])
            missing = v in ("", "nan", "None", "<NA>")
            out.append(f"{c} {typ} = {('plain' if c == 'terrain' else '0' if c == 'radius' else '') if missing else _one_line(v)}")
    return out


def _planner_rows(g) -> list:
    """One run line per row of a configuration on a map ('v; v; ...; ')."""
    st = statuses(g)
    cols = {c: floats(g[c]) if c in g.columns else [math.nan] * len(g)
            for c in ("length", "gap", "valid", "clearance", "turn", "expansions")}
    seconds = floats(rules.query_time_us(g)) / 1e6  # the one rule of query times (a traced row has none)
    lines = []
    for i in range(len(g)):
        time = seconds[i]
        ok = st[i] == "ok"
        vals = [_num(time), "1" if ok else "0", str(ENUM_STATUS.index(st[i])),
                _num(cols["length"][i]) if ok else "", _num(cols["gap"][i]) if ok else "",
                _num(cols["valid"][i], True) if ok else "", _num(cols["clearance"][i]) if ok else "",
                _num(cols["turn"][i]) if ok else "", _num(cols["expansions"][i], True)]
        lines.append("; ".join(vals) + "; ")
    return lines


def _header(meta: dict, name: str, props: list, total_s: float, runs: int) -> list:
    commit = str(meta.get("git_commit") or "unknown").split()[0][:12]
    cmd = meta.get("command_line")
    setup = " ".join(cmd) if isinstance(cmd, list) else str(cmd or "")
    return [f"navbench version {commit}{'-dirty' if meta.get('git_dirty') else ''}",
            f"Experiment {_one_line(name)}",
            *([f"{len(props)} experiment properties"] + props if props else []),
            f"Running on {_one_line(meta.get('host') or 'unknown')}",
            f"Starting at {_one_line(meta.get('date') or 'unknown')}",
            "<<<|", setup, "|>>>",
            "<<<|", _one_line(meta.get("cpu") or "unknown"), "|>>>",
            f"{int(meta.get('seed') or 0)} is the random seed",
            "0 seconds per run",
            "0 MB per run",
            f"{runs} runs per planner",
            f"{total_s!r} seconds spent to collect the data",
            "1 enum types",
            "status|" + "|".join(ENUM_STATUS)]


def _file_name(name: str, run_index: int) -> str:
    return f"{run_index:02d}-" + re.sub(r"[^A-Za-z0-9._=-]+", "_", name).strip("_") + ".log"


def export_ompl(out_dir: str, res) -> list:
    """Writes one log per experiment of navbench.load's Results into out_dir; returns the files."""
    q = res.queries
    if q.empty:
        raise InputError("no result rows to export")
    os.makedirs(out_dir, exist_ok=True)
    keys = experiment_keys(q)
    written = []
    st_all = statuses(q)
    q = q[st_all != "not_applicable"].reset_index(drop=True)
    cfg_cols = [c for c in ("representation", "search", "heuristic", "smoothing") if c in q.columns]
    labels = [config_label(*(str(v) for v in t)) for t in zip(
        q["representation"].astype(str), (q["search"].astype(str) if "search" in q.columns else ["astar"] * len(q)),
        (q["heuristic"].astype(str) if "heuristic" in q.columns else [""] * len(q)), q["smoothing"].astype(str))]
    q = q.assign(_planner=labels)
    sort_cols = [c for c in ("scen_index",) if c in q.columns]
    for ri, (run, rq) in enumerate(q.groupby(q["run"].astype(str), sort=False)):
        meta = res.meta.get(run) or {}
        by = {c: rq[c].astype(str) for c in keys}
        for key, g in rq.groupby(list(by.values()), sort=False):
            key = dict(zip(keys, key if isinstance(key, tuple) else (key,)))
            name = experiment_name(key)
            planners = []
            for planner, pg in g.groupby("_planner", sort=False):
                pg = pg.sort_values(sort_cols, kind="stable") if sort_cols else pg
                planners.append((planner, pg))
            total = float(np.nansum(floats(rules.query_time_us(g)))) / 1e6
            lines = _header(meta, name, experiment_properties(key), total, max(len(pg) for _, pg in planners))
            lines.append(f"{len(planners)} planners")
            for planner, pg in planners:
                lines.append(planner)
                settings = [f"{c} = {pg[c].astype(str).iloc[0]}" for c in cfg_cols]
                lines.append(f"{len(settings)} common properties")
                lines.extend(settings)
                lines.append(f"{len(PROPERTIES)} properties for each run")
                lines.extend(f"{n} {t}" for n, t in PROPERTIES)
                lines.append(f"{len(pg)} runs")
                lines.extend(_planner_rows(pg))
                lines.append(".")
            path = os.path.join(out_dir, _file_name(name + "".join("_" + p.split(" = ")[1] for p in
                                                                    experiment_properties(key)), ri))
            with open(path, "w", encoding="utf-8") as f:
                f.write("\n".join(lines) + "\n")
            written.append(path)
    return written
