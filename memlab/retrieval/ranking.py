"""``rank_batch``: the one scoring core, from candidate arrays to ranked hits.

Stages (SPEC §4.2–§5), every one vectorised over all queries of the batch:

1. select the rows in play at the strategy's candidate limit (prefix of the batch);
2. normalise and merge (the strategy);
3. content-free filter, decay, source weight, access boost → ``raw``;
   ``display = clamp(raw, 0, 1)``; keep iff ``display ≥ min_score``;
4. sort by ``raw`` descending; **ties by chunk id ascending** (c0 iterates a hash
   map, so its tie order is arbitrary; memlab's is deterministic and documented);
5. optional MMR with relevance = ``raw``; 6. truncate to ``max_results``.

MMR runs vectorised across all queries of the batch (``mmr_select``). A sweep
passes ``full_mmr=False``: greedy MMR is sequential, so stopping after
``max_results`` picks returns the same hits, without ordering the rest.

The live search and the sweep engine both call this function (a live search of one
query without a trace calls ``ranking_one.rank_one``: the same computation on plain
floats, tested equal to this one bit for bit).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from memlab.arrays import BoolArray, FloatArray, IntArray
from memlab.config import SearchConfig
from memlab.errors import ConfigError
from memlab.retrieval.candidates_batch import CandidateBatch
from memlab.retrieval.mmr import clamp_lambda, mmr_select
from memlab.retrieval.scoring import (
    access_boost,
    age_in_days,
    decay_of_age,
    raw_score,
    segment_positions,
    source_weight_table,
)
from memlab.retrieval.strategies import StageInput, candidate_limit, get_strategy


@dataclass
class RankedBatch:
    """Every stage's value for every row, plus the final order per query."""

    batch: CandidateBatch
    config: SearchConfig
    in_set: BoolArray
    in_fts: BoolArray
    in_vec: BoolArray
    fts: FloatArray
    vec: FloatArray
    merged: FloatArray
    decay: FloatArray
    weight: FloatArray
    boost: FloatArray
    raw: FloatArray
    display: FloatArray
    kept: BoolArray
    # 1-based position after MMR (0 = MMR not applied / not kept / not picked when
    # full_mmr=False stopped after max_results picks)
    mmr_position: IntArray
    final_rank: IntArray  # 1-based rank among returned hits, 0 = not returned
    age_days: FloatArray  # days from each row's created_at to its query's time

    def hits(self, q: int) -> IntArray:
        """Row indices of query ``q``'s returned hits, best first."""
        rows = np.arange(self.batch.offsets[q], self.batch.offsets[q + 1])
        rows = rows[self.final_rank[rows] > 0]
        return rows[np.argsort(self.final_rank[rows], kind="stable")]


def _now_rows(now: float | FloatArray, batch: CandidateBatch) -> FloatArray:
    arr = np.asarray(now, dtype=np.float64)
    if arr.ndim == 0:
        return np.full(len(batch), float(arr))
    if len(arr) != batch.n_queries:
        raise ValueError(f"now has {len(arr)} values for {batch.n_queries} queries")
    return arr[batch.segment]


def rank_batch(
    batch: CandidateBatch,
    config: SearchConfig,
    now: float | FloatArray,
    *,
    full_mmr: bool = True,
) -> RankedBatch:
    """Score and rank every query of ``batch`` under ``config`` at time ``now``.

    ``now`` is one unix time for all queries or one per query. ``full_mmr=False``
    stops MMR after ``max_results`` picks (same hits; ``mmr_position`` of the rest is 0).
    """
    strategy = get_strategy(config.strategy)
    stage = select_stage(
        batch,
        candidate_limit(config),
        supplement=config.evergreen_supplement,
        vectors=config.vectors,
    )
    signals, merged = strategy.score(stage, config)
    age_days = age_in_days(batch.created_at, _now_rows(now, batch))
    decay = decay_of_age(age_days, config.effective_half_life(), batch.evergreen)
    names, inverse = batch.source_codes
    weight = source_weight_table(names, config)[inverse]
    boost = access_boost(batch.access_count)
    raw = raw_score(merged, decay, weight, boost)
    display = np.clip(raw, 0.0, 1.0)
    in_set = stage.in_fts | stage.in_vec
    kept = in_set & ~batch.content_free & (display >= config.min_score)
    mmr_position = np.zeros(len(batch), dtype=np.int64)
    final_rank = _final_ranks(batch, config, kept, raw, mmr_position, full_mmr)
    return RankedBatch(
        batch,
        config,
        in_set,
        stage.in_fts,
        stage.in_vec,
        signals.fts,
        signals.vec,
        merged,
        decay,
        weight,
        boost,
        raw,
        display,
        kept,
        mmr_position,
        final_rank,
        age_days,
    )


