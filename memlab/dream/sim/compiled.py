"""Small compiled passes of the Dream simulator outside its engine (``sim.loop``): the
sessions' arrival uniforms and schedule (``sim.sessions``) and the planner's histograms
(``sim.planner``). Each does, per element, the arithmetic of the numpy formula it
replaced (the tests compare them), in one pass without temporaries; numba (``memlab.jit``)
compiles them once per machine and loads them from its cache.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from memlab.jit import numba

nb = numba()


@nb.njit(cache=True, nogil=True)
def normalised_spacings(cs: Any, counts: Any) -> Any:
    """``sessions._sorted_uniforms`` from the cumulative exponential spacings ``cs``: per
    block of ``counts[u] + 1`` spacings, the first ``counts[u]`` partial sums over the
    block's total (the same subtraction and division per value)."""
    out = np.empty(cs.size - counts.size)
    i = j = 0
    for u in range(counts.size):
        base = cs[i - 1] if i > 0 else 0.0
        total = cs[i + counts[u]] - base
        for k in range(i, i + counts[u]):
            out[j] = (cs[k] - base) / total
            j += 1
        i += counts[u] + 1
    return out


@nb.njit(cache=True, nogil=True)
def one_slot_starts(off: Any, arrive: Any, length: Any) -> Any:
    """Session start times (ms) with one session at a time per user (``sim.sessions``):
    at arrival, or when the user's previous session ends — the running maximum that
    ``_schedule``'s formula takes, in one pass (whole numbers: the same values)."""
    start = np.empty_like(arrive)
    for u in range(len(off) - 1):
        free = np.iinfo(np.int64).min
        for i in range(off[u], off[u + 1]):
            s = max(arrive[i], free)
            start[i] = s
            free = s + length[i]
    return start


@nb.njit(cache=True, nogil=True)
def seconds_at_level(first: Any, stop: Any, seconds: int) -> Any:
    """``planner.flight_levels``: how many of the seconds 0 … seconds − 1 had 0, 1, 2 …
    calls in flight, call i in flight at seconds first[i] … stop[i] − 1 (clipped to the
    horizon): the changes per second, then one pass over the seconds."""
    delta = np.zeros(seconds + 1, dtype=np.int32)
    for i in range(len(first)):
        lo, hi = min(max(first[i], 0), seconds), min(max(stop[i], 0), seconds)
        if hi > lo:
            delta[lo] += 1
            delta[hi] -= 1
    counts = np.zeros(len(first) + 1, dtype=np.int64)
    level = top = 0
    for s in range(seconds):
        level += delta[s]
        counts[level] += 1
        top = max(top, level)
    return counts[: top + 1].copy()


@nb.njit(cache=True, nogil=True)
def minutes_histogram(log_end: Any, consolidated: Any) -> Any:
    """``planner.freshness_histogram``: logs by whole minutes (rounded up, at least 0)
    from ``log_end`` to ``consolidated``, those never consolidated (not finite) left out."""
    top = -1
    for i in range(len(consolidated)):
        if np.isfinite(consolidated[i]):
            minutes = max(np.ceil((consolidated[i] - log_end[i]) / 60.0), 0.0)
            top = max(top, np.int64(minutes))
    counts = np.zeros(top + 1, dtype=np.int64)
    for i in range(len(consolidated)):
        if np.isfinite(consolidated[i]):
            counts[np.int64(max(np.ceil((consolidated[i] - log_end[i]) / 60.0), 0.0))] += 1
    return counts
