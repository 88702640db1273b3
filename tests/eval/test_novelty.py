"""Nugget measures: the vectorised α-nDCG@k, NR@k and NRAll@k equal a plain reference."""

from __future__ import annotations

import math

import numpy as np
import pytest

from memlab.eval.measures.novelty import NuggetTable, alpha_ndcg, nugget_recall, nugget_recall_all

Ranking = list[frozenset[int]]  # the nuggets of each hit, best first


def ref_alpha_dcg(ranking: Ranking, k: int, alpha: float) -> float:
    """Clarke et al. 2008: gain Σ_i J(d, i)(1 − α)^{r_i} over nuggets i, / log2(rank + 1)."""
    seen: dict[int, int] = {}
    total = 0.0
    for rank, nuggets in enumerate(ranking[:k], start=1):
        gain = sum((1 - alpha) ** seen.get(n, 0) for n in nuggets)
        total += gain / math.log2(rank + 1)
        for n in nuggets:
            seen[n] = seen.get(n, 0) + 1
    return total


def ref_ideal(pool: Ranking, k: int, alpha: float) -> float:
    """The greedy ideal: repeatedly take the document with the largest gain (first on ties)."""
    chosen: Ranking = []
    left = list(pool)
    while left and len(chosen) < k:
        seen: dict[int, int] = {}
        for doc in chosen:
            for n in doc:
                seen[n] = seen.get(n, 0) + 1
        gains = [sum((1 - alpha) ** seen.get(n, 0) for n in doc) for doc in left]
        chosen.append(left.pop(gains.index(max(gains))))
    return ref_alpha_dcg(chosen, k, alpha)


def ref_values(ranking: Ranking, pool: Ranking, k: int, alpha: float) -> tuple[float, ...]:
    ideal = ref_ideal(pool, k, alpha)
    all_nuggets = frozenset().union(*pool)
    covered = frozenset().union(*ranking[:k]) & all_nuggets
    return (
        ref_alpha_dcg(ranking, k, alpha) / ideal if ideal > 0 else 0.0,
        len(covered) / len(all_nuggets) if all_nuggets else 0.0,
        1.0 if all_nuggets and covered == all_nuggets else 0.0,
    )


def _draw(rng: np.random.Generator) -> tuple[Ranking, Ranking]:
    n_nuggets = int(rng.integers(1, 5))
    pool = [
        frozenset(int(x) for x in rng.choice(n_nuggets, int(rng.integers(1, 3)), replace=True))
        for _ in range(int(rng.integers(1, 8)))
    ]
    hits = [pool[i] for i in rng.permutation(len(pool))[: int(rng.integers(0, len(pool) + 1))]]
    hits = [h if rng.random() < 0.7 else frozenset() for h in hits]  # non-relevant hits too
    return hits, pool


@pytest.mark.parametrize("alpha", [0.5, 0.0, 0.9])
@pytest.mark.parametrize("k", [1, 3, 10])
def test_vectorised_equals_the_reference(alpha: float, k: int) -> None:
    rng = np.random.default_rng(int(alpha * 10) + k)
    queries = [_draw(rng) for _ in range(60)]
    rows, seg, rank, row_nuggets = [], [], [], []
    for q, (hits, _) in enumerate(queries):
        for r, nuggets in enumerate(hits, start=1):
            rows.append(len(rows))
            seg.append(q)
            rank.append(r)
            row_nuggets.append(nuggets)
    scored = np.ones(len(queries), dtype=bool)
    scored[5] = False  # an abstention: not scored
    table = NuggetTable.build(row_nuggets, [pool for _, pool in queries], scored)
    args = (table, np.array(rows, int), np.array(seg, int), np.array(rank, int), len(queries))
    got = np.stack(
        [
            alpha_ndcg(*args, k=k, alpha=alpha),
            nugget_recall(*args, k=k),
            nugget_recall_all(*args, k=k),
        ]
    )
    for q, (hits, pool) in enumerate(queries):
        if q == 5:
            assert np.isnan(got[:, q]).all()
            continue
        assert got[:, q] == pytest.approx(ref_values(hits, pool, k, alpha), abs=1e-12), q


def test_a_second_copy_of_an_answer_earns_less_than_a_new_nugget() -> None:
    """Three copies of nugget 1 and one chunk of nugget 2: diversity wins."""
    pool = [frozenset({1}), frozenset({1}), frozenset({1}), frozenset({2})]
    copies = ref_values(pool[:3], pool, 3, 0.5)
    diverse = ref_values([pool[0], pool[3], pool[1]], pool, 3, 0.5)
    assert diverse[0] > copies[0] and diverse[2] == 1.0 and copies[2] == 0.0
