"""The report's worker processes (the bootstraps of small samples, the static figures): one per
core, forked once before the result rows are read (start()) and reused by every pool_map.

A forked process starts as a copy of its parent: workers forked while the parent holds millions
of rows have all of that memory mapped, and each counts it in its resident size as soon as it
touches a page of it (a 10-million-row report's workers were 1.7 GB each). Forked while the
parent holds only its modules, they stay small; their tasks come to them pickled, as before.
Without start(), pool_map forks a pool for its call, as the report did before.
"""
from __future__ import annotations

import contextlib
import os

_POOL = None  # the workers of start(), until stop()


def _jobs(jobs=None) -> int:
    return max(1, jobs or os.cpu_count() or 1)


def _can_fork() -> bool:
    import multiprocessing as mp
    return "fork" in mp.get_all_start_methods()


def start(jobs=None) -> None:
    """Forks the workers now (one per core, or jobs) for every later pool_map, until stop() or the
    process's exit; one core, or a platform without fork, keeps everything in this process. Call
    it before reading the rows, after anything the tasks read from module state (stats.N_BOOT) is
    set."""
    global _POOL
    if _POOL is not None or _jobs(jobs) <= 1 or not _can_fork():
        return
    import atexit
    import multiprocessing as mp
    _POOL = mp.get_context("fork").Pool(_jobs(jobs))
    atexit.register(stop)


def stop() -> None:
    """Ends the workers of start() (waiting for them: their peak memory then counts among the
    process's children)."""
    global _POOL
    pool, _POOL = _POOL, None
    if pool is not None:
        pool.close()
        pool.join()


@contextlib.contextmanager
def started(jobs=None):
    """start() for the block, stop() after it."""
    start(jobs)
    try:
        yield
    finally:
        stop()


def pool_map(fn, tasks, chunksize: int = 1, jobs=None) -> list:
    """[fn(t) for t in tasks] over the workers (fn at module level, tasks picklable): those of
    start() while they run, else a pool forked for this call (at most one process per task;
    a single task runs here)."""
    tasks = list(tasks)
    if not tasks:
        return []
    if _POOL is not None:
        return _POOL.map(fn, tasks, chunksize=max(1, chunksize))
    jobs = min(_jobs(jobs), len(tasks))
    if jobs <= 1 or not _can_fork():
        return [fn(t) for t in tasks]
    import multiprocessing as mp
    with mp.get_context("fork").Pool(jobs) as pool:
        return pool.map(fn, tasks, chunksize=max(1, chunksize))
