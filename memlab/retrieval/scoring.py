"""The scoring core: SPEC §4.2–§4.3 as pure, vectorised functions.

Every function takes flat arrays (one row per candidate, rows of many queries
side by side; ``segment`` gives each row's query) and returns arrays: these are
the definitions. Four drivers run them, each for a reason measured, each tested
against ``rank_batch`` hit for hit and score for score:

* ``memlab.retrieval.ranking.rank_batch`` strings the stages together over one
  configuration's candidate batch: evaluation, and the live search with a trace,
  MMR or a strategy other than ``grok``;
* ``memlab.retrieval.ranking_one.rank_one`` is a live c0 search without MMR: the
  same operations on Python floats for one query's ~30 rows, because ninety
  numpy calls cost more than the arithmetic. It *restates* stage 1's min–max,
  ``1 − d/2`` and the c0 merge (``fts_minmax``, ``vector_from_l2``,
  ``merge_with_fts_floor``) in scalar form and calls ``raw_score`` itself
  (``tests/search/test_rank_one.py``: equal bit for bit on random sets);
* ``memlab.retrieval.many.ManyScorer`` scores many configurations of a sweep over
  one batch with these stage functions, configurations × rows at once;
* ``memlab.retrieval.kernels.top_hits`` is the sweep's compiled stages 4–6; it runs
  ``raw_score`` itself, compiled by numba.

The merge strategies that read these stages are ``memlab.retrieval.strategies``.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from memlab.arrays import BoolArray, FloatArray, IntArray
from memlab.config import SearchConfig
from memlab.retrieval.candidates_batch import ABSENT
from memlab.timefmt import DAY

EPS = 2.220446049250313e-16  # f64::EPSILON, the min–max guard of c0
ACCESS_BOOST_RATE = 0.05  # access boost = 1 + rate · ln(1 + access_count)


# ------------------------------------------------------------------ segment helpers


def segment_min(values: FloatArray, segment: IntArray, n: int) -> FloatArray:
    out = np.full(n, np.inf)
    np.minimum.at(out, segment, values)
    return out


def segment_max(values: FloatArray, segment: IntArray, n: int) -> FloatArray:
    out = np.full(n, -np.inf)
    np.maximum.at(out, segment, values)
    return out


def segment_positions(order: IntArray, segment: IntArray) -> IntArray:
    """0-based position of each row within its query, following ``order``.

    ``order`` must list rows grouped by segment (as ``np.lexsort(..., segment)`` does).
    """
    n = len(order)
    seg_sorted = segment[order]
    breaks = np.flatnonzero(seg_sorted[1:] != seg_sorted[:-1]) + 1
    pos_sorted = np.arange(n, dtype=np.int64)
    if len(breaks):  # several segments: subtract each row's segment start
        starts = np.concatenate(([0], breaks))
        pos_sorted -= np.repeat(starts, np.diff(np.append(starts, n)))
    pos = np.empty(n, dtype=np.int64)
    pos[order] = pos_sorted
    return pos


# --------------------------------------------------------------------- the stages


def fts_minmax(rank: FloatArray, present: BoolArray, segment: IntArray, n: int) -> FloatArray:
    """c0 FTS score: ``1 − (rank − min) / max(max − min, ε)`` per query; 0 where absent.

    ``rank`` is FTS5's bm25 (negative, more negative = better): best → 1.0, worst → 0.0,
    a single candidate (or all equal) → 1.0.
    """
    r = np.where(present, rank, np.nan)
    lo: FloatArray | float
    hi: FloatArray | float
    if n == 1 and present.any():  # one query (a live search): the same bounds, as scalars
        lo, hi = r[present].min(), r[present].max()
    else:
        lo = segment_min(np.where(present, rank, np.inf), segment, n)[segment]
        hi = segment_max(np.where(present, rank, -np.inf), segment, n)[segment]
    span = np.maximum(hi - lo, EPS)
    with np.errstate(invalid="ignore"):
        score = 1.0 - (r - lo) / span
    return np.where(present, score, 0.0)


def vector_from_l2(distance: FloatArray, present: BoolArray) -> FloatArray:
    """c0 vector score: ``clamp(1 − d/2, 0, 1)`` (unit vectors, L2 ≤ 2); 0 where absent."""
    if not present.any():  # FTS-only: the same zeros, without the arithmetic
        return np.zeros(len(present))
    with np.errstate(invalid="ignore"):
        score = np.clip(1.0 - distance / 2.0, 0.0, 1.0)
    return np.where(present, score, 0.0)


def merge_with_fts_floor(
    fts: FloatArray, vec: FloatArray, vw: float | FloatArray, tw: float | FloatArray
) -> FloatArray:
    """c0 merge (SPEC §4.2): never below the FTS score.

    both > 0 → max(tw·fts + vw·vec, fts); fts only → fts; otherwise → vw·vec.
    """
    both = (fts > 0) & (vec > 0)
    weighted_vec = vw * vec
    merged: FloatArray = np.where(
        both, np.maximum(tw * fts + weighted_vec, fts), np.where(fts > 0, fts, weighted_vec)
    )
    return merged


def age_in_days(created_at: FloatArray, now: FloatArray) -> FloatArray:
    """Days from a chunk's ``created_at`` to ``now`` (never negative): what decay counts."""
    return np.maximum((now - np.maximum(created_at, 0.0)) / DAY, 0.0)


