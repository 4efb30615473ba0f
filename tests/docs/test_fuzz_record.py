#!/usr/bin/python3
"""scripts/fuzz-campaign record and summary (ctest docs_fuzz_record, label unit): the campaign's table
is the sum of its session log.

1. A made-up campaign: two sessions of fuzz_pgm from two machines (both numbered 1), one of fuzz_mesh
   whose finding is the committed regression input finding-int-max-vertices (fixed: 0 open, known by
   the SHA-1 in its name with the file not at hand), one of fuzz_wkt with a crash not kept in the
   corpus (open), coverage for pgm only; one pgm session interrupted (exit 72), one logged with what
   ended it; a replay of pgm's final corpus and one of wkt's with an input over 1 CPU-s. The rows sum
   executions and CPU seconds, take edges and features from the last session, give the lines of
   the latest coverage entry (whole files, and within the functions reached), "not measured" where
   there is none, say what ended the sessions (from the exit status where the log has no `ended`),
   give the latest replay and count open findings (a slow input of the replay among them).
2. The committed record, docs/measurements/17-fuzz.json, against its committed log
   (docs/measurements/17-fuzz/): `record` written again from the log gives the same rows, so the
   table holds no figure the log does not.
3. replay_corpus on a small libFuzzer target built here (clang++ -fsanitize=fuzzer; this part is
   skipped without clang++): three inputs alike over the threshold are all named (libFuzzer's
   -report_slow_units writes a slow unit only when it beats the slowest so far, so only the first
   of them), a fast one is not, an input that crashes the process is named with what ended it and
   the replay goes on past it; ended() reads libFuzzer's exit statuses and logs."""
import importlib.machinery
import importlib.util
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


def session(target, n, execs, cpu, edges, findings=(), exit=0, **more):
    return {"target": target, "commit": "abc1234", "session": n, "exit": exit, "wall_s": cpu + 1, "cpu_s": cpu,
            "started": "2026-11-28T11:00:00Z", "findings": list(findings), "slow_but_not_in_cpu": 0,
            "number_of_executed_units": execs, "edges": edges, "features": 2 * edges, "corpus": 10, **more}


def campaign_module():
    """scripts/fuzz-campaign as a module (it has no .py name)."""
    loader = importlib.machinery.SourceFileLoader("fuzz_campaign", SCRIPT)
    spec = importlib.util.spec_from_loader("fuzz_campaign", loader)
    m = importlib.util.module_from_spec(spec)
    loader.exec_module(m)
    return m


# A target whose input says what it does: 'S' followed by a digit d spins d tenths of a second of
# CPU, 'C' writes past a heap block (AddressSanitizer ends the process), anything else returns.
TARGET = r"""
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <ctime>
extern "C" int LLVMFuzzerTestOneInput(const uint8_t* d, size_t n) {
  if (n >= 2 && d[0] == 'S') {
    const std::clock_t until = std::clock() + std::clock_t((d[1] - '0') * (CLOCKS_PER_SEC / 10));
    for (volatile long i = 0; std::clock() < until;)
      for (int k = 0; k < 100000; ++k) i = i + k;
  }
  if (n >= 1 && d[0] == 'C') { volatile char* p = static_cast<char*>(std::malloc(4)); p[8] = 1; std::free((void*)p); }
  return 0;
}
"""


