"""Finding and reading result sets (docs/results.md) with the column types the results writer
declares in meta.json: the one reader behind navbench.load (typed tables) and the report
(scripts/navreport, which holds the rows compactly as categoricals and float64).

Everything here reads only the files the harness writes; nothing calls the C++ code.
"""
from __future__ import annotations

import json
import os

from navbench.errors import InputError, note
from navbench.frames import TableBuilder, _as_category, as_text, concat_frames, count_lines, take_rows  # noqa: F401


# --------------------------------------------------------------------------------------------
# Result files (docs/results.md) and their column schema
#
# The results writer owns the columns: it writes them, with their types, into every run's
# meta.json under "schema" ({"results": [{"name", "type", "group"}, ...], "build", "paths",
# "updates"}; type text|int|float|bool, group "core" or the optional group that adds the column).
# The scripts read the types from there; the header line of each file says which columns it has.

STATUSES = ("ok", "no_path", "invalid_query", "error", "not_applicable")
# Files in a results directory that are companions of a result set, not result sets themselves.
COMPANION_SUFFIXES = (".build.csv", ".paths.csv", ".structure.csv", ".updates.csv", ".threads.csv", ".unrun.csv")
COMPANION_NAMES = ("updates.csv", "threads.csv")  # a folder's own companions (merged sweep, thread-scaling)
SCHEMA_TYPES = ("text", "int", "float", "bool")
# Columns without which a file of a kind is of no use to the scripts.
REQUIRED = {"results": ("map", "representation", "smoothing", "status"),
            "build": ("map", "representation"),
            "paths": ("map", "scen_index", "representation", "smoothing", "points"),
            "updates": ("map", "representation", "cells_changed", "update_us"),
            "threads": ("map", "representation", "threads", "queries_per_s")}
CHUNK_ROWS = 1 << 18  # rows parsed at a time: a chunk's text becomes categorical codes before the next


def prefix_of(csv_path: str) -> str:
    return csv_path[:-4] if csv_path.endswith(".csv") else csv_path


class Schema:
    """Column types per kind of file: kind -> [(name, type, group), ...] in file order."""

    def __init__(self, tables: dict, source: str):
        self.tables = tables
        self.source = source

    def types(self, kind: str) -> dict:
        return {name: typ for name, typ, _ in self.tables.get(kind, [])}

    def core(self, kind: str) -> list:
        return [name for name, _, group in self.tables.get(kind, []) if group == "core"]


def parse_schema(meta, source: str):
    """The Schema of a parsed meta.json, None when it has no "schema" (an older navbench)."""
    raw = meta.get("schema") if isinstance(meta, dict) else None
    if raw is None:
        return None
    if not isinstance(raw, dict):
        raise InputError(f"{source}: \"schema\" is not an object")
    tables = {}
    for kind, cols in raw.items():
        if not isinstance(cols, list):
            raise InputError(f"{source}: schema \"{kind}\" is not a list")
        entries = []
        for c in cols:
            if not (isinstance(c, dict) and isinstance(c.get("name"), str) and c.get("type") in SCHEMA_TYPES):
                raise InputError(f"{source}: schema \"{kind}\": bad entry {json.dumps(c)[:80]} "
                                 f"(want name and type {'|'.join(SCHEMA_TYPES)})")
            entries.append((c["name"], c["type"], str(c.get("group", "core"))))
        tables[kind] = entries
    return Schema(tables, source)


# threads.csv is written by scripts/thread-scaling (a shell script), not by the results writer:
# its columns are declared here, once.
THREADS_SCHEMA = Schema({"threads": [(n, t, "core") for n, t in (
    ("map", "text"), ("representation", "text"), ("threads", "int"), ("queries", "int"), ("wall_s", "float"),
    ("queries_per_s", "float"), ("peak_rss_bytes", "int"))]}, "scripts/thread-scaling")

_META_CACHE: dict = {}


def read_meta(path: str):
    """A parsed meta.json (cached), None when there is none."""
    key = os.path.realpath(path)
    if key not in _META_CACHE:
        if not os.path.isfile(path):
            _META_CACHE[key] = None
        else:
            try:
                with open(path, encoding="utf-8") as f:
                    _META_CACHE[key] = json.load(f)
            except (OSError, ValueError) as e:
                raise InputError(f"{path}: not valid JSON: {e}")
    return _META_CACHE[key]


