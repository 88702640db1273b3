"""Exact KNN by one matrix product over the stored vectors (``search.knn = "exact"``).

vec0 reads every vector from SQLite pages on each query; this keeps the index's
float32 vectors in memory (read once, reread when the vector table changes) and
answers one query with one BLAS product:

1. approximate squared L2 distances ``|c|² − 2·c·q + |q|²`` to every vector;
2. the rows within ``margin`` of the k-th approximate distance (at least
   ``k + EXTRA``): a superset of vec0's k nearest, because ``margin`` bounds the
   float32 error of both the product and sqlite-vec's own sum
   (``MARGIN × (max |c|² + |q|²)``, above ``2·384·2⁻²⁴`` relative);
3. their distances from sqlite-vec itself (``vec_distance_l2``, the function
   vec0's KNN reports), so ids *and* distances equal vec0's bit for bit; sorted by
   distance, then chunk id, as ``vectors.knn`` returns them.

When two rows tie exactly at the k-th distance (copies of one text), which one
vec0 keeps depends on where its storage put them; that query is asked of vec0
itself, so the result is vec0's in every case.

The cache is kept per index and reread when the index's change stamp moves
(``MemoryIndex.change_stamp``: a write by this connection, other than recording
access, or a commit by any other; it costs no write and no scan — counting the
table instead would cost vec0 a full scan per query).
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from memlab.store import vectors

MARGIN = 1e-4
EXTRA = 4
COMPOUND_TERMS = 400  # SQLite allows 500 terms in one compound SELECT


@dataclass(frozen=True)
class _Matrix:
    key: tuple[int, int]
    ids: list[str]
    matrix: npt.NDArray[np.float32]
    norms: npt.NDArray[np.float64]  # |c|² per row
    largest: float  # the largest |c|²


_CACHE: weakref.WeakKeyDictionary[Any, _Matrix] = weakref.WeakKeyDictionary()


def _load(index: vectors.MemoryIndex) -> _Matrix:
    key = index.change_stamp()
    cached = _CACHE.get(index)
    if cached is not None and cached.key == key:
        return cached
    _CACHE.pop(index, None)  # stale: freed before the new matrix is read
    ids: list[str] = []
    blobs: list[bytes] = []
    for cid, blob in index.db.execute(f"SELECT chunk_id, embedding FROM {vectors.TABLE}"):
        ids.append(str(cid))
        blobs.append(bytes(blob))
    dims = len(blobs[0]) // 4 if blobs else 0
    matrix = np.frombuffer(b"".join(blobs), dtype=np.float32).reshape(len(blobs), dims)
    norms = np.einsum("ij,ij->i", matrix, matrix, dtype=np.float64)
    loaded = _Matrix(key, ids, matrix, norms, float(norms.max()) if len(ids) else 0.0)
    _CACHE[index] = loaded
    return loaded


def knn(
    index: vectors.MemoryIndex, query: npt.NDArray[np.float32], k: int
) -> list[tuple[str, float]]:
    """The ``k`` nearest chunks by L2 distance, nearest first, ties by chunk id: what
    ``vectors.knn`` (vec0) returns, ids and distances alike."""
    m = _load(index)
    if not m.ids or k <= 0:
        return []
    q = np.ascontiguousarray(query, dtype=np.float32)
    if q.shape != m.matrix.shape[1:]:  # vec0 reports the mismatch as it always has
        return vectors.knn(index, q, k)
    qq = float(np.dot(q.astype(np.float64), q.astype(np.float64)))
    approx = m.norms - 2.0 * (m.matrix @ q).astype(np.float64) + qq
    near = candidates(approx, k, MARGIN * (m.largest + qq))
    found = _exact(index, q, m, near)
    if len(found) > k and found[k - 1][1] == found[k][1]:  # vec0 picks among the tied
        return vectors.knn(index, q, k)
    return found[:k]


def candidates(approx: npt.NDArray[np.float64], k: int, margin: float) -> npt.NDArray[np.intp]:
    """Positions whose approximate distance is within ``margin`` of the k-th smallest
    (at least ``k + EXTRA`` of them, or all). Pure."""
    take = min(len(approx), k + EXTRA)
    if take >= len(approx):
        return np.arange(len(approx))
    near = np.argpartition(approx, take - 1)[:take]
    bound = np.sort(approx[near])[min(k, take) - 1] + margin
    return np.union1d(near, np.flatnonzero(approx <= bound))


def _exact(
    index: vectors.MemoryIndex, q: npt.NDArray[np.float32], m: _Matrix, near: npt.NDArray[np.intp]
) -> list[tuple[str, float]]:
    qblob = q.tobytes()
    out: list[tuple[str, float]] = []
    for start in range(0, len(near), COMPOUND_TERMS):
        part = [int(i) for i in near[start : start + COMPOUND_TERMS]]
        sql = " UNION ALL ".join(
            f"SELECT {n}, vec_distance_l2(?1, ?{n + 2})" for n in range(len(part))
        )
        rows = index.db.execute(sql, [qblob, *(m.matrix[i].tobytes() for i in part)]).fetchall()
        out += [(m.ids[part[n]], float(d)) for n, d in rows]
    return sorted(out, key=lambda r: (r[1], r[0]))
