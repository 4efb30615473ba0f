#!/usr/bin/env python3
"""Runs a command and reports the peak memory of its whole process tree (the process and every
child it starts, e.g. the report's worker processes), which /usr/bin/time's maximum resident set
(the largest single process) does not show.

    tree_memory.py [--every S] [--out FILE] -- COMMAND [ARG...]

Every S seconds (default 0.2) it sums, over the command's live descendants, the resident set
(VmRSS: pages shared by forked workers counted in each) and the proportional set size (Pss of
/proc/PID/smaps_rollup: shared pages split between the processes sharing them, so the sum is the
tree's own memory). At the end it prints one line to stderr, or to FILE with --out:

    tree_memory: peak_rss_sum_MiB R peak_pss_sum_MiB P peak_processes N samples K

and exits with the command's status. A peak shorter than S can be missed; /usr/bin/time -v gives
each process's exact peak. Linux only (/proc).
"""
import argparse
import os
import subprocess
import sys
import time


def _children() -> dict:
    """pid -> parent pid of every process."""
    out = {}
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            with open(f"/proc/{d}/stat", "rb") as f:
                stat = f.read()
        except OSError:
            continue
        # pid (comm) state ppid ...: comm may hold spaces and parentheses; the last ')' ends it.
        rest = stat[stat.rindex(b")") + 2:].split()
        out[int(d)] = int(rest[1])
    return out


def _tree(root: int) -> list:
    parent = _children()
    kids = {}
    for pid, pp in parent.items():
        kids.setdefault(pp, []).append(pid)
    out, todo = [], [root]
    while todo:
        pid = todo.pop()
        out.append(pid)
        todo.extend(kids.get(pid, []))
    return out


def _kib(path: str, key: bytes) -> int:
    try:
        with open(path, "rb") as f:
            for line in f:
                if line.startswith(key):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--every", type=float, default=0.2, help="seconds between samples (default 0.2)")
    ap.add_argument("--out", help="write the result line here instead of stderr")
    ap.add_argument("command", nargs=argparse.REMAINDER)
    args = ap.parse_args()
    cmd = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not cmd:
        ap.error("give a command after --")
    proc = subprocess.Popen(cmd)
    peak_rss = peak_pss = peak_n = samples = 0
    while proc.poll() is None:
        pids = _tree(proc.pid)
        rss = sum(_kib(f"/proc/{p}/status", b"VmRSS:") for p in pids)
        pss = sum(_kib(f"/proc/{p}/smaps_rollup", b"Pss:") for p in pids)
        peak_rss, peak_pss, peak_n = max(peak_rss, rss), max(peak_pss, pss), max(peak_n, len(pids))
        samples += 1
        time.sleep(args.every)
    line = (f"tree_memory: peak_rss_sum_MiB {peak_rss / 1024:.0f} peak_pss_sum_MiB {peak_pss / 1024:.0f} "
            f"peak_processes {peak_n} samples {samples}")
    if args.out:
        with open(args.out, "w", encoding="utf-8") as f:
            f.write(line + "\n")
    else:
        print(line, file=sys.stderr)
    return proc.returncode


if __name__ == "__main__":
    sys.exit(main())