def decay_factor(
    created_at: FloatArray, now: FloatArray, half_life_days: float | None, evergreen: BoolArray
) -> FloatArray:
    """Exponential time decay; 1 for evergreen sources, no half-life, or half-life ≤ 0."""
    if half_life_days is None or half_life_days <= 0:
        return np.ones_like(created_at)
    return decay_of_age(age_in_days(created_at, now), half_life_days, evergreen)


def decay_of_age(
    age_days: FloatArray, half_life_days: float | None, evergreen: BoolArray
) -> FloatArray:
    """``decay_factor`` from ages in days (``age_in_days``) already computed."""
    if half_life_days is None or half_life_days <= 0:
        return np.ones_like(age_days)
    decay: FloatArray = np.where(evergreen, 1.0, np.exp(-math.log(2.0) / half_life_days * age_days))
    return decay


def raw_score(merged: Any, decay: Any, weight: Any, boost: Any) -> Any:
    """Stage 3's product, ``merged · decay · weight · boost``, in this order: over arrays
    here, over single rows in the sweep's compiled kernel (``memlab.retrieval.kernels``
    compiles this very function), so both give the same bits."""
    return merged * decay * weight * boost


def access_boost(access_count: FloatArray) -> FloatArray:
    """``1 + 0.05 · ln(1 + access_count)``."""
    return 1.0 + ACCESS_BOOST_RATE * np.log1p(np.maximum(access_count, 0.0))


def accesses_for_boost(boost: float) -> float:
    """The (fractional) access count whose ``access_boost`` is ``boost`` (the inverse;
    inf beyond the float range)."""
    if boost <= 1.0:
        return 0.0
    try:
        return math.expm1((boost - 1.0) / ACCESS_BOOST_RATE)
    except OverflowError:
        return math.inf


def age_at_decay(factor: float, half_life_days: float | None) -> float:
    """Days after which ``decay_factor`` falls to ``factor``: ``half_life · log2(1 / factor)``
    (the inverse; 0 when ``factor ≥ 1``, inf when nothing decays or ``factor ≤ 0``)."""
    if factor >= 1.0:
        return 0.0
    if half_life_days is None or half_life_days <= 0 or factor <= 0:
        return math.inf
    return half_life_days * math.log2(1.0 / factor)


def source_weights(source: np.ndarray, config: SearchConfig) -> FloatArray:
    """Per-row source weight (missing key → 1.0)."""
    names, inverse = np.unique(source.astype(str), return_inverse=True)
    return source_weight_table(names, config)[inverse] if len(names) else np.ones(0)


def source_weight_table(names: Any, config: SearchConfig) -> FloatArray:
    """The source weight of each of ``names`` (distinct sources; missing key → 1.0)."""
    return np.array([config.source_weight(str(s)) for s in names], dtype=np.float64)


__all__ = [
    "ABSENT",
    "ACCESS_BOOST_RATE",
    "EPS",
    "access_boost",
    "accesses_for_boost",
    "age_at_decay",
    "age_in_days",
    "decay_factor",
    "decay_of_age",
    "fts_minmax",
    "merge_with_fts_floor",
    "raw_score",
    "source_weight_table",
    "source_weights",
    "vector_from_l2",
]
