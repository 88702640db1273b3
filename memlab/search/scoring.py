"""The scoring core: SPEC §4.2–§4.3 as pure, vectorised functions.

Every function takes flat arrays (one row per candidate, rows of many queries
side by side; ``segment`` gives each row's query) and returns arrays. The live
search and the sweep engine both call ``memlab.search.ranking.rank_batch``,
which strings these stages together, so there is exactly one scoring core.

Merge strategies live in a registry (``STRATEGIES``): ``grok`` (c0, default)
and the peers of SPEC §9 (``openclaw``, ``rrf``, ``basic-memory``).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from memlab.arrays import BoolArray, FloatArray, IntArray
from memlab.config import SearchConfig
from memlab.errors import ConfigError, unknown_name
from memlab.search.candidates_batch import ABSENT
from memlab.timefmt import DAY

EPS = 2.220446049250313e-16  # f64::EPSILON, the min–max guard of c0
ACCESS_BOOST_RATE = 0.05  # access boost = 1 + rate · ln(1 + access_count)
RRF_K = 60


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
    seg_sorted = segment[order]
    starts = np.r_[0, np.flatnonzero(np.diff(seg_sorted)) + 1]
    counts = np.diff(np.r_[starts, len(order)])
    pos_sorted = np.arange(len(order)) - np.repeat(starts, counts)
    pos = np.empty(len(order), dtype=np.int64)
    pos[order] = pos_sorted
    return pos


# --------------------------------------------------------------------- the stages


def fts_minmax(rank: FloatArray, present: BoolArray, segment: IntArray, n: int) -> FloatArray:
    """c0 FTS score: ``1 − (rank − min) / max(max − min, ε)`` per query; 0 where absent.

    ``rank`` is FTS5's bm25 (negative, more negative = better): best → 1.0, worst → 0.0,
    a single candidate (or all equal) → 1.0.
    """
    r = np.where(present, rank, np.nan)
    lo = segment_min(np.where(present, rank, np.inf), segment, n)[segment]
    hi = segment_max(np.where(present, rank, -np.inf), segment, n)[segment]
    span = np.maximum(hi - lo, EPS)
    with np.errstate(invalid="ignore"):
        score = 1.0 - (r - lo) / span
    return np.where(present, score, 0.0)


def vector_from_l2(distance: FloatArray, present: BoolArray) -> FloatArray:
    """c0 vector score: ``clamp(1 − d/2, 0, 1)`` (unit vectors, L2 ≤ 2); 0 where absent."""
    with np.errstate(invalid="ignore"):
        score = np.clip(1.0 - distance / 2.0, 0.0, 1.0)
    return np.where(present, score, 0.0)


def merge_with_fts_floor(fts: FloatArray, vec: FloatArray, vw: float, tw: float) -> FloatArray:
    """c0 merge (SPEC §4.2): never below the FTS score.

    both > 0 → max(tw·fts + vw·vec, fts); fts only → fts; otherwise → vw·vec.
    """
    both = (fts > 0) & (vec > 0)
    return np.where(both, np.maximum(tw * fts + vw * vec, fts), np.where(fts > 0, fts, vw * vec))


def age_in_days(created_at: FloatArray, now: FloatArray) -> FloatArray:
    """Days from a chunk's ``created_at`` to ``now`` (never negative): what decay counts."""
    return np.maximum((now - np.maximum(created_at, 0.0)) / DAY, 0.0)


def decay_factor(
    created_at: FloatArray, now: FloatArray, half_life_days: float | None, evergreen: BoolArray
) -> FloatArray:
    """Exponential time decay; 1 for evergreen sources, no half-life, or half-life ≤ 0."""
    if half_life_days is None or half_life_days <= 0:
        return np.ones_like(created_at)
    age_days = age_in_days(created_at, now)
    return np.where(evergreen, 1.0, np.exp(-math.log(2.0) / half_life_days * age_days))


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
    table = np.array([config.source_weight(str(s)) for s in names], dtype=np.float64)
    return table[inverse] if len(names) else np.ones(0)


# --------------------------------------------------------------------- strategies


@dataclass(frozen=True)
class Signals:
    """What a strategy produces for each row: the two normalised signals and the merge."""

    fts: FloatArray
    vec: FloatArray
    merged: FloatArray


@dataclass(frozen=True)
class StageInput:
    """The rows in play at a candidate limit, and which signals each row has there."""

    rank: FloatArray
    distance: FloatArray
    in_fts: BoolArray
    in_vec: BoolArray
    fts_pos: IntArray
    supp_pos: IntArray
    vec_pos: IntArray
    segment: IntArray
    n_queries: int
    limit: int
    vectors_active: np.ndarray  # per query: did the vector list take part


@dataclass(frozen=True)
class Strategy:
    name: str
    description: str
    candidate_limit: Callable[[SearchConfig], int]
    score: Callable[[StageInput, SearchConfig], Signals]


def _c0_limit(config: SearchConfig) -> int:
    return config.max_results * config.candidate_multiplier


