"""navbench export --sqlite FILE: result sets in one SQLite database of a fixed schema
(docs/results.md#the-results-database), which sqlite3 and pandas.read_sql read directly, and to
which later runs (other commits, other machines) are appended.

Tables (every id an INTEGER PRIMARY KEY; text TEXT, int and bool INTEGER (1/0), float REAL, an
empty field NULL):

    navbench   key, value: 'format' (FORMAT), 'results_columns' and 'build_columns' (the
               schema's columns [[name, type], ...] the tables were made from, JSON)
    runs       run_id, result_set, git_commit, git_dirty, date, host, cpu, compiler, flags, seed,
               command_line, options (the run's config, JSON), config_hash, shard, rows, exported
    maps       map_id, collection, map, terrain ('' plain), kind, width, height, cells, free_cells
    configurations  config_id, representation, search, heuristic, smoothing, label
    queries    run_id, map_id, config_id, then every other column of the results schema
    builds     run_id, map_id, representation, then every other column of the build schema
    config_summary  run_id, config_id, scope ('all maps' or a collection), convention, terrain,
               radius, then per configuration the report's statistics and its candidate rule
               (SUMMARY_COLUMNS), computed by navbench.summarize: the report's code
    query_rows (view) queries joined with runs (git_commit, host), maps and configurations

The schema's columns come from the run's meta.json ("schema", harness/results/results.cpp), so a
new result column becomes a new database column with no change here. Appending a run whose schema
gives a column of the database another type is refused (InputError, one line); a run whose schema
adds columns adds them to the tables (earlier rows hold NULL); a result set already in the
database (same result set, commit, date and rows) is skipped with a note.
"""
from __future__ import annotations

import json
import os
import sqlite3
from datetime import datetime, timezone

from navbench import files, frames
from navbench.errors import InputError, note
from navbench.labels import config_label

FORMAT = "navbench-results 1"
SQL_TYPES = {"text": "TEXT", "int": "INTEGER", "bool": "INTEGER", "float": "REAL"}
# Result columns held by the maps and configurations tables instead of the queries table.
MAP_KEYS = ("collection", "map", "terrain")
CONFIG_KEYS = ("representation", "search", "heuristic", "smoothing")
# Query rows turned into SQLite values at a time: as Python objects a row of ~40 columns takes
# about 1.5 KB, so ten million rows at once would take ~15 GB; 50,000 take ~75 MB.
INSERT_ROWS = 50_000
RUN_COLUMNS = ("result_set", "git_commit", "git_dirty", "date", "host", "cpu", "compiler", "flags", "seed",
               "command_line", "options", "config_hash", "shard", "rows", "exported")

FIXED_DDL = """
CREATE TABLE IF NOT EXISTS navbench (key TEXT PRIMARY KEY, value TEXT);
CREATE TABLE IF NOT EXISTS runs (run_id INTEGER PRIMARY KEY, result_set TEXT, git_commit TEXT, git_dirty INTEGER,
  date TEXT, host TEXT, cpu TEXT, compiler TEXT, flags TEXT, seed INTEGER, command_line TEXT, options TEXT,
  config_hash TEXT, shard TEXT, rows INTEGER, exported TEXT);
CREATE TABLE IF NOT EXISTS maps (map_id INTEGER PRIMARY KEY, collection TEXT NOT NULL, map TEXT NOT NULL,
  terrain TEXT NOT NULL, kind TEXT, width REAL, height REAL, cells REAL, free_cells REAL,
  UNIQUE (collection, map, terrain));
CREATE TABLE IF NOT EXISTS configurations (config_id INTEGER PRIMARY KEY, representation TEXT NOT NULL,
  search TEXT NOT NULL, heuristic TEXT NOT NULL, smoothing TEXT NOT NULL, label TEXT NOT NULL,
  UNIQUE (representation, search, heuristic, smoothing));
"""
# The config_summary table: per run, scope (every map, each collection) and configuration on a facet
# (convention, terrain, radius, as the report tells configurations apart), what navbench.summarize gives
# (the report's row rules, statistics and candidate rule: one implementation; docs/results.md).
SUMMARY_KEYS = ("convention", "terrain", "radius")
SUMMARY_COLUMNS = (("rows", "INTEGER"), ("applicable", "INTEGER"), ("time_median", "REAL"), ("time_median_lo", "REAL"),
                   ("time_median_hi", "REAL"), ("time_mean", "REAL"), ("time_p95", "REAL"), ("gap_mean", "REAL"),
                   ("gap_mean_lo", "REAL"), ("gap_mean_hi", "REAL"), ("valid_share", "REAL"), ("solved_share", "REAL"),
                   ("paths", "INTEGER"), ("invalid_paths", "INTEGER"), ("with_path", "INTEGER"), ("missed", "INTEGER"),
                   ("is_candidate", "INTEGER"), ("reason", "TEXT"), ("build_ms", "REAL"), ("memory", "REAL"),
                   ("first_move_median", "REAL"), ("first20_median", "REAL"), ("max_step_median", "REAL"))
