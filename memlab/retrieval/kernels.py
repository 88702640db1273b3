"""Stages 3–6 of the scoring core for many configurations at once, compiled with numba.

``rank_batch`` (``memlab.retrieval.ranking``) sorts and runs MMR with numpy,
vectorised across the queries of one configuration. A sweep scores thousands
of configurations; sorting each (configuration, query) with numpy costs far
more than the arithmetic. ``top_hits`` does the last stages per
(configuration, query) in one compiled loop:

3. each row's raw score from its factors (merged, decay, source weight, boost),
   by ``memlab.retrieval.scoring.raw_score`` itself, compiled;

4. keep the rows whose display score ``clamp(raw, 0, 1)`` reaches ``min_score``
   and order them by ``raw`` descending, ties by chunk id ascending;
5. MMR (when λ < 1 and at least two rows are kept): relevance ``raw`` min–max
   normalised over the kept rows; each round picks the argmax of
   ``λ·rel − (1−λ)·max_{s∈selected} J(c, s)``; exact ties go to the higher ``raw``,
   then to the earlier position; stops after ``max_results`` picks (greedy MMR is
   sequential, so these are the first picks of the full permutation);
6. the first ``max_results`` rows.

The arithmetic is the one ``rank_batch`` and ``memlab.retrieval.mmr.mmr_select`` do,
operation for operation (no fused multiply–add: numba compiles without
fast-math), so the hits and their scores are identical; tests compare the two on
many configurations. The factors come from the scoring core's stage functions.
``mean_pair_jaccard`` is the sweep's Redundancy measure over the same Jaccard
blocks. Importing this module imports numba (``memlab.jit``), so only the sweep
does.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np

from memlab.arrays import FloatArray, IntArray
from memlab.jit import numba
from memlab.retrieval.scoring import EPS, raw_score

NO_MMR = 2.0  # a λ that means "MMR off" (λ is clamped to [0, 1] before it gets here)

nb = numba()
_raw_score = nb.njit(inline="always")(raw_score)  # the scoring core's own product


@nb.njit(cache=True, nogil=True, inline="always")
def _before(v1: float, k1: int, v2: float, k2: int) -> bool:
    """Row 1 sorts before row 2: higher raw, ties by the lower chunk-id ordinal."""
    return v1 > v2 or (v1 == v2 and k1 < k2)


@nb.njit(cache=True, nogil=True, inline="always")
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
    cols: Any,
    m: int,
    rounds: int,
    lam: float,
    local: Any,
    jac: Any,
    base: int,
    width: int,
    work: Any,
    done: Any,
    left: Any,
    picks: Any,
) -> None:
    """Greedy MMR over the ``m`` kept rows, sorted (raw descending, ties by chunk id);
    writes ``rounds`` picks (indices into the sorted rows).

    Lazy greedy (the picks of ``mmr_select``, with less work): each round scans the
    rows in sorted order, i.e. by gain ``λ·norm`` descending. A row's score
    ``gain − (1−λ)·max_sim`` never exceeds its gain, so the scan stops at the first
    row whose gain is not above the best score so far; and as ``max_sim`` only grows,
    a row whose score with a stale ``max_sim`` is not above the best is skipped
    without bringing it up to date. Rows are brought up to date (the picks since
    their last visit folded into ``max_sim``) only when they may win. In sorted
    order an equal score never displaces an earlier row, which is mmr_select's tie
    rule (higher raw, then earlier position)."""
    gain, msim = work[0], work[1]
    lo = vals[m - 1]
    hi = vals[0]
    span = max(hi - lo, EPS)
    for i in range(m):
        gain[i] = lam * ((vals[i] - lo) / span)
        msim[i] = 0.0
        done[i] = 0
        left[i] = True
    c = 1.0 - lam
    for t in range(rounds):
        best = -np.inf
        pick = -1
        for i in range(m):
            if not left[i]:
                continue
            if pick >= 0:
                if gain[i] <= best:
                    break  # every later row scores at most its gain: none can win
                if gain[i] - c * msim[i] <= best:
                    continue  # its score with a stale max_sim already cannot win
            li = local[cols[i]]
            while done[i] < t:
                row = base + local[cols[picks[done[i]]]] * width
                msim[i] = max(msim[i], jac[row + li])
                done[i] += 1
            s = gain[i] - c * msim[i]
            if s > best:
                best = s
                pick = i
        left[pick] = False
        picks[t] = pick


@nb.njit(cache=True, nogil=True)
def top_hits(
    merged: Any,
    decay: Any,
    decay_of: Any,
    weights: Any,
    source: Any,
    boost: Any,
    min_score: Any,
    max_results: Any,
    lam: Any,
    offsets: Any,
    id_order: Any,
    rows: Any,
    local: Any,
    jac: Any,
    jac_base: Any,
    jac_width: Any,
    out_index: Any,
    out_rows: Any,
    out_raw: Any,
) -> None:
    """Stage 3's product and stages 4–6 for every (configuration g, query q).

    Row r's raw score under configuration g is ``raw_score(merged[g, r] (or
    merged[0, r] when one row serves all), decay[decay_of[g], r],
    weights[g, source[r]], boost[r])``. The rows of query q are
    ``offsets[q]:offsets[q+1]``; ``id_order`` is each row's tie key, ``rows`` its
    candidate row in the batch, ``local`` its position in its query's Jaccard block
    (``jac[jac_base[q] + i·jac_width[q] + j]``). Writes each hit's candidate row and
    raw score into ``out_rows`` / ``out_raw`` at ``[rank − 1, out_index[g], q]``.
    """
    n_q = offsets.shape[0] - 1
    shared = merged.shape[0] == 1
    widest = 1
    for q in range(n_q):
        widest = max(widest, offsets[q + 1] - offsets[q])
    vals = np.empty(widest)
    keys = np.empty(widest, np.int64)
    cols = np.empty(widest, np.int64)
    work = np.empty((2, widest))
    done = np.empty(widest, np.int64)
    left = np.empty(widest, np.bool_)
    picks = np.empty(widest, np.int64)
    for g in range(out_index.shape[0]):
        floor = min_score[g]
        k = max_results[g]
        mmr = lam[g] < 1.0
        cap = widest if mmr else k  # MMR reads every kept row
        gm = 0 if shared else g
        h = decay_of[g]
        out = out_index[g]
        for q in range(n_q):
            m = 0
            for r in range(offsets[q], offsets[q + 1]):
                v = _raw_score(merged[gm, r], decay[h, r], weights[g, source[r]], boost[r])
                shown = min(max(v, 0.0), 1.0) if v == v else v  # clamp; NaN stays NaN
                if shown >= floor:
                    m = _insert(vals, keys, cols, m, cap, v, id_order[r], r)
            n = min(k, m)
            if mmr and m >= 2:
                base, width, lm = jac_base[q], jac_width[q], lam[g]
                _mmr(vals, cols, m, n, lm, local, jac, base, width, work, done, left, picks)
            else:
                for t in range(n):
                    picks[t] = t
            for t in range(n):
                out_rows[t, out, q] = rows[cols[picks[t]]]
                out_raw[t, out, q] = vals[picks[t]]


@nb.njit(cache=True, nogil=True)
def mean_pair_jaccard(
    ranks: Any,
    order: Any,
    segment: Any,
    local: Any,
    jac: Any,
    jac_base: Any,
    jac_width: Any,
    out: Any,
) -> None:
    """Per cell (column of ``ranks``: its candidate rows by rank, −1 past the end): the
    mean Jaccard of every pair of its rows (pairs in rank order), NaN below two rows.
    Cells are visited in ``order`` (grouped by query, so each query's Jaccard block
    is read while it is in cache)."""
    depth = ranks.shape[0]
    for c in order:
        n = 0
        while n < depth and ranks[n, c] >= 0:
            n += 1
        if n < 2:
            out[c] = np.nan
            continue
        q = segment[ranks[0, c]]
        base, width = jac_base[q], jac_width[q]
        total = 0.0
        for i in range(n):
            row = base + local[ranks[i, c]] * width
            for j in range(i + 1, n):
                total += jac[row + local[ranks[j, c]]]
        out[c] = total / (n * (n - 1) // 2)


@dataclass(frozen=True)
class Scores:
    """Stage 3's factors for a block of configurations over the rows of one stage."""

    merged: FloatArray  # configurations × rows, or 1 × rows when no weight plays a part
    decay: FloatArray  # half-lives × rows
    decay_of: IntArray  # per configuration: its row of ``decay``
    weights: FloatArray  # configurations × sources
    source: IntArray  # per row
    boost: FloatArray  # per row


