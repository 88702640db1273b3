"""Vector candidates by one matrix product equal vec0's KNN, ids and distances, bit for bit.

The index holds unit vectors with many exact copies (ties) across more than one
vec0 chunk of storage; vectors are replaced and deleted between rounds. For every
query and several k, ``VectorMatrix.knn_many`` returns what ``vectors.knn`` (vec0)
returns — the k nearest (chunk id, distance), nearest first, ties by id.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from memlab.retrieval.vector_batch import VectorMatrix
from memlab.store import vectors
from memlab.store.store import MemoryStore
from tests.conftest import T0, WS, write

DIMS = 16


class Table:
    """An embedder whose vectors are given (so the test writes them by hand)."""

    id = "table-16"
    dims = DIMS

    def embed_batch(self, texts: list[str]) -> np.ndarray:
        raise AssertionError("not used")


def unit(rng: np.random.Generator, n: int) -> np.ndarray:
    m = rng.normal(size=(n, DIMS)).astype(np.float32)
    return m / np.linalg.norm(m, axis=1, keepdims=True)


@pytest.fixture
def store(tmp_path: Path, open_store: Callable[..., MemoryStore]) -> MemoryStore:
    root = tmp_path / "memory"
    write(root, f"{WS}/MEMORY.md", "# Project\n\nhello\n")
    s = open_store(root)
    s.sync(T0)
    vectors.ensure_table(s.index, Table.id, DIMS)
    return s


def put(store: MemoryStore, ids: list[str], matrix: np.ndarray) -> None:
    vectors.put_vectors(store.index, [(c, "h") for c in ids], matrix)


def test_batch_knn_equals_vec0_with_ties_and_updates(store: MemoryStore) -> None:
    rng = np.random.default_rng(14)
    n = 2600  # more than one vec0 storage chunk (1,024 rows)
    base = unit(rng, 12)
    matrix = unit(rng, n)
    copies = rng.choice(n, 400, replace=False)
    matrix[copies] = base[rng.integers(0, len(base), len(copies))]  # exact duplicates
    ids = [f"c{i:05d}" for i in rng.permutation(n)]
    put(store, ids, matrix)
    vm = VectorMatrix(store.index)
    vm.update(ids)
    compared = 0
    for round_ in range(3):
        queries = np.concatenate([unit(rng, 20), base[:6], base[6:] + 1e-3])
        for k in (1, 5, 18, 40):
            batch = vm.knn_many(queries, k)
            for q, got in zip(queries, batch, strict=True):
                assert got == vectors.knn(store.index, q, k)
                compared += len(got)
        changed = [ids[i] for i in rng.choice(n, 50, replace=False)]  # replaced vectors
        vectors.delete_vectors(store.index, changed)
        put(store, changed, unit(rng, len(changed)))
        gone = [c for c in (ids[i] for i in rng.choice(n, 30, replace=False)) if c not in changed]
        vectors.delete_vectors(store.index, gone)
        vm.update(changed, gone)
        assert round_ < 2 or vm.asked_vec0 > 0  # ties at the k-th distance did happen
    assert compared > 5000


def test_an_empty_matrix_returns_nothing(store: MemoryStore) -> None:
    assert VectorMatrix(store.index).knn_many(unit(np.random.default_rng(1), 3), 5) == [[], [], []]


def test_more_than_3000_candidates_per_query(store: MemoryStore) -> None:
    """k = 3,000 (the standard-ir profile's candidate depth) on 3,200 chunks: the exact
    re-check spans many statements (SQLite allows 500 terms of a compound SELECT) and
    still equals vec0's KNN."""
    rng = np.random.default_rng(3)
    n = 3200
    ids = [f"c{i:05d}" for i in range(n)]
    put(store, ids, unit(rng, n))
    vm = VectorMatrix(store.index)
    vm.update(ids)
    queries = unit(rng, 2)
    for k in (3000, n + 10):
        for q, got in zip(queries, vm.knn_many(queries, k), strict=True):
            assert len(got) == min(k, n)
            assert got == vectors.knn(store.index, q, k)
