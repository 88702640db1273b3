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
* decay and access boost: ``age_in_days`` and ``decay_of_age``'s exponent in the same
  IEEE operations on each row, then ONE ``numpy.exp`` over the rows that decay, and
  ``access_boost`` per distinct access count, cached (``exp`` and ``log1p`` stay
  numpy's), then ``raw_score`` — the function ``rank_batch`` calls — on each row;
* stages 3–6: clamp, content-free filter (the index's ``content_free`` column, written
  with the row: ``is_content_free`` of its text and source), ``min_score``, sort by raw
  descending with ties by chunk id, truncate.

It reads the rows as ``candidates.gather_rows`` returns them (one list per row, no
object built per row) and scores only the rows that can be returned: a content-free
row takes part in the FTS min–max but is not scored.

It applies only where it is this simple: the ``grok`` strategy without MMR. Anything
else (another strategy, MMR, a trace) goes through ``rank_batch``.
``tests/search/test_rank_one.py`` checks equality on many random candidate sets
(ties, decay, evergreen rows, weights, accesses, ``min_score``, vectors on and off).
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Any

import numpy as np

from memlab.config import SearchConfig
from memlab.retrieval.candidates import (
    ACCESS,
    CHUNK_ID,
    CONTENT_FREE,
    CREATED,
    DISTANCE,
    FTS_POS,
    FTS_RANK,
    SOURCE,
    SUPP_POS,
    VEC_POS,
    Gathered,
)
from memlab.retrieval.mmr import clamp_lambda
from memlab.retrieval.scoring import EPS, access_boost, raw_score
from memlab.retrieval.strategies import candidate_limit
from memlab.sources import EVERGREEN_SOURCES
from memlab.timefmt import DAY

# (row, display score, raw score) of one returned hit (the row as ``gather_rows`` gives it)
RankedRow = tuple[list[Any], float, float]


def applies(config: SearchConfig) -> bool:
    """Does ``rank_one`` rank under ``config`` (else ``rank_batch``)?"""
    mmr = config.mmr.enabled and clamp_lambda(config.mmr.lambda_) < 1.0
    return config.strategy == "grok" and not mmr


def rank_one(found: Gathered, config: SearchConfig, now: float) -> list[RankedRow]:
    """The hits of one query's candidates under ``config`` at ``now``, best first (what
    ``rank_batch`` returns for a batch of this one query); ``config`` must satisfy
    ``applies``."""
    rows = found.rows
    limit = candidate_limit(config)
    if limit > found.limit:
        raise ValueError(f"candidates gathered at {found.limit}, this configuration needs {limit}")
    supplement = config.evergreen_supplement
    nan = math.isnan
    ranks = [
        r[FTS_RANK]
        if (r[FTS_POS] < limit or (supplement and r[SUPP_POS] < limit)) and not nan(r[FTS_RANK])
        else None
        for r in rows
    ]
    present = [k for k in ranks if k is not None]
    lo = min(present) if present else 0.0
    span = max(max(present) - lo, EPS) if present else 1.0
    vectors = config.vectors and found.vector_used
    vw, tw = config.vector_weight, config.text_weight
    half_life = config.effective_half_life()
    # decay_of_age's exponent factor, the same Python float it computes (used only if decaying)
    decaying, rate = False, 0.0
    if half_life is not None and half_life > 0:
        decaying, rate = True, -math.log(2.0) / half_life
    now = float(now)
    per_source: dict[str, tuple[float, bool]] = {}  # source -> (weight, decays?)
    # (row, merged, source weight, access boost, decays?) of every row that can be returned
    scored: list[tuple[list[Any], float, float, float, bool]] = []
    exponents: list[float] = []  # of the rows that decay, in order
    for row, k in zip(rows, ranks, strict=True):
        if row[CONTENT_FREE]:
            continue
        f = 0.0 if k is None else 1.0 - (k - lo) / span
        if vectors and row[VEC_POS] < limit and not nan(row[DISTANCE]):
            v = min(max(1.0 - row[DISTANCE] / 2.0, 0.0), 1.0)
            merged = _merge(f, v, vw, tw)
        elif k is None:
            continue  # not in play at this limit
        else:  # _merge(f, 0.0, vw, tw)
            merged = f if f > 0 else vw * 0.0
        source = row[SOURCE]
        found_source = per_source.get(source)
        if found_source is None:
            decays = decaying and source not in EVERGREEN_SOURCES
            found_source = per_source[source] = (config.source_weight(source), decays)
        weight, decays = found_source
        if decays:  # age_in_days on one row
            exponents.append(rate * max((now - max(float(row[CREATED]), 0.0)) / DAY, 0.0))
        scored.append((row, merged, weight, _access_boost(int(row[ACCESS])), decays))
    decay = iter(np.exp(np.array(exponents, dtype=np.float64)).tolist() if exponents else ())
    min_score = config.min_score
    kept: list[tuple[float, str, RankedRow]] = []
    for row, merged, weight, boost, decays in scored:
        raw = raw_score(merged, next(decay) if decays else 1.0, weight, boost)
        display = min(max(raw, 0.0), 1.0)
        if display >= min_score:
            kept.append((-raw, row[CHUNK_ID], (row, display, raw)))
    kept.sort(key=lambda k: (k[0], k[1]))
    return [hit for _, _, hit in kept[: config.max_results]]


@lru_cache(maxsize=4096)
def _access_boost(count: int) -> float:
    """``scoring.access_boost`` of one access count (numpy's ``log1p``, as ``rank_batch``)."""
    return float(access_boost(np.array([count], dtype=np.float64))[0])


def _merge(fts: float, vec: float, vw: float, tw: float) -> float:
    """``scoring.merge_with_fts_floor`` on one row."""
    weighted_vec = vw * vec
    if fts > 0 and vec > 0:
        return max(tw * fts + weighted_vec, fts)
    return fts if fts > 0 else weighted_vec
