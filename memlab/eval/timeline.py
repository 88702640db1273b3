"""As-of evaluation: every query's candidates and judgements at the query's own time.

``replay_queries`` replays one group's timeline once, in time order
(``GroupReplay``), and each time the timeline passes a query's ``as_of`` it
gathers that query's candidates — read-only, at one (wide) candidate limit:
FTS, the evergreen supplement and vec0 KNN exactly as ``search()`` would at
that moment (``memlab.search.candidates.gather``) — and resolves its
judgements on the chunks that exist then (``judge_query``); its degraded searches
are logged once per kind of reason (``memlab.search.degraded``). One index build
per group and memory, never one per query.

A ``Timeline`` joins the groups: one ``CandidateBatch`` in dataset query order
(ranked by ``rank_batch`` with each query's ``as_of`` as ``now``), the resolved
qrels, nuggets and stale chunks, every relevant chunk as it was at its query's
time, and the Dream runs of the replay.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from memlab.datasets import Dataset, Query
from memlab.embeddings.base import EmbeddingProvider, checked_embed
from memlab.errors import EmbeddingError
from memlab.eval.judged import QueryJudgement, RelevantChunk, judge_query
from memlab.eval.memory import Memory
from memlab.eval.replay import DreamRecord, GroupReplay
from memlab.search import degraded
from memlab.search.candidates import Knn, gather, has_evergreen_rows
from memlab.search.candidates_batch import (
    CandidateBatch,
    CandidateRow,
    QueryCandidates,
    build_batch,
)


@dataclass
class GroupProduct:
    """What the replay of one group leaves: per query candidates and judgements."""

    candidates: dict[str, QueryCandidates]
    judgements: dict[str, QueryJudgement]
    dreams: list[DreamRecord]
    missing_vectors: int
    versions: dict[str, str | None]
    events: int
    seconds: float

    @property
    def complete(self) -> bool:
        """Nothing degraded for a passing reason (worth caching: a later run could not do
        better; keyword misses are settled by the query and the index)."""
        degraded = any(c.transient for c in self.candidates.values())
        return not degraded and not self.missing_vectors


def replay_queries(
    dataset: Dataset,
    group: str,
    memory: Memory,
    *,
    limit: int,
    work: Path,
    embedder: EmbeddingProvider | None = None,
    tick: Callable[[], None] | None = None,
    keywords: str = "c0",
    on_file: Callable[[], None] | None = None,
) -> GroupProduct:
    """Replay ``group`` once and gather every query of it when the timeline reaches it;
    ``tick`` is called after each query, ``on_file`` after each file event (progress)."""
    start = time.perf_counter()
    g = dataset.groups[group]
    queries = sorted(dataset.queries_in(group), key=lambda q: q.as_of)  # stable: ties keep order
    facts = dataset.fact_texts.get(group)
    memo: dict[str, str] = {}  # one string per distinct chunk text (small pickles)
    product = GroupProduct({}, {}, [], 0, {}, 0, 0.0)
    with degraded.aggregated(), GroupReplay(g, memory, work, embedder) as replay:
        replay.on_event = on_file
        for at, moment in _moments(queries):
            replay.advance(at)
            replay.refresh()
            knn = _batch_knn(replay, moment, limit)
            evergreen = has_evergreen_rows(replay.store.index)  # else no supplement to ask
            for q in moment:
                found = gather(
                    replay.store.index,
                    q.text,
                    limit,
                    embedder=embedder,
                    use_vectors=embedder is not None,
                    query_id=q.query_id,
                    keywords=keywords,
                    knn=knn.get(q.query_id),
                    evergreen_rows=evergreen,
                )
                found.rows = [_shared_text(r, memo) for r in found.rows]
                product.candidates[q.query_id] = found
                product.judgements[q.query_id] = judge_query(dataset, q, replay.chunks(), facts)
                if tick is not None:
                    tick()
        product.dreams = replay.dreams
        product.missing_vectors = len(set(replay.missing_vectors))
        product.versions = replay.store.index.connection.versions()
        product.events = replay.applied
    product.seconds = time.perf_counter() - start
    return product


def _shared_text(row: CandidateRow, memo: dict[str, str]) -> CandidateRow:
    """``row`` holding the one string kept for its text. The row was just built by
    ``gather`` for this query and nothing else holds it, so it is set in place (a
    ``dataclasses.replace`` per row was the largest single cost of a deep replay)."""
    row.text = memo.setdefault(row.text, row.text)
    return row


def _moments(queries: list[Query]) -> list[tuple[float, list[Query]]]:
    """The queries (in time order) grouped by the moment they are asked."""
    out: list[tuple[float, list[Query]]] = []
    for q in queries:
        if out and out[-1][0] == q.as_of:
            out[-1][1].append(q)
        else:
            out.append((q.as_of, [q]))
    return out


def _batch_knn(replay: GroupReplay, moment: list[Query], limit: int) -> dict[str, Knn]:
    """Every query's vector KNN at this moment in one matrix product (``VectorMatrix``;
    equal to vec0's); empty (each query asks vec0) when there is nothing to batch."""
    if replay.vectors is None or replay.embedder is None or not len(replay.vectors):
        return {}
    try:
        vecs = checked_embed(replay.embedder, [q.text for q in moment])
    except EmbeddingError:
        return {}  # gather embeds each query itself and degrades the ones that fail
    hits = replay.vectors.knn_many(vecs, limit)
    return {q.query_id: _answer(h) for q, h in zip(moment, hits, strict=True)}


