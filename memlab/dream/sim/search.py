"""A vectorised galloping search: per row, the first index where a monotone predicate holds.

The simulator's searches start near the answer (a few triggers ahead of a
user's pointer), so exponential probing from the start, then a binary search,
touches a handful of cache lines per user — much cheaper than a binary search
over millions of events.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from memlab.arrays import BoolArray
from memlab.arrays import IntArray as I64

Predicate = Callable[[I64, I64], BoolArray]


def first_true(pred: Predicate, start: I64, stop: I64) -> I64:
    """For each row r: the smallest i in [start[r], stop[r]) with ``pred(rows, i)`` true, else
    stop[r]. ``pred`` must be monotone (false then true) on each row's range; it receives the
    row numbers and the indices to test, and is never called with i >= stop."""
    lo = np.asarray(start, dtype=np.int64).copy()
    hi = np.asarray(stop, dtype=np.int64).copy()
    rows = np.flatnonzero(lo < hi)
    step = 1
    while rows.size:  # exponential phase: lo only moves past indices known to be false
        probe = np.minimum(lo[rows] + step - 1, hi[rows] - 1)
        ok = pred(rows, probe)
        hi[rows[ok]] = probe[ok]
        lo[rows[~ok]] = probe[~ok] + 1
        rows = rows[~ok]
        rows = rows[lo[rows] < hi[rows]]
        step *= 2
    rows = np.flatnonzero(lo < hi)
    while rows.size:  # binary phase: hi is true (or the stop, never tested)
        mid = (lo[rows] + hi[rows]) // 2
        ok = pred(rows, mid)
        hi[rows[ok]] = mid[ok]
        lo[rows[~ok]] = mid[~ok] + 1
        rows = rows[lo[rows] < hi[rows]]
    return lo
