#!/usr/bin/env python3
"""How the scripts read result sets (python/navbench/files.py, scripts/navreport/io/results.py): column types from the schema in
meta.json, and from the values when a result set has none; chunked reading equal to reading at
once; which files a folder stands for (a sweep's results, never its optimum/ caches; a folder of
sweep shards through its merged results, or a one-line error saying to merge); and the report
giving the same summary.csv with and without the schema.
Exit 0 = pass, 1 = failure. Run through scripts/navpy.sh (needs pandas, matplotlib, scipy, plotly)."""
import io
import json
import os
import shutil
import subprocess
import sys
import tempfile
from contextlib import redirect_stderr

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(os.path.dirname(here))
sys.path.insert(0, os.path.join(root, "scripts"))
sys.path.insert(0, here)
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from navreport.io import results as common  # noqa: E402
import schema_fixture  # noqa: E402

data = os.path.join(here, "data")
failures = []


def check(cond, what):
    print(("ok:   " if cond else "FAIL: ") + what)
    if not cond:
        failures.append(what)


def raises(fn, text):
    try:
        fn()
    except common.InputError as e:
        return text in str(e) and "\n" not in str(e)
    return False


def same_frames(a, b) -> bool:
    if list(a.columns) != list(b.columns) or len(a) != len(b):
        return False
    for c in a.columns:
        x, y = a[c], b[c]
        if isinstance(x.dtype, pd.CategoricalDtype) != isinstance(y.dtype, pd.CategoricalDtype):
            return False
        if isinstance(x.dtype, pd.CategoricalDtype):
            if x.astype(str).tolist() != y.astype(str).tolist():
                return False
        elif not np.array_equal(x.to_numpy(float), y.to_numpy(float), equal_nan=True):
            return False
    return True


tmp = tempfile.mkdtemp(prefix="navbench-inputs.")


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    return path


def with_schema(prefix_dir, name="tiny"):
    """A copy of the fixture tiny result set under prefix_dir with the column schema in its meta.json."""
    os.makedirs(prefix_dir, exist_ok=True)
    for ext in (".csv", ".build.csv", ".paths.csv", ".meta.json"):
        shutil.copyfile(os.path.join(data, "tiny" + ext), os.path.join(prefix_dir, name + ext))
    schema_fixture.main([os.path.join(prefix_dir, name + ".meta.json")])
    return os.path.join(prefix_dir, name)