def schema_for(csv_path: str):
    """The schema of the result set a CSV file (PREFIX.csv or a companion, PREFIX.build.csv, ...)
    belongs to: from PREFIX.meta.json, else (a sweep's units/ and dynamic/ files) from the sweep
    folder's results.meta.json. None without one."""
    here = os.path.dirname(os.path.abspath(csv_path))
    suffix = next((x for x in COMPANION_SUFFIXES if csv_path.endswith(x)), ".csv")  # PREFIX.build.csv: PREFIX
    prefix = csv_path[:-len(suffix)] if csv_path.endswith(suffix) else csv_path
    cands = [prefix + ".meta.json", os.path.join(here, "results.meta.json")]
    if os.path.isfile(os.path.join(os.path.dirname(here), "sweep.json")):
        cands.append(os.path.join(os.path.dirname(here), "results.meta.json"))
    for m in cands:
        schema = parse_schema(read_meta(m), m)
        if schema is not None:
            return schema
    return None


def _sweep_meta(folder: str) -> dict:
    meta = read_meta(os.path.join(folder, "results.meta.json")) if os.path.isdir(folder) else None
    return meta if isinstance(meta, dict) else {}


def _is_sweep(folder: str) -> bool:
    return os.path.isfile(os.path.join(folder, "sweep.json"))


_NOTED: set = set()


def resolve_folder(item: str) -> str:
    """The folder whose results a directory argument means: the directory itself, or for a folder
    holding the shard folders of a sharded sweep (navbench sweep --shard K/N --out DIR/shard-K),
    its merged results (DIR/merged, or another sub-folder written by navbench merge). A folder of
    shards without merged results is an InputError saying how to merge them."""
    if not os.path.isdir(item) or _is_sweep(item):
        return item
    subs = sorted(os.path.join(item, d) for d in os.listdir(item) if _is_sweep(os.path.join(item, d)))
    merged = [s for s in subs if os.path.isfile(os.path.join(s, "results.csv"))
              and (os.path.basename(s) == "merged" or "merged_from" in _sweep_meta(s))]
    shards = [s for s in subs if s not in merged and (os.path.basename(s).startswith("shard")
                                                      or _sweep_meta(s).get("shard", "1/1") != "1/1")]
    if len(merged) == 1:
        if shards and item not in _NOTED:
            _NOTED.add(item)
            note(f"{item}: reading the merged results in {merged[0]} (its shard folders hold the same rows)")
        return merged[0]
    if shards and not merged:
        names = ", ".join(os.path.basename(s) for s in shards[:3]) + (", ..." if len(shards) > 3 else "")
        raise InputError(f"{item}: holds the shard folders of a sweep ({names}) but no merged results; run "
                         f"`navbench merge {os.path.join(item, 'shard-*')} --out {os.path.join(item, 'merged')}` "
                         f"and report {os.path.join(item, 'merged')}")
    return item


def _sweep_csvs(item: str) -> list:
    """A navbench sweep folder's merged results.csv when the sweep finished, else the finished
    units; never both (the same rows twice) and never optimum/ (a cache of optimal lengths)."""
    merged = os.path.join(item, "results.csv")
    units = os.path.join(item, "units")
    if os.path.isfile(merged):
        return [merged]
    if os.path.isdir(units):
        # Unfinished: the static units' files (dynamic units, rows with `epoch`, are read
        # from the sweep's dynamic/ folder once it finishes, never mixed into these).
        found = sorted(os.path.join(units, f) for f in os.listdir(units)
                       if f.endswith(".csv") and not f.endswith(COMPANION_SUFFIXES)
                       and not f.startswith("dynamic__") and ".part." not in f)
        if not found:
            raise InputError(f"{item}: sweep folder holds no finished static unit yet")
        return found
    raise InputError(f"{item}: sweep folder holds neither results.csv nor units/")


def _walk_csvs(folder: str) -> list:
    """Result CSVs in a folder and below, sorted; a sweep folder below is read as one (see
    _sweep_csvs), a folder of shards as its merged results, a report's own folder is skipped."""
    out = []
    entries = sorted(os.listdir(folder))
    for f in entries:
        p = os.path.join(folder, f)
        if os.path.isfile(p) and f.endswith(".csv") and not f.endswith(COMPANION_SUFFIXES) and f not in COMPANION_NAMES:
            out.append(p)
    for d in entries:
        p = os.path.join(folder, d)
        if not os.path.isdir(p) or os.path.isfile(os.path.join(p, "report.html")):
            continue
        p = resolve_folder(p)
        out.extend(_sweep_csvs(p) if _is_sweep(p) else _walk_csvs(p))
    return out


