"""The sqlite-vec side of the index: a vec0 table of chunk embeddings.

``chunks_vec(chunk_id TEXT PRIMARY KEY, embedding FLOAT[dims], +hash TEXT)``:
the auxiliary ``hash`` column records which text a vector was computed from, so
a vector that outlived its text (e.g. the chunk changed while sqlite-vec could
not be loaded) is found and dropped by ``reconcile``. The index's meta table
records the embedder id and dimension; a different provider is refused.
"""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import AbstractContextManager
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from memlab.errors import SchemaMismatchError, StoreError
from memlab.store.connection import Connection
from memlab.store.schema import get_meta, set_meta


class MemoryIndex(Protocol):
    """What this module needs of ``memlab.store.index.MemoryIndex``."""

    db: Any
    connection: Connection

    def transaction(self) -> AbstractContextManager[Any]: ...

    def change_stamp(self) -> tuple[int, int]: ...


TABLE = "chunks_vec"


def table_exists(index: MemoryIndex) -> bool:
    row = index.db.execute(
        "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", (TABLE,)
    ).fetchone()
    return row is not None


def usable(index: MemoryIndex) -> bool:
    """sqlite-vec is loaded and the vector table exists."""
    return index.connection.vec_loaded and table_exists(index)


def recorded_embedder(index: MemoryIndex) -> tuple[str, int] | None:
    name, dims = get_meta(index.db, "embedder_id"), get_meta(index.db, "embedder_dims")
    return (name, int(dims)) if name and dims else None


def ensure_table(index: MemoryIndex, embedder_id: str, dims: int) -> None:
    """Create the vector table for ``embedder_id`` / ``dims``, or check it matches."""
    recorded = recorded_embedder(index)
    if recorded and recorded != (embedder_id, dims):
        raise SchemaMismatchError(
            f"this index holds vectors of embedder '{recorded[0]}' ({recorded[1]} dims), not "
            f"'{embedder_id}' ({dims} dims); search with --embedder {recorded[0]} or rebuild the "
            "index with `memlab index ROOT --embedder NAME --rebuild`"
        )
    if not index.connection.vec_loaded:
        raise StoreError("sqlite-vec is not loaded; cannot create the vector table")
    if recorded is None or not table_exists(index):
        with index.transaction():
            index.db.execute(
                f"CREATE VIRTUAL TABLE IF NOT EXISTS {TABLE} USING vec0("
                f"chunk_id TEXT PRIMARY KEY, embedding FLOAT[{int(dims)}], +hash TEXT)"
            )
            set_meta(index.db, "embedder_id", embedder_id)
            set_meta(index.db, "embedder_dims", str(int(dims)))
    if get_meta(index.db, "vec_reconcile") == "1":
        reconcile(index)


def delete_vectors(index: MemoryIndex, chunk_ids: Sequence[str]) -> None:
    """Drop the vectors of ``chunk_ids`` (inside the caller's transaction)."""
    if not chunk_ids or not table_exists(index):
        return
    if not index.connection.vec_loaded:
        # Cannot touch vec0 here; the next open with sqlite-vec reconciles.
        set_meta(index.db, "vec_reconcile", "1")
        return
    index.db.executemany(f"DELETE FROM {TABLE} WHERE chunk_id = ?", [(c,) for c in chunk_ids])


def reconcile(index: MemoryIndex) -> int:
    """Drop vectors whose chunk is gone or whose text changed; return how many."""
    current = dict(index.db.execute("SELECT id, hash FROM chunks").fetchall())
    stale = [
        cid
        for cid, digest in index.db.execute(f"SELECT chunk_id, hash FROM {TABLE}")
        if current.get(cid) != digest
    ]
    with index.transaction():
        index.db.executemany(f"DELETE FROM {TABLE} WHERE chunk_id = ?", [(c,) for c in stale])
        set_meta(index.db, "vec_reconcile", "0")
    return len(stale)


def count_without_vectors(index: MemoryIndex) -> int:
    """How many chunks have no vector (one query; no text read)."""
    sql = f"SELECT count(*) FROM chunks WHERE id NOT IN (SELECT chunk_id FROM {TABLE})"
    return int(index.db.execute(sql).fetchone()[0])


def chunks_without_vectors(index: MemoryIndex) -> list[tuple[str, str, str]]:
    """(chunk_id, hash, text) of every chunk that has no vector yet, in rowid order."""
    have = {r[0] for r in index.db.execute(f"SELECT chunk_id FROM {TABLE}")}
    return [
        (cid, digest, text)
        for cid, digest, text in index.db.execute(
            "SELECT id, hash, text FROM chunks ORDER BY rowid"
        )
        if cid not in have
    ]


def with_vectors(index: MemoryIndex, chunk_ids: Sequence[str]) -> set[str]:
    """Which of ``chunk_ids`` have a vector."""
    found: set[str] = set()
    for start in range(0, len(chunk_ids), 500):
        part = list(chunk_ids[start : start + 500])
        marks = ",".join("?" * len(part))
        sql = f"SELECT chunk_id FROM {TABLE} WHERE chunk_id IN ({marks})"
        found.update(str(r[0]) for r in index.db.execute(sql, part))
    return found


def put_vectors(
    index: MemoryIndex, rows: Sequence[tuple[str, str]], matrix: npt.NDArray[np.float32]
) -> None:
    """Store one vector per (chunk_id, hash) row, in one transaction."""
    data = np.ascontiguousarray(matrix, dtype=np.float32)
    with index.transaction():
        index.db.executemany(
            f"INSERT OR REPLACE INTO {TABLE}(chunk_id, embedding, hash) VALUES (?, ?, ?)",
            [(cid, data[i].tobytes(), digest) for i, (cid, digest) in enumerate(rows)],
        )


def knn(index: MemoryIndex, query: npt.NDArray[np.float32], k: int) -> list[tuple[str, float]]:
    """The ``k`` nearest chunks by L2 distance, nearest first (ties by chunk id)."""
    blob = np.ascontiguousarray(query, dtype=np.float32).tobytes()
    rows = index.db.execute(
        f"SELECT chunk_id, distance FROM {TABLE} WHERE embedding MATCH ? AND k = ? "
        "ORDER BY distance",
        (blob, int(k)),
    ).fetchall()
    return sorted(((str(c), float(d)) for c, d in rows), key=lambda r: (r[1], r[0]))


def count(index: MemoryIndex) -> int:
    return int(index.db.execute(f"SELECT COUNT(*) FROM {TABLE}").fetchone()[0])
