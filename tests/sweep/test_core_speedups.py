"""The vectorised MMR and Jaccard used by the scoring core equal their SPEC §5 definitions."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from memlab.retrieval.mmr import mmr_order, mmr_select
from memlab.text import jaccard, jaccard_matrix

EPS = 2.220446049250313e-16


def reference_mmr(relevance: list[float], sim: np.ndarray, lam: float) -> list[int]:
    """SPEC §5 literally: one query, a Python loop, tuple keys, strict comparison."""
    lam = min(max(lam, 0.0), 1.0)
    n = len(relevance)
    if n <= 1 or lam == 1.0:
        return list(range(n))
    lo, hi = min(relevance), max(relevance)
    norm = [(r - lo) / max(hi - lo, EPS) for r in relevance]
    selected: list[int] = []
    remaining = list(range(n))
    while remaining:

        def key(i: int) -> tuple[float, float]:
            penalty = max((float(sim[i, s]) for s in selected), default=0.0)
            return (lam * norm[i] - (1 - lam) * penalty, relevance[i])

        best = remaining[0]
        for i in remaining[1:]:
            if key(i) > key(best):
                best = i
        selected.append(best)
        remaining.remove(best)
    return selected


def random_similarity(rng: np.random.Generator, n: int, levels: int) -> np.ndarray:
    sim = rng.integers(0, levels, size=(n, n)) / max(levels - 1, 1)  # coarse: many ties
    sim = np.triu(sim, 1)
    sim = sim + sim.T
    np.fill_diagonal(sim, 1.0)
    return sim


@settings(max_examples=300, deadline=None)
@given(
    st.integers(0, 14),
    st.sampled_from([0.0, 0.25, 0.5, 0.7, 0.9, 1.0, 0.33]),
    st.integers(1, 4),
    st.integers(0, 2**31),
)
def test_mmr_order_equals_the_reference(n: int, lam: float, levels: int, seed: int) -> None:
    rng = np.random.default_rng(seed)
    relevance = [float(x) for x in rng.integers(0, levels + 1, size=n) / 2.0]  # ties
    sim = random_similarity(rng, n, levels + 1)
    assert mmr_order(np.array(relevance), sim, lam) == reference_mmr(relevance, sim, lam)


def test_mmr_select_does_many_queries_at_once_and_stops_early() -> None:
    rng = np.random.default_rng(7)
    for _ in range(50):
        q, n = int(rng.integers(1, 8)), int(rng.integers(1, 12))
        counts = rng.integers(0, n + 1, size=q)
        rel = rng.integers(0, 4, size=(q, n)) / 3.0
        valid = np.arange(n)[None, :] < counts[:, None]
        sims = [random_similarity(rng, n, 3) for _ in range(q)]
        lam = float(rng.choice([0.0, 0.5, 0.7, 0.95]))
        rounds = int(rng.integers(0, n + 1))

        def rows(
            queries: np.ndarray, cols: np.ndarray, sims: list[np.ndarray] = sims
        ) -> np.ndarray:
            return np.stack([sims[a][c] for a, c in zip(queries, cols, strict=True)])

        picks = mmr_select(rel, valid, rows, lam, rounds)
        for i in range(q):
            m = int(counts[i])
            expected = reference_mmr(list(rel[i, :m]), sims[i][:m, :m], lam) if m > 1 else [0][:m]
            got = [int(c) for c in picks[i] if c >= 0]
            assert got == expected[:rounds]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.frozensets(st.sampled_from("abcdefg")), min_size=0, max_size=9))
def test_jaccard_matrix_equals_pairwise_jaccard(sets: list[frozenset[str]]) -> None:
    got = jaccard_matrix(sets)
    for i, a in enumerate(sets):
        for j, b in enumerate(sets):
            assert got[i, j] == jaccard(a, b)
