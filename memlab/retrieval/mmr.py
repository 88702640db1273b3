"""Maximal marginal relevance (SPEC §5). Pure.

MMR is due to Carbonell & Goldstein, "The use of MMR, diversity-based reranking
for reordering documents and producing summaries", SIGIR 1998; c0's variant
(below) uses min–max normalised relevance and Jaccard similarity of snippet
token sets.

``mmr_select`` runs the greedy selection for many queries at once (one row of a
padded matrix per query, vectorised across queries); ``mmr_order`` is the same
code for one query and returns the full greedy permutation; the caller
truncates. Relevance is min–max normalised (all equal → all 0); each round picks
the argmax of ``λ·rel − (1−λ)·max_{s∈selected} J(c, s)`` (0 for the first pick);
exact ties go to the higher raw relevance, then to the earlier position.

Greedy MMR is sequential, so its first ``k`` picks do not depend on how many
rounds follow: ``rounds=k`` gives exactly the first ``k`` items of the full
permutation (what a search truncated to ``max_results`` returns).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from memlab.arrays import BoolArray, FloatArray, IntArray
from memlab.retrieval.scoring import EPS
from memlab.text import jaccard_matrix, snippet_tokens

# (query indices, picked column per query) -> similarity of each picked item to every
# column of its query's row, shape (len(queries), N).
SimilarityRows = Callable[[IntArray, IntArray], FloatArray]


def clamp_lambda(lam: float) -> float:
    return min(max(float(lam), 0.0), 1.0)


def _normalised(relevance: FloatArray, valid: BoolArray) -> FloatArray:
    """Per row ``(r − min) / max(max − min, ε)`` over the valid cells (0 elsewhere)."""
    has = valid.any(axis=1, keepdims=True)
    lo = np.where(has, np.where(valid, relevance, np.inf).min(axis=1, keepdims=True), 0.0)
    hi = np.where(has, np.where(valid, relevance, -np.inf).max(axis=1, keepdims=True), 0.0)
    norm: FloatArray = np.where(valid, (relevance - lo) / np.maximum(hi - lo, EPS), 0.0)
    return norm


def mmr_select(
    relevance: FloatArray,
    valid: BoolArray,
    similarity_rows: SimilarityRows,
    lam: float,
    rounds: int | None = None,
) -> IntArray:
    """Greedy MMR picks for many queries at once.

    ``relevance`` (Q × N) holds each query's raw (unclamped) relevance in its current
    order, ``valid`` marks the cells that hold an item. Returns a Q × rounds array of
    picked columns in pick order (−1 once a query has no items left); ``rounds``
    defaults to N (the full permutation). λ is clamped to [0, 1].
    """
    lam = clamp_lambda(lam)
    n_q, n = relevance.shape
    rounds = n if rounds is None else max(0, min(int(rounds), n))
    rel = np.where(valid, relevance, 0.0)
    gain = lam * _normalised(rel, valid)
    remaining = valid.copy()
    max_sim = np.zeros((n_q, n))
    picks = np.full((n_q, rounds), -1, dtype=np.int64)
    everyone = np.arange(n_q)
    for r in range(rounds):
        has_left = remaining.any(axis=1)
        active = everyone if has_left.all() else np.flatnonzero(has_left)
        if not len(active):
            break
        score = np.where(remaining, gain - (1 - lam) * max_sim, -np.inf)
        tie = remaining & (score == score.max(axis=1, keepdims=True))
        tied_rel = np.where(tie, rel, -np.inf)
        tie &= tied_rel == tied_rel.max(axis=1, keepdims=True)
        col = tie.argmax(axis=1)[active]  # first True: the earlier position wins exact ties
        picks[active, r] = col
        remaining[active, col] = False
        if r + 1 < rounds:
            sims = similarity_rows(active, col)
            if len(active) == n_q:
                np.maximum(max_sim, sims, out=max_sim)
            else:
                max_sim[active] = np.maximum(max_sim[active], sims)
    return picks


def mmr_order(relevance: FloatArray, similarity: FloatArray, lam: float) -> list[int]:
    """Greedy MMR permutation of ``range(len(relevance))``.

    ``relevance`` is the raw (unclamped) score in the current order; ``similarity``
    the pairwise Jaccard matrix. λ is clamped to [0, 1]; λ == 1 or ≤ 1 item → identity.
    """
    n = len(relevance)
    lam = clamp_lambda(lam)
    if n <= 1 or lam == 1.0:
        return list(range(n))
    sims = np.asarray(similarity, dtype=np.float64)
    rel = np.asarray(relevance, dtype=np.float64)[None, :]
    picks = mmr_select(rel, np.ones((1, n), dtype=bool), lambda _q, col: sims[col], lam)
    return [int(c) for c in picks[0]]


def mmr_rerank(snippets: Sequence[str], scores: Sequence[float], lam: float) -> list[int]:
    """MMR over snippets with their relevance scores (convenience for tests and notebooks)."""
    sims = jaccard_matrix([snippet_tokens(s) for s in snippets])
    return mmr_order(np.asarray(scores, dtype=np.float64), sims, lam)
