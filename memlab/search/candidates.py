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

from collections.abc import Callable
from typing import Any

from memlab.embeddings.base import EmbeddingProvider, checked_embed
from memlab.errors import EmbeddingError
from memlab.search import degraded
from memlab.search.candidates_batch import CandidateRow, QueryCandidates
from memlab.search.query_terms import KeywordPlan, plan_keywords, printable_query
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
    "SELECT rowid, id, path, start_line, end_line, text, source, created_at, access_count "
    "FROM chunks WHERE {key} IN ({marks})"
)


def _features(db: Any, key: str, values: list[Any]) -> dict[Any, tuple[Any, ...]]:
    out: dict[Any, tuple[Any, ...]] = {}
    for start in range(0, len(values), 500):
        part = values[start : start + 500]
        sql = _FEATURES_SQL.format(key=key, marks=",".join("?" * len(part)))
        for row in db.execute(sql, part):
            out[row[0] if key == "rowid" else row[1]] = row
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
    ``memlab.search.vector_batch.VectorMatrix``, equal to vec0's). ``evergreen_rows=False``
    says the index holds no evergreen chunk (``has_evergreen_rows``): the supplement,
    which could find nothing, is not asked — unless the FTS list failed, so that both
    failures are reported as before."""
    query = printable_query(query)
    result = QueryCandidates(query_id, query, limit, [])
    fts: dict[int, dict[str, Any]] = {}
    try:
        plan = plan_keywords(index.db, index.tokenizer, query, keywords)
    except index.connection.Error as exc:
        plan = KeywordPlan(None)
        _degrade(result, f"reading the query with the index's tokenizer failed ({exc})")
    for reason in plan.misses:
        _degrade(result, reason)
    result.settled = list(plan.misses)
    if plan.match is not None or plan.like:
        failures = len(result.reasons)
        main = _text_rows(index, plan, limit, result, evergreen=False)
        for pos, (rowid, rank) in enumerate(main):
            fts[rowid] = {"fts_rank": rank, "fts_pos": pos}
        if supplement and (evergreen_rows or len(result.reasons) > failures):
            extra = _text_rows(index, plan, limit, result, evergreen=True)
            for pos, (rowid, rank) in enumerate(extra):
                fts.setdefault(rowid, {"fts_rank": rank})["supp_pos"] = pos
    rows: dict[str, CandidateRow] = {}
    for rowid, feat in _features(index.db, "rowid", list(fts)).items():
        rows[feat[1]] = _row(feat, **fts[rowid])
    if use_vectors and embedder is not None:
        _vector_candidates(index, query, limit, embedder, result, rows, knn)
    result.rows = sorted(rows.values(), key=lambda r: r.chunk_id)
    return result


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
    index: MemoryIndex, plan: KeywordPlan, limit: int, result: QueryCandidates, *, evergreen: bool
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
        out = [(int(r), float(k)) for r, k in index.db.execute(sql, params)]
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
    result: QueryCandidates,
    rows: dict[str, CandidateRow],
    knn: Knn | None = None,
) -> None:
    if not index.connection.vec_loaded:
        _degrade(result, "sqlite-vec is not loaded; FTS-only")
        return
    if not vectors.table_exists(index):
        _degrade(result, "the index has no vectors (run `memlab index --embedder NAME`); FTS-only")
        return
    try:
        qvec = checked_embed(embedder, [query])[0]
    except EmbeddingError as exc:
        _degrade(result, f"query embedding failed: {exc}; FTS-only")
        return
    try:
        hits = knn(qvec, limit) if knn is not None else vectors.knn(index, qvec, limit)
    except index.connection.Error as exc:
        _degrade(result, f"vector query failed ({exc}); FTS-only")
        return
    result.vector_used = True
    missing = [cid for cid, _ in hits if cid not in rows]
    feats = _features(index.db, "id", missing)
    for pos, (cid, distance) in enumerate(hits):
        if cid in rows:  # built above for this query alone: completed in place
            base = rows[cid]
            base.distance, base.vec_pos = distance, pos
        elif cid in feats:
            rows[cid] = _row(feats[cid], distance=distance, vec_pos=pos)


def _row(feat: tuple[Any, ...], **signals: Any) -> CandidateRow:
    _, cid, path, start, end, text, source, created, access = feat
    return CandidateRow(
        chunk_id=cid,
        path=path,
        start_line=int(start),
        end_line=int(end),
        text=text,
        source=source,
        created_at=float(created),
        access_count=int(access),
        **signals,
    )


def _degrade(result: QueryCandidates, reason: str) -> None:
    result.degraded = True
    result.reasons.append(reason)
    degraded.report(reason)
