"""A replay's candidates gathered straight into columns (``CandidateColumns``).

``gather_into`` gathers one query exactly as ``memlab.retrieval.candidates.gather``
does — the same keyword plan, FTS list, evergreen supplement, vector KNN, degraded
reasons, the same rows sorted by chunk id — but keeps the rows as arrays: a
reference to each row's chunk and its signals, no ``CandidateRow`` per row. A
chunk's features are read from SQLite once per moment of the replay
(``ChunkFeatures``: the index does not change between two events, and most chunks
are candidates of many queries), and each distinct chunk is kept once in the
product (``ColumnsBuilder``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from memlab.arrays import FloatArray, IntArray
from memlab.embeddings.base import EmbeddingProvider
from memlab.retrieval.candidate_columns import ColumnsBuilder
from memlab.retrieval.candidates import _FEATURES_SQL, Knn, text_lists, vector_hits
from memlab.retrieval.candidates_batch import ABSENT, QueryCandidates
from memlab.retrieval.query_terms import printable_query
from memlab.store.index import MemoryIndex

UNKNOWN, GONE = -2, -1  # a rowid not read yet at this moment; read, and not in the index
_PART = 500  # ids per features query


class ChunkFeatures:
    """Which chunk of the builder's table each rowid / chunk id of the index is, read
    from SQLite on first use; ``new_moment`` forgets them (call it after the index
    changes)."""

    def __init__(self, out: ColumnsBuilder) -> None:
        self.out = out
        self._rowid: IntArray = np.full(0, UNKNOWN, dtype=np.int64)  # rowid -> ref
        self._id: dict[str, int] = {}  # chunk id -> ref
        # The table's chunk ids as a fixed-width unicode array (sorted by code point, as
        # str is, ~8x faster than an object array), grown by doubling; ``_filled`` are set.
        self._ids: Any = np.zeros(0, dtype="U1")
        self._filled = 0

    def new_moment(self) -> None:
        self._rowid[:] = UNKNOWN
        self._id.clear()

    def _read(self, db: Any, key: str, values: list[Any]) -> None:
        for start in range(0, len(values), _PART):
            part = values[start : start + _PART]
            sql = _FEATURES_SQL.format(key=key, marks=",".join("?" * len(part)))
            # The stored content_free flag is not read here: the batch decides it once
            # per distinct chunk (``join_columns``), the same rule that filled it.
            for rowid, cid, path, first, last, text, source, created, access, _ in db.execute(
                sql, part
            ):
                ref = self.out.chunk(
                    (cid, path, int(first), int(last), text, source, float(created), int(access))
                )
                if rowid >= len(self._rowid):
                    self._grow(rowid)
                self._rowid[rowid] = ref
                self._id[cid] = ref

    def _grow(self, rowid: int) -> None:
        more = np.full(max(rowid + 1, 2 * len(self._rowid)) - len(self._rowid), UNKNOWN)
        self._rowid = np.concatenate([self._rowid, more.astype(np.int64)])

    def of_rowids(self, db: Any, rowids: IntArray) -> IntArray:
        """The ref of each rowid (``GONE`` for one the index does not hold)."""
        if not len(rowids):
            return np.zeros(0, dtype=np.int64)
        if int(rowids.max()) >= len(self._rowid):
            self._grow(int(rowids.max()))
        missing = rowids[self._rowid[rowids] == UNKNOWN]
        if len(missing):
            self._read(db, "rowid", missing.tolist())
            gone = missing[self._rowid[missing] == UNKNOWN]
            self._rowid[gone] = GONE
        refs: IntArray = self._rowid[rowids]
        return refs

    def of_ids(self, db: Any, ids: list[str]) -> dict[str, int]:
        """``{chunk id: ref}`` of the ``ids`` the index holds."""
        missing = [cid for cid in ids if cid not in self._id]
        self._read(db, "id", missing)
        return {cid: self._id[cid] for cid in ids if cid in self._id}

    def chunk_ids(self) -> Any:
        """The chunk id of every ref, as an array to sort rows by (chunk id order); ids
        the unicode dtype cannot hold exactly (a trailing NUL) make it an object array."""
        ids = self.out.chunk_ids
        if self._filled == len(ids):
            return self._ids
        new = ids[self._filled :]
        width = max(map(len, new))
        if self._ids.dtype == object or any(i.endswith("\0") for i in new):
            self._ids = np.array(ids, dtype=object)
        elif len(ids) > len(self._ids) or width > self._ids.dtype.itemsize // 4:
            size = max(len(ids), 2 * len(self._ids))
            grown = np.zeros(size, dtype=f"U{max(width, self._ids.dtype.itemsize // 4)}")
            grown[: self._filled] = self._ids[: self._filled]
            grown[self._filled : len(ids)] = new
            self._ids = grown
        else:
            self._ids[self._filled : len(ids)] = new
        self._filled = len(ids)
        return self._ids


def gather_into(
    features: ChunkFeatures,
    index: MemoryIndex,
    query: str,
    limit: int,
    *,
    embedder: EmbeddingProvider | None = None,
    use_vectors: bool = True,
    query_id: str = "q",
    keywords: str = "c0",
    knn: Knn | None = None,
    evergreen_rows: bool = True,
) -> QueryCandidates:
    """``gather(index, query, limit, …)`` added to ``features.out`` (see the module
    docstring); returns what happened while gathering (no rows)."""
    query = printable_query(query)
    result = QueryCandidates(query_id, query, limit, [])
    main, extra = text_lists(
        index, query, limit, result, keywords=keywords, evergreen_rows=evergreen_rows
    )
    columns = list(zip(*main, strict=True)) or [(), ()]  # (rowids, ranks), C-level
    rowids = np.array(columns[0], dtype=np.int64)
    rank = np.array(columns[1], dtype=np.float64)
    fts_pos = np.arange(len(main), dtype=np.int64)
    supp_pos = np.full(len(main), ABSENT, dtype=np.int64)
    if extra:  # the supplement: a position for rows of the main list, else a row of its own
        where = {rowid: i for i, rowid in enumerate(rowids.tolist())}
        own = [(pos, rowid, k) for pos, (rowid, k) in enumerate(extra) if rowid not in where]
        for pos, (rowid, _) in enumerate(extra):
            if rowid in where:
                supp_pos[where[rowid]] = pos
        rowids = np.concatenate([rowids, np.array([r for _, r, _ in own], dtype=np.int64)])
        rank = np.concatenate([rank, np.array([k for _, _, k in own], dtype=np.float64)])
        fts_pos = np.concatenate([fts_pos, np.full(len(own), ABSENT, dtype=np.int64)])
        supp_pos = np.concatenate([supp_pos, np.array([p for p, _, _ in own], dtype=np.int64)])
    refs = features.of_rowids(index.db, rowids)
    held = refs != GONE
    refs, rank, fts_pos, supp_pos = refs[held], rank[held], fts_pos[held], supp_pos[held]
    distance = np.full(len(refs), np.nan)
    vec_pos = np.full(len(refs), ABSENT, dtype=np.int64)
    if use_vectors and embedder is not None:
        hits = vector_hits(index, query, limit, embedder, result, knn)
        if hits:
            refs, rank, fts_pos, supp_pos, distance, vec_pos = _with_vectors(
                features, index, hits, refs, rank, fts_pos, supp_pos, distance, vec_pos
            )
    order = np.argsort(features.chunk_ids()[refs], kind="stable")
    features.out.add(
        result,
        refs[order],
        rank[order],
        fts_pos[order],
        supp_pos[order],
        distance[order],
        vec_pos[order],
    )
    return result


def _with_vectors(
    features: ChunkFeatures,
    index: MemoryIndex,
    hits: list[tuple[str, float]],
    refs: IntArray,
    rank: FloatArray,
    fts_pos: IntArray,
    supp_pos: IntArray,
    distance: FloatArray,
    vec_pos: IntArray,
) -> tuple[IntArray, FloatArray, IntArray, IntArray, FloatArray, IntArray]:
    """The text rows with their vector signals set, and a row for each hit the text
    lists missed (that the index holds)."""
    at = {ref: i for i, ref in enumerate(refs.tolist())}
    known = features.of_ids(index.db, [cid for cid, _ in hits])
    new_refs: list[int] = []
    new_distance: list[float] = []
    new_pos: list[int] = []
    for pos, (cid, dist) in enumerate(hits):
        ref = known.get(cid)
        if ref is None:
            continue
        if ref in at:
            distance[at[ref]], vec_pos[at[ref]] = dist, pos
        else:
            new_refs.append(ref)
            new_distance.append(dist)
            new_pos.append(pos)
    n = len(new_refs)
    return (
        np.concatenate([refs, np.array(new_refs, dtype=np.int64)]),
        np.concatenate([rank, np.full(n, np.nan)]),
        np.concatenate([fts_pos, np.full(n, ABSENT, dtype=np.int64)]),
        np.concatenate([supp_pos, np.full(n, ABSENT, dtype=np.int64)]),
        np.concatenate([distance, np.array(new_distance, dtype=np.float64)]),
        np.concatenate([vec_pos, np.array(new_pos, dtype=np.int64)]),
    )
