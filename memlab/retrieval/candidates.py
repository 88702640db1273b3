"""Candidate generation (SPEC §4.1): the only part of search that talks to SQLite.

1. ``candidate_limit`` rows of plain FTS (``ORDER BY rank``; ties by rowid so a
   shorter list is always a prefix of a longer one);
2. ONE supplementary FTS query restricted to evergreen sources, same limit,
   appended where not already present (keeps global/workspace memory from
   being crowded out by many sessions);
3. the vector path, only when sqlite-vec is loaded and an embedder exists:
   embed the query, KNN with ``k = candidate_limit``.

Every failure on the way (an FTS or vector SQL error, a failed embedding,
sqlite-vec missing) makes the result *degraded* with a reason; the search goes
on with what is left. Each query fails on its own, as in c0: a failed
supplement keeps the main FTS list, a failed main query keeps the supplement's
rows. c0 swallows SQL errors silently; memlab reports them.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from operator import itemgetter
from typing import Any, Protocol

from memlab.embeddings.base import EmbeddingProvider, checked_embed
from memlab.errors import EmbeddingError
from memlab.retrieval import degraded
from memlab.retrieval.candidates_batch import ABSENT, CandidateRow, QueryCandidates
from memlab.retrieval.content import is_content_free
from memlab.retrieval.query_terms import KeywordPlan, plan_keywords, printable_query
from memlab.sources import EVERGREEN_SOURCES
from memlab.store import vectors
from memlab.store.index import MemoryIndex

# (query vector, k) -> the k nearest (chunk id, L2 distance), nearest first, ties by id
Knn = Callable[[Any, int], list[tuple[str, float]]]

_FTS_SQL = (
    "SELECT rowid, rank FROM chunks_fts WHERE chunks_fts MATCH ? ORDER BY rank, rowid LIMIT ?"
)
# The evergreen rows are picked by rowid before FTS5 computes a rank, so only they are
# ranked (bm25 uses the whole table's statistics either way: the same ranks as ranking
# every match and filtering after, at the cost of the few evergreen rows).
_SUPPLEMENT_SQL = (
    "SELECT rowid, rank FROM chunks_fts WHERE chunks_fts MATCH ? AND rowid IN "
    f"(SELECT rowid FROM chunks WHERE source IN ({', '.join('?' * len(EVERGREEN_SOURCES))})) "
    "ORDER BY rank, rowid LIMIT ?"
)
LIKE_RANK = -1e-9
_FEATURES_SQL = (
    "SELECT rowid, id, path, start_line, end_line, text, source, created_at, access_count, "
    "content_free FROM chunks WHERE {key} IN ({marks})"
)
# The columns of a gathered row (``Gathered.rows``): the chunk's features as ``_FEATURES_SQL``
# reads them, then the row's signals (NaN rank or distance, ``ABSENT`` position: not in
# that list).
(ROWID, CHUNK_ID, PATH, START, END, TEXT, SOURCE, CREATED, ACCESS, CONTENT_FREE) = range(10)
(FTS_RANK, FTS_POS, SUPP_POS, DISTANCE, VEC_POS) = range(10, 15)
_NO_VECTOR = (math.nan, ABSENT)


class Degradable(Protocol):
    """What gathering marks when a step fails: ``Gathered`` here, ``QueryCandidates`` in
    the replay's column gathering (``memlab.eval.replay.gathering``)."""

    degraded: bool
    reasons: list[str]
    settled: list[str]
    vector_used: bool


@dataclass
class Gathered:
    """One query's candidates as ``gather_rows`` reads them: a list per row, the columns
    above, in no particular order (a live search ranks these without building a
    ``CandidateRow`` per row; ``candidates()`` gives ``gather``'s form)."""

    query: str
    limit: int
    rows: list[list[Any]]
    degraded: bool = False
    reasons: list[str] = field(default_factory=list)
    settled: list[str] = field(default_factory=list)  # QueryCandidates.settled
    vector_used: bool = False

    @classmethod
    def of(cls, found: QueryCandidates) -> Gathered:
        """``found`` as rows (rowids numbered here, ``content_free`` from each text)."""
        rows = [
            [
                rowid,
                r.chunk_id,
                r.path,
                r.start_line,
                r.end_line,
                r.text,
                r.source,
                r.created_at,
                r.access_count,
                int(is_content_free(r.text, r.source)),
                r.fts_rank,
                r.fts_pos,
                r.supp_pos,
                r.distance,
                r.vec_pos,
            ]
            for rowid, r in enumerate(found.rows, start=1)
        ]
        out = cls(found.query, found.limit, rows, found.degraded, list(found.reasons))
        out.settled, out.vector_used = list(found.settled), found.vector_used
        return out

    def candidates(self, query_id: str = "q") -> QueryCandidates:
        """These candidates as ``QueryCandidates``, rows sorted by chunk id."""
        rows = [
            CandidateRow(
                chunk_id=r[CHUNK_ID],
                path=r[PATH],
                start_line=int(r[START]),
                end_line=int(r[END]),
                text=r[TEXT],
                source=r[SOURCE],
                created_at=float(r[CREATED]),
                access_count=int(r[ACCESS]),
                fts_rank=r[FTS_RANK],
                fts_pos=r[FTS_POS],
                supp_pos=r[SUPP_POS],
                distance=r[DISTANCE],
                vec_pos=r[VEC_POS],
            )
            for r in sorted(self.rows, key=itemgetter(CHUNK_ID))
        ]
        out = QueryCandidates(query_id, self.query, self.limit, rows, self.degraded)
        out.reasons, out.settled = list(self.reasons), list(self.settled)
        out.vector_used = self.vector_used
        return out


