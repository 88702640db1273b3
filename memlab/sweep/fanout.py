"""Scoring chunks of configurations on several cores, through any ``Executor``
(``memlab.parallel``).

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

from collections.abc import Iterator, Sequence
from concurrent.futures import Executor
from typing import Any, TypeVar

from memlab.arrays import FloatArray
from memlab.config import SearchConfig
from memlab.parallel import process_pool, run_all
from memlab.sweep.work import SweepWork, score_chunk

__all__ = ["chunk_size", "chunked", "scored_chunks"]

T = TypeVar("T")


def chunked(items: Sequence[T], size: int) -> list[list[T]]:
    size = max(1, int(size))
    return [list(items[i : i + size]) for i in range(0, len(items), size)]


def chunk_size(n: int, workers: int, *, per_worker: int = 8, lo: int = 16, hi: int = 512) -> int:
    """Configurations per chunk: about ``per_worker`` chunks per worker (progress and
    balance), within [lo, hi]."""
    return min(hi, max(lo, -(-n // max(1, workers * per_worker))))


_installed: SweepWork | None = None


def _install(work: SweepWork) -> None:
    """Worker initializer: keep the work (shipped once per worker)."""
    global _installed
    _installed = work


def _score_installed(configs: Sequence[SearchConfig]) -> FloatArray:
    assert _installed is not None, "worker started without its work"
    return score_chunk(_installed, configs)


def scored_chunks(
    work: SweepWork,
    chunks: Sequence[Sequence[SearchConfig]],
    *,
    workers: int = 1,
    executor: Executor | None = None,
    work_ref: Any = None,
) -> Iterator[tuple[int, FloatArray]]:
    """``(index, score_chunk(work, chunks[index]))`` for every chunk, as they finish."""
    if executor is not None:
        ref = work if work_ref is None else work_ref
        yield from run_all(score_chunk, [(ref, c) for c in chunks], executor=executor)
    elif workers <= 1:
        yield from run_all(score_chunk, [(work, c) for c in chunks])
    else:
        from memlab.retrieval.kernels import warm

        warm()  # compiled (or loaded from numba's cache) once, before the workers fork
        pool = process_pool(workers, _install, (work,))
        try:
            yield from run_all(_score_installed, [(c,) for c in chunks], executor=pool)
        finally:
            pool.shutdown(wait=False, cancel_futures=True)