def _grok(x: StageInput, config: SearchConfig) -> Signals:
    fts = fts_minmax(x.rank, x.in_fts, x.segment, x.n_queries)
    vec = vector_from_l2(x.distance, x.in_vec)
    return Signals(
        fts, vec, merge_with_fts_floor(fts, vec, config.vector_weight, config.text_weight)
    )


def _openclaw(x: StageInput, config: SearchConfig) -> Signals:
    """OpenClaw: BM25 ``|r|/(1+|r|)``, cosine similarity, renormalised weights, no floor."""
    a = np.abs(x.rank)
    with np.errstate(invalid="ignore", divide="ignore"):
        text = np.where(x.rank < 0, a / (1.0 + a), 1.0 / (1.0 + np.maximum(x.rank, 0.0)))
    fts = np.where(x.in_fts, text, 0.0)
    with np.errstate(invalid="ignore"):
        cosine = 1.0 - (x.distance**2) / 2.0  # unit vectors: cos = 1 − L2²/2
    vec = np.where(x.in_vec, cosine, 0.0)
    total = config.vector_weight + config.text_weight
    vw, tw = (config.vector_weight / total, config.text_weight / total) if total > 0 else (0.0, 0.0)
    return Signals(fts, vec, vw * vec + tw * fts)


def _openclaw_limit(config: SearchConfig) -> int:
    return min(200, max(1, math.floor(config.max_results * 4)))


def fts_list_positions(x: StageInput) -> IntArray:
    """1-based rank of each row in the FTS list as c0 builds it: main list, then appended
    supplement rows (0 where the row is not in the list)."""
    in_main = x.fts_pos < x.limit
    key_group = np.where(in_main, 0, 1)
    key_pos = np.where(in_main, x.fts_pos, x.supp_pos)
    idx = np.flatnonzero(x.in_fts)
    out = np.zeros(len(x.rank), dtype=np.int64)
    if len(idx):
        order = np.lexsort((key_pos[idx], key_group[idx], x.segment[idx]))
        out[idx] = segment_positions(order, x.segment[idx]) + 1
    return out


def _rrf(x: StageInput, config: SearchConfig) -> Signals:
    """Reciprocal rank fusion ``Σ 1/(k + rank)``, k = 60, scaled by ``(k+1)/L``.

    RRF and k = 60 are from Cormack, Clarke & Büttcher, "Reciprocal rank fusion
    outperforms Condorcet and individual rank learning methods", SIGIR 2009.

    The scale (L = number of lists that took part for the query) maps "first in every
    list" to 1.0, so ``min_score`` and the clamped display score stay meaningful.
    """
    fts_rank = fts_list_positions(x)
    fts = np.where(x.in_fts, 1.0 / (RRF_K + np.maximum(fts_rank, 1)), 0.0)
    vec = np.where(x.in_vec, 1.0 / (RRF_K + np.minimum(x.vec_pos, 10**9) + 1), 0.0)
    lists = 1.0 + np.asarray(x.vectors_active, dtype=np.float64)[x.segment]
    return Signals(fts, vec, (fts + vec) * (RRF_K + 1) / lists)


def _basic_memory(x: StageInput, config: SearchConfig) -> Signals:
    """basic-memory: ``max(v, f) + 0.3 · min(v, f)`` over the c0-normalised signals."""
    fts = fts_minmax(x.rank, x.in_fts, x.segment, x.n_queries)
    vec = vector_from_l2(x.distance, x.in_vec)
    return Signals(fts, vec, np.maximum(vec, fts) + 0.3 * np.minimum(vec, fts))


STRATEGIES: dict[str, Strategy] = {
    s.name: s
    for s in (
        Strategy(
            "grok", "c0: min–max BM25, 1−d/2, weighted merge never below FTS", _c0_limit, _grok
        ),
        Strategy(
            "openclaw",
            "OpenClaw: |r|/(1+|r|), cosine, renormalised weights, no floor",
            _openclaw_limit,
            _openclaw,
        ),
        Strategy(
            "rrf", "reciprocal rank fusion, k=60 (scaled so rank 1 everywhere = 1)", _c0_limit, _rrf
        ),
        Strategy("basic-memory", "max(v, f) + 0.3·min(v, f)", _c0_limit, _basic_memory),
    )
}


def get_strategy(name: str) -> Strategy:
    try:
        return STRATEGIES[name]
    except KeyError:
        raise ConfigError(unknown_name("strategy", name, STRATEGIES)) from None


def candidate_limit(config: SearchConfig) -> int:
    """How many candidates per list ``config``'s strategy takes (c0: ``max_results × 3``)."""
    return get_strategy(config.strategy).candidate_limit(config)


__all__ = [
    "ABSENT",
    "ACCESS_BOOST_RATE",
    "EPS",
    "STRATEGIES",
    "Signals",
    "StageInput",
    "Strategy",
    "access_boost",
    "accesses_for_boost",
    "age_at_decay",
    "age_in_days",
    "candidate_limit",
    "decay_factor",
    "fts_minmax",
    "get_strategy",
    "merge_with_fts_floor",
    "source_weights",
    "vector_from_l2",
]