def find_result_csvs(inputs: list[str]) -> list[str]:
    """Result-set CSV files named by INPUTS: a PREFIX (PREFIX.csv is read), a PREFIX.csv file, or a
    directory: a sweep folder (its results, see _sweep_csvs), a folder of sweep shards (their
    merged results, see resolve_folder), or any other folder (every *.csv in it and below that is
    not a companion file, sorted, sweep folders below read as such)."""
    out: list[str] = []
    for item in inputs:
        if os.path.isdir(item):
            folder = resolve_folder(item)
            found = _sweep_csvs(folder) if _is_sweep(folder) else _walk_csvs(folder)
            if not found:
                raise InputError(f"{item}: directory holds no result CSV files")
            out.extend(found)
        elif item.endswith(COMPANION_SUFFIXES):
            raise InputError(f"{item}: is a companion file; pass the result set PREFIX or PREFIX.csv")
        elif item.endswith(".csv") and os.path.isfile(item):
            out.append(item)
        elif os.path.isfile(item + ".csv"):
            out.append(item + ".csv")
        else:
            raise InputError(f"{item}: no such result set (neither {item} nor {item}.csv exists)")
    seen, unique = set(), []
    for p in out:
        key = os.path.realpath(p)
        if key not in seen:
            seen.add(key)
            unique.append(p)
    return unique


def _header(path: str) -> list:
    import csv
    try:
        with open(path, encoding="utf-8", newline="") as f:
            first = next(csv.reader(f), None)
    except UnicodeDecodeError as e:
        raise InputError(f"{path}: not a readable CSV: {e}")
    except OSError as e:
        raise InputError(f"{path}: cannot read: {e.strerror}")
    except csv.Error as e:
        raise InputError(f"{path}: not a readable CSV: {e}")
    if not first:
        raise InputError(f"{path}: empty file (no header line)")
    return first


def _is_number_text(values) -> "object":
    """Per value: empty, or a number (what pd.to_numeric parses)."""
    import pandas as pd
    v = pd.Series(values, dtype=object).astype(str).str.strip()
    return (v == "") | pd.to_numeric(v, errors="coerce").notna() | v.str.lower().isin(["nan", "inf", "-inf", "+inf"])


