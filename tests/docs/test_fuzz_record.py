#!/usr/bin/python3
"""scripts/fuzz-campaign record and summary (ctest docs_fuzz_record, label unit): the campaign's table
is the sum of its session log.

1. A made-up campaign: two sessions of fuzz_pgm from two machines (both numbered 1), one of fuzz_mesh
   whose finding is the committed regression input finding-int-max-vertices (fixed: 0 open, known by
   the SHA-1 in its name with the file not at hand), one of fuzz_wkt with a crash not kept in the
   corpus (open), coverage for pgm only. The rows sum
   executions and CPU seconds, take edges and features from the last session, give the lines of
   the latest coverage entry (whole files, and within the functions reached), "not measured" where
   there is none, and count open findings.
2. The committed record, docs/measurements/17-fuzz.json, against its committed log
   (docs/measurements/17-fuzz/): `record` written again from the log gives the same rows, so the
   table holds no figure the log does not."""
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
SCRIPT = os.path.join(ROOT, "scripts", "fuzz-campaign")
RECORD = os.path.join(ROOT, "docs", "measurements", "17-fuzz.json")
LOG = os.path.join(ROOT, "docs", "measurements", "17-fuzz")


def session(target, n, execs, cpu, edges, findings=()):
    return {"target": target, "commit": "abc1234", "session": n, "exit": 0, "wall_s": cpu + 1, "cpu_s": cpu,
            "started": "2026-11-28T11:00:00Z", "findings": list(findings), "slow_but_not_in_cpu": 0,
            "number_of_executed_units": execs, "edges": edges, "features": 2 * edges, "corpus": 10}


def record(out, template):
    subprocess.run([sys.executable, SCRIPT, "record", "--out", out, "--record", template], check=True)
    with open(template, encoding="utf-8") as f:
        return {r["cells"][0]: r for r in json.load(f)["tables"][0]["rows"]}


def main():
    failures = []

    def expect(what, got, want):
        if got != want:
            failures.append(f"{what}: {got!r}, expected {want!r}")

    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "out")
        os.makedirs(out)
        # libFuzzer names a finding after its input's SHA-1, and no finding's file is in OUT (a log
        # carried to another machine): the name alone says whether it is a committed input.
        with open(os.path.join(ROOT, "tests", "fuzz", "corpus", "mesh", "finding-int-max-vertices"), "rb") as f:
            mesh_crash = "crash-" + hashlib.sha1(f.read()).hexdigest()
        wkt_crash = "crash-" + hashlib.sha1(b"POLYGON((").hexdigest()
        sessions = [session("pgm", 1, 6_000_000, 120.0, 300), session("pgm", 1, 5_500_000, 100.5, 371),
                    session("mesh", 1, 1_000, 10.0, 5_000, [mesh_crash]), session("wkt", 1, 2_000, 4.0, 60, [wkt_crash])]
        with open(os.path.join(out, "sessions.jsonl"), "w") as f:
            f.writelines(json.dumps(s) + "\n" for s in sessions)
        with open(os.path.join(out, "coverage.jsonl"), "w") as f:
            f.write(json.dumps({"target": "pgm", "commit": "abc1234", "inputs": 9, "lines": {"datasets/image.cpp": [1, 2]}}) + "\n")
            f.write(json.dumps({"target": "pgm", "commit": "abc1234", "inputs": 9, "lines": {"datasets/image.cpp": [108, 135]},
                                "reached": {"datasets/image.cpp": [108, 123, 7], "datasets/ros_map.cpp": [0, 0, 0]}}) + "\n")
        template = os.path.join(tmp, "17-fuzz.json")
        shutil.copy(RECORD, template)
        rows = record(out, template)
        expect("targets", sorted(rows), ["`fuzz_mesh`", "`fuzz_pgm`", "`fuzz_wkt`"])
        pgm = rows.get("`fuzz_pgm`", {"cells": [""] * 10})["cells"]
        expect("pgm executions (both machines' sessions)", pgm[2], "11,500,000")
        expect("pgm CPU-s", pgm[3], "220")
        expect("pgm executions per CPU-s", pgm[4], "52,154")
        expect("pgm edges and features (last session)", pgm[5:7], ["371", "742"])
        expect("pgm lines (latest coverage)", pgm[7], "image.cpp 108/135 (80 %)")
        expect("pgm lines in the functions reached (a file none reached left out)", pgm[8], "image.cpp 108/123 (88 %) in 7")
        expect("pgm findings", pgm[9], "0 (0 open)")
        mesh = rows.get("`fuzz_mesh`", {"cells": [""] * 10})["cells"]
        expect("mesh edges and features, thousands separated as the other counts", mesh[5:7], ["5,000", "10,000"])
        expect("mesh lines", mesh[7:9], ["not measured", "not measured"])
        expect("mesh finding kept in the corpus", mesh[9], "1 (0 open)")
        expect("wkt finding not kept", rows.get("`fuzz_wkt`", {"cells": [""] * 10})["cells"][9], "1 (1 open)")
        summary = subprocess.run([sys.executable, SCRIPT, "summary", "--out", out], capture_output=True, text=True, check=True).stdout
        expect("summary of pgm", [l for l in summary.splitlines() if l.startswith("pgm:")],
               ["pgm: 2 sessions, 11500000 executions in 222 s wall, 220 s CPU (52154/CPU-s), edges 371, features 742, "
                "corpus 10, findings 0 lines 108/135 (80.0 %)"])

        # The committed table against the committed log.
        if os.path.exists(os.path.join(LOG, "sessions.jsonl")):
            again = os.path.join(tmp, "again.json")
            shutil.copy(RECORD, again)
            with open(RECORD, encoding="utf-8") as f:
                committed = {r["cells"][0]: r for r in json.load(f)["tables"][0]["rows"]}
            expect("docs/measurements/17-fuzz.json against its log", record(LOG, again), committed)
        else:
            failures.append("docs/measurements/17-fuzz/sessions.jsonl missing: the record's table has no log")
    for f in failures:
        print("FAIL:", f)
    print(f"{len(failures)} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
