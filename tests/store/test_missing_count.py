"""The count of chunks without a vector, taken at every sync, is kept until the index
changes: counting scans the vector table (most of a hybrid search's time at 20k chunks
before it was kept), and a search that only records access changes nothing it counts.
Whatever writes chunks or vectors — this connection or another process — is seen."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest

from memlab.embeddings.hashing import HashEmbedder
from memlab.retrieval.pipeline import search
from memlab.store import vectors
from memlab.store.connection import open_connection
from memlab.store.store import MemoryStore
from tests.conftest import T0, WS, backdate, write


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The real count, with a tally of how often it ran."""
    calls: list[int] = []
    real = vectors.count_without_vectors

    def tallied(index):  # type: ignore[no-untyped-def]
        calls.append(1)
        return real(index)

    monkeypatch.setattr(vectors, "count_without_vectors", tallied)
    return calls


def _store(tmp_path: Path, open_store: Callable[..., MemoryStore]) -> MemoryStore:
    root = tmp_path / "memory"
    for i in range(6):
        write(root, f"{WS}/sessions/2026-01-01-n{i}-{i:08d}.md", f"# N{i}\n\nnote {i} text\n")
    backdate(root)
    store = open_store(root, embedder=HashEmbedder(16), index_path=tmp_path / "index.sqlite")
    store.build(now=T0)
    return store


def _first_chunk(store: MemoryStore) -> str:
    [(chunk_id,)] = store.index.db.execute("SELECT id FROM chunks ORDER BY rowid LIMIT 1")
    return str(chunk_id)


def test_searches_that_only_record_access_count_once(
    tmp_path: Path, open_store: Callable[..., MemoryStore], counted: list[int]
) -> None:
    store = _store(tmp_path, open_store)
    counted.clear()
    for _ in range(5):
        result = search(store, "note text", None, T0)  # records access: a write
        assert result.hits and not result.degraded
    assert len(counted) == 1  # five syncs, one count


def test_a_vector_deleted_on_this_connection_is_seen(
    tmp_path: Path, open_store: Callable[..., MemoryStore], counted: list[int]
) -> None:
    store = _store(tmp_path, open_store)
    assert not search(store, "note text", None, T0).degraded
    with store.index.transaction():
        store.index.db.execute("DELETE FROM chunks_vec WHERE chunk_id = ?", (_first_chunk(store),))
    result = search(store, "note text", None, T0, record_access=False)
    assert result.degraded and any("1 chunk(s) have no vector" in r for r in result.reasons)


def test_a_vector_deleted_by_another_connection_is_seen(
    tmp_path: Path, open_store: Callable[..., MemoryStore], counted: list[int]
) -> None:
    store = _store(tmp_path, open_store)
    assert not search(store, "note text", None, T0).degraded
    other = open_connection(tmp_path / "index.sqlite")  # another process's connection
    try:
        with other.conn:
            other.conn.execute("DELETE FROM chunks_vec WHERE chunk_id = ?", (_first_chunk(store),))
    except sqlite3.Error as exc:  # pragma: no cover - a driver without sqlite-vec
        pytest.skip(f"sqlite-vec not loadable on a second connection: {exc}")
    finally:
        other.close()
    result = search(store, "note text", None, T0, record_access=False)
    assert result.degraded and any("1 chunk(s) have no vector" in r for r in result.reasons)