def _infer_types(path: str, names: list) -> dict:
    """Column types of a file without a schema, from its values: a column whose every non-empty
    value is a number is "float", one with other text "text"; a column empty in every row of the
    first chunk is None (decided after reading, see _tidy)."""
    import pandas as pd
    sample = pd.read_csv(path, usecols=names, dtype=str, keep_default_na=False, na_filter=False, nrows=CHUNK_ROWS // 8)
    out = {}
    for c in names:
        v = sample[c].str.strip() if c in sample else pd.Series(dtype=str)
        if (v != "").sum() == 0:
            out[c] = None
        else:
            out[c] = "float" if bool(_is_number_text(v.unique()).all()) else "text"
    return out


def _tidy(chunk, types: dict, text_read: set):
    """One parsed chunk in the in-memory form: text as categoricals, numbers as float64 with NaN
    where empty, unparsable (columns in text_read, read as text) or infinite."""
    import numpy as np
    import pandas as pd
    out = {}  # a new frame of the new columns: replacing them one by one in the parsed chunk copies its
    for c in chunk.columns:  # block of numbers again at each column
        t = types.get(c, "text")
        if t in ("text", None):
            out[c] = _as_category(chunk[c]).array
        else:
            if c in text_read:  # read as categorical text: each distinct text parsed once
                s = chunk[c].astype("category")
                cats = pd.to_numeric(pd.Series(s.cat.categories.astype(str)).str.strip(), errors="coerce")
                codes = s.cat.codes.to_numpy()
                v = np.where(codes >= 0, cats.to_numpy(float)[codes], np.nan) if len(cats) else np.full(len(s), np.nan)
            else:
                v = chunk[c].to_numpy(dtype=float, copy=True)
            v[np.isinf(v)] = np.nan  # no column of the schema holds an infinity
            out[c] = v
    return pd.DataFrame(out, index=chunk.index, columns=list(chunk.columns), copy=False)


def _untyped_to_numbers(frame, types: dict):
    """Columns without a type (no schema, empty in the sampled rows): numbers when every value
    read is empty or a number (empty everywhere: NaN), else text."""
    import numpy as np
    import pandas as pd
    for c, t in types.items():
        if t is None and c in frame.columns:
            cats = frame[c].cat.categories
            if bool(_is_number_text(cats).all()):
                num = pd.to_numeric(pd.Series(np.asarray(cats, dtype=str)).str.strip(), errors="coerce").to_numpy(float)
                codes = frame[c].cat.codes.to_numpy()
                v = np.where(codes >= 0, num[codes] if len(num) else np.nan, np.nan)
                v[np.isinf(v)] = np.nan
                frame[c] = v
    return frame


def _records_of_maps(path: str, maps) -> object:
    """The header and the records of `path` whose first field is one of `maps`, as a file object
    for pandas: a picture of one map need not tokenise a whole sweep's rows (the default job's
    paths file is ~76 MB). A record is kept or dropped whole, its quoted fields' line breaks
    followed; a record whose first field is quoted is kept (the caller filters the frame anyway)."""
    import io
    want = {m.encode("utf-8") for m in maps}
    out = []
    with open(path, "rb") as f:
        out.append(f.readline())
        keep, inside = False, False
        for line in f:
            if not inside:  # a record starts here
                keep = line.startswith(b'"') or line.split(b",", 1)[0].rstrip(b"\r\n") in want
            if keep:
                out.append(line)
            if line.count(b'"') % 2:
                inside = not inside
    return io.BytesIO(b"".join(out))


def read_table(path: str, kind: str, schema=None, columns=None, required=None, derive=None, clean=None,
               into=None, maps=None):
    """One CSV of a kind (results, build, paths, updates, threads) as a DataFrame: text columns
    categorical, numbers float64 (NaN where empty: missing, never 0). Types come from the schema
    (columns it does not know are text) or, without one, from the values (_infer_types). Only
    the columns named in `columns` (None: all) and the required ones are read; a core column of
    the schema that the file lacks is added empty. The file is parsed CHUNK_ROWS rows at a time;
    clean(chunk) -> chunk and then derive(chunk) -> chunk (both optional) are applied to each,
    so derived columns can replace wide ones before the next chunk is read. With into (a
    TableBuilder) the chunks are added to it and nothing is returned. maps: only the records whose
    `map` (the first column) is one of these are parsed (others may remain: filter the frame)."""
    import numpy as np
    import pandas as pd
    header = _header(path)
    source = _records_of_maps(path, maps) if maps is not None and header[:1] == ["map"] else path
    required = REQUIRED.get(kind, ()) if required is None else required
    missing = [c for c in required if c not in header]
    if missing:
        raise InputError(f"{path}: missing column(s) {','.join(missing)}")
    want = list(dict.fromkeys(c for c in header if columns is None or c in columns or c in required))
    known = schema.types(kind) if schema is not None else None
    try:
        types = {c: known.get(c, "text") for c in want} if known is not None else _infer_types(path, want)
    except (pd.errors.ParserError, UnicodeDecodeError) as e:
        raise InputError(f"{path}: not a readable CSV: {str(e).splitlines()[0]}")
    numeric = [c for c, t in types.items() if t not in ("text", None)]
    # Core columns of the schema that the file lacks: added empty (text "", numbers NaN).
    absent = ([c for c in schema.core(kind) if c not in header and (columns is None or c in columns)]
              if known is not None else [])
    # Columns empty in every sampled row (no schema) get their type after the whole file is read:
    # such a file is read whole, then cleaned and derived.
    untyped = any(t is None for t in types.values())
    # Sized by the file's lines: grown as chunks come, its columns would end up to half again as
    # long as the rows, and copied at each growth.
    sink = (TableBuilder(count_lines(path) if isinstance(source, str) else 0) if (into is None or untyped) else into)

    def finish(chunk):
        for c in absent:
            chunk[c] = (pd.Categorical.from_codes(np.zeros(len(chunk), dtype=np.int8), categories=[""])
                        if known[c] == "text" else np.full(len(chunk), np.nan))
        if not untyped:
            chunk = clean(chunk) if clean else chunk
            chunk = derive(chunk) if derive else chunk
        return chunk

    def parse(text_read: set) -> int:
        dtype = {c: ("category" if (types[c] in ("text", None) or c in text_read) else "float64") for c in want}
        na = {c: [""] for c in numeric if c not in text_read}
        if not isinstance(source, str):
            source.seek(0)
        reader = pd.read_csv(source, usecols=want, dtype=dtype, keep_default_na=False, na_values=na,
                             chunksize=CHUNK_ROWS)
        chunks = 0
        for ch in reader:
            sink.add(finish(_tidy(ch, types, text_read)))
            chunks += 1
        return chunks

    start = sink.n
    try:
        try:
            chunks = parse(set())
        except ValueError as e:
            if isinstance(e, (pd.errors.ParserError, UnicodeDecodeError, InputError)):
                raise
            sink.truncate(start)  # a number column holds text: again, as text, unparsable -> NaN
            chunks = parse(set(numeric))
    except (pd.errors.ParserError, UnicodeDecodeError) as e:
        raise InputError(f"{path}: not a readable CSV: {str(e).splitlines()[0]}")
    except pd.errors.EmptyDataError:
        raise InputError(f"{path}: empty file (no header line)")
    if not chunks:  # header only
        sink.add(finish(pd.DataFrame({c: (pd.Categorical([]) if types[c] in ("text", None) else np.empty(0))
                                      for c in want})))
    if sink is into:
        return None
    frame = sink.frame()
    if untyped:
        frame = _untyped_to_numbers(frame, types)
        frame = clean(frame) if clean else frame
        frame = derive(frame) if derive else frame
        if into is not None:
            into.add(frame)
            return None
    return frame


def _schema_of(columns: list, text_columns) -> Schema:
    return Schema({"table": [(c, "text" if c in text_columns else "float", "core") for c in columns]}, "the script")


def read_csv_typed(path: str, columns: list[str], text_columns: set[str], required: list[str]):
    """A CSV whose columns the calling script declares (e.g. a structure file): text columns
    categorical, the other listed ones float64 (NaN where empty or unparsable), columns not
    listed text; listed columns the file lacks are added empty."""
    return read_table(path, "table", _schema_of(columns, text_columns), required=list(required))


def read_results_csv(path: str, columns=None, derive=None, schema=None, into=None, maps=None):
    """A results CSV (see read_table). An interrupted run may end in a partly written line: a row
    without a status is dropped with a note; an unknown status is an InputError."""
    cut = [0]

    def clean(chunk):
        import pandas as pd
        if not isinstance(chunk["status"].dtype, pd.CategoricalDtype):  # typed from values: empty throughout
            chunk["status"] = as_text(chunk["status"])
        status = chunk["status"]
        incomplete = ((status == "") | (status == "nan")).to_numpy(bool)
        if incomplete.any():
            cut[0] += int(incomplete.sum())
            chunk = chunk[~incomplete].reset_index(drop=True)
            chunk["status"] = chunk["status"].cat.remove_unused_categories()
        bad = sorted(set(chunk["status"].cat.categories) - set(STATUSES) - {""})
        if bad:
            raise InputError(f"{path}: unknown status value(s) {','.join(bad)}")
        return chunk

    df = read_table(path, "results", schema if schema is not None else schema_for(path), columns=columns,
                    derive=derive, clean=clean, into=into, maps=maps)
    if cut[0]:
        note(f"{path}: ignoring {cut[0]} incomplete row(s) without a status")
    return df


def read_build_csv(path: str, schema=None):
    return read_table(path, "build", schema if schema is not None else schema_for(path))


def read_paths_csv(path: str, schema=None, maps=None):
    return read_table(path, "paths", schema if schema is not None else schema_for(path), maps=maps)



def read_updates_csv(path: str, schema=None):
    return read_table(path, "updates", schema if schema is not None else schema_for(path))


def read_threads_csv(path: str):
    return read_table(path, "threads", THREADS_SCHEMA)


def _with_set(df, prefix: str):
    """df with a categorical column result_set = prefix (one code per row, one category)."""
    import numpy as np
    import pandas as pd
    df["result_set"] = pd.Categorical.from_codes(np.zeros(len(df), dtype=np.int8), categories=[prefix])
    return df


def _companions(csvs: list[str], inputs: list[str], suffix: str, plain: str, reader):
    """Rows of the companion files PREFIX<suffix> of the result sets read (a finished sweep's
    results<suffix>, else its units'), and DIR/<plain> of directory inputs, each file once,
    concatenated; None when there are none."""
    paths = [prefix_of(p) + suffix for p in csvs] + [os.path.join(i, plain) for i in inputs if os.path.isdir(i)]
    seen, frames = set(), []
    for p in paths:
        if os.path.isfile(p) and os.path.realpath(p) not in seen:
            seen.add(os.path.realpath(p))
            frames.append(_with_set(reader(p), prefix_of(p)))
    return concat_frames(frames) if frames else None