def select_stage(
    batch: CandidateBatch | Any, limit: int, *, supplement: bool, vectors: bool
) -> StageInput:
    """Stage 1: the rows in play at ``limit`` and which signals each has there.

    ``batch`` is a ``CandidateBatch`` or anything with its numeric columns
    (``memlab.retrieval.many.BatchArrays``)."""
    if limit > batch.limit:
        raise ConfigError(
            f"this configuration needs {limit} candidates per query but they were gathered "
            f"at {batch.limit}; gather at the widest limit any configuration needs"
        )
    seg = batch.segment
    has_rank = ~np.isnan(batch.fts_rank)
    in_supp = (batch.supp_pos < limit) if supplement else np.zeros(len(seg), bool)
    vectors_active = np.array(batch.vector_used, dtype=bool) & vectors
    if vectors_active.any():
        in_vec = (~np.isnan(batch.distance)) & (batch.vec_pos < limit) & vectors_active[seg]
    else:  # no query's vector list takes part (FTS-only)
        in_vec = np.zeros(len(seg), dtype=bool)
    return StageInput(
        rank=batch.fts_rank,
        distance=batch.distance,
        in_fts=has_rank & ((batch.fts_pos < limit) | in_supp),
        in_vec=in_vec,
        fts_pos=batch.fts_pos,
        supp_pos=batch.supp_pos,
        vec_pos=batch.vec_pos,
        segment=seg,
        n_queries=batch.n_queries,
        limit=limit,
        vectors_active=vectors_active,
    )


def _final_ranks(
    batch: CandidateBatch,
    config: SearchConfig,
    kept: BoolArray,
    raw: FloatArray,
    mmr_position: IntArray,
    full_mmr: bool,
) -> IntArray:
    """Stages 4–6: sort by raw (ties by chunk id), optional MMR, truncate; 1-based ranks."""
    seg = batch.segment
    idx = np.flatnonzero(kept)
    keys = (batch.id_order[idx], -raw[idx])
    order = idx[np.lexsort(keys if batch.n_queries == 1 else (*keys, seg[idx]))]
    lam = clamp_lambda(config.mmr.lambda_)
    if config.mmr.enabled and lam < 1.0 and len(order):
        rounds = None if full_mmr else config.max_results
        order = _apply_mmr(batch, order, raw, lam, mmr_position, rounds)
    final_rank = np.zeros(len(batch), dtype=np.int64)
    if len(order):
        pos = segment_positions(np.arange(len(order)), seg[order])
        chosen = pos < config.max_results
        final_rank[order[chosen]] = pos[chosen] + 1
    return final_rank


def _apply_mmr(
    batch: CandidateBatch,
    order: IntArray,
    raw: FloatArray,
    lam: float,
    position: IntArray,
    rounds: int | None,
) -> IntArray:
    """Rerank each query's kept rows (given in sorted order) with MMR, all queries at once.

    Queries with one kept row are left alone (SPEC §5). With ``rounds``, each query's
    first ``rounds`` picks come first and its other rows keep their sorted order.
    """
    seg = batch.segment[order]
    pos = segment_positions(np.arange(len(order)), seg)
    counts = np.bincount(seg, minlength=batch.n_queries)
    grid = np.full((batch.n_queries, int(counts.max())), -1, dtype=np.int64)
    grid[seg, pos] = order
    valid = (grid >= 0) & (counts >= 2)[:, None]
    relevance = np.where(grid >= 0, raw[np.maximum(grid, 0)], 0.0)

    def similarity_rows(queries: IntArray, cols: IntArray) -> FloatArray:
        rows = grid[queries]
        picked = rows[np.arange(len(queries)), cols][:, None]
        return batch.jaccard_between(picked, np.where(rows >= 0, rows, picked))

    picks = mmr_select(relevance, valid, similarity_rows, lam, rounds)
    key = np.zeros(len(batch), dtype=np.int64)
    key[order] = pos + picks.shape[1]  # rows not picked follow the picks, in sorted order
    q_idx, r_idx = np.nonzero(picks >= 0)
    picked_rows = grid[q_idx, picks[q_idx, r_idx]]
    key[picked_rows] = r_idx
    position[picked_rows] = r_idx + 1
    reordered: IntArray = order[np.lexsort((key[order], seg))]
    return reordered