def _features(db: Any, key: str, values: list[Any]) -> list[tuple[Any, ...]]:
    out: list[tuple[Any, ...]] = []
    for start in range(0, len(values), 500):
        part = values[start : start + 500]
        sql = _FEATURES_SQL.format(key=key, marks=",".join("?" * len(part)))
        out += db.execute(sql, part).fetchall()
    return out


def gather(
    index: MemoryIndex,
    query: str,
    limit: int,
    *,
    embedder: EmbeddingProvider | None = None,
    use_vectors: bool = True,
    supplement: bool = True,
    query_id: str = "q",
    keywords: str = "c0",
    knn: Knn | None = None,
    evergreen_rows: bool = True,
) -> QueryCandidates:
    """Candidates of ``query`` at ``limit`` (the prefix property holds for any smaller one).

    ``knn`` answers the vector KNN instead of vec0 (evaluation passes the result of
    ``memlab.retrieval.vector_batch.VectorMatrix``, equal to vec0's). ``evergreen_rows=False``
    says the index holds no evergreen chunk (``has_evergreen_rows``): the supplement,
    which could find nothing, is not asked — unless the FTS list failed, so that both
    failures are reported as before."""
    found = gather_rows(
        index,
        query,
        limit,
        embedder=embedder,
        use_vectors=use_vectors,
        supplement=supplement,
        keywords=keywords,
        knn=knn,
        evergreen_rows=evergreen_rows,
    )
    return found.candidates(query_id)


def gather_rows(
    index: MemoryIndex,
    query: str,
    limit: int,
    *,
    embedder: EmbeddingProvider | None = None,
    use_vectors: bool = True,
    supplement: bool = True,
    keywords: str = "c0",
    knn: Knn | None = None,
    evergreen_rows: bool = True,
) -> Gathered:
    """``gather``'s candidates as plain rows (``Gathered``), for one live query."""
    query = printable_query(query)
    result = Gathered(query, limit, [])
    main, extra = text_lists(
        index, query, limit, result, keywords=keywords, supplement=supplement,
        evergreen_rows=evergreen_rows,
    )  # fmt: skip
    # rowid -> [rank, position in the FTS list, position in the supplement]
    fts: dict[int, list[Any]] = {}
    for pos, (rowid, rank) in enumerate(main):
        fts[rowid] = [rank, pos, ABSENT]
    for pos, (rowid, rank) in enumerate(extra):
        if rowid in fts:
            fts[rowid][2] = pos
        else:
            fts[rowid] = [rank, ABSENT, pos]
    if fts:
        result.rows = [
            [*feat, *fts[feat[ROWID]], *_NO_VECTOR] for feat in _features(index.db, "rowid", [*fts])
        ]
    if use_vectors and embedder is not None:
        _vector_candidates(index, query, limit, embedder, result, knn)
    return result


def text_lists(
    index: MemoryIndex,
    query: str,
    limit: int,
    result: Degradable,
    *,
    keywords: str,
    supplement: bool = True,
    evergreen_rows: bool = True,
) -> tuple[list[tuple[int, float]], list[tuple[int, float]]]:
    """The FTS list and the evergreen supplement of ``query`` as (rowid, rank) rows; the
    keyword plan's misses are recorded in ``result`` (settled) and a failure degrades it.
    Shared by a live query (``gather_rows``) and the replay (``memlab.eval.replay.gathering``)."""
    try:
        plan = plan_keywords(index.db, index.tokenizer, query, keywords)
    except index.connection.Error as exc:
        plan = KeywordPlan(None)
        _degrade(result, f"reading the query with the index's tokenizer failed ({exc})")
    for reason in plan.misses:
        _degrade(result, reason)
    result.settled = list(plan.misses)
    main: list[tuple[int, float]] = []
    extra: list[tuple[int, float]] = []
    if plan.match is not None or plan.like:
        failures = len(result.reasons)
        main = _text_rows(index, plan, limit, result, evergreen=False)
        if supplement and (evergreen_rows or len(result.reasons) > failures):
            extra = _text_rows(index, plan, limit, result, evergreen=True)
    return main, extra