SUMMARY_DDL = ("CREATE TABLE IF NOT EXISTS config_summary (run_id INTEGER NOT NULL REFERENCES runs, "
               "config_id INTEGER NOT NULL REFERENCES configurations, scope TEXT NOT NULL, convention TEXT NOT NULL, "
               "terrain TEXT NOT NULL, radius REAL, " + ", ".join(f"{n} {t}" for n, t in SUMMARY_COLUMNS) + ");")


def _schema_columns(meta, kind: str, where: str) -> list:
    schema = files.parse_schema(meta, where)
    if schema is None or kind not in schema.tables:
        raise InputError(f"{where}: no \"schema\" with {kind} columns (written by a navbench older than the "
                         f"schema); the database needs each column's type")
    return [(n, t) for n, t, _ in schema.tables[kind]]


def _stored(con, key: str):
    row = con.execute("SELECT value FROM navbench WHERE key = ?", (key,)).fetchone()
    return None if row is None else row[0]


def _check_format(con, path: str) -> None:
    have = {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    if have and "navbench" not in have:
        raise InputError(f"{path}: an SQLite database that navbench did not write (no table navbench); "
                         f"write to a new file")
    fmt = _stored(con, "format") if "navbench" in have else None
    if fmt is not None and fmt != FORMAT:
        raise InputError(f"{path}: holds format '{fmt}', this navbench writes '{FORMAT}'; write to a new file")


def _merge_columns(con, path: str, key: str, table: str, columns: list, where: str) -> list:
    """The stored columns of a kind, checked against a run's and extended by its new ones
    (ALTER TABLE ... ADD COLUMN); InputError when a column changes type."""
    stored = _stored(con, key)
    have = [tuple(c) for c in json.loads(stored)] if stored else []
    types = dict(have)
    for name, typ in columns:
        if name in types and types[name] != typ:
            raise InputError(f"{path}: column {table}.{name} is {types[name]} in the database but {typ} in {where}: "
                             f"incompatible schemas, write to a new database")
    added = [(n, t) for n, t in columns if n not in types]
    if have:
        for n, t in added:
            if n not in MAP_KEYS + CONFIG_KEYS:
                con.execute(f'ALTER TABLE {table} ADD COLUMN "{n}" {SQL_TYPES[t]}')
    merged = have + added
    con.execute("INSERT OR REPLACE INTO navbench (key, value) VALUES (?, ?)", (key, json.dumps(merged)))
    return merged


def _create_tables(con, results: list, build: list) -> None:
    qcols = ", ".join(f'"{n}" {SQL_TYPES[t]}' for n, t in results if n not in MAP_KEYS + CONFIG_KEYS)
    bcols = ", ".join(f'"{n}" {SQL_TYPES[t]}' for n, t in build if n not in ("map", "representation", "terrain"))
    con.executescript(f"""
CREATE TABLE IF NOT EXISTS queries (run_id INTEGER NOT NULL REFERENCES runs, map_id INTEGER NOT NULL REFERENCES maps,
  config_id INTEGER NOT NULL REFERENCES configurations, {qcols});
CREATE TABLE IF NOT EXISTS builds (run_id INTEGER NOT NULL REFERENCES runs, map_id INTEGER REFERENCES maps,
  representation TEXT NOT NULL, terrain TEXT NOT NULL, {bcols});
CREATE INDEX IF NOT EXISTS queries_run ON queries (run_id, config_id, map_id);
CREATE VIEW IF NOT EXISTS query_rows AS
  SELECT runs.git_commit, runs.host, runs.result_set, maps.collection, maps.map, maps.terrain,
         configurations.representation, configurations.search, configurations.heuristic, configurations.smoothing,
         configurations.label, queries.*
  FROM queries JOIN runs USING (run_id) JOIN maps USING (map_id) JOIN configurations USING (config_id);
""")


def _sql_values(col, typ: str) -> list:
    """A typed pandas column as the values SQLite stores: None for missing, Python int (1/0 for
    booleans), float or str."""
    import numpy as np
    import pandas as pd
    if typ == "float":
        v = pd.to_numeric(col, errors="coerce").to_numpy(dtype=float)
        out = v.astype(object)
        out[~np.isfinite(v)] = None
        return out.tolist()
    if typ in ("int", "bool"):
        if col.dtype == object or isinstance(col.dtype, pd.CategoricalDtype):
            col = pd.to_numeric(col.astype(object), errors="coerce")
        if col.dtype == float:
            col = col.round().astype("Int64")
        out = col.to_numpy(dtype=object, na_value=None).tolist()
        return [None if x is None else int(x) for x in out]
    return [None if x is None or x == "" else str(x) for x in col.astype(object).where(col.notna(), None).tolist()]


def _ids(con, table: str, id_col: str, keys: tuple, values: list, extra: dict | None = None) -> dict:
    """key tuple -> id in table, inserting the missing ones (with extra[key] columns)."""
    out = {}
    cond = " AND ".join(f'"{k}" = ?' for k in keys)
    for v in values:
        row = con.execute(f"SELECT {id_col} FROM {table} WHERE {cond}", v).fetchone()
        if row is None:
            cols = list(keys) + list((extra or {}).get(v, {}).keys())
            vals = list(v) + list((extra or {}).get(v, {}).values())
            cur = con.execute(f"INSERT INTO {table} ({', '.join(cols)}) VALUES ({', '.join('?' * len(cols))})", vals)
            out[v] = cur.lastrowid
        else:
            out[v] = row[0]
    return out


def _text(col):
    """A column's values as text, '' where missing."""
    return col.astype(object).where(col.notna(), "").astype(str).tolist()


def _insert_run(con, prefix: str, meta: dict, rows: int) -> int | None:
    """The runs row of a result set (None when it is already in the database)."""
    cmd = meta.get("command_line")
    rec = {"result_set": os.path.abspath(prefix), "git_commit": meta.get("git_commit"),
           "git_dirty": None if meta.get("git_dirty") is None else int(bool(meta.get("git_dirty"))),
           "date": meta.get("date"), "host": meta.get("host"), "cpu": meta.get("cpu"), "compiler": meta.get("compiler"),
           "flags": meta.get("flags"), "seed": meta.get("seed"),
           "command_line": " ".join(cmd) if isinstance(cmd, list) else cmd,
           "options": json.dumps(meta.get("config", {}), sort_keys=True), "config_hash": meta.get("config_hash"),
           "shard": meta.get("shard"), "rows": rows,
           "exported": datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")}
    dup = con.execute("SELECT run_id FROM runs WHERE result_set = ? AND git_commit IS ? AND date IS ? AND rows = ?",
                      (rec["result_set"], rec["git_commit"], rec["date"], rows)).fetchone()
    if dup is not None:
        return None
    cur = con.execute(f"INSERT INTO runs ({', '.join(RUN_COLUMNS)}) VALUES ({', '.join('?' * len(RUN_COLUMNS))})",
                      [rec[c] for c in RUN_COLUMNS])
    return cur.lastrowid


def _map_ids(con, res, q) -> list:
    """Per query row its map_id (maps rows made from navbench.load's maps table)."""
    terrain = _text(q["terrain"]) if "terrain" in q.columns else [""] * len(q)
    keys = list(zip(_text(q["collection"]), _text(q["map"]), terrain))
    extra = {}
    for _, m in res.maps.iterrows():
        k = (str(m["collection"]), str(m["map"]), str(m["terrain"]))
        extra[k] = {c: (None if m[c] is None or m[c] != m[c] else (str(m[c]) if c == "kind" else float(m[c])))
                    for c in ("kind", "width", "height", "cells", "free_cells")}
    ids = _ids(con, "maps", "map_id", MAP_KEYS, list(dict.fromkeys(keys)), extra)
    return [ids[k] for k in keys]


def _config_ids(con, q) -> list:
    cols = [(_text(q[c]) if c in q.columns else [""] * len(q)) for c in CONFIG_KEYS]
    return _config_ids_of(con, cols)


def _config_ids_of(con, cols: list) -> list:
    """The config_id of each row of the configuration columns cols (CONFIG_KEYS' texts)."""
    cols = list(cols)
    cols[1] = [s or "astar" for s in cols[1]]  # a run without the search column: A*
    keys = list(zip(*cols))
    extra = {k: {"label": config_label(*k)} for k in dict.fromkeys(keys)}
    ids = _ids(con, "configurations", "config_id", CONFIG_KEYS, list(extra), extra)
    return [ids[k] for k in keys]


def _insert_rows(con, table: str, lead: dict, frame, columns: list) -> None:
    """frame's columns (of the schema, those frame has) with the lead columns (per-row lists)."""
    names = [n for n, _ in columns if n in frame.columns]
    types = dict(columns)
    data = [lead[k] for k in lead] + [_sql_values(frame[n], types[n]) for n in names]
    cols = list(lead) + names
    sql = f"INSERT INTO {table} ({', '.join(chr(34) + c + chr(34) for c in cols)}) VALUES ({', '.join('?' * len(cols))})"
    con.executemany(sql, zip(*data))


def _summary_value(v, typ: str):
    """A summarize value as SQLite stores it: NULL for missing, 1/0 for a boolean."""
    import math
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return None
    if typ == "INTEGER":
        return int(v)
    return str(v) if typ == "TEXT" else float(v)


def _rows_of(q, mask, by, derived=None):
    """The rows of q where mask holds, of the columns summarize(by=by) reads only, each column
    selected on its own (q[mask] copies every column of those rows: at ten million rows, with the
    summary of the whole beside it, over the export's bound; tests/scripts/test_memory.py).
    derived: {'query_us': ..., 'has_path': ...} per row of q, computed once for all scopes: a scope
    then copies these two instead of the columns they are made of (the three time parts, the
    optima and the query's identity; has_path is per query, and a query lies in one collection)."""
    import numpy as np
    import pandas as pd
    from navbench.summarize import columns_read
    cols = {name: values[mask] for name, values in (derived or {}).items()}
    for c in columns_read(list(q.columns) + list(cols), by):
        if c in cols:
            continue
        col = q[c]
        cols[c] = col.to_numpy()[mask] if isinstance(col.dtype, np.dtype) else col.array[mask]
    out = pd.DataFrame(cols, copy=False)
    out.attrs.update(q.attrs)
    return out


def _collections(col):
    """(collection, its rows as a bool mask) for each collection of the rows, by name: the name
    as _text reads it, the rows those whose value reads so with astype(str), one mask at a time.
    A categorical is read per category (astype(str) of ten million rows made each row's text,
    fixed-width, and _text a list of them: gigabytes)."""
    import numpy as np
    import pandas as pd
    if not isinstance(col.dtype, pd.CategoricalDtype):
        for c in sorted(set(_text(col))):
            yield c, (col.astype(str) == c).to_numpy(bool)
        return
    codes = col.cat.codes.to_numpy()
    used = pd.unique(codes)
    cats = [str(v) for v in col.cat.categories]
    names = sorted({"" if k < 0 else cats[k] for k in used})
    for c in names:
        lut = np.array([v == c for v in cats] + ["nan" == c], dtype=bool)  # astype(str) reads a missing one "nan"
        yield c, lut[codes]


def _summary_columns(q) -> list:
    """The result columns _insert_summary reads of rows with q's columns (summarize's, by
    configuration and facet, and the collection)."""
    from navbench.summarize import columns_read
    return columns_read(q, list(CONFIG_KEYS) + list(SUMMARY_KEYS)) + ["collection"]


def _insert_summary(con, run_id: int, q, b, absent=None) -> int:
    """The config_summary rows of one run: navbench.summarize over all its rows (scope 'all
    maps') and over each collection's, by configuration and facet, those with an applicable row
    (as the report's tables); absent: navbench.load's res.absent, why a representation has no rows
    on a map (SPEC §14, as the report reads it). Returns the rows written."""
    from navbench.summarize import summarize
    if not len(q):
        return 0
    by = list(CONFIG_KEYS) + list(SUMMARY_KEYS)
    parts = [("all maps", summarize(q, by=by, builds=b, absent=absent))]
    frames.give_back_freed()  # what summarize freed, before the per-collection arrays
    if "collection" in q.columns:
        from navbench import candidates, rules
        has_path = candidates.path_exists(q)  # first: its temporaries before the query time is held
        derived = {"has_path": has_path, "query_us": rules.query_time_us(q).to_numpy()}
        del has_path
        for c, mask in _collections(q["collection"]):
            parts.append((c, summarize(_rows_of(q, mask, by, derived), by=by, builds=b, absent=absent)))
            del mask
        del derived
    names = [n for n, _ in SUMMARY_COLUMNS]
    sql = (f"INSERT INTO config_summary (run_id, config_id, scope, {', '.join(SUMMARY_KEYS)}, {', '.join(names)}) "
           f"VALUES ({', '.join('?' * (3 + len(SUMMARY_KEYS) + len(names)))})")
    written = 0
    for scope, t in parts:
        ids = _config_ids_of(con, [[("" if v is None or v != v else str(v)) for v in t[c]] for c in CONFIG_KEYS])
        for k, (_, r) in enumerate(t.iterrows()):
            if not r["applicable"]:  # a configuration that cannot run there (not_applicable): no row, as in the report
                continue
            facet = ["" if r["convention"] is None else str(r["convention"]),
                     "" if r["terrain"] is None else str(r["terrain"]), _summary_value(r["radius"], "REAL")]
            con.execute(sql, [run_id, ids[k], scope] + facet + [_summary_value(r.get(n), typ) for n, typ in SUMMARY_COLUMNS])
            written += 1
    return written


def _add_summary_columns(con) -> None:
    """A database written before some SUMMARY_COLUMNS (the real-time medians, SPEC §15) gets them
    (earlier rows hold NULL)."""
    have = {r[1] for r in con.execute("PRAGMA table_info(config_summary)")}
    for n, t in SUMMARY_COLUMNS:
        if n not in have:
            con.execute(f'ALTER TABLE config_summary ADD COLUMN "{n}" {t}')


def export_sqlite(path: str, inputs: list, maps=()) -> dict:
    """Appends the result sets named by inputs (as navbench.load reads them) to the database at
    path (created when missing). Returns counts: runs, skipped (already there), queries, builds,
    summary (config_summary rows)."""
    from navbench.load import load
    res = load(inputs, maps=list(maps))
    con = sqlite3.connect(path)
    done = {"runs": 0, "skipped": 0, "queries": 0, "builds": 0, "summary": 0}
    pending = []  # (run_id, result set, its build rows): summarized once every row is written
    try:
        _check_format(con, path)
        con.executescript(FIXED_DDL + SUMMARY_DDL)
        _add_summary_columns(con)
        con.execute("INSERT OR IGNORE INTO navbench (key, value) VALUES ('format', ?)", (FORMAT,))
        for prefix, meta in res.meta.items():
            where = prefix + ".meta.json"
            rcols = _merge_columns(con, path, "results_columns", "queries", _schema_columns(meta, "results", where), where)
            bcols = _merge_columns(con, path, "build_columns", "builds", _schema_columns(meta, "build", where), where)
            _create_tables(con, rcols, bcols)
            in_run = (res.queries["run"] == prefix).to_numpy(bool)
            q = res.queries if in_run.all() else res.queries[in_run]  # one run: the table itself, not a copy
            run_id = _insert_run(con, prefix, meta, len(q))
            if run_id is None:
                note(f"navbench export: {prefix} is already in {path}; skipped")
                done["skipped"] += 1
                continue
            for lo in range(0, len(q), INSERT_ROWS):  # the rows as SQLite values a slice at a time
                part = q.iloc[lo:lo + INSERT_ROWS]
                _insert_rows(con, "queries", {"run_id": [run_id] * len(part), "map_id": _map_ids(con, res, part),
                                              "config_id": _config_ids(con, part)},
                             part, [c for c in rcols if c[0] not in MAP_KEYS + CONFIG_KEYS])
            b = res.builds[(res.builds["run"] == prefix).to_numpy(bool)] if "run" in res.builds.columns else res.builds[:0]
            terrain = _text(b["terrain"]) if "terrain" in b.columns else [""] * len(b)
            map_of = {(m, t): i for i, _, m, t in con.execute("SELECT map_id, collection, map, terrain FROM maps")}
            _insert_rows(con, "builds", {"run_id": [run_id] * len(b),
                                         "map_id": [map_of.get(k) for k in zip(_text(b["map"]), terrain)],
                                         "representation": _text(b["representation"]), "terrain": terrain},
                         b, [c for c in bcols if c[0] not in ("map", "representation", "terrain")])
            pending.append((run_id, prefix, b))
            done["runs"] += 1
            done["queries"] += len(q)
            done["builds"] += len(b)
        # The summaries from the rows read again with the columns summarize reads alone: the whole
        # table (every column, 2.8 GB at 10 M rows) let go first, so the summaries' arrays are not
        # held above it (3.5 GB and more at 10 M rows).
        want = _summary_columns(res.queries)
        res.queries = q = part = None  # part: the last slice, a view of the table's block
        frames.give_back_freed()
        for run_id, prefix, b in pending:
            rows = load(prefix, columns=want).queries
            done["summary"] += _insert_summary(con, run_id, rows, b, res.absent)
            del rows
            frames.give_back_freed()
        con.commit()
    except sqlite3.DatabaseError as e:
        con.rollback()
        raise InputError(f"{path}: {e}")
    finally:
        con.close()
    return done