def replay_part(tmp, expect):
    m = campaign_module()
    expect("ended: limit from the log", m.ended(0, "Done 1000 runs in 5 second(s)\n"), "limit")
    expect("ended: interrupted from the log", m.ended(72, "==1== libFuzzer: run interrupted; exiting\n"), "interrupted")
    expect("ended: exit 72 without a log", m.ended(72), "interrupted")
    expect("ended: a leak from the log (exit 77)", m.ended(77, "==1==ERROR: LeakSanitizer: detected memory leaks\n"), "leak")
    expect("ended: SIGKILL", m.ended(-9), "killed by signal 9")
    if not shutil.which("clang++"):
        print("part 3 skipped: no clang++ to build a libFuzzer target")
        return
    src, exe, corpus = os.path.join(tmp, "t.cpp"), os.path.join(tmp, "t"), os.path.join(tmp, "corpus")
    with open(src, "w") as f:
        f.write(TARGET)
    subprocess.run(["clang++", "-O1", "-fsanitize=fuzzer,address", src, "-o", exe], check=True)
    os.makedirs(corpus)
    for name, data in {"a-slow": b"S3a", "b-slow": b"S3b", "c-slow": b"S3c", "d-fast": b"x", "e-crash": b"C", "f-fast": b"y"}.items():
        with open(os.path.join(corpus, name), "wb") as f:
            f.write(data)
    r = m.replay_corpus(exe, [corpus], threshold=0.2, nice=0)
    expect("inputs", (r["inputs"], r["replayed"]), (6, 5))
    expect("every input over the threshold, three alike", sorted(r["over_1_cpu_s"]), ["a-slow", "b-slow", "c-slow"])
    expect("each one's CPU seconds alone", sorted(r["cpu_s_alone"]), ["a-slow", "b-slow", "c-slow"])
    expect("the crash named, the replay gone on past it", r["ended_process"], [{"input": "e-crash", "ended": "crash"}])
    expect("the slowest is a slow one", r["slowest"] in ("a-slow", "b-slow", "c-slow") and r["slowest_ms"] >= 200, True)


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
        sessions = [session("pgm", 1, 6_000_000, 120.0, 300), session("pgm", 2, 10, 1.0, 300, exit=72),
                    session("pgm", 1, 5_500_000, 99.5, 371, ended="limit"),
                    session("mesh", 1, 1_000, 10.0, 5_000, [mesh_crash]), session("wkt", 1, 2_000, 4.0, 60, [wkt_crash])]
        with open(os.path.join(out, "sessions.jsonl"), "w") as f:
            f.writelines(json.dumps(s) + "\n" for s in sessions)
        with open(os.path.join(out, "coverage.jsonl"), "w") as f:
            f.write(json.dumps({"target": "pgm", "commit": "abc1234", "inputs": 9, "lines": {"datasets/image.cpp": [1, 2]}}) + "\n")
            f.write(json.dumps({"target": "pgm", "commit": "abc1234", "inputs": 9, "lines": {"datasets/image.cpp": [108, 135]},
                                "reached": {"datasets/image.cpp": [108, 123, 7], "datasets/ros_map.cpp": [0, 0, 0]}}) + "\n")
        replays = [{"target": "pgm", "commit": "abc1234", "inputs": 9, "replayed": 9, "slowest_ms": 12, "slowest": "x",
                    "over_1s_wall": 0, "over_1_cpu_s": [], "ended_process": []},
                   {"target": "wkt", "commit": "abc1234", "inputs": 30, "replayed": 30, "slowest_ms": 1_500, "slowest": "y",
                    "over_1s_wall": 2, "cpu_s_alone": {"7" * 40: 1.25, "8" * 40: 0.5}, "over_1_cpu_s": ["7" * 40],
                    "ended_process": []}]
        with open(os.path.join(out, "replays.jsonl"), "w") as f:
            f.writelines(json.dumps(r) + "\n" for r in replays)
        template = os.path.join(tmp, "17-fuzz.json")
        shutil.copy(RECORD, template)
        rows = record(out, template)
        expect("targets", sorted(rows), ["`fuzz_mesh`", "`fuzz_pgm`", "`fuzz_wkt`"])
        pgm = rows.get("`fuzz_pgm`", {"cells": [""] * 12})["cells"]
        expect("pgm executions (both machines' sessions)", pgm[2], "11,500,010")
        expect("pgm CPU-s", pgm[3], "220")
        expect("pgm executions per CPU-s", pgm[4], "52,154")
        expect("pgm edges and features (last session)", pgm[5:7], ["371", "742"])
        expect("pgm lines (latest coverage)", pgm[7], "image.cpp 108/135 (80 %)")
        expect("pgm lines in the functions reached (a file none reached left out)", pgm[8], "image.cpp 108/123 (88 %) in 7")
        expect("pgm sessions' ends (exit 72 read as an interrupt)", pgm[9], "2 limit, 1 interrupted (exit 72)")
        expect("pgm corpus replay", pgm[10], "9 of 9; slowest 12 ms; 0 over 1 s, 0 over 1 CPU-s or ending the process")
        expect("pgm findings", pgm[11], "0 (0 open)")
        mesh = rows.get("`fuzz_mesh`", {"cells": [""] * 12})["cells"]
        expect("mesh edges and features, thousands separated as the other counts", mesh[5:7], ["5,000", "10,000"])
        expect("mesh lines", mesh[7:9], ["not measured", "not measured"])
        expect("mesh not replayed", mesh[10], "not replayed")
        expect("mesh finding kept in the corpus", mesh[11], "1 (0 open)")
        wkt = rows.get("`fuzz_wkt`", {"cells": [""] * 12})["cells"]
        expect("wkt replay", wkt[10], "30 of 30; slowest 1,500 ms; 2 over 1 s (alone: at most 1.25 CPU-s), 1 over 1 CPU-s or "
               "ending the process")
        expect("wkt findings: the crash not kept and the replay's slow input", wkt[11], "2 (2 open)")
        summary = subprocess.run([sys.executable, SCRIPT, "summary", "--out", out], capture_output=True, text=True, check=True).stdout
        expect("summary of pgm", [l for l in summary.splitlines() if l.startswith("pgm:")],
               ["pgm: 3 sessions, 11500010 executions in 224 s wall, 220 s CPU (52154/CPU-s), edges 371, features 742, "
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
        replay_part(tmp, expect)
    for f in failures:
        print("FAIL:", f)
    print(f"{len(failures)} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
