"""``rank_one``: ``rank_batch`` for one query's candidates, row by row in plain floats.

A live search ranks one query of about ``3 × max_results`` rows. ``rank_batch`` does
that in some ninety numpy calls, each costing more than the arithmetic it does on
so few rows, and more again just after the FTS query has evicted them from the CPU
caches (measured: a third of a search's time beside the raw FTS5 statements). This
is the same computation on Python floats, in the same order of operations, so it
gives the same hits with the same scores bit for bit:

* stage 1 and the c0 strategy's normalisation and merge (``grok``, SPEC §4.2):
  ``1 − (rank − min) / max(max − min, ε)``, ``clamp(1 − d/2, 0, 1)``, the weighted
  merge never below the FTS score — IEEE arithmetic on the same operands;
* decay and access boost: the scoring core's own array functions
  (``age_in_days``, ``decay_of_age``, ``access_boost``: ``exp`` and ``log1p`` stay
  numpy's), then ``raw_score`` — the function ``rank_batch`` calls — on each row;
* stages 3–6: clamp, content-free filter, ``min_score``, sort by raw descending with
  ties by chunk id (the rows come sorted by chunk id), truncate.

It applies only where it is this simple: the ``grok`` strategy without MMR. Anything
else (another strategy, MMR, a trace) goes through ``rank_batch``.
``tests/search/test_rank_one.py`` checks equality on many random candidate sets
(ties, decay, evergreen rows, weights, accesses, ``min_score``, vectors on and off).
"""

from __future__ import annotations

import math

import numpy as np

from memlab.config import SearchConfig
from memlab.search.candidates_batch import CandidateRow, QueryCandidates
from memlab.search.content import is_content_free
from memlab.search.mmr import clamp_lambda
from memlab.search.scoring import (
    EPS,
    access_boost,
    age_in_days,
    candidate_limit,
    decay_of_age,
    raw_score,
)
from memlab.sources import EVERGREEN_SOURCES

# (row, display score, raw score) of one returned hit
RankedRow = tuple[CandidateRow, float, float]


def applies(config: SearchConfig) -> bool:
    """Does ``rank_one`` rank under ``config`` (else ``rank_batch``)?"""
    mmr = config.mmr.enabled and clamp_lambda(config.mmr.lambda_) < 1.0
    return config.strategy == "grok" and not mmr


def rank_one(found: QueryCandidates, config: SearchConfig, now: float) -> list[RankedRow]:
    """The hits of one query's candidates under ``config`` at ``now``, best first (what
    ``rank_batch`` returns for a batch of this one query); ``config`` must satisfy
    ``applies``."""
    rows = found.rows
    limit = candidate_limit(config)
    if limit > found.limit:
        raise ValueError(f"candidates gathered at {found.limit}, this configuration needs {limit}")
    fts = _fts_scores(rows, limit, config.evergreen_supplement)
    vec = _vector_scores(rows, limit) if config.vectors and found.vector_used else None
    created = np.array([r.created_at for r in rows], dtype=np.float64)
    evergreen = np.array([r.source in EVERGREEN_SOURCES for r in rows], dtype=bool)
    age = age_in_days(created, np.full(len(rows), float(now)))
    decay = decay_of_age(age, config.effective_half_life(), evergreen).tolist()
    counts = np.array([r.access_count for r in rows], dtype=np.float64)
    boost = access_boost(counts).tolist()
    vw, tw = config.vector_weight, config.text_weight
    weights: dict[str, float] = {}
    kept: list[tuple[float, str, RankedRow]] = []
    for i, row in enumerate(rows):
        f = fts[i]
        v = vec[i] if vec is not None else None
        if f is None and v is None:
            continue  # not in play at this limit
        merged = _merge(0.0 if f is None else f, 0.0 if v is None else v, vw, tw)
        if row.source not in weights:
            weights[row.source] = config.source_weight(row.source)
        raw = raw_score(merged, decay[i], weights[row.source], boost[i])
        display = min(max(raw, 0.0), 1.0)
        if display >= config.min_score and not is_content_free(row.text, row.source):
            kept.append((-raw, row.chunk_id, (row, display, raw)))
    kept.sort(key=lambda k: (k[0], k[1]))
    return [hit for _, _, hit in kept[: config.max_results]]


def _fts_scores(rows: list[CandidateRow], limit: int, supplement: bool) -> list[float | None]:
    """c0's min–max text score of each row in the FTS list at ``limit`` (None: not in it)."""
    ranks: list[float | None] = []
    for r in rows:
        listed = r.fts_pos < limit or (supplement and r.supp_pos < limit)
        ranks.append(r.fts_rank if listed and not math.isnan(r.fts_rank) else None)
    present = [k for k in ranks if k is not None]
    if not present:
        return ranks
    lo, hi = min(present), max(present)
    span = max(hi - lo, EPS)
    return [None if k is None else 1.0 - (k - lo) / span for k in ranks]


def _vector_scores(rows: list[CandidateRow], limit: int) -> list[float | None]:
    """c0's ``clamp(1 − d/2, 0, 1)`` of each row in the KNN list at ``limit`` (None: not)."""
    return [
        min(max(1.0 - r.distance / 2.0, 0.0), 1.0)
        if r.vec_pos < limit and not math.isnan(r.distance)
        else None
        for r in rows
    ]


def _merge(fts: float, vec: float, vw: float, tw: float) -> float:
    """``scoring.merge_with_fts_floor`` on one row."""
    weighted_vec = vw * vec
    if fts > 0 and vec > 0:
        return max(tw * fts + weighted_vec, fts)
    return fts if fts > 0 else weighted_vec
