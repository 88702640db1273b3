"""The hits the measures score: a dense table by rank, one column per cell.

A *cell* is one query, or one query under one of many configurations (a sweep).
Every measure is a few numpy operations over whole ranks of this table: no
per-query sorting, no per-query loops.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from memlab.arrays import BoolArray, FloatArray, IntArray


@dataclass(frozen=True)
class Returned:
    """The hits of many *cells* — a cell is one query, or one query under one of many
    configurations — as a dense table by rank: ``ranks[j, c]`` is the candidate row at
    rank ``j + 1`` of cell ``c`` (−1 past its last hit), ``query[c]`` the cell's query.
    Measures are operations over whole ranks (rows of the table): no per-query sorting,
    no per-query loops."""

    ranks: IntArray
    query: IntArray
    grouped: IntArray | None = None  # the cells ordered by query (computed when absent)

    @property
    def by_query(self) -> IntArray:
        """The cells, grouped by query (visiting one query's cells together)."""
        if self.grouped is not None:
            return self.grouped
        order: IntArray = np.argsort(self.query, kind="stable")
        return order

    @classmethod
    def from_final_rank(cls, final_rank: IntArray, segment: IntArray, n: int) -> Returned:
        """One configuration's hits from ``RankedBatch.final_rank`` (1-based, 0 = not)."""
        idx = np.flatnonzero(final_rank > 0)
        width = int(final_rank.max()) if len(idx) else 0
        ranks = np.full((width, n), -1, dtype=np.int64)
        ranks[final_rank[idx] - 1, segment[idx]] = idx
        return cls(ranks, np.arange(n, dtype=np.int64))

    @classmethod
    def from_hits(cls, rows: IntArray) -> Returned:
        """k × configurations × queries hits (``memlab.retrieval.many.HitMatrix.rows``);
        cell ``g · n_queries + q`` is query q under configuration g."""
        k, n_configs, n_q = rows.shape
        cells = np.arange(n_configs * n_q, dtype=np.int64)
        return cls(
            rows.reshape(k, n_configs * n_q),
            np.tile(np.arange(n_q), n_configs),
            cells.reshape(n_configs, n_q).T.ravel(),
        )

    @property
    def n_cells(self) -> int:
        return len(self.query)

    def take(self, values: np.ndarray, k: int | None = None) -> np.ndarray:
        """Per-row ``values`` at the hits of the top ``k`` ranks (0 / False past the end)."""
        padded = np.append(values, np.zeros(1, dtype=values.dtype))  # row −1 reads the 0
        taken: np.ndarray = padded[self.ranks[:k]]
        return taken

    def count(self, k: int | None = None) -> FloatArray:
        """Hits of each cell within the top ``k``."""
        counts: FloatArray = (self.ranks[:k] >= 0).sum(axis=0, dtype=np.float64)
        return counts


def first_rank(mask: BoolArray) -> FloatArray:
    """1-based rank of each cell's first True (inf where none)."""
    first = np.full(mask.shape[1], np.inf)
    for j in range(mask.shape[0] - 1, -1, -1):
        first[mask[j]] = j + 1.0
    return first
