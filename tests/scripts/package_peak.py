#!/usr/bin/env python3
"""Where the results package's memory peaks: runs navbench.load + summarize (by configuration) or
navbench export --sqlite on a result set in this process while a thread samples the process's
resident memory every 50 ms, and prints the largest sample with the code the main thread was
running then (its innermost calls). tests/scripts/bench_report.sh gives the whole run's peak
(/usr/bin/time); this says which step makes it (docs/measurements.md, "The report at scale").
The sampling thread's own memory is a few MiB; a peak shorter than 50 ms can be missed.

    package_peak.py [--root CHECKOUT] load|export RESULTS [DB]
"""
import argparse
import os
import sys
import tempfile
import threading
import time
import traceback


def rss_mib() -> int:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) // 1024
    return 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--root", default=os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
    ap.add_argument("what", choices=["load", "export"])
    ap.add_argument("results")
    ap.add_argument("db", nargs="?")
    a = ap.parse_args()
    sys.path.insert(0, os.path.join(a.root, "python"))
    import navbench
    from navbench import database
    main_thread = threading.get_ident()
    peak = {"mib": 0, "where": "", "at": 0.0}
    t0 = time.time()

    def sample():
        while True:
            r = rss_mib()
            if r > peak["mib"]:
                frame = sys._current_frames().get(main_thread)
                calls = traceback.extract_stack(frame)[-8:] if frame is not None else []
                peak.update(mib=r, at=time.time() - t0,
                            where=" <- ".join(f"{c.name} ({os.path.basename(c.filename)}:{c.lineno})" for c in reversed(calls)))
            time.sleep(0.05)
    threading.Thread(target=sample, daemon=True).start()
    if a.what == "load":
        res = navbench.load(a.results)
        t = navbench.summarize(res.queries, builds=res.builds)
        print(f"{len(res.queries)} rows, {len(t)} configurations")
    else:
        with tempfile.TemporaryDirectory() as tmp:
            db = a.db or os.path.join(tmp, "results.db")
            print(database.export_sqlite(db, [a.results]))
    print(f"peak {peak['mib']} MiB at {peak['at']:.1f} s in {peak['where']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
