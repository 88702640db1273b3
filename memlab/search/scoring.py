"""The scoring core: SPEC §4.2–§4.3 as pure, vectorised functions.

Every function takes flat arrays (one row per candidate, rows of many queries
side by side; ``segment`` gives each row's query) and returns arrays: these are
the definitions. Four drivers run them, each for a reason measured, each tested
against ``rank_batch`` hit for hit and score for score:

* ``memlab.search.ranking.rank_batch`` strings the stages together over one
  configuration's candidate batch: evaluation, and the live search with a trace,
  MMR or a strategy other than ``grok``;
* ``memlab.search.ranking_one.rank_one`` is a live c0 search without MMR: the
  same operations on Python floats for one query's ~30 rows, because ninety
  numpy calls cost more than the arithmetic. It *restates* stage 1's min–max,
  ``1 − d/2`` and the c0 merge (``fts_minmax``, ``vector_from_l2``,
  ``merge_with_fts_floor``) in scalar form and calls ``raw_score`` itself
  (``tests/search/test_rank_one.py``: equal bit for bit on random sets);
* ``memlab.search.many.ManyScorer`` scores many configurations of a sweep over
  one batch with these stage functions, configurations × rows at once;
* ``memlab.search.kernels.top_hits`` is the sweep's compiled stages 4–6; it runs
  ``raw_score`` itself, compiled by numba.

Merge strategies live in a registry (``STRATEGIES``): ``grok`` (c0, default)
and the peers of SPEC §9 (``openclaw``, ``rrf``, ``basic-memory``).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from memlab.arrays import BoolArray, FloatArray, IntArray
from memlab.config import SearchConfig, add_strategy_name
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
    here, over single rows in the sweep's compiled kernel (``memlab.search.kernels``
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


# --------------------------------------------------------------------- strategies

# A weight: one float (one configuration) or a column of many configurations' weights
# (shape configurations × 1), so a merge broadcasts to configurations × rows.
Weight = float | FloatArray


@dataclass(frozen=True)
class Signals:
    """What a strategy reads off each row before weighting: its two normalised signals
    and how many candidate lists took part for the row's query (1, or 2 with vectors).

    Signals do not depend on the weights, so a sweep computes them once per candidate
    limit and strategy and merges them for many configurations at once."""

    fts: FloatArray
    vec: FloatArray
    lists: FloatArray

    def take(self, rows: IntArray) -> Signals:
        return Signals(self.fts[rows], self.vec[rows], self.lists[rows])


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

    def signals(self, fts: FloatArray, vec: FloatArray) -> Signals:
        lists = 1.0 + np.asarray(self.vectors_active, dtype=np.float64)[self.segment]
        return Signals(fts, vec, lists)


@dataclass(frozen=True)
class Strategy:
    """A merge strategy: its candidate limit, its signals and its weighted merge."""

    name: str
    description: str
    candidate_limit: Callable[[SearchConfig], int]
    signals: Callable[[StageInput], Signals]
    merge: Callable[[Signals, Weight, Weight], FloatArray]  # (signals, vector_w, text_w)
    best: float = 1.0  # the largest merged score it can give (a perfect match)

    def score(self, x: StageInput, config: SearchConfig) -> tuple[Signals, FloatArray]:
        """The signals and the merged score of every row under ``config``."""
        signals = self.signals(x)
        return signals, self.merge(signals, config.vector_weight, config.text_weight)


def _c0_limit(config: SearchConfig) -> int:
    return config.max_results * config.candidate_multiplier


def _c0_signals(x: StageInput) -> Signals:
    return x.signals(
        fts_minmax(x.rank, x.in_fts, x.segment, x.n_queries), vector_from_l2(x.distance, x.in_vec)
    )


def _grok_merge(s: Signals, vw: Weight, tw: Weight) -> FloatArray:
    return merge_with_fts_floor(s.fts, s.vec, vw, tw)


def _openclaw_signals(x: StageInput) -> Signals:
    """OpenClaw: BM25 ``|r|/(1+|r|)``, cosine similarity."""
    a = np.abs(x.rank)
    with np.errstate(invalid="ignore", divide="ignore"):
        text = np.where(x.rank < 0, a / (1.0 + a), 1.0 / (1.0 + np.maximum(x.rank, 0.0)))
    with np.errstate(invalid="ignore"):
        cosine = 1.0 - (x.distance**2) / 2.0  # unit vectors: cos = 1 − L2²/2
    return x.signals(np.where(x.in_fts, text, 0.0), np.where(x.in_vec, cosine, 0.0))


def _openclaw_merge(s: Signals, vw: Weight, tw: Weight) -> FloatArray:
    """Renormalised weights (both 0 → 0), no floor."""
    total = np.asarray(vw + tw, dtype=np.float64)
    safe = np.where(total > 0, total, 1.0)
    vw_n = np.where(total > 0, vw / safe, 0.0)
    tw_n = np.where(total > 0, tw / safe, 0.0)
    merged: FloatArray = vw_n * s.vec + tw_n * s.fts
    return merged


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


def _rrf_signals(x: StageInput) -> Signals:
    """Reciprocal rank fusion terms ``1/(k + rank)`` of each list, k = 60 (Cormack,
    Clarke & Büttcher, "Reciprocal rank fusion outperforms Condorcet and individual
    rank learning methods", SIGIR 2009)."""
    fts_rank = fts_list_positions(x)
    fts = np.where(x.in_fts, 1.0 / (RRF_K + np.maximum(fts_rank, 1)), 0.0)
    vec = np.where(x.in_vec, 1.0 / (RRF_K + np.minimum(x.vec_pos, 10**9) + 1), 0.0)
    return x.signals(fts, vec)


def _rrf_merge(s: Signals, vw: Weight, tw: Weight) -> FloatArray:
    """``Σ 1/(k + rank)`` scaled by ``(k+1)/L``: the scale (L = number of lists that took
    part for the query) maps "first in every list" to 1.0, so ``min_score`` and the
    clamped display score stay meaningful. Weights play no part."""
    merged: FloatArray = (s.fts + s.vec) * (RRF_K + 1) / s.lists
    return merged


def _basic_memory_merge(s: Signals, vw: Weight, tw: Weight) -> FloatArray:
    """basic-memory: ``max(v, f) + 0.3 · min(v, f)`` over the c0-normalised signals."""
    merged: FloatArray = np.maximum(s.vec, s.fts) + 0.3 * np.minimum(s.vec, s.fts)
    return merged


STRATEGIES: dict[str, Strategy] = {
    s.name: s
    for s in (
        Strategy(
            "grok",
            "c0: min–max BM25, 1−d/2, weighted merge never below FTS",
            _c0_limit,
            _c0_signals,
            _grok_merge,
        ),
        Strategy(
            "openclaw",
            "OpenClaw: |r|/(1+|r|), cosine, renormalised weights, no floor",
            _openclaw_limit,
            _openclaw_signals,
            _openclaw_merge,
        ),
        Strategy(
            "rrf",
            "reciprocal rank fusion, k=60 (scaled so rank 1 everywhere = 1)",
            _c0_limit,
            _rrf_signals,
            _rrf_merge,
        ),
        Strategy(
            "basic-memory",
            "max(v, f) + 0.3·min(v, f)",
            _c0_limit,
            _c0_signals,
            _basic_memory_merge,
            1.3,
        ),
    )
}


def register_strategy(strategy: Strategy) -> Strategy:
    """Add a merge strategy (a plugin's: ``memlab.plugins``): its name becomes valid in
    configurations (``memlab.config.strategy_names``), ``--strategy`` and grids, and a
    hybrid run of that name (``memlab.eval.runs.RANKERS``) compares it."""
    add_strategy_name(strategy.name)  # refuses a name already taken
    STRATEGIES[strategy.name] = strategy
    return strategy


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
    "Weight",
    "access_boost",
    "accesses_for_boost",
    "age_at_decay",
    "age_in_days",
    "candidate_limit",
    "decay_factor",
    "decay_of_age",
    "fts_minmax",
    "get_strategy",
    "merge_with_fts_floor",
    "raw_score",
    "register_strategy",
    "source_weight_table",
    "source_weights",
    "vector_from_l2",
]
