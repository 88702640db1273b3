"""Candidates of many queries as columns: a replay's product, joined into a batch.

``ColumnsBuilder`` collects each distinct chunk once (its ``FEATURES``) and each
candidate row as a reference into that table plus its ``SIGNALS``;
``CandidateColumns`` pickles as a few arrays and the distinct chunks, and
``join_columns`` makes the ``CandidateBatch`` of the queries asked for (equal to
``build_batch`` of their rows, without a row object).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import accumulate
from typing import Any

import numpy as np

from memlab.arrays import FloatArray, IntArray
from memlab.retrieval.candidates_batch import (
    _COLUMNS,
    CandidateBatch,
    QueryCandidates,
    dense_order,
    source_codes,
)
from memlab.retrieval.content import is_content_free

FEATURES = _COLUMNS[:8]  # a chunk's own columns (chunk_id … access_count)
SIGNALS = _COLUMNS[8:]  # a candidate's signals in one query (fts_rank … vec_pos)
Features = tuple[str, str, int, int, str, str, float, int]  # one chunk, in FEATURES order


@dataclass
class CandidateColumns:
    """The candidates of many queries as columns (a replay's product): each distinct
    chunk once (``table``, in ``FEATURES`` order), each candidate row a reference into it
    (``ref``) and its signals; rows grouped by query (``offsets``) and sorted by chunk id
    within each, as ``gather`` returns them. ``queries`` say what happened while gathering
    (their ``rows`` are empty: the rows are the columns). No object per row: it pickles
    as a few arrays and the distinct chunks."""

    queries: list[QueryCandidates]
    offsets: IntArray
    table: list[Features]
    ref: IntArray
    fts_rank: FloatArray
    fts_pos: IntArray
    supp_pos: IntArray
    distance: FloatArray
    vec_pos: IntArray

    def __len__(self) -> int:
        return len(self.ref)


class ColumnsBuilder:
    """Builds ``CandidateColumns`` one query at a time; ``chunk`` interns a chunk's
    features (one tuple, and one text string, per distinct chunk)."""

    def __init__(self) -> None:
        self.table: list[Features] = []
        self.chunk_ids: list[str] = []  # table[i][0], for sorting rows by chunk id
        self._refs: dict[Features, int] = {}
        self._queries: list[QueryCandidates] = []
        self._columns: list[tuple[Any, ...]] = []

    def chunk(self, features: Features) -> int:
        """The reference of ``features`` in the table (added when new)."""
        ref = self._refs.get(features)
        if ref is None:
            ref = self._refs[features] = len(self.table)
            self.table.append(features)
            self.chunk_ids.append(features[0])
        return ref

    def add(self, found: QueryCandidates, ref: IntArray, *signals: Any) -> None:
        """One query: ``found`` (rows empty) and its rows' ``ref`` and ``SIGNALS`` arrays,
        in order."""
        self._queries.append(found)
        self._columns.append((ref, *signals))

    def finish(self) -> CandidateColumns:
        dtypes = (np.int64, np.float64, np.int64, np.int64, np.float64, np.int64)
        columns: list[Any] = [
            np.concatenate([c[i] for c in self._columns]).astype(dtype, copy=False)
            if self._columns
            else np.zeros(0, dtype=dtype)
            for i, dtype in enumerate(dtypes)
        ]
        counts = [len(c[0]) for c in self._columns]
        return CandidateColumns(
            self._queries,
            np.array([0, *accumulate(counts)], dtype=np.int64),
            self.table,
            *columns,
        )


def join_columns(
    parts: Sequence[CandidateColumns], order: Sequence[tuple[int, int]]
) -> CandidateBatch:
    """One batch of the queries ``order`` names, each ``(part, query of the part)``, in
    that order: equal, column by column, to ``build_batch`` of the same queries' gathered
    rows, without a row object (the chunk columns are read from the tables)."""
    table_base = np.array([0, *accumulate(len(p.table) for p in parts)], dtype=np.int64)
    row_base = np.array([0, *accumulate(len(p) for p in parts)], dtype=np.int64)
    pieces: list[IntArray] = []
    items: list[QueryCandidates] = []
    for part, q in order:
        p = parts[part]
        start, stop = int(p.offsets[q]), int(p.offsets[q + 1])
        pieces.append(np.arange(start, stop, dtype=np.int64) + row_base[part])
        items.append(p.queries[q])
    take = np.concatenate(pieces) if pieces else np.zeros(0, dtype=np.int64)

    def rows(name: str, dtype: Any) -> Any:
        every = [getattr(p, name) for p in parts]
        return (np.concatenate(every) if every else np.zeros(0, dtype=dtype))[take]

    refs = [p.ref + table_base[i] for i, p in enumerate(parts)]
    ref = (np.concatenate(refs) if refs else np.zeros(0, dtype=np.int64))[take]
    table = [t for p in parts for t in p.table]
    chunk = list(zip(*table, strict=True)) or [()] * len(FEATURES)
    content_free = np.fromiter(
        (is_content_free(text, source) for text, source in zip(chunk[4], chunk[5], strict=True)),
        dtype=bool,
        count=len(table),
    )

    def feature(i: int, dtype: Any) -> Any:
        return np.array(chunk[i], dtype=dtype)[ref]

    counts = [len(piece) for piece in pieces]
    batch = CandidateBatch(
        query_ids=[it.query_id for it in items],
        queries=[it.query for it in items],
        offsets=np.array([0, *accumulate(counts)], dtype=np.int64),
        limit=min((it.limit for it in items), default=0),
        chunk_id=feature(0, object),
        path=feature(1, object),
        start_line=feature(2, np.int64),
        end_line=feature(3, np.int64),
        text=feature(4, object),
        source=feature(5, object),
        created_at=feature(6, np.float64),
        access_count=feature(7, np.float64),
        fts_rank=rows("fts_rank", np.float64),
        fts_pos=rows("fts_pos", np.int64),
        supp_pos=rows("supp_pos", np.int64),
        distance=rows("distance", np.float64),
        vec_pos=rows("vec_pos", np.int64),
        content_free=content_free[ref],
        degraded=[it.degraded for it in items],
        reasons=[list(it.reasons) for it in items],
        vector_used=[it.vector_used for it in items],
        settled=[list(it.settled) for it in items],
    )
    batch._cache["id_order"] = dense_order(chunk[0])[ref]  # per distinct chunk, not per row
    names, per_chunk = source_codes(chunk[5])  # per distinct chunk too
    batch._cache["source_codes"] = (names, per_chunk[ref])
    return batch
