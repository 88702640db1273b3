"""The exact KNN (``search.knn = "exact"``) returns vec0's KNN, ids and distances, bit
for bit, and hybrid search with it returns the same hits as with vec0.

The index holds random vectors (unit and of other lengths) with planted exact copies
(ties), across more than one vec0 storage chunk; vectors are replaced, added and
deleted between rounds, so the cached matrix must follow the table.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from memlab.config import MmrConfig, SearchConfig, to_dict
from memlab.embeddings.hashing import HashEmbedder
from memlab.errors import ConfigError
from memlab.retrieval.pipeline import search
from memlab.store import exact_knn, vectors
from memlab.store.store import MemoryStore
from tests.conftest import T0, WS, write

DIMS = 24


@pytest.fixture
def store(tmp_path: Path, open_store: Callable[..., MemoryStore]) -> MemoryStore:
    root = tmp_path / "memory"
    write(root, f"{WS}/MEMORY.md", "# Project\n\nhello\n")
    s = open_store(root)
    s.sync(T0)
    vectors.ensure_table(s.index, "table-24", DIMS)
    return s


def rows(rng: np.random.Generator, n: int) -> np.ndarray:
    m = rng.normal(size=(n, DIMS)).astype(np.float32)
    m /= np.linalg.norm(m, axis=1, keepdims=True)
    return (m * rng.choice([1.0, 1.0, 0.01, 30.0], size=(n, 1))).astype(np.float32)


def put(store: MemoryStore, ids: list[str], matrix: np.ndarray) -> None:
    vectors.put_vectors(store.index, [(c, "h") for c in ids], matrix)


def test_exact_knn_equals_vec0_with_ties_and_changes(store: MemoryStore) -> None:
    rng = np.random.default_rng(30)
    n = 2300  # more than two vec0 storage chunks (1,024 rows each)
    base = rows(rng, 10)
    matrix = rows(rng, n)
    copies = rng.choice(n, 500, replace=False)
    matrix[copies] = base[rng.integers(0, len(base), len(copies))]  # exact duplicates
    ids = [f"c{i:05d}" for i in rng.permutation(n)]
    put(store, ids, matrix)
    compared = tied = 0
    for round_ in range(3):
        queries = np.concatenate([rows(rng, 12), base[:5], base[5:] * np.float32(1.001)])
        for k in (1, 4, 18, 60):
            for q in queries:
                wider = vectors.knn(store.index, q, k + 1)
                want = vectors.knn(store.index, q, k)
                assert exact_knn.knn(store.index, q, k) == want
                compared += len(want)
                tied += len(wider) > k and wider[k - 1][1] == wider[k][1]  # vec0 chose
        changed = [ids[i] for i in rng.choice(len(ids), 40, replace=False)]
        vectors.delete_vectors(store.index, changed)  # replaced (vec0 has no upsert)
        put(store, changed, rows(rng, len(changed)))
        gone = [c for c in (ids[i] for i in rng.choice(len(ids), 25, replace=False))]
        gone = [c for c in gone if c not in changed]
        vectors.delete_vectors(store.index, gone)
        added = [f"r{round_}-{i:03d}" for i in range(30)]
        put(store, added, base[rng.integers(0, len(base), len(added))])  # more copies
        ids = [c for c in ids if c not in set(gone)] + added
    assert compared > 5000 and tied > 20, (compared, tied)  # ties at the k-th were compared


def test_exact_knn_follows_a_vector_replaced_in_place(store: MemoryStore) -> None:
    """Delete the newest row and insert another: same count, maybe the same vec0 rowid."""
    rng = np.random.default_rng(7)
    ids = [f"c{i}" for i in range(50)]
    put(store, ids, rows(rng, 50))
    q = rows(rng, 1)[0]
    assert exact_knn.knn(store.index, q, 3) == vectors.knn(store.index, q, 3)
    vectors.delete_vectors(store.index, ["c49"])
    put(store, ["new"], q[None, :])  # the query itself: now the nearest
    got = exact_knn.knn(store.index, q, 3)
    assert got[0] == ("new", 0.0) and got == vectors.knn(store.index, q, 3)


def test_candidates_keep_everything_within_the_margin() -> None:
    approx = np.array([5.0, 1.0, 3.0, 1.0 + 1e-9, 9.0, 2.0, 1.5, 8.0, 7.0, 6.0])
    assert exact_knn.candidates(approx, 1, 0.0).tolist() == [1, 2, 3, 5, 6]
    assert exact_knn.candidates(approx, 2, 1.6).tolist() == [0, 1, 2, 3, 5, 6]
    assert exact_knn.candidates(approx, 9, 0.0).tolist() == list(range(10))


NOTES = [
    ("alpha", "The deploy script pushes the API image to the staging cluster."),
    ("beta", "The deploy script pushes the API image to the staging cluster."),  # a copy
    ("gamma", "Token refresh failed because the auth middleware cached the old key."),
    ("delta", "Rate limits for the public API are 100 requests per minute."),
    ("eps", "We pin numpy below 3 until the BLAS wheels settle."),
    ("zeta", "Staging cluster nodes were resized to 8 GB of memory."),
]


def test_hybrid_search_with_exact_knn_equals_vec0(
    tmp_path: Path, open_store: Callable[..., MemoryStore]
) -> None:
    root = tmp_path / "memory"
    for name, text in NOTES * 3:
        write(root, f"{WS}/sessions/2026-01-0{len(name) % 9 + 1}-{name}-aaaa1111.md", text)
    for i in range(40):
        write(root, f"{WS}/notes/n{i:02d}.md", f"# Note {i}\n\n{NOTES[i % len(NOTES)][1]} ({i})\n")
    store = open_store(root, embedder=HashEmbedder(64))
    store.sync(T0)
    for query in ("deploy staging cluster", "auth token", "numpy BLAS wheels", "memory"):
        for mmr in (False, True):
            base = SearchConfig(max_results=8, min_score=0.0, mmr=MmrConfig(enabled=mmr))
            vec0 = search(store, query, base, T0, record_access=False, sync=False)
            exact = replace(base, knn="exact")
            got = search(store, query, exact, T0, record_access=False, sync=False)
            assert got.hits == vec0.hits and vec0.hits and not got.degraded


def test_knn_setting() -> None:
    assert "knn" not in to_dict(SearchConfig())  # c0's configurations keep their hashes
    assert to_dict(SearchConfig(knn="exact"))["knn"] == "exact"
    with pytest.raises(ConfigError, match="unknown knn 'exakt'; did you mean 'exact'"):
        SearchConfig(knn="exakt")


def test_a_query_of_other_dimensions_fails_as_with_vec0(store: MemoryStore) -> None:
    put(store, ["a", "b"], rows(np.random.default_rng(1), 2))
    other = np.ones(DIMS + 1, dtype=np.float32)
    with pytest.raises(store.index.connection.Error, match="imension"):
        exact_knn.knn(store.index, other, 1)  # search degrades on this error, as with vec0
