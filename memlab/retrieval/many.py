"""The scoring core for many configurations at once: what a sweep calls.

``rank_batch`` scores one configuration over a candidate batch. ``ManyScorer``
scores many configurations over the same batch with the same stage functions
(``memlab.retrieval.scoring``), arranged so that work which does not depend on a
configuration is done once and the rest is done for many configurations at once:

* once per batch: the access boost, the source codes, the tie keys, the MMR
  similarity blocks (``BatchArrays``, numeric and picklable: what a worker needs);
* once per (strategy, candidate limit, supplement, vectors): the rows in play and
  their signals (``Strategy.signals``), restricted to the rows that can be kept;
* once per half-life: the decay of every row;
* per block of configurations, as configurations × rows matrices: the merge
  (weights as a column), decay, source weight and boost — ``raw`` is computed by the
  same operations in the same order as ``rank_batch``, so it is equal bit for bit;
* per (configuration, query): stages 4–6 in a compiled loop
  (``memlab.retrieval.kernels.top_hits``: ``min_score``, the top ``max_results`` by
  ``raw`` with ties by chunk id, MMR).

The result is a ``HitMatrix``: each configuration's hits per query, best first, as
candidate rows with their raw scores. ``tests/search/test_many.py`` checks it
against ``rank_batch`` hit for hit and score for score; ``tests/sweep`` against
``search()``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from memlab.arrays import BoolArray, FloatArray, IntArray
from memlab.config import SearchConfig
from memlab.retrieval.candidates_batch import CandidateBatch
from memlab.retrieval.kernels import NO_MMR, Cutoffs, Scores, mean_pair_similarity, select
from memlab.retrieval.mmr import clamp_lambda
from memlab.retrieval.ranking import select_stage
from memlab.retrieval.scoring import access_boost, decay_factor, raw_score
from memlab.retrieval.strategies import Signals, candidate_limit, get_strategy

BLOCK_CELLS = 1000000  # configurations × rows per matrix block (≈ 16 MB per matrix)
CACHE_ENTRIES = 64  # decays and signal sets kept per scorer


@dataclass(frozen=True)
class BatchArrays:
    """The numbers the scoring core reads from a candidate batch (no text): picklable,
    shipped once to each worker of a parallel sweep."""

    offsets: IntArray
    segment: IntArray
    limit: int
    fts_rank: FloatArray
    fts_pos: IntArray
    supp_pos: IntArray
    distance: FloatArray
    vec_pos: IntArray
    created_at: FloatArray
    boost: FloatArray
    content_free: BoolArray
    evergreen: BoolArray
    source_names: npt.NDArray[Any]
    source_index: IntArray
    id_order: IntArray
    vector_used: BoolArray
    jaccard: FloatArray  # every query's pairwise snippet Jaccard, flat (see CandidateBatch)
    jaccard_base: IntArray
    local: IntArray  # position of each row within its query

    @classmethod
    def of(cls, batch: CandidateBatch) -> BatchArrays:
        names, index = batch.source_codes
        flat, base = batch.jaccard_blocks
        return cls(
            offsets=batch.offsets,
            segment=batch.segment,
            limit=batch.limit,
            fts_rank=batch.fts_rank,
            fts_pos=batch.fts_pos,
            supp_pos=batch.supp_pos,
            distance=batch.distance,
            vec_pos=batch.vec_pos,
            created_at=batch.created_at,
            boost=access_boost(batch.access_count),
            content_free=batch.content_free,
            evergreen=batch.evergreen,
            source_names=names,
            source_index=index,
            id_order=batch.id_order,
            vector_used=np.array(batch.vector_used, dtype=bool),
            jaccard=flat,
            jaccard_base=base,
            local=np.arange(len(batch)) - batch.offsets[batch.segment],
        )

    @property
    def n_queries(self) -> int:
        return len(self.offsets) - 1

    def __len__(self) -> int:
        return len(self.segment)

    def pair_jaccard(self, rows_a: IntArray, rows_b: IntArray) -> FloatArray:
        """Jaccard of row pairs of the same query (as ``CandidateBatch.jaccard_between``)."""
        q = self.segment[rows_a]
        width = self.offsets[q + 1] - self.offsets[q]
        values: FloatArray = self.jaccard[
            self.jaccard_base[q] + self.local[rows_a] * width + self.local[rows_b]
        ]
        return values


@dataclass(frozen=True)
class HitMatrix:
    """Hits of many configurations: ``rows[j, g, q]`` is the candidate row at rank j + 1
    of query q under configuration g (−1 past the last hit), ``raw`` its raw score.
    Ranks come first so that measures read whole ranks (``memlab.eval.measures``)."""

    rows: IntArray
    raw: FloatArray

    def of(self, g: int, q: int) -> tuple[IntArray, FloatArray]:
        """Query q's hits under configuration g: candidate rows and raw scores, best first."""
        rows = self.rows[:, g, q]
        found = rows >= 0
        return rows[found], self.raw[:, g, q][found]


