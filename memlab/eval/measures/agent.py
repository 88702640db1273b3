"""The agent-memory measures, vectorised over every cell (``Returned``).

IR tools lack them; definitions (and one query's plain version) in
``memlab.eval.measures.one_query``: ``Redundancy`` (mean pairwise Jaccard of the
returned snippets, cells with ≥ 2 hits), ``Stale``, ``AbstainHits``,
``Abstained``, ``Tokens``, ``OverBudget``, ``Hits``.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from memlab.arrays import BoolArray, FloatArray, IntArray
from memlab.eval.measures.judgements import Judgements
from memlab.eval.measures.returned import Returned, first_rank

# (rows_a, rows_b) -> Jaccard of each pair of candidate rows of the same query
PairSimilarity = Callable[[IntArray, IntArray], FloatArray]
# hits -> mean pairwise Jaccard of each cell's hits (NaN below two)
PairMean = Callable[[Returned], FloatArray]


def redundancy(hits: Returned, similarity: PairSimilarity) -> FloatArray:
    """Mean pairwise Jaccard of each cell's returned snippets (NaN with < 2 hits)."""
    out = np.full(hits.n_cells, np.nan)
    width = hits.ranks.shape[0]
    if width < 2:
        return out
    ia, ib = np.triu_indices(width, 1)
    a, b = hits.ranks[ia], hits.ranks[ib]
    valid = b >= 0  # ranks fill from the top: b present → a present
    sims = np.zeros(a.shape)
    sims[valid] = similarity(a[valid], b[valid])
    pairs = valid.sum(axis=0)
    has = pairs > 0
    out[has] = sims.sum(axis=0)[has] / pairs[has]
    return out


def stale_above(hits: Returned, j: Judgements, relevant: BoolArray) -> FloatArray:
    """1 if a stale chunk ranks above every relevant one (or none relevant is returned)."""
    first_stale = first_rank(hits.take(j.stale))
    first_good = first_rank(relevant)
    value = np.where(np.isfinite(first_stale) & (first_stale < first_good), 1.0, 0.0)
    return np.where(j.has_stale[hits.query], value, np.nan)


def abstain_hits(hits: Returned, j: Judgements) -> FloatArray:
    """Hits returned for a query nothing answers (NaN for other queries)."""
    return np.where(j.abstention[hits.query], hits.count(), np.nan)


def abstained(hits: Returned, j: Judgements) -> FloatArray:
    """1 if a query nothing answers returned no hit (NaN for other queries)."""
    return np.where(j.abstention[hits.query], (hits.count() == 0).astype(np.float64), np.nan)


def tokens(hits: Returned, j: Judgements) -> FloatArray:
    """Tokens returned (UTF-8 bytes / 4, rounded up, per snippet)."""
    total: FloatArray = hits.take(j.tokens).sum(axis=0)
    return total
