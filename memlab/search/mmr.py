"""Maximal marginal relevance (SPEC §5). Pure.

``mmr_order`` returns the full greedy permutation; the caller truncates.
Relevance is min–max normalised (all equal → all 0); each round picks the
argmax of ``λ·rel − (1−λ)·max_{s∈selected} J(c, s)`` (0 for the first pick);
exact ties go to the higher raw relevance, then to the earlier position.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from memlab.search.candidates_batch import FloatArray, jaccard_matrix, snippet_tokens

EPS = 2.220446049250313e-16


def clamp_lambda(lam: float) -> float:
    return min(max(float(lam), 0.0), 1.0)


def mmr_order(relevance: FloatArray, similarity: FloatArray, lam: float) -> list[int]:
    """Greedy MMR permutation of ``range(len(relevance))``.

    ``relevance`` is the raw (unclamped) score in the current order; ``similarity``
    the pairwise Jaccard matrix. λ is clamped to [0, 1]; λ == 1 or ≤ 1 item → identity.
    """
    n = len(relevance)
    lam = clamp_lambda(lam)
    if n <= 1 or lam == 1.0:
        return list(range(n))
    rel = np.asarray(relevance, dtype=np.float64)
    lo, hi = float(rel.min()), float(rel.max())
    norm = (rel - lo) / max(hi - lo, EPS)
    selected: list[int] = []
    remaining = list(range(n))
    max_sim = np.zeros(n)
    while remaining:
        best = remaining[0]
        best_key = (lam * norm[best] - (1 - lam) * max_sim[best], rel[best])
        for i in remaining[1:]:
            key = (lam * norm[i] - (1 - lam) * max_sim[i], rel[i])
            if key > best_key:  # strict: earlier position wins exact ties
                best, best_key = i, key
        selected.append(best)
        remaining.remove(best)
        max_sim = np.maximum(max_sim, similarity[best])
    return selected


def mmr_rerank(snippets: Sequence[str], scores: Sequence[float], lam: float) -> list[int]:
    """MMR over snippets with their relevance scores (convenience for tests and notebooks)."""
    sims = jaccard_matrix([snippet_tokens(s) for s in snippets])
    return mmr_order(np.asarray(scores, dtype=np.float64), sims, lam)
