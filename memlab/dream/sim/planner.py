"""The planner's numbers: concurrent model calls and freshness, from the attempt table.

Pure functions on arrays; ``summary`` calls them on a fleet's ``Tally``.

**Call duration model.** A model call is in flight from its trigger (the gates pass
and Dream calls the model at once) until it returns at trigger + latency, the
latency drawn per call from a lognormal with mean ``latency_secs`` and sigma
``latency_sigma`` (``SimParams``; ``Trace.latency``). Failed calls count too (they
hold a model slot until they fail, at the same latency). The **concurrency** is the
number of calls in flight at each whole second ``start + s`` of the horizon (a call
``[t, t + latency)`` is in flight at second s when t ≤ s < t + latency).

**Freshness** of a session log is the time from its session's end (the log's mtime)
to the return of the first completed consolidation that read it; in whole minutes,
rounded up. A log no completed consolidation read by the end of the simulation
(stranded behind the lock, cut by the input cap, or still waiting) has none.

**Quantiles** here are of a histogram: the q-quantile is the smallest value v with at
least a share q of the observations ≤ v (a value that occurred; no interpolation).
"""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import ArrayLike

from memlab.arrays import IntArray as I64
from memlab.dream.sim.compiled import minutes_histogram, seconds_at_level

MINUTE = 60.0


def call_seconds(t: ArrayLike, returns: ArrayLike, start: float) -> tuple[I64, I64]:
    """Per call, the first whole second (after ``start``) it is in flight and the first it
    is not: ``ceil(t − start)`` and ``ceil(return − start)``."""
    lo = np.ceil(np.asarray(t, dtype=float) - start).astype(np.int64)
    hi = np.ceil(np.asarray(returns, dtype=float) - start).astype(np.int64)
    return lo, hi


def in_flight(first: ArrayLike, stop: ArrayLike, seconds: int) -> I64:
    """Calls in flight at each second 0 … seconds − 1: call i at seconds first[i] … stop[i] − 1."""
    lo = np.clip(np.asarray(first, dtype=np.int64), 0, seconds)
    hi = np.clip(np.asarray(stop, dtype=np.int64), 0, seconds)
    keep = hi > lo
    delta = np.bincount(lo[keep], minlength=seconds + 1) - np.bincount(
        hi[keep], minlength=seconds + 1
    )
    return np.cumsum(delta[:seconds]).astype(np.int64)


def flight_levels(first: ArrayLike, stop: ArrayLike, seconds: int) -> I64:
    """``np.bincount(in_flight(first, stop, seconds))`` — how many seconds had 0, 1, 2 …
    calls in flight — in one compiled pass over the seconds (``kernels.seconds_at_level``:
    no cumulative sum or histogram of every second of the horizon in memory)."""
    levels: I64 = seconds_at_level(
        np.ascontiguousarray(first, dtype=np.int64),
        np.ascontiguousarray(stop, dtype=np.int64),
        int(seconds),
    )
    return levels


def horizon_seconds(days: float) -> int:
    """Whole seconds of a horizon of ``days`` (a few ulps above a whole second are not one
    more: ``days`` may be seconds / 86,400 rounded)."""
    return max(1, math.ceil(days * 86_400 - 1e-6))


def freshness_histogram(log_end: ArrayLike, consolidated: ArrayLike) -> I64:
    """How many logs were first consolidated after m whole minutes (rounded up), per m;
    logs never consolidated (``inf``) are left out. Compiled (``kernels.minutes_histogram``):
    ``np.bincount(np.maximum(np.ceil((c − end) / MINUTE), 0))`` over the finite c."""
    counts: I64 = minutes_histogram(
        np.ascontiguousarray(log_end, dtype=np.float64),
        np.ascontiguousarray(consolidated, dtype=np.float64),
    )
    return counts


def add_histograms(a: ArrayLike, b: ArrayLike) -> I64:
    x, y = np.asarray(a, dtype=np.int64), np.asarray(b, dtype=np.int64)
    n = max(len(x), len(y))
    return np.pad(x, (0, n - len(x))) + np.pad(y, (0, n - len(y)))


def hist_quantile(counts: ArrayLike, q: float) -> int | None:
    """The smallest value v (a bin index) with at least a share q of the counts ≤ v."""
    c = np.cumsum(np.asarray(counts, dtype=np.int64))
    if c.size == 0 or c[-1] == 0:
        return None
    return int(np.searchsorted(c, q * c[-1], side="left"))


def hist_max(counts: ArrayLike) -> int | None:
    nz = np.flatnonzero(np.asarray(counts))
    return int(nz[-1]) if nz.size else None
