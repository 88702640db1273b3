"""Candidate features as flat arrays: the one input of the scoring core.

A ``CandidateBatch`` holds the candidates of one or many queries, concatenated
query by query (``offsets`` delimits each query's rows). Candidates are
gathered once at some candidate limit ``limit``; any smaller limit is a
*prefix* of it (positions in the FTS list, the evergreen supplement and the
KNN list are kept), so the scoring core can rescore a batch for any
configuration that needs at most ``limit`` candidates, without SQL. This is
what makes sweeps fast and exact (DESIGN invariants 1 and 2).

Absent signals: ``fts_rank``/``distance`` are NaN and the positions are
``ABSENT`` when a chunk is not in that list.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, fields
from itertools import accumulate
from operator import attrgetter
from typing import Any

import numpy as np
import numpy.typing as npt

from memlab.arrays import BoolArray, FloatArray, IntArray
from memlab.retrieval.content import is_content_free
from memlab.sources import EVERGREEN_SOURCES
from memlab.text import jaccard_matrix, jaccard_of_ids, snippet_tokens

ABSENT = np.iinfo(np.int64).max


def source_codes(sources: Sequence[str]) -> tuple[npt.NDArray[Any], IntArray]:
    """(the distinct sources, sorted; the index of each one of ``sources`` among them)."""
    names = sorted(set(sources))  # a handful: a dict beats np.unique on strings
    code = {name: i for i, name in enumerate(names)}
    inverse = np.fromiter((code[s] for s in sources), np.int64, len(sources))
    return np.array(names, dtype=str), inverse


def dense_order(ids: Sequence[Any]) -> IntArray:
    """Each id's ordinal among the distinct ids (as strings) in sorted order: what
    ``np.unique(ids.astype(str), return_inverse=True)`` gives, by a dict over the
    distinct ids (a chunk recurs across queries) instead of a sort of every row."""
    keys = [i if type(i) is str else str(i) for i in ids]
    code = {key: n for n, key in enumerate(sorted(set(keys)))}
    return np.fromiter(map(code.__getitem__, keys), np.int64, len(keys))


@dataclass
class CandidateRow:
    """One candidate as gathered from the index (before scoring); treat as read-only.

    Not a frozen dataclass: a search builds one per candidate, and a frozen one costs
    five times as much to build."""

    chunk_id: str
    path: str
    start_line: int
    end_line: int
    text: str
    source: str
    created_at: float
    access_count: int
    fts_rank: float = float("nan")
    fts_pos: int = ABSENT
    supp_pos: int = ABSENT
    distance: float = float("nan")
    vec_pos: int = ABSENT


@dataclass
class QueryCandidates:
    """The candidates of one query plus what happened while gathering them."""

    query_id: str
    query: str
    limit: int
    rows: list[CandidateRow]
    degraded: bool = False
    reasons: list[str] = field(default_factory=list)
    # the reasons that follow from the query and the index alone (keyword misses):
    # gathering again would give the same result
    settled: list[str] = field(default_factory=list)

    @property
    def transient(self) -> bool:
        """Degraded for a reason that may not recur (an embedding or SQL failure)."""
        return any(r not in self.settled for r in self.reasons)

    vector_used: bool = False


@dataclass
class CandidateBatch:
    """Flat candidate arrays for many queries (rows grouped by query)."""

    query_ids: list[str]
    queries: list[str]
    offsets: IntArray  # len(query_ids) + 1
    limit: int
    chunk_id: npt.NDArray[Any]
    path: npt.NDArray[Any]
    start_line: IntArray
    end_line: IntArray
    text: npt.NDArray[Any]
    source: npt.NDArray[Any]
    created_at: FloatArray
    access_count: FloatArray
    fts_rank: FloatArray
    fts_pos: IntArray
    supp_pos: IntArray
    distance: FloatArray
    vec_pos: IntArray
    content_free: BoolArray
    degraded: list[bool]
    reasons: list[list[str]]
    vector_used: list[bool]
    settled: list[list[str]] = field(default_factory=list)  # per query: keyword misses
    _cache: dict[str, Any] = field(default_factory=dict, repr=False)

    @property
    def tokens(self) -> list[frozenset[str]]:
        """MMR token sets of every row, computed on first use (only MMR needs them)."""
        if "tokens" not in self._cache:
            memo: dict[str, frozenset[str]] = {}  # a chunk recurs across queries
            for text in self.text:
                if text not in memo:
                    memo[text] = snippet_tokens(text)
            self._cache["tokens"] = [memo[text] for text in self.text]
        tokens: list[frozenset[str]] = self._cache["tokens"]
        return tokens

    def __len__(self) -> int:
        return len(self.chunk_id)

    @property
    def n_queries(self) -> int:
        return len(self.query_ids)

    @property
    def segment(self) -> IntArray:
        """Query index of every row."""
        if "segment" not in self._cache:
            counts = self.offsets[1:] - self.offsets[:-1]
            self._cache["segment"] = np.repeat(np.arange(self.n_queries), counts)
        return self._cache["segment"]

    @property
    def evergreen(self) -> BoolArray:
        if "evergreen" not in self._cache:
            names, inverse = self.source_codes
            distinct = np.array([name in EVERGREEN_SOURCES for name in names.tolist()], bool)
            self._cache["evergreen"] = distinct[inverse]
        return self._cache["evergreen"]

    @property
    def id_order(self) -> IntArray:
        """Each row's chunk id as an ordinal that sorts as the ids do: the documented
        tie-break key (only compared; ``join_columns`` sets it from its tables)."""
        if "id_order" not in self._cache:
            self._cache["id_order"] = dense_order(self.chunk_id.tolist())
        return self._cache["id_order"]

    @property
    def source_codes(self) -> tuple[npt.NDArray[Any], IntArray]:
        """(distinct sources, index of each row's source): source weights are looked up
        per distinct source, not per row (computed once)."""
        if "source_codes" not in self._cache:
            self._cache["source_codes"] = source_codes(self.source.tolist())
        codes: tuple[npt.NDArray[Any], IntArray] = self._cache["source_codes"]
        return codes

    def jaccard(self, rows: IntArray) -> FloatArray:
        """Pairwise Jaccard similarity of the snippets of ``rows`` (SPEC §5)."""
        return jaccard_matrix([self.tokens[i] for i in rows])

    def jaccard_between(self, rows_a: IntArray, rows_b: IntArray) -> FloatArray:
        """Jaccard of row pairs of the same query (``rows_a`` and ``rows_b`` broadcast).

        Reads each query's pairwise matrix, computed once for the whole batch on first
        use and kept flat (entry (i, j) of query q at ``base[q] + i·n_q + j``).
        """
        flat, base = self.jaccard_blocks
        q = self.segment[rows_a]
        start = self.offsets[q]
        n = self.offsets[q + 1] - start
        values: FloatArray = flat[base[q] + (rows_a - start) * n + (rows_b - start)]
        return values

    @property
    def jaccard_blocks(self) -> tuple[FloatArray, IntArray]:
        """Every query's pairwise snippet Jaccard matrix, flat, and where each starts
        (computed once, on first use)."""
        if "jaccard_blocks" not in self._cache:
            self._cache["jaccard_blocks"] = self._jaccard_blocks()
        blocks: tuple[FloatArray, IntArray] = self._cache["jaccard_blocks"]
        return blocks

    def _jaccard_blocks(self) -> tuple[FloatArray, IntArray]:
        counts = np.diff(self.offsets)
        base = np.r_[0, np.cumsum(counts * counts)][:-1].astype(np.int64)
        vocab: dict[str, int] = {}
        ids_of: dict[str, IntArray] = {}
        for text, tokens in zip(self.text, self.tokens, strict=True):
            if text not in ids_of:
                ids_of[text] = np.array([vocab.setdefault(t, len(vocab)) for t in tokens], int)
        row_ids = [ids_of[text] for text in self.text]
        blocks = [
            jaccard_of_ids(row_ids[self.offsets[q] : self.offsets[q + 1]], len(vocab)).ravel()
            for q in range(self.n_queries)
        ]
        return (np.concatenate(blocks) if blocks else np.zeros(0)), base


_COLUMNS = tuple(f.name for f in fields(CandidateRow))
_COLUMN_VALUES = attrgetter(*_COLUMNS)  # a row's values, in column order


def build_batch(items: Sequence[QueryCandidates]) -> CandidateBatch:
    """Concatenate per-query candidates into one batch.

    The content-free filter of the scoring core is evaluated once here, because
    it depends on a chunk's text and source only.
    """
    limits = {it.limit for it in items}
    limit = min(limits) if limits else 0
    rows = [r for it in items for r in it.rows]
    counts = [len(it.rows) for it in items]
    offsets = np.array([0, *accumulate(counts)], dtype=np.int64)
    values = list(zip(*map(_COLUMN_VALUES, rows), strict=True)) or [()] * len(_COLUMNS)
    columns = dict(zip(_COLUMNS, values, strict=True))

    def arr(name: str, dtype: Any) -> Any:
        return np.array(columns[name], dtype=dtype)

    content_free: dict[tuple[str, str], bool] = {}  # a chunk recurs across queries

    def free(text: str, source: str) -> bool:
        key = (text, source)
        if key not in content_free:
            content_free[key] = is_content_free(text, source)
        return content_free[key]

    return CandidateBatch(
        query_ids=[it.query_id for it in items],
        queries=[it.query for it in items],
        offsets=offsets,
        limit=limit,
        chunk_id=arr("chunk_id", object),
        path=arr("path", object),
        start_line=arr("start_line", np.int64),
        end_line=arr("end_line", np.int64),
        text=arr("text", object),
        source=arr("source", object),
        created_at=arr("created_at", np.float64),
        access_count=arr("access_count", np.float64),
        fts_rank=arr("fts_rank", np.float64),
        fts_pos=arr("fts_pos", np.int64),
        supp_pos=arr("supp_pos", np.int64),
        distance=arr("distance", np.float64),
        vec_pos=arr("vec_pos", np.int64),
        content_free=np.array(list(map(free, columns["text"], columns["source"])), dtype=bool),
        degraded=[it.degraded for it in items],
        reasons=[list(it.reasons) for it in items],
        vector_used=[it.vector_used for it in items],
        settled=[list(it.settled) for it in items],
    )


def batch_rows(batch: CandidateBatch, q: int) -> list[CandidateRow]:
    """Query ``q``'s rows of ``batch`` as ``CandidateRow``s (what ``gather`` returned)."""
    rows = range(int(batch.offsets[q]), int(batch.offsets[q + 1]))
    return [
        CandidateRow(
            chunk_id=str(batch.chunk_id[i]),
            path=str(batch.path[i]),
            start_line=int(batch.start_line[i]),
            end_line=int(batch.end_line[i]),
            text=str(batch.text[i]),
            source=str(batch.source[i]),
            created_at=float(batch.created_at[i]),
            access_count=int(batch.access_count[i]),
            fts_rank=float(batch.fts_rank[i]),
            fts_pos=int(batch.fts_pos[i]),
            supp_pos=int(batch.supp_pos[i]),
            distance=float(batch.distance[i]),
            vec_pos=int(batch.vec_pos[i]),
        )
        for i in rows
    ]
