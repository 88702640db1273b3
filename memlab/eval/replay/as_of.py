"""As-of evaluation: every query's candidates and judgements at the query's own time.

``replay_queries`` replays one group's timeline once, in time order
(``GroupReplay``), and each time the timeline passes a query's ``as_of`` it
gathers that query's candidates — read-only, at one (wide) candidate limit:
FTS, the evergreen supplement and vec0 KNN exactly as ``search()`` would at
that moment (``memlab.eval.replay.gathering.gather_into``: ``gather``'s rows kept as
columns, each distinct chunk once) — and resolves its
judgements on the chunks that exist then (``judge_query``); its degraded searches
are logged once per kind of reason (``memlab.retrieval.degraded``). One index build
per group and memory, never one per query.

A ``Timeline`` joins the groups: one ``CandidateBatch`` in dataset query order
(``join_columns``, no row object)
(ranked by ``rank_batch`` with each query's ``as_of`` as ``now``), the resolved
qrels, nuggets and stale chunks, every relevant chunk as it was at its query's
time, and the Dream runs of the replay.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from memlab.datasets import Dataset, Query
from memlab.embeddings.base import EmbeddingProvider, checked_embed
from memlab.errors import EmbeddingError
from memlab.eval.replay.gathering import ChunkFeatures, gather_into
from memlab.eval.replay.judged import QueryJudgement, RelevantChunk, judge_query
from memlab.eval.replay.memory import Memory
from memlab.eval.replay.working_copy import DreamRecord, GroupReplay
from memlab.retrieval import degraded
from memlab.retrieval.candidate_columns import CandidateColumns, ColumnsBuilder, join_columns
from memlab.retrieval.candidates import Knn, has_evergreen_rows
from memlab.retrieval.candidates_batch import CandidateBatch, QueryCandidates, batch_rows


@dataclass
class GroupProduct:
    """What the replay of one group leaves: every query's candidates (as columns, in the
    order the replay asked them) and judgements."""

    candidates: CandidateColumns
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
        degraded = any(c.transient for c in self.candidates.queries)
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
    out = ColumnsBuilder()  # one tuple (and text) per distinct chunk, no object per row
    features = ChunkFeatures(out)
    judgements: dict[str, QueryJudgement] = {}
    with degraded.aggregated(), GroupReplay(g, memory, work, embedder) as replay:
        replay.on_event = on_file
        for at, moment in _moments(queries):
            replay.advance(at)
            replay.refresh()
            features.new_moment()
            knn = _batch_knn(replay, moment, limit)
            evergreen = has_evergreen_rows(replay.store.index)  # else no supplement to ask
            for q in moment:
                gather_into(
                    features,
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
                judgements[q.query_id] = judge_query(dataset, q, replay.chunks(), facts)
                if tick is not None:
                    tick()
        product = GroupProduct(
            out.finish(),
            judgements,
            replay.dreams,
            len(set(replay.missing_vectors)),
            replay.store.index.connection.versions(),
            replay.applied,
            0.0,
        )
    product.seconds = time.perf_counter() - start
    return product


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
    candidates: QueryCandidatesView = field(init=False, repr=False)
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
        where = {  # query id -> (product, query of it): a later product's wins
            found.query_id: (i, q)
            for i, p in enumerate(every)
            for q, found in enumerate(p.candidates.queries)
        }
        judgements = {q: j for p in every for q, j in p.judgements.items()}
        batch = join_columns(
            [p.candidates for p in every], [where[q.query_id] for q in dataset.queries]
        )
        return cls(
            dataset,
            memory,
            limit,
            vectors,
            batch,
            {q.query_id: judgements[q.query_id] for q in dataset.queries},
            [d for p in products.values() for d in p.dreams],
            sum(p.missing_vectors for p in every),
            next((p.versions for p in products.values()), {}),
            sum(p.seconds for p in every),
        )

    def __post_init__(self) -> None:
        self.candidates = QueryCandidatesView(self.batch)

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


class QueryCandidatesView(Mapping[str, QueryCandidates]):
    """``{query_id: QueryCandidates}`` of a timeline's batch, each built when asked (the
    batch holds the rows as columns; a query's ``CandidateRow``s are made for it alone)."""

    def __init__(self, batch: CandidateBatch) -> None:
        self.batch = batch
        self._where = {qid: q for q, qid in enumerate(batch.query_ids)}

    def __getitem__(self, query_id: str) -> QueryCandidates:
        q = self._where[query_id]
        b = self.batch
        return QueryCandidates(
            query_id,
            b.queries[q],
            b.limit,
            batch_rows(b, q),
            b.degraded[q],
            list(b.reasons[q]),
            list(b.settled[q]),
            b.vector_used[q],
        )

    def __iter__(self) -> Iterator[str]:
        return iter(self._where)

    def __len__(self) -> int:
        return len(self._where)
