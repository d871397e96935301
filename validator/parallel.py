"""Process scheduling: when a run forks workers, how its work is cut, what the collector does.

One scheduler for every phase of a run that works file by file — reading and checking the
files of `caveat check` (validator/run.py), extracting the changed files of a corpus into
the claim ledger (validator/ledger.py). The domain code hands over a list of items and a
function of a chunk of them; what it gets back does not depend on how many processes ran
(tests/cli/test_parallel_check.py).

- **When.** ``jobs_for``: below ``PARALLEL_MIN_ITEMS`` items one process does it all
  (forking and pickling results back costs more than it saves); otherwise the usable cores,
  or ``CAVEAT_JOBS`` (1 keeps one process), or the caller's ``--jobs``. Workers are forked,
  so they inherit what the run holds (rules, patterns, analyses, the corpus index) instead
  of having it pickled to them; where fork is unavailable a run stays in one process.
- **How.** ``shared``: the parent and ``jobs - 1`` forked workers go through the items in
  contiguous chunks, each process claiming the next chunk when it is free. Chunks shrink as
  the work runs out (guided scheduling): the first are large runs of neighbouring items
  (they share claim keys, so per-key caches serve), the last an item or two, so no process
  waits long for another's last chunk. The parent working too means ``jobs`` processes,
  not ``jobs + 1``: every forked copy of the run counts in the memory of the process tree.
- **The collector.** ``collector_tuned``: a run keeps every analysis alive (hundreds of
  thousands of small objects) and makes many more that reference counting frees; at
  Python's default pace (700 allocations) the collector walked that whole live heap
  several times, ~0.4 s of a 200-file run. During a run young cyclic garbage is collected
  every ``GC_YOUNG_THRESHOLD`` allocations instead. Before a fork what the run holds is
  moved out of the collector's sight (``gc.freeze``): neither the workers nor the parent
  walk it again (each walk also touched every inherited page, undoing copy-on-write
  sharing); it is collectable again when the run ends.
"""
from __future__ import annotations

import gc
import os
from contextlib import contextmanager
from typing import Callable, Iterator, Optional

PARALLEL_MIN_ITEMS = 16
GUIDED_SHARE = 2            # a new chunk is 1 / (GUIDED_SHARE * jobs) of the work left
GC_YOUNG_THRESHOLD = 50_000

# The work the parent and its forked workers share, set just before the fork and cleared
# after: (chunks, counter of the next unclaimed chunk, the function of a chunk, what a
# worker runs first). Workers inherit it by fork; only chunk indices travel to them.
_SHARE = None


def jobs_for(n_items: int, requested: Optional[int] = None) -> int:
    """Processes for ``n_items`` items of work: ``requested`` (``--jobs``), else
    ``CAVEAT_JOBS``, else the usable cores; 1 for a small run or where fork is unavailable."""
    if n_items < PARALLEL_MIN_ITEMS:
        return 1
    jobs = requested
    if jobs is None:
        env = os.environ.get("CAVEAT_JOBS", "").strip()
        if env.isdigit() and int(env) >= 1:
            jobs = int(env)
        else:
            try:
                jobs = len(os.sched_getaffinity(0))
            except AttributeError:  # pragma: no cover - not Linux
                jobs = os.cpu_count() or 1
    if jobs <= 1:
        return 1
    import multiprocessing as mp
    if "fork" not in mp.get_all_start_methods():
        return 1            # pragma: no cover - the workers inherit the run's state by fork
    return min(jobs, n_items // (PARALLEL_MIN_ITEMS // 2))


@contextmanager
def collector_tuned():
    """The collector's pace for a run (see the module's docstring), restored after it, and
    whatever a fork froze made collectable again."""
    old = gc.get_threshold()
    frozen = gc.get_freeze_count()
    gc.set_threshold(max(old[0], GC_YOUNG_THRESHOLD), *old[1:])
    try:
        yield
    finally:
        gc.set_threshold(*old)
        if gc.get_freeze_count() != frozen:
            gc.unfreeze()


def chunks(items: list, jobs: int, max_size: Optional[int] = None) -> list:
    """Contiguous chunks of ``items``, each ``1 / (GUIDED_SHARE * jobs)`` of what is left
    (at most ``max_size`` items)."""
    out, i, n = [], 0, len(items)
    while i < n:
        size = max(1, -(-(n - i) // (GUIDED_SHARE * jobs)))
        if max_size is not None:
            size = min(size, max_size)
        out.append(items[i:i + size])
        i += size
    return out


def shared(items: list, work: Callable, jobs: int, mine: Optional[Callable] = None,
           worker_start: Optional[Callable] = None, max_chunk: Optional[int] = None) -> Iterator[tuple]:
    """(chunk index, ``work(chunk)``) for every chunk of ``items``, as chunks are done, in no
    fixed order (a caller that reports in item order sorts by chunk index).

    ``jobs`` processes share the work: this one runs ``mine(chunk)`` (default ``work``) on
    the chunks it claims, ``jobs - 1`` forked workers run ``work`` (the two must return the
    same thing); ``worker_start()`` runs once in each worker before its first chunk (a
    connection of its own, say). ``max_chunk``: at most this many items per chunk, when the
    caller keeps only what it needs of each result (the ledger stores extracted rows and
    drops them: a chunk's results are all alive at once, in the process that made them and
    in the parent). With ``jobs`` 1 the chunks are done here, in order."""
    global _SHARE
    mine = mine or work
    parts = chunks(items, max(1, jobs), max_chunk)
    if jobs <= 1 or len(parts) <= 1:
        for k, part in enumerate(parts):
            yield k, mine(part)
        return
    if _SHARE is not None:
        raise RuntimeError("parallel.shared cannot be nested")
    import multiprocessing as mp
    ctx = mp.get_context("fork")
    _SHARE = (parts, ctx.Value("i", 0), work, worker_start)
    try:
        gc.freeze()         # see the module's docstring; collector_tuned unfreezes
        with ctx.Pool(jobs - 1, initializer=_worker_init) as pool:
            # a task per chunk at most; each claims whichever chunk is next (the workers start now)
            pending = pool.imap_unordered(_claim_chunk, range(len(parts)))
            while True:
                k = _next_chunk()
                if k >= len(parts):
                    break
                yield k, mine(parts[k])
                # what the workers have finished meanwhile goes to the caller now: work it
                # does on those results then runs while the workers are still busy
                while True:
                    try:
                        res = pending.next(timeout=0)
                    except (mp.TimeoutError, StopIteration):
                        break
                    if res is not None:
                        yield res
            for res in pending:
                if res is not None:
                    yield res
    finally:
        _SHARE = None


def in_order(done: Iterator[tuple]) -> list:
    """The items' results of ``shared`` (each chunk's result a list), in item order."""
    got = dict(done)
    return [r for k in sorted(got) for r in got[k]]


def _worker_init():
    # Ctrl-C reaches the whole process group: the parent reports it (exit 130) and
    # terminates the pool; a worker printing its own traceback would only add noise
    import signal
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    start = _SHARE[3] if _SHARE is not None else None
    if start is not None:
        start()


def _next_chunk() -> int:
    counter = _SHARE[1]
    with counter.get_lock():
        k = counter.value
        counter.value = k + 1
    return k


def _claim_chunk(_task):
    """In a worker: (index, result) of the next unclaimed chunk, None when every chunk is taken."""
    parts, _, work, _ = _SHARE
    k = _next_chunk()
    return None if k >= len(parts) else (k, work(parts[k]))
