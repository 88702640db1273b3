"""Scoring chunks of configurations on several cores, through any ``Executor``.

``scored_chunks(work, chunks, workers=N)`` yields ``(chunk index, metric columns)``
as chunks finish:

* ``workers=1`` scores in this process, one chunk after another;
* ``workers>1`` starts a ``ProcessPoolExecutor`` whose initializer receives the
  work once per worker (forked where the platform allows it, so the workers
  start with memlab, numpy and the compiled kernels already loaded); each task
  then carries only its configurations;
* ``executor=`` any ``concurrent.futures.Executor`` (a Dask cluster's
  ``Client.get_executor()``, say): each task is ``score_chunk(work_ref, chunk)``,
  where ``work_ref`` defaults to the work itself (pass a scattered copy's future
  to ship it once per worker).

Workers ignore Ctrl-C: the caller's ``KeyboardInterrupt`` stops the generator,
which cancels the chunks not started and shuts its own pool down, so the caller
keeps (and saves) every chunk already yielded.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import sys
from collections.abc import Iterator, Sequence
from concurrent.futures import Executor, Future, ProcessPoolExecutor, as_completed
from typing import Any, TypeVar

from memlab.arrays import FloatArray
from memlab.config import SearchConfig
from memlab.sweep.work import SweepWork, score_chunk

T = TypeVar("T")


def available_cores() -> int:
    """Cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def chunked(items: Sequence[T], size: int) -> list[list[T]]:
    size = max(1, int(size))
    return [list(items[i : i + size]) for i in range(0, len(items), size)]


def chunk_size(n: int, workers: int, *, per_worker: int = 8, lo: int = 16, hi: int = 512) -> int:
    """Configurations per chunk: about ``per_worker`` chunks per worker (progress and
    balance), within [lo, hi]."""
    return min(hi, max(lo, -(-n // max(1, workers * per_worker))))


_installed: SweepWork | None = None


def _install(work: SweepWork) -> None:
    """Worker initializer: keep the work; leave Ctrl-C to the parent."""
    global _installed
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _installed = work


def _score_installed(configs: Sequence[SearchConfig]) -> FloatArray:
    assert _installed is not None, "worker started without its work"
    return score_chunk(_installed, configs)


def process_pool(work: SweepWork, workers: int) -> ProcessPoolExecutor:
    """A pool of ``workers`` processes that each hold ``work``."""
    from memlab.search.kernels import warm

    warm()  # compiled (or loaded from numba's cache) once, before the workers fork
    context = multiprocessing.get_context("fork") if sys.platform == "linux" else None
    return ProcessPoolExecutor(
        max_workers=workers, mp_context=context, initializer=_install, initargs=(work,)
    )


def scored_chunks(
    work: SweepWork,
    chunks: Sequence[Sequence[SearchConfig]],
    *,
    workers: int = 1,
    executor: Executor | None = None,
    work_ref: Any = None,
) -> Iterator[tuple[int, FloatArray]]:
    """``(index, score_chunk(work, chunks[index]))`` for every chunk, as they finish."""
    if executor is None and workers <= 1:
        for i, chunk in enumerate(chunks):
            yield i, score_chunk(work, chunk)
        return
    own = executor is None
    pool = process_pool(work, workers) if executor is None else executor
    ref = work if work_ref is None else work_ref
    futures: dict[Future[FloatArray], int] = {}
    try:
        for i, chunk in enumerate(chunks):
            task = (
                pool.submit(_score_installed, chunk)
                if own
                else pool.submit(score_chunk, ref, chunk)
            )
            futures[task] = i
        for done in as_completed(futures):
            yield futures[done], done.result()
    finally:
        for task in futures:
            task.cancel()
        if own:
            pool.shutdown(wait=False, cancel_futures=True)