class Cutoffs(NamedTuple):
    """Per configuration of a block: ``min_score``, ``max_results`` and MMR's λ
    (``NO_MMR`` where MMR does not run)."""

    min_score: FloatArray
    max_results: IntArray
    lam: FloatArray


def select(
    scores: Scores,
    cutoffs: Cutoffs,
    offsets: IntArray,
    id_order: IntArray,
    rows: IntArray,
    local: IntArray,
    jaccard: tuple[FloatArray, IntArray, IntArray],
    out: tuple[IntArray, FloatArray, IntArray],
) -> None:
    """``top_hits`` for a block of configurations: ``out`` = (rows, raw, the index of
    each configuration of the block in them), written in place."""
    jac, base, width = jaccard
    out_rows, out_raw, out_index = out
    min_score, max_results, lam = cutoffs
    top_hits(
        np.ascontiguousarray(np.atleast_2d(scores.merged)),
        np.ascontiguousarray(scores.decay),
        scores.decay_of,
        np.ascontiguousarray(scores.weights),
        scores.source,
        scores.boost,
        min_score,
        max_results,
        lam,
        offsets,
        id_order,
        rows,
        local,
        jac,
        base,
        width,
        out_index,
        out_rows,
        out_raw,
    )


def mean_pair_similarity(
    ranks: IntArray,
    order: IntArray,
    segment: IntArray,
    local: IntArray,
    jaccard: tuple[FloatArray, IntArray, IntArray],
) -> FloatArray:
    """``mean_pair_jaccard`` with a fresh output array (one value per column of
    ``ranks``; ``order`` visits the columns grouped by query)."""
    out = np.empty(ranks.shape[1])
    jac, base, width = jaccard
    mean_pair_jaccard(ranks, order, segment, local, jac, base, width, out)
    return out


def warm() -> None:
    """Compile the kernels (or load them from numba's cache) on a tiny input."""
    one = np.array([0, 1], dtype=np.int64)
    jaccard = (np.array([1.0, 0.5, 0.5, 1.0]), np.array([0], np.int64), np.array([2], np.int64))
    scores = Scores(
        np.array([[0.5, 0.2]]),
        np.ones((1, 2)),
        np.zeros(1, np.int64),
        np.ones((1, 1)),
        np.zeros(2, np.int64),
        np.ones(2),
    )
    offsets = np.array([0, 2], dtype=np.int64)
    out = (np.full((2, 1, 1), -1, np.int64), np.zeros((2, 1, 1)), np.zeros(1, np.int64))
    lam = np.array([0.5])
    select(scores, Cutoffs(np.zeros(1), np.array([2]), lam), offsets, one, one, one, jaccard, out)
    zero = np.zeros(1, np.int64)
    mean_pair_similarity(one[:, None], zero, np.zeros(2, np.int64), one, jaccard)