try:
    # --- the schema: types from meta.json ---
    typed = with_schema(os.path.join(tmp, "typed"))
    schema = common.schema_for(typed + ".csv")
    check(schema is not None and schema.types("results")["valid"] == "bool"
          and "radius" not in schema.core("results"), "schema read from PREFIX.meta.json (radius an optional group)")
    paths = common.read_paths_csv(typed + ".paths.csv")
    check(common.schema_for(typed + ".paths.csv").source == typed + ".meta.json"
          and paths["scen_index"].dtype == float and isinstance(paths["points"].dtype, pd.CategoricalDtype),
          "a companion file (PREFIX.paths.csv) takes the schema of PREFIX.meta.json")
    rows = common.read_results_csv(typed + ".csv")
    check(isinstance(rows["map"].dtype, pd.CategoricalDtype) and rows["gap"].dtype == float
          and rows["scen_index"].dtype == float and "radius" not in rows.columns,
          "text categorical, numbers float64, absent optional columns not added")
    plain = common.read_results_csv(os.path.join(data, "tiny.csv"))  # no schema: types from the values
    check(same_frames(rows, plain), "the same rows with the schema and from the values (no schema)")
    # The header says which columns a file has: an unknown one is text, a missing core one empty.
    text = open(typed + ".csv", encoding="utf-8").read().splitlines()
    head = text[0].split(",")
    drop = head.index("smooth_us")
    lines = [",".join([f for i, f in enumerate(ln.split(",")) if i != drop] + ["x" if k else "extra"])
             for k, ln in enumerate(text)]
    odd = write(os.path.join(tmp, "odd", "set.csv"), "\n".join(lines) + "\n")
    shutil.copyfile(typed + ".meta.json", os.path.join(tmp, "odd", "set.meta.json"))
    r = common.read_results_csv(odd)
    check(r["smooth_us"].isna().all() and isinstance(r["extra"].dtype, pd.CategoricalDtype),
          "a core column the file lacks is added empty; a column the schema lacks is text")
    # Text in a number column and infinities become NaN; an empty field is NaN, never 0.
    bad = list(text)
    fields = bad[1].split(",")
    fields[head.index("gap")], fields[head.index("length")], fields[head.index("optimal")] = "n/a", "inf", ""
    bad[1] = ",".join(fields)
    p = write(os.path.join(tmp, "bad", "set.csv"), "\n".join(bad) + "\n")
    shutil.copyfile(typed + ".meta.json", os.path.join(tmp, "bad", "set.meta.json"))
    r = common.read_results_csv(p)
    check(np.isnan(r["gap"].iat[0]) and np.isnan(r["length"].iat[0]) and np.isnan(r["optimal"].iat[0])
          and r["gap"].notna().sum() == plain["gap"].notna().sum() - 1, "unparsable text, inf and empty -> NaN")
    # An interrupted run's last, partly written line is dropped with a note.
    p = write(os.path.join(tmp, "cut", "set.csv"), "\n".join(text) + "\n" + ",".join(text[1].split(",")[:5]) + "\n")
    err = io.StringIO()
    with redirect_stderr(err):
        r = common.read_results_csv(p)
    check(len(r) == len(plain) and "ignoring 1 incomplete row" in err.getvalue(), "an incomplete last row is dropped")
    meta = json.load(open(typed + ".meta.json", encoding="utf-8"))
    meta["schema"]["results"][0]["type"] = "string"
    write(os.path.join(tmp, "badschema", "set.meta.json"), json.dumps(meta))
    shutil.copyfile(typed + ".csv", os.path.join(tmp, "badschema", "set.csv"))
    check(raises(lambda: common.read_results_csv(os.path.join(tmp, "badschema", "set.csv")), "bad entry"),
          "a malformed schema is one clear error")

    # --- chunked reading equals reading at once; several files keep one set of categories ---
    whole = common.load([typed])
    keep = common.CHUNK_ROWS
    common.CHUNK_ROWS = 7
    try:
        chunked = common.load([typed])
    finally:
        common.CHUNK_ROWS = keep
    check(same_frames(whole.rows, chunked.rows), "reading 7 rows at a time gives the same rows")
    two = common.load([typed, os.path.join(data, "edge")])
    check(len(two.rows) == len(whole.rows) + 3 and list(two.rows["result_set"].cat.categories) ==
          [typed, os.path.join(data, "edge")] and two.row_counts[typed] == len(whole.rows),
          "two result sets: rows of both, categories merged, rows counted per set")

    # --- folders: a sweep's results, never its optimum/ caches; shards through merged/ ---
    sweep = os.path.join(tmp, "sweep")
    with_schema(sweep, "results")
    write(os.path.join(sweep, "sweep.json"), '{"config_hash": "x", "config": {}}')
    write(os.path.join(sweep, "optimum", "scripts__tiny__center.csv"), "scen_index,optimal\n0,1.5\n")
    os.makedirs(os.path.join(sweep, "units"))
    shutil.copyfile(os.path.join(data, "tiny.csv"), os.path.join(sweep, "units", "u.csv"))
    check(common.find_result_csvs([sweep]) == [os.path.join(sweep, "results.csv")],
          "a finished sweep folder: its results.csv only (not units/, not optimum/)")
    os.rename(os.path.join(sweep, "results.csv"), os.path.join(sweep, "results.csv.bak"))
    write(os.path.join(sweep, "units", "dynamic__d__center__grid8.csv"), "x\n")
    write(os.path.join(sweep, "units", "v.part.csv"), "x\n")
    check(common.find_result_csvs([sweep]) == [os.path.join(sweep, "units", "u.csv")],
          "an unfinished sweep: its finished static units only")
    os.rename(os.path.join(sweep, "results.csv.bak"), os.path.join(sweep, "results.csv"))
    outer = os.path.join(tmp, "outer")
    shutil.copytree(sweep, os.path.join(outer, "run1"))
    write(os.path.join(outer, "report", "report.html"), "<html></html>")
    write(os.path.join(outer, "report", "summary.csv"), "scope,rank\n")
    check(common.find_result_csvs([outer]) == [os.path.join(outer, "run1", "results.csv")],
          "a folder holding a sweep folder and a report: the sweep's results only")
    shards = os.path.join(tmp, "slurm")
    for k in (1, 2):
        shutil.copytree(sweep, os.path.join(shards, f"shard-{k}"))
        os.remove(os.path.join(shards, f"shard-{k}", "results.csv"))
        write(os.path.join(shards, f"shard-{k}", "results.meta.json"), json.dumps({"shard": f"{k}/2"}))
    check(raises(lambda: common.find_result_csvs([shards]), "navbench merge"),
          "shard folders without merged results: one line saying to run navbench merge")
    shutil.copytree(sweep, os.path.join(shards, "merged"))
    err = io.StringIO()
    with redirect_stderr(err):
        found = common.find_result_csvs([shards])
    check(found == [os.path.join(shards, "merged", "results.csv")] and "merged" in err.getvalue(),
          "shard folders with merged/: the merged results, said once")

    # --- the report: same summary.csv with the schema and without; a folder of shards ---
    navpy = os.path.join(root, "scripts", "navpy.sh")
    report = os.path.join(root, "scripts", "report.py")
    outs = {}
    for name, src in (("schema", typed), ("values", os.path.join(data, "tiny"))):
        outs[name] = os.path.join(tmp, "report-" + name)
        run = subprocess.run([navpy, report, src, "--out", outs[name], "--figures", "none"], capture_output=True, text=True)
        check(run.returncode == 0, f"report.py on tiny ({name}) exits 0 {run.stderr[-300:]}")
    a, b = (open(os.path.join(outs[k], "summary.csv"), "rb").read() for k in ("schema", "values"))
    check(a == b, "summary.csv with the schema equals the one from the values, byte for byte")
    shutil.rmtree(os.path.join(shards, "merged"))
    run = subprocess.run([navpy, report, shards, "--out", os.path.join(tmp, "x")], capture_output=True, text=True)
    check(run.returncode == 2 and len(run.stderr.strip().splitlines()) == 1 and "navbench merge" in run.stderr,
          f"report.py on shard folders without merged results: exit 2, one line ({run.stderr.strip()})")
finally:
    if failures:
        print(f"{len(failures)} check(s) failed; files kept in {tmp}", file=sys.stderr)
    else:
        shutil.rmtree(tmp, ignore_errors=True)

if failures:
    sys.exit(1)
print("all input checks passed")
