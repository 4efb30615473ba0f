#!/usr/bin/env python3
"""Where the report's memory goes: scripts/report.py run in this process with each stage's peak
resident memory (reading the rows, the analysis and its steps, each section, the static figures,
the tables), to find the stage that grows with the rows (issue 83).

    report_stages.py [--root CHECKOUT] -- RESULTS... --out DIR [report.py's options]

--root: the checkout whose scripts/ and python/ run (default this one), so an older commit's
stages can be measured the same way. Prints one line per stage as it ends, then a table: the
stage's peak resident memory (the process's, in MiB, while the stage ran), the resident memory
when it ended, its seconds and how often it ran (the analysis runs once per scope); the last line
gives the largest worker process's peak (figures, bootstraps).

The peak is the kernel's high-water mark (VmHWM), set back to the current size at every stage
boundary (/proc/self/clear_refs): a /usr/bin/time around this script reports that reset peak,
not the run's, so measure the whole run apart (tests/scripts/bench_report.sh). Linux only.
"""
import os
import resource
import sys
import time

if "--" not in sys.argv:
    sys.exit(__doc__)
split = sys.argv.index("--")
opts, report_args = sys.argv[1:split], sys.argv[split + 1:]
root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
if opts[:1] == ["--root"] and len(opts) == 2:
    root = os.path.abspath(opts[1])
elif opts:
    sys.exit(__doc__)
sys.path[:0] = [os.path.join(root, "scripts"), os.path.join(root, "python")]

START = time.time()
open_stages = []   # [name, peak KiB, start time] of the stages running now, outermost first
totals = {}        # name -> [peak KiB, KiB after, seconds, runs, depth], in order of first end


def _status(key: str) -> int:
    with open("/proc/self/status") as f:
        return next(int(line.split()[1]) for line in f if line.startswith(key))


def _boundary() -> int:
    """The peak since the last boundary goes to every open stage; the peak is set back."""
    peak = _status("VmHWM:")
    for s in open_stages:
        s[1] = max(s[1], peak)
    with open("/proc/self/clear_refs", "w") as f:
        f.write("5")
    return _status("VmRSS:")


def _wrap(owner, attr: str, name: str) -> None:
    fn = getattr(owner, attr, None)
    if fn is None:  # a stage this checkout does not have
        return

    def stage(*args, **kwargs):
        _boundary()
        open_stages.append([name, 0, time.time()])
        try:
            return fn(*args, **kwargs)
        finally:
            after = _boundary()
            _, peak, began = open_stages.pop()
            secs = time.time() - began
            t = totals.setdefault(name, [0, 0, 0.0, 0, len(open_stages)])
            t[0], t[1], t[2], t[3] = max(t[0], peak), after, t[2] + secs, t[3] + 1
            print(f"[stage] {'  ' * len(open_stages)}{name}: peak {peak // 1024} MiB, after {after // 1024} MiB, "
                  f"{secs:.1f} s (at {time.time() - START:.0f} s)", file=sys.stderr, flush=True)
    setattr(owner, attr, stage)


def main() -> int:
    from navreport.io.errors import require_plotting
    require_plotting("report.py", extra=("scipy", "plotly"))
    from navreport import page, report
    from navreport.analysis import analyse as an
    _wrap(report.rows, "load", "read the rows")
    _wrap(report, "analyse", "analysis")
    for fn in ("prepare", "config_table", "verdicts"):
        _wrap(an, fn, f"analysis: {fn}")
    _wrap(an.candidates, "path_exists", "analysis: path_exists")
    _wrap(an.terrain, "terrain_costs", "analysis: terrain_costs")
    _wrap(an.updates, "update_rows", "analysis: update_rows")
    _wrap(report, "write_report", "page")
    for module in page.SECTIONS:
        _wrap(module, "build", "section " + module.__name__.rsplit(".", 1)[1])
    _wrap(page.draw, "save_static_all", "static figures")
    _wrap(page, "write_tables", "summary.csv and tables")
    sys.argv = ["report.py"] + report_args
    _boundary()
    rc = report.main()
    workers = sys.modules.get("navreport.io.workers")
    if workers is not None and hasattr(workers, "stop"):
        workers.stop()  # the workers waited for: their peak counts among the children
    print(f"\n{'stage':<34} {'peak MiB':>9} {'after MiB':>10} {'seconds':>8} {'runs':>5}")
    for name, (peak, after, secs, runs, depth) in totals.items():
        print(f"{'  ' * depth + name:<34} {peak // 1024:>9} {after // 1024:>10} {secs:>8.1f} {runs:>5}")
    kids = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024
    print(f"largest worker process: peak {kids} MiB; whole run {time.time() - START:.0f} s")
    return rc


if __name__ == "__main__":
    sys.exit(main())
