"""Stages 4–6 of the scoring core for many configurations at once, compiled with numba.

``rank_batch`` (``memlab.search.ranking``) sorts and runs MMR with numpy,
vectorised across the queries of one configuration. A sweep scores thousands
of configurations; sorting each (configuration, query) with numpy costs far
more than the arithmetic. ``top_hits`` does the same three stages per
(configuration, query) in one compiled loop:

4. keep the rows whose display score ``clamp(raw, 0, 1)`` reaches ``min_score``
   and order them by ``raw`` descending, ties by chunk id ascending;
5. MMR (when λ < 1 and at least two rows are kept): relevance ``raw`` min–max
   normalised over the kept rows; each round picks the argmax of
   ``λ·rel − (1−λ)·max_{s∈selected} J(c, s)``; exact ties go to the higher ``raw``,
   then to the earlier position; stops after ``max_results`` picks (greedy MMR is
   sequential, so these are the first picks of the full permutation);
6. the first ``max_results`` rows.

The arithmetic is the one ``memlab.search.mmr.mmr_select`` does, operation for
operation (no fused multiply–add: numba compiles without fast-math), so the hits
and their scores are identical; tests compare the two on many configurations.
The scores (``raw``) come from the scoring core's stage functions; this module
only selects. Importing it imports numba (``memlab.jit``), so only the sweep does.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from memlab.arrays import FloatArray, IntArray
from memlab.jit import numba

EPS = 2.220446049250313e-16  # = memlab.search.scoring.EPS (no import: keeps this module small)
NO_MMR = 2.0  # a λ that means "MMR off" (λ is clamped to [0, 1] before it gets here)

nb = numba()


@nb.njit(cache=True, nogil=True, inline="always")
def _before(v1: float, k1: int, v2: float, k2: int) -> bool:
    """Row 1 sorts before row 2: higher raw, ties by the lower chunk-id ordinal."""
    return v1 > v2 or (v1 == v2 and k1 < k2)


@nb.njit(cache=True, nogil=True)
def _insert(vals: Any, keys: Any, cols: Any, m: int, cap: int, v: float, k: int, c: int) -> int:
    """Insert (v, k, c) into the sorted first ``m`` entries, keeping at most ``cap``."""
    if m < cap:
        pos = m
        m += 1
    elif _before(v, k, vals[m - 1], keys[m - 1]):
        pos = m - 1
    else:
        return m
    while pos > 0 and _before(v, k, vals[pos - 1], keys[pos - 1]):
        vals[pos] = vals[pos - 1]
        keys[pos] = keys[pos - 1]
        cols[pos] = cols[pos - 1]
        pos -= 1
    vals[pos] = v
    keys[pos] = k
    cols[pos] = c
    return m


@nb.njit(cache=True, nogil=True)
def _mmr(
    vals: Any,
    keys: Any,
    cols: Any,
    m: int,
    rounds: int,
    lam: float,
    local: Any,
    jac: Any,
    base: int,
    width: int,
    gain: Any,
    msim: Any,
    left: Any,
    picks: Any,
) -> None:
    """Greedy MMR over ``m`` kept rows (in any order); writes ``rounds`` picks.

    ``mmr_select`` scans the rows in sorted order and takes the first of the best
    scores with the highest raw; in sorted order, equal raw scores are ordered by
    chunk id, so "first" is "lowest tie key" and no sort is needed."""
    lo = vals[0]
    hi = vals[0]
    for i in range(m):
        lo = min(lo, vals[i])
        hi = max(hi, vals[i])
    span = max(hi - lo, EPS)
    for i in range(m):
        gain[i] = lam * ((vals[i] - lo) / span)
        msim[i] = 0.0
        left[i] = True
    c = 1.0 - lam
    last = -1
    for t in range(rounds):
        # one pass: fold the last pick into max_sim, then score
        best = -np.inf
        pick = -1
        row = base + local[cols[last]] * width if last >= 0 else 0
        for i in range(m):
            if not left[i]:
                continue
            if last >= 0:
                msim[i] = max(msim[i], jac[row + local[cols[i]]])
            s = gain[i] - c * msim[i]
            if s > best or (s == best and _before(vals[i], keys[i], vals[pick], keys[pick])):
                best = s
                pick = i
        left[pick] = False
        picks[t] = pick
        last = pick


@nb.njit(cache=True, nogil=True)
def top_hits(
    raw: Any,
    min_score: Any,
    max_results: Any,
    lam: Any,
    offsets: Any,
    id_order: Any,
    local: Any,
    jac: Any,
    jac_base: Any,
    jac_width: Any,
    out_cols: Any,
    out_raw: Any,
) -> None:
    """Stages 4–6 for every (configuration g, query q); see the module docstring.

    ``raw`` is configurations × rows (the rows of query q are ``offsets[q]:offsets[q+1]``),
    ``id_order`` the tie key of each row, ``local`` its position in its query's Jaccard
    block (``jac[jac_base[q] + i·jac_width[q] + j]``). Writes the column of each hit and
    its raw score into ``out_cols`` / ``out_raw`` (configurations × queries × k; −1 and
    0 where a query has fewer hits).
    """
    n_q = offsets.shape[0] - 1
    widest = 1
    for q in range(n_q):
        widest = max(widest, offsets[q + 1] - offsets[q])
    vals = np.empty(widest)
    keys = np.empty(widest, np.int64)
    cols = np.empty(widest, np.int64)
    gain = np.empty(widest)
    msim = np.empty(widest)
    left = np.empty(widest, np.bool_)
    picks = np.empty(widest, np.int64)
    for g in range(raw.shape[0]):
        floor = min_score[g]
        k = max_results[g]
        mmr = lam[g] < 1.0
        for q in range(n_q):
            m = 0
            for r in range(offsets[q], offsets[q + 1]):
                v = raw[g, r]
                shown = min(max(v, 0.0), 1.0) if v == v else v  # clamp; NaN stays NaN
                if shown >= floor:
                    if mmr:  # MMR reads every kept row, in any order
                        vals[m] = v
                        keys[m] = id_order[r]
                        cols[m] = r
                        m += 1
                    else:
                        m = _insert(vals, keys, cols, m, k, v, id_order[r], r)
            n = min(k, m)
            if mmr and m >= 2:
                base, width = jac_base[q], jac_width[q]
                lm = lam[g]
                _mmr(vals, keys, cols, m, n, lm, local, jac, base, width, gain, msim, left, picks)
            elif mmr:
                picks[0] = 0
            else:
                for t in range(n):
                    picks[t] = t
            for t in range(n):
                out_cols[g, q, t] = cols[picks[t]]
                out_raw[g, q, t] = vals[picks[t]]


def select(
    raw: FloatArray,
    min_score: FloatArray,
    max_results: IntArray,
    lam: FloatArray,
    offsets: IntArray,
    id_order: IntArray,
    local: IntArray,
    jaccard: tuple[FloatArray, IntArray, IntArray],
    k: int,
) -> tuple[IntArray, FloatArray]:
    """``top_hits`` with fresh output arrays: (columns, raw scores), configurations ×
    queries × ``k``."""
    n_q = len(offsets) - 1
    out_cols = np.full((raw.shape[0], n_q, k), -1, dtype=np.int64)
    out_raw = np.zeros((raw.shape[0], n_q, k))
    jac, base, width = jaccard
    top_hits(
        np.ascontiguousarray(raw),
        min_score,
        max_results,
        lam,
        offsets,
        id_order,
        local,
        jac,
        base,
        width,
        out_cols,
        out_raw,
    )
    return out_cols, out_raw


def warm() -> None:
    """Compile the kernels (or load them from numba's cache) on a tiny input."""
    select(
        np.array([[0.5, 0.2]]),
        np.array([0.0]),
        np.array([2], dtype=np.int64),
        np.array([0.5]),
        np.array([0, 2], dtype=np.int64),
        np.array([0, 1], dtype=np.int64),
        np.array([0, 1], dtype=np.int64),
        (np.array([1.0, 0.5, 0.5, 1.0]), np.array([0], dtype=np.int64), np.array([2], np.int64)),
        2,
    )
