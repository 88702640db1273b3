"""The tie-break key of a batch (``CandidateBatch.id_order``) orders rows as their
chunk ids do, whether the batch was built from rows or joined from a replay's columns."""

from __future__ import annotations

import numpy as np

from memlab.retrieval.candidate_columns import ColumnsBuilder, join_columns
from memlab.retrieval.candidates_batch import QueryCandidates, dense_order


def test_dense_order_is_the_inverse_of_a_sorted_unique() -> None:
    ids = ["b.md:2", "a.md:0", "b.md:10", "a.md:0", "é.md:1", "b.md:2", "B.md:0"]
    _, inverse = np.unique(np.array(ids, dtype=object).astype(str), return_inverse=True)
    assert dense_order(ids).tolist() == inverse.tolist()
    assert dense_order([]).tolist() == []


def test_joined_batch_orders_rows_as_their_chunk_ids() -> None:
    out = ColumnsBuilder()
    queries = [["c.md:0", "a.md:1", "b.md:0"], ["b.md:0", "d.md:3"], ["a.md:1", "e.md:0"]]
    for q, ids in enumerate(queries):
        refs = [out.chunk((cid, cid[:4], 1, 2, f"text {cid}", "memory", 0.0, 0)) for cid in ids]
        n = len(refs)
        signals = (np.zeros(n), np.arange(n), np.full(n, 9), np.full(n, np.nan), np.full(n, 9))
        out.add(QueryCandidates(f"q{q}", "x", 10, []), np.array(refs), *signals)
    columns = out.finish()
    batch = join_columns([columns], [(0, 2), (0, 0)])  # a subset, out of order
    ids = batch.chunk_id.tolist()
    order = batch.id_order.tolist()
    assert ids == ["a.md:1", "e.md:0", "c.md:0", "a.md:1", "b.md:0"]
    for i in range(len(ids)):
        for j in range(len(ids)):
            assert (order[i] < order[j]) == (ids[i] < ids[j])
            assert (order[i] == order[j]) == (ids[i] == ids[j])


def test_gathered_rows_sort_by_chunk_id_as_str_does() -> None:
    """``ChunkFeatures.chunk_ids`` (a unicode array grown as chunks arrive, wider when a
    longer id comes) sorts refs exactly as Python sorts their ids; an id the unicode
    dtype would change (a trailing NUL) makes it an object array."""
    from memlab.eval.replay.gathering import ChunkFeatures

    out = ColumnsBuilder()
    features = ChunkFeatures(out)
    rng = np.random.default_rng(3)
    alphabet = [*"ab.mdé中😀:0123", "B"]
    seen: list[str] = []
    for size in (1, 3, 2, 40, 7, 1, 100):
        for _ in range(size):
            length = int(rng.integers(1, 4 + len(seen) // 10))
            cid = "".join(rng.choice(alphabet, size=length)) + f":{len(seen)}"
            out.chunk((cid, "p.md", 1, 2, "t", "memory", 0.0, 0))
            seen.append(cid)
        keys = features.chunk_ids()
        assert keys.dtype.kind == "U" and keys[: len(seen)].tolist() == seen
        refs = rng.permutation(len(seen))
        order = np.argsort(keys[refs], kind="stable")
        assert [seen[r] for r in refs[order]] == sorted(seen)
    out.chunk(("a\0", "p.md", 1, 2, "t", "memory", 0.0, 0))
    keys = features.chunk_ids()
    assert keys.dtype == object and keys.tolist() == [*seen, "a\0"]
