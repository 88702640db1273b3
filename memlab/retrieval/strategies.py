"""Merge strategies (SPEC §4.2, §9): one ``Strategy`` record each, in ``STRATEGIES``.

A strategy is its candidate limit, its signals (the text and vector scores of every
candidate row, vectorised over many queries; ``Signals``) and its weighted merge:
``grok`` (c0, the default: min–max BM25, ``1 − d/2``, a weighted merge never below
the FTS score) and the peers of SPEC §9 (``openclaw``, ``rrf``, ``basic-memory``).
The live search, the sweep engine, the reachability ceiling, ``--strategy`` and the
named runs read this registry; ``register_strategy`` adds one (a plugin's).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from memlab.arrays import BoolArray, FloatArray, IntArray
from memlab.config import SearchConfig, add_strategy_name
from memlab.errors import ConfigError, unknown_name
from memlab.retrieval.scoring import (
    fts_minmax,
    merge_with_fts_floor,
    segment_positions,
    vector_from_l2,
)

RRF_K = 60  # Cormack, Clarke & Büttcher (SIGIR 2009)

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
    hybrid run of that name (``memlab.eval.runs.rankers.RANKERS``) compares it."""
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
    "RRF_K",
    "STRATEGIES",
    "Signals",
    "StageInput",
    "Strategy",
    "Weight",
    "candidate_limit",
    "fts_list_positions",
    "get_strategy",
    "register_strategy",
]