def vector_hits(
    index: MemoryIndex,
    query: str,
    limit: int,
    embedder: EmbeddingProvider,
    result: Degradable,
    knn: Knn | None = None,
) -> list[tuple[str, float]]:
    """The vector KNN's (chunk id, distance) hits, or none with ``result`` degraded saying
    why (FTS-only); sets ``result.vector_used`` when they were read."""
    if not index.connection.vec_loaded:
        _degrade(result, "sqlite-vec is not loaded; FTS-only")
        return []
    if not vectors.table_exists(index):
        _degrade(result, "the index has no vectors (run `memlab index --embedder NAME`); FTS-only")
        return []
    try:
        qvec = checked_embed(embedder, [query])[0]
    except EmbeddingError as exc:
        _degrade(result, f"query embedding failed: {exc}; FTS-only")
        return []
    try:
        hits = knn(qvec, limit) if knn is not None else vectors.knn(index, qvec, limit)
    except index.connection.Error as exc:
        _degrade(result, f"vector query failed ({exc}); FTS-only")
        return []
    result.vector_used = True
    return hits


def has_evergreen_rows(index: MemoryIndex) -> bool:
    """Does the index hold a chunk of an evergreen source (what the supplement ranks)?
    True when it cannot tell."""
    marks = ", ".join("?" * len(EVERGREEN_SOURCES))
    sql = f"SELECT EXISTS (SELECT 1 FROM chunks WHERE source IN ({marks}))"
    try:
        return bool(index.db.execute(sql, EVERGREEN_SOURCES).fetchone()[0])
    except index.connection.Error:
        return True


def _text_rows(
    index: MemoryIndex, plan: KeywordPlan, limit: int, result: Degradable, *, evergreen: bool
) -> list[tuple[int, float]]:
    """One text list's (rowid, rank) rows; an SQL error degrades the result and yields none."""
    what = "evergreen supplement query" if evergreen else "FTS query"
    try:
        return _text_list(index, plan, limit, evergreen=evergreen)
    except index.connection.Error as exc:
        _degrade(result, f"{what} failed ({exc}); its text candidates are missing")
        return []


def _text_list(
    index: MemoryIndex, plan: KeywordPlan, limit: int, *, evergreen: bool
) -> list[tuple[int, float]]:
    """The FTS list (or its evergreen supplement): FTS matches by rank, then — only with
    LIKE keywords and fewer than ``limit`` FTS matches — LIKE-only rows by rowid, with
    rank ``LIKE_RANK`` (below any FTS5 bm25 match, whose idf is at least 1e-6). Any limit
    gives a prefix of a wider one's list."""
    out: list[tuple[int, float]] = []
    if plan.match is not None:
        sql, params = (
            (_SUPPLEMENT_SQL, (plan.match, *EVERGREEN_SOURCES, limit))
            if evergreen
            else (_FTS_SQL, (plan.match, limit))
        )
        out = index.db.execute(sql, params).fetchall()  # (int rowid, float bm25) rows
    if not plan.like or len(out) >= limit:
        return out
    seen = {rowid for rowid, _ in out}
    where = " OR ".join(["text LIKE ? ESCAPE '\\'"] * len(plan.like))
    sources: tuple[str, ...] = ()
    if evergreen:
        where = f"({where}) AND source IN ({', '.join('?' * len(EVERGREEN_SOURCES))})"
        sources = EVERGREEN_SOURCES
    patterns = ["%" + _escape_like(word) + "%" for word in plan.like]
    sql = f"SELECT rowid FROM chunks WHERE {where} ORDER BY rowid LIMIT ?"
    for (rowid,) in index.db.execute(sql, (*patterns, *sources, limit + len(out))):
        if rowid not in seen and len(out) < limit:
            out.append((int(rowid), LIKE_RANK))
    return out


def _escape_like(word: str) -> str:
    return word.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


def _vector_candidates(
    index: MemoryIndex,
    query: str,
    limit: int,
    embedder: EmbeddingProvider,
    result: Gathered,
    knn: Knn | None = None,
) -> None:
    hits = vector_hits(index, query, limit, embedder, result, knn)
    rows = {row[CHUNK_ID]: row for row in result.rows}
    missing = [cid for cid, _ in hits if cid not in rows]
    feats = {feat[CHUNK_ID]: feat for feat in _features(index.db, "id", missing)}
    for pos, (cid, distance) in enumerate(hits):
        if cid in rows:  # built above for this query alone: completed in place
            rows[cid][DISTANCE], rows[cid][VEC_POS] = distance, pos
        elif cid in feats:
            row = [*feats[cid], math.nan, ABSENT, ABSENT, distance, pos]
            rows[cid] = row
            result.rows.append(row)


def _degrade(result: Degradable, reason: str) -> None:
    result.degraded = True
    result.reasons.append(reason)
    degraded.report(reason)
