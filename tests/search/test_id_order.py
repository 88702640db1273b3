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
