"""A query's judgements resolved on the memory as it stands at the query's time.

Targets (paths, line spans, facts) are resolved to the chunks that exist at
that moment (``memlab.datasets.resolve_targets``: format-2 facts by their
text, format-1 facts by marker). A chunk gets the highest grade of the
targets it matches and the union of their nuggets. For every relevant chunk
the judgement keeps its source, created_at and access count *at that time*,
so what the filters can do with it (decay, ``min_score``) is computable later
(``memlab.eval.compare.reach``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from memlab.datasets import Dataset, FactText, Query
from memlab.datasets.target_chunks import ChunkIndex
from memlab.store.index import IndexedChunk


@dataclass(frozen=True)
class RelevantChunk:
    """A chunk judged relevant to a query, as it is at the query's time."""

    chunk_id: str
    grade: int
    source: str
    created_at: float
    access_count: int = 0


@dataclass
class QueryJudgement:
    grades: dict[str, int] = field(default_factory=dict)  # chunk id -> grade (0 kept)
    nuggets: dict[str, frozenset[int]] = field(default_factory=dict)  # chunk id -> nuggets
    stale: list[str] = field(default_factory=list)  # chunks holding a superseded answer
    relevant: tuple[RelevantChunk, ...] = ()  # grade > 0, in chunk order


def judge_query(
    dataset: Dataset,
    query: Query,
    chunks: Sequence[IndexedChunk] | ChunkIndex,
    facts: Mapping[str, FactText] | None = None,
) -> QueryJudgement:
    """Resolve ``query``'s judgements (at the dataset's level) and stale targets on ``chunks``
    (a ``ChunkIndex`` when many queries are judged on one memory state)."""
    judged = dataset.qrels.get(query.query_id, {})
    nuggets = dataset.nuggets.get(query.query_id, {})
    targets = set(judged) | set(query.stale_targets)
    if not targets:
        return QueryJudgement()
    index = chunks if isinstance(chunks, ChunkIndex) else ChunkIndex(chunks)
    resolved = index.resolve(sorted(targets), facts)
    out = QueryJudgement()
    for target, grade in judged.items():
        for cid in resolved[target]:
            out.grades[cid] = max(grade, out.grades.get(cid, grade))
            if grade > 0 and target in nuggets:
                out.nuggets[cid] = out.nuggets.get(cid, frozenset()) | nuggets[target]
    out.stale = list(dict.fromkeys(c for t in query.stale_targets for c in resolved[t]))
    places = sorted(index.position[cid] for cid, grade in out.grades.items() if grade > 0)
    chunks_now: Sequence[Any] = index.chunks  # IndexedChunk rows: source, times, accesses
    out.relevant = tuple(
        RelevantChunk(c.chunk_id, out.grades[c.chunk_id], c.source, c.created_at, c.access_count)
        for c in (chunks_now[i] for i in places)
    )
    return out
