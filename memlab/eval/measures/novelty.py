"""Novelty-aware and multi-note measures over nuggets, vectorised over all queries.

A query judged with nuggets (the second qrels column, format 2) has a *pool*:
its relevant chunks at its time, each covering one or more nuggets
(information facets; copies of one answer share a nugget). For the hits of
every query — candidate row, query index, 1-based rank — and each row's
nuggets (``NuggetTable``, CSR):

* ``alpha-nDCG@k`` (Clarke et al., "Novelty and diversity in information
  retrieval evaluation", SIGIR 2008): the gain at rank r is
  ``Σ_i J(d_r, i)·(1 − α)^{c_i}`` where ``c_i`` counts the earlier hits covering
  nugget i; DCG discounts by ``log2(r + 1)``; the ideal ranking is the standard
  greedy approximation over the pool (each step takes the chunk with the largest
  gain, ties by pool order). α = 0.5 by default. A copy of an answer already
  shown adds only ``(1 − α)`` of its gain, so diversity can win.
* ``NR@k`` (nugget recall): distinct nuggets covered in the top k / nuggets in
  the pool; ``NRAll@k``: 1 if every nugget is covered within k (a multi-note
  question answered completely).

Queries without nuggets (or abstentions) are not scored (NaN); a scored query
with no hits scores 0.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from memlab.arrays import BoolArray, FloatArray, IntArray

DEFAULT_ALPHA = 0.5
NUGGET_FAMILIES = ("alpha-nDCG", "NR", "NRAll")


@dataclass
class NuggetTable:
    """Each candidate row's nuggets (CSR: ``ids[ptr[r]:ptr[r + 1]]``) and each query's pool."""

    ptr: IntArray
    ids: IntArray
    pools: list[list[frozenset[int]]]  # per query: the nugget sets of its relevant chunks
    scored: BoolArray  # per query: judged with nuggets (and not an abstention)
    total: FloatArray = field(init=False)  # per query: distinct nuggets in the pool
    _ideal: dict[tuple[int, float], FloatArray] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        self.total = np.array([len(frozenset().union(*p)) for p in self.pools], dtype=np.float64)

    @classmethod
    def build(
        cls,
        row_nuggets: Sequence[frozenset[int]],
        pools: list[list[frozenset[int]]],
        scored: BoolArray,
    ) -> NuggetTable:
        counts = np.array([len(n) for n in row_nuggets], dtype=np.int64)
        flat = [i for n in row_nuggets for i in sorted(n)]
        return cls(
            np.r_[0, np.cumsum(counts)].astype(np.int64),
            np.array(flat, dtype=np.int64),
            pools,
            np.asarray(scored, dtype=bool) & np.array([bool(p) for p in pools], dtype=bool),
        )

    def ideal(self, k: int, alpha: float) -> FloatArray:
        """Ideal DCG@k of every query (greedy over its pool)."""
        if (k, alpha) not in self._ideal:
            self._ideal[(k, alpha)] = np.array([greedy_ideal(p, k, alpha) for p in self.pools])
        return self._ideal[(k, alpha)]


def greedy_ideal(pool: Sequence[frozenset[int]], k: int, alpha: float) -> float:
    """The greedy approximation of the ideal α-DCG@k over ``pool``."""
    seen: dict[int, int] = {}
    left = list(pool)
    total = 0.0
    for rank in range(1, min(k, len(left)) + 1):
        gains = [sum((1 - alpha) ** seen.get(n, 0) for n in doc) for doc in left]
        best = int(np.argmax(gains))
        total += gains[best] / np.log2(rank + 1.0)
        for n in left.pop(best):
            seen[n] = seen.get(n, 0) + 1
    return total


def _pairs(
    table: NuggetTable, rows: IntArray, seg: IntArray, rank: IntArray, k: int
) -> tuple[IntArray, IntArray, IntArray, IntArray]:
    """(hit index, query, nugget, rank) for every nugget of every hit within the top k."""
    within = np.flatnonzero(rank <= k)
    r = rows[within]
    counts = table.ptr[r + 1] - table.ptr[r]
    hit = np.repeat(within, counts)
    offset = np.arange(len(hit)) - np.repeat(np.cumsum(counts) - counts, counts)
    nugget = table.ids[np.repeat(table.ptr[r], counts) + offset]
    return hit, seg[hit], nugget, rank[hit]


def _per_cell(values: np.ndarray, cells: IntArray | None) -> np.ndarray:
    """A per-query array read per cell (a query under one of many configurations)."""
    return values if cells is None else values[cells]


def alpha_ndcg(
    table: NuggetTable,
    rows: IntArray,
    seg: IntArray,
    rank: IntArray,
    n_queries: int,
    k: int,
    alpha: float = DEFAULT_ALPHA,
    *,
    cells: IntArray | None = None,
) -> FloatArray:
    """α-nDCG@k per query (hits sorted by query, then rank).

    With ``cells`` (the query of each of ``n_queries`` cells), ``seg`` indexes cells:
    the hits of many configurations at once."""
    hit, q, nugget, r = _pairs(table, rows, seg, rank, k)
    order = np.lexsort((r, nugget, q))
    hit, q, nugget, r = hit[order], q[order], nugget[order], r[order]
    new_group = np.r_[True, (q[1:] != q[:-1]) | (nugget[1:] != nugget[:-1])]
    starts = np.flatnonzero(new_group)
    earlier = np.arange(len(q)) - np.repeat(starts, np.diff(np.r_[starts, len(q)]))
    gain = (1.0 - alpha) ** earlier / np.log2(r + 1.0)
    dcg = np.bincount(q, gain, minlength=n_queries)
    ideal = _per_cell(table.ideal(k, alpha), cells)
    value = np.where(ideal > 0, dcg / np.where(ideal > 0, ideal, 1.0), 0.0)
    return np.where(_per_cell(table.scored, cells), value, np.nan)


def _covered(
    table: NuggetTable, rows: IntArray, seg: IntArray, rank: IntArray, n_queries: int, k: int
) -> FloatArray:
    _, q, nugget, _ = _pairs(table, rows, seg, rank, k)
    if not len(q):
        return np.zeros(n_queries)
    distinct = np.unique(np.stack([q, nugget]), axis=1)
    return np.bincount(distinct[0], minlength=n_queries).astype(np.float64)


def nugget_recall(
    table: NuggetTable,
    rows: IntArray,
    seg: IntArray,
    rank: IntArray,
    n_queries: int,
    k: int,
    *,
    cells: IntArray | None = None,
) -> FloatArray:
    """Share of each query's nuggets covered within the top k."""
    covered = _covered(table, rows, seg, rank, n_queries, k)
    total = _per_cell(table.total, cells)
    value = np.where(total > 0, covered / np.maximum(total, 1.0), 0.0)
    return np.where(_per_cell(table.scored, cells), value, np.nan)


def nugget_recall_all(
    table: NuggetTable,
    rows: IntArray,
    seg: IntArray,
    rank: IntArray,
    n_queries: int,
    k: int,
    *,
    cells: IntArray | None = None,
) -> FloatArray:
    """1 if every nugget of the query is covered within the top k."""
    covered = _covered(table, rows, seg, rank, n_queries, k)
    total = _per_cell(table.total, cells)
    value = ((covered >= total) & (total > 0)).astype(np.float64)
    return np.where(_per_cell(table.scored, cells), value, np.nan)


def nugget_measure(
    family: str,
    table: NuggetTable,
    rows: IntArray,
    seg: IntArray,
    rank: IntArray,
    n_queries: int,
    k: int,
    *,
    cells: IntArray | None = None,
) -> FloatArray:
    if family == "alpha-nDCG":
        return alpha_ndcg(table, rows, seg, rank, n_queries, k, cells=cells)
    if family == "NR":
        return nugget_recall(table, rows, seg, rank, n_queries, k, cells=cells)
    return nugget_recall_all(table, rows, seg, rank, n_queries, k, cells=cells)
