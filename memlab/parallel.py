"""Processes for work that splits into independent pieces (sweeps, fleet simulation).

One home for how memlab uses several cores: ``available_cores``, ``spare_cores``
(the default number of workers: cores not already busy), a process pool
(``process_pool``: forked where the platform allows it, so the workers start
with memlab and numpy already loaded; workers ignore Ctrl-C, which the parent
handles), and ``run_all`` — the pieces' results as they finish, through memlab's
pool or any ``concurrent.futures.Executor`` (a Dask cluster's
``Client.get_executor()``). Each piece is a pure function of its arguments, so a
piece runs the same wherever it runs.
"""

from __future__ import annotations

import os
import signal
import sys
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Executor, Future, as_completed
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:  # multiprocessing is imported when a pool starts, not before
    from concurrent.futures import ProcessPoolExecutor

R = TypeVar("R")


def available_cores() -> int:
    """Cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def spare_cores() -> int:
    """Cores worth starting workers on now: all of them, unless other work already keeps
    them busy (the 1-minute load average), when extra processes only add overhead.
    Results never depend on it; only the speed does."""
    cores = available_cores()
    try:
        busy = os.getloadavg()[0]
    except OSError:  # not available here
        return cores
    return max(1, min(cores, round(cores - busy + 1)))


def _ignore_ctrl_c(initializer: Callable[..., None] | None, *args: Any) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if initializer is not None:
        initializer(*args)


def process_pool(
    workers: int, initializer: Callable[..., None] | None = None, initargs: tuple[Any, ...] = ()
) -> ProcessPoolExecutor:
    """A pool of ``workers`` processes (each runs ``initializer(*initargs)`` once)."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    context = multiprocessing.get_context("fork") if sys.platform == "linux" else None
    return ProcessPoolExecutor(
        max_workers=workers,
        mp_context=context,
        initializer=_ignore_ctrl_c,
        initargs=(initializer, *initargs),
    )


def run_all(
    fn: Callable[..., R],
    pieces: Sequence[tuple[Any, ...]],
    *,
    workers: int = 1,
    executor: Executor | None = None,
) -> Iterator[tuple[int, R]]:
    """``(i, fn(*pieces[i]))`` for every piece, as they finish: in this process when
    ``workers`` is 1 and no ``executor`` is given, else on a process pool of ``workers``
    (or on ``executor``). Stopping early (Ctrl-C, ``close``) cancels what has not
    started and shuts down the pool this function made."""
    if executor is None and workers <= 1:
        for i, args in enumerate(pieces):
            yield i, fn(*args)
        return
    own = executor is None
    pool = process_pool(workers) if executor is None else executor
    futures: dict[Future[R], int] = {}
    try:
        for i, args in enumerate(pieces):
            futures[pool.submit(fn, *args)] = i
        for done in as_completed(futures):
            yield futures[done], done.result()
    finally:
        for task in futures:
            task.cancel()
        if own:
            pool.shutdown(wait=False, cancel_futures=True)
