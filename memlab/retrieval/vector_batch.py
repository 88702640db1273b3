"""Vector candidates for many queries at once: one matrix product instead of a vec0 scan
per query (evaluation).

``VectorMatrix`` keeps the index's chunk vectors in memory (updated as a replay
changes the memory) and answers the KNN queries of every query asked at one
moment together:

1. approximate squared L2 distances ``|c|² − 2·c·q + |q|²`` for the whole query
   block by one BLAS product, over the chunk matrix in blocks that fit memory;
2. per query, the rows whose approximate distance is within a float-error margin
   of the k-th (at least ``k + 4``) — a superset of vec0's k nearest;
3. their exact distances from sqlite-vec itself (``vec_distance_l2`` on the same
   two vectors: the distance vec0's KNN reports; ``COMPOUND_TERMS`` per statement,
   within SQLite's limit of 500 terms of a compound SELECT, so any k works), then
   the k nearest by that distance, in the order ``vectors.knn`` returns
   (distance, then chunk id).

When two rows tie exactly at the k-th distance (copies of one text), which of
them vec0 keeps depends on its storage layout; that query asks vec0 itself. So
the candidates (ids and distances) equal vec0's KNN, bit for bit, and the sweep's
exactness against ``search()`` holds (tests compare the two). The live search
keeps vec0 (``memlab.store.vectors.knn``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np

from memlab.arrays import FloatArray
from memlab.store.index import MemoryIndex
from memlab.store.vectors import TABLE, knn

BLOCK_ELEMENTS = 8_000_000  # queries × chunks per distance block (≈ 32 MB of float32)
MARGIN = 1e-4  # on squared distances of unit vectors: far above float32 error
EXTRA = 4  # candidates beyond k checked exactly, at least
SCAN_FROM = 1000  # vectors to read from which one scan of the table is cheaper
COMPOUND_TERMS = 400  # exact distances per statement: SQLite allows 500 compound terms


class VectorMatrix:
    """The chunk vectors of an index, in memory (see the module docstring)."""

    def __init__(self, index: MemoryIndex) -> None:
        self.index = index
        self._rows: dict[str, np.ndarray] = {}  # chunk id -> vector
        self._stacked: tuple[list[str], np.ndarray, FloatArray] | None = None
        self.asked_vec0 = 0  # queries answered by vec0 (an exact tie at the k-th distance)

    def __len__(self) -> int:
        return len(self._rows)

    def update(self, present: Iterable[str], gone: Iterable[str] = ()) -> None:
        """Read the vectors of ``present`` chunk ids (new or changed) and drop ``gone``."""
        for cid in gone:
            if self._rows.pop(cid, None) is not None:
                self._stacked = None
        wanted = list(dict.fromkeys(present))
        for cid in wanted:
            self._rows.pop(cid, None)
        if wanted:
            self._stacked = None
        if len(wanted) > SCAN_FROM:  # many: one pass over the table beats key lookups
            keep = set(wanted)
            for cid, blob in self.index.db.execute(f"SELECT chunk_id, embedding FROM {TABLE}"):
                if cid in keep:
                    self._rows[str(cid)] = np.frombuffer(blob, dtype=np.float32)
            return
        for start in range(0, len(wanted), 500):
            part = wanted[start : start + 500]
            sql = (
                f"SELECT chunk_id, embedding FROM {TABLE} "
                f"WHERE chunk_id IN ({','.join('?' * len(part))})"
            )
            for cid, blob in self.index.db.execute(sql, part):
                self._rows[str(cid)] = np.frombuffer(blob, dtype=np.float32)

    def knn_many(self, queries: np.ndarray, k: int) -> list[list[tuple[str, float]]]:
        """The ``k`` nearest chunks of every query vector (rows of ``queries``), nearest
        first, ties by chunk id — what ``vectors.knn`` returns for each."""
        if not self._rows or k <= 0:
            return [[] for _ in range(len(queries))]
        ids, matrix, norms = self._stack()
        q = np.ascontiguousarray(queries, dtype=np.float32)
        step = max(1, BLOCK_ELEMENTS // len(ids))
        out: list[list[tuple[str, float]]] = []
        for start in range(0, len(q), step):
            block = q[start : start + step]
            approx = norms[None, :] - 2.0 * (block @ matrix.T).astype(np.float64)
            approx += (block.astype(np.float64) ** 2).sum(axis=1)[:, None]
            for row, vec in zip(approx, block, strict=True):
                out.append(self._exact(vec, row, ids, k))
        return out

    def _exact(
        self, vec: np.ndarray, approx: FloatArray, ids: Sequence[str], k: int
    ) -> list[tuple[str, float]]:
        take = min(len(ids), k + EXTRA)
        near = np.argpartition(approx, take - 1)[:take] if take < len(ids) else np.arange(len(ids))
        bound = np.sort(approx[near])[min(k, len(near)) - 1] + MARGIN
        near = np.union1d(near, np.flatnonzero(approx <= bound))
        blob = np.ascontiguousarray(vec, dtype=np.float32).tobytes()
        exact: dict[int, float] = {}  # position in ``near`` -> distance
        for start in range(0, len(near), COMPOUND_TERMS):
            part = near[start : start + COMPOUND_TERMS]
            pairs = " UNION ALL ".join(
                f"SELECT {start + n}, vec_distance_l2(?, ?)" for n in range(len(part))
            )
            params: list[bytes] = []
            for i in part:
                params += [self._rows[ids[i]].tobytes(), blob]
            exact.update(self.index.db.execute(pairs, params).fetchall())
        found = sorted(
            ((ids[i], float(exact[n])) for n, i in enumerate(near)), key=lambda r: (r[1], r[0])
        )
        if len(found) > k and found[k - 1][1] == found[k][1]:  # vec0 picks among the tied
            self.asked_vec0 += 1
            return knn(self.index, vec, k)
        return found[:k]

    def _stack(self) -> tuple[list[str], np.ndarray, FloatArray]:
        if self._stacked is None:
            ids = list(self._rows)
            matrix = np.stack([self._rows[c] for c in ids]).astype(np.float32)
            norms = (matrix.astype(np.float64) ** 2).sum(axis=1)
            self._stacked = (ids, matrix, norms)
        return self._stacked