@dataclass(frozen=True)
class _Stage:
    """The rows of one (strategy, limit, supplement, vectors) that can be kept."""

    rows: IntArray  # batch rows in play and not content-free, grouped by query
    offsets: IntArray  # query q's rows are rows[offsets[q]:offsets[q + 1]]
    signals: Signals


def _key(config: SearchConfig) -> tuple[str, int, bool, bool]:
    return (
        config.strategy,
        candidate_limit(config),
        config.evergreen_supplement,
        config.vectors,
    )


def _decay_key(config: SearchConfig) -> float:
    half_life = config.effective_half_life()
    return np.inf if half_life is None or half_life <= 0 else float(half_life)


class ManyScorer:
    """Scores many configurations over one batch at given times (see the module doc)."""

    def __init__(self, arrays: BatchArrays, now: float | FloatArray) -> None:
        self.arrays = arrays
        now_arr = np.asarray(now, dtype=np.float64)
        self.now_rows = (
            np.full(len(arrays), float(now_arr)) if now_arr.ndim == 0 else now_arr[arrays.segment]
        )
        self._stages: dict[tuple[str, int, bool, bool], _Stage] = {}
        self._decays: dict[float | None, FloatArray] = {}
        self._source_weights: dict[Any, list[float]] = {}
        self._orders: dict[tuple[tuple[str, int, bool, bool], float | None], _Stage] = {}
        self._jaccard = (
            arrays.jaccard,
            arrays.jaccard_base,
            np.diff(arrays.offsets).astype(np.int64),
        )

    def rank(self, configs: Sequence[SearchConfig]) -> HitMatrix:
        """Every query's hits under every configuration (k × configurations × queries,
        k = the largest ``max_results``)."""
        k = max((c.max_results for c in configs), default=0)
        shape = (max(k, 0), len(configs), self.arrays.n_queries)
        rows = np.full(shape, -1, dtype=np.int64)
        raw = np.zeros(shape)
        groups: dict[tuple[str, int, bool, bool], list[int]] = {}
        for i, c in enumerate(configs):
            groups.setdefault(_key(c), []).append(i)
        for key, members in groups.items():
            members.sort(key=lambda i: _decay_key(configs[i]))  # blocks share decays
            step = max(1, BLOCK_CELLS // max(len(self._stage(key).rows), 1))
            for start in range(0, len(members), step):
                block = members[start : start + step]
                middle = configs[block[len(block) // 2]].effective_half_life()
                stage = self._ordered(key, middle)
                out = (rows, raw, np.array(block, dtype=np.int64))
                self._select(stage, [configs[i] for i in block], out)
        return HitMatrix(rows, raw)

    # ------------------------------------------------------------------ the stages

    def scores(self, stage: _Stage, configs: Sequence[SearchConfig]) -> Scores:
        """Stage 3's factors of a block of configurations over the rows of ``stage``:
        the merge (weights as a column), decay per distinct half-life, source weights."""
        a = self.arrays
        strategy = get_strategy(configs[0].strategy)
        vw = np.array([[c.vector_weight] for c in configs], dtype=np.float64)
        tw = np.array([[c.text_weight] for c in configs], dtype=np.float64)
        half_lives = [c.effective_half_life() for c in configs]
        distinct = list(dict.fromkeys(half_lives))
        table = np.array([self._weights(c) for c in configs], dtype=np.float64).reshape(
            len(configs), len(a.source_names)
        )
        return Scores(
            merged=strategy.merge(stage.signals, vw, tw),
            decay=np.stack([self._decay(h)[stage.rows] for h in distinct]),
            decay_of=np.array([distinct.index(h) for h in half_lives], dtype=np.int64),
            weights=table,
            source=a.source_index[stage.rows],
            boost=a.boost[stage.rows],
        )

    def raw(self, stage: _Stage, configs: Sequence[SearchConfig]) -> FloatArray:
        """Configurations × rows of ``stage``: every row's raw score (as ``rank_batch``)."""
        s = self.scores(stage, configs)
        weight = s.weights[:, s.source]
        out: FloatArray = raw_score(s.merged, s.decay[s.decay_of], weight, s.boost)
        return out

    def _select(
        self,
        stage: _Stage,
        configs: Sequence[SearchConfig],
        out: tuple[IntArray, FloatArray, IntArray],
    ) -> None:
        a = self.arrays
        lam = np.array(
            [
                clamp_lambda(c.mmr.lambda_) if c.mmr.enabled else NO_MMR
                for c in configs  # rank_batch runs MMR iff enabled and λ < 1
            ],
            dtype=np.float64,
        )
        cutoffs = Cutoffs(
            np.array([c.min_score for c in configs], dtype=np.float64),
            np.array([c.max_results for c in configs], dtype=np.int64),
            lam,
        )
        select(
            self.scores(stage, configs),
            cutoffs,
            stage.offsets,
            a.id_order[stage.rows],
            stage.rows,
            a.local[stage.rows],
            self._jaccard,
            out,
        )

    def mean_pair_similarity(self, hits: Any) -> FloatArray:
        """Mean pairwise snippet Jaccard of the hits of each cell (the Redundancy measure;
        ``hits`` is a ``memlab.eval.measures.Returned``)."""
        a = self.arrays
        return mean_pair_similarity(hits.ranks, hits.by_query, a.segment, a.local, self._jaccard)

    def _stage(self, key: tuple[str, int, bool, bool]) -> _Stage:
        if key not in self._stages:
            if len(self._stages) >= CACHE_ENTRIES:
                self._stages.clear()
            strategy, limit, supplement, vectors = key
            a = self.arrays
            x = select_stage(a, limit, supplement=supplement, vectors=vectors)
            signals = get_strategy(strategy).signals(x)
            rows = np.flatnonzero((x.in_fts | x.in_vec) & ~a.content_free)
            counts = np.bincount(a.segment[rows], minlength=a.n_queries)
            offsets = np.r_[0, np.cumsum(counts)].astype(np.int64)
            self._stages[key] = _Stage(rows, offsets, signals.take(rows))
        return self._stages[key]

    def _weights(self, config: SearchConfig) -> list[float]:
        """The configuration's weight of every source of the batch (as ``source_weights``)."""
        if config.source_weights not in self._source_weights:
            if len(self._source_weights) >= 4096:
                self._source_weights.clear()
            names = self.arrays.source_names
            self._source_weights[config.source_weights] = [
                config.source_weight(str(s)) for s in names
            ]
        return self._source_weights[config.source_weights]

    def _ordered(self, key: tuple[str, int, bool, bool], half_life: float | None) -> _Stage:
        """The rows of ``key``'s stage, each query's in a likely order of raw score (the
        merge with the default weights, decayed with ``half_life``).

        The hits do not depend on the order the rows are read in (ties go by chunk id),
        but the top-k loop rejects most rows with one comparison when the best come
        first."""
        if (key, half_life) not in self._orders:
            if len(self._orders) >= CACHE_ENTRIES:
                self._orders.clear()
            stage, default = self._stage(key), SearchConfig()
            merged = get_strategy(key[0]).merge(
                stage.signals, default.vector_weight, default.text_weight
            )
            boost = self.arrays.boost[stage.rows]
            likely = raw_score(merged, self._decay(half_life)[stage.rows], 1.0, boost)
            order = np.lexsort((-likely, self.arrays.segment[stage.rows]))
            self._orders[(key, half_life)] = _Stage(
                stage.rows[order], stage.offsets, stage.signals.take(order)
            )
        return self._orders[(key, half_life)]

    def _decay(self, half_life: float | None) -> FloatArray:
        if half_life not in self._decays:
            if len(self._decays) >= CACHE_ENTRIES:
                self._decays.clear()
            a = self.arrays
            self._decays[half_life] = decay_factor(
                a.created_at, self.now_rows, half_life, a.evergreen
            )
        return self._decays[half_life]