def _answer(hits: list[tuple[str, float]]) -> Knn:
    def knn(_vector: object, _k: int) -> list[tuple[str, float]]:
        return hits

    return knn


@dataclass
class Timeline:
    """Candidates and judgements of every query at its own time, for one memory."""

    dataset: Dataset
    memory: Memory
    limit: int
    vectors: bool
    batch: CandidateBatch
    judgements: dict[str, QueryJudgement]
    candidates: dict[str, QueryCandidates] = field(default_factory=dict, repr=False)
    dreams: list[DreamRecord] = field(default_factory=list)
    missing_vectors: int = 0
    versions: dict[str, str | None] = field(default_factory=dict)
    seconds: float = 0.0

    @classmethod
    def join(
        cls,
        dataset: Dataset,
        memory: Memory,
        limit: int,
        vectors: bool,
        products: Mapping[str, GroupProduct],
        *others: Mapping[str, GroupProduct],
    ) -> Timeline:
        """One timeline from the groups' products; ``others``: the products of the other
        indexes of ``memory`` (per-tag options), which add their queries' candidates and
        judgements (Dream runs and versions come from the default index's replays)."""
        every = [p for part in (products, *others) for p in part.values()]
        candidates = {q: c for p in every for q, c in p.candidates.items()}
        judgements = {q: j for p in every for q, j in p.judgements.items()}
        batch = build_batch([candidates[q.query_id] for q in dataset.queries])
        return cls(
            dataset,
            memory,
            limit,
            vectors,
            batch,
            {q.query_id: judgements[q.query_id] for q in dataset.queries},
            candidates,
            [d for p in products.values() for d in p.dreams],
            sum(p.missing_vectors for p in every),
            next((p.versions for p in products.values()), {}),
            sum(p.seconds for p in every),
        )

    @property
    def query_now(self) -> np.ndarray:
        """Each query's ``as_of`` (the ``now`` of its ranking), in dataset order."""
        return np.array([q.as_of for q in self.dataset.queries], dtype=np.float64)

    @property
    def qrels(self) -> dict[str, dict[str, int]]:
        """``{query_id: {chunk_id: grade}}`` at each query's time (judged queries only)."""
        judged = self.dataset.qrels
        return {q: j.grades for q, j in self.judgements.items() if q in judged}

    @property
    def nuggets(self) -> dict[str, dict[str, frozenset[int]]]:
        """``{query_id: {chunk_id: nuggets}}`` for queries judged with nuggets."""
        return {q: j.nuggets for q, j in self.judgements.items() if j.nuggets}

    @property
    def stale(self) -> dict[str, list[str]]:
        return {q: j.stale for q, j in self.judgements.items() if j.stale}

    @property
    def relevant(self) -> dict[str, tuple[RelevantChunk, ...]]:
        return {q: j.relevant for q, j in self.judgements.items()}

    @property
    def unresolved(self) -> list[str]:
        """Judged queries none of whose relevant targets exists at the query's time."""
        return sorted(
            q.query_id
            for q in self.dataset.queries
            if self.dataset.judged(q.query_id) and not self.judgements[q.query_id].relevant
        )
