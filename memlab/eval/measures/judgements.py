"""What the measures need to know about every row — a candidate (sweeps) or a
returned hit (evaluation) — looked up once.

Grades are looked up per (query, chunk) when the rows are known; after that every
measure is array operations (``memlab.eval.measures``).
"""

from __future__ import annotations

import math
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from memlab.arrays import BoolArray, FloatArray, IntArray
from memlab.eval.measures.novelty import NuggetTable

if TYPE_CHECKING:  # annotations only: the measures import nothing of the replay
    from memlab.eval.replay.as_of import Timeline
    from memlab.retrieval.candidates_batch import CandidateBatch


@dataclass
class Judgements:
    """Per candidate row and per query: grades, judged and stale flags, token counts."""

    n_queries: int
    grade: FloatArray  # per row: positive grade of the row's chunk for its query, else 0
    judged_doc: BoolArray  # per row: the chunk carries a judgement (any grade)
    stale: BoolArray  # per row: the chunk holds a superseded answer of its query
    tokens: FloatArray  # per row: ceil(UTF-8 bytes / 4)
    judged: BoolArray  # per query: scored by IR measures (not abstention, a positive grade)
    relevant: list[FloatArray]  # per query: all positive grades, best first
    has_stale: BoolArray  # per query
    abstention: BoolArray  # per query
    nuggets: NuggetTable | None = None  # per row and query, for queries judged with nuggets
    n_relevant: FloatArray = field(init=False)  # per query: number of positive judgements
    _idcg: dict[int | None, FloatArray] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        self.n_relevant = np.array([len(g) for g in self.relevant], dtype=np.float64)

    def idcg(self, k: int | None) -> FloatArray:
        """Ideal DCG at ``k`` of every query (all positive judgements, best first)."""
        if k not in self._idcg:
            self._idcg[k] = np.array(
                [_dcg(g[:k] if k is not None else g) for g in self.relevant], dtype=np.float64
            )
        return self._idcg[k]


def _dcg(grades: FloatArray) -> float:
    return float(np.sum(grades / np.log2(np.arange(1, len(grades) + 1) + 1.0)))


def build_judgements(
    query_ids: Sequence[str],
    segment: IntArray,
    chunk_ids: Sequence[str],
    texts: Sequence[str],
    qrels: Mapping[str, Mapping[str, int]],
    *,
    abstention: Collection[str] = (),
    stale: Mapping[str, Sequence[str]] | None = None,
    nuggets: Mapping[str, Mapping[str, frozenset[int]]] | None = None,
) -> Judgements:
    """Judgements of candidate rows (``segment`` gives each row's query index)."""
    stale = stale or {}
    nuggets = nuggets or {}
    qid_of_row = [query_ids[q] for q in segment]
    grades = [qrels.get(q, {}) for q in qid_of_row]
    stale_sets = {q: set(ids) for q, ids in stale.items()}
    relevant = [
        np.array(sorted((g for g in qrels.get(q, {}).values() if g > 0), reverse=True), float)
        for q in query_ids
    ]
    abstain = np.array([q in set(abstention) for q in query_ids], dtype=bool)
    token_memo: dict[str, float] = {}
    for t in texts:
        if t not in token_memo:
            token_memo[t] = float(math.ceil(len(t.encode("utf-8")) / 4))
    return Judgements(
        n_queries=len(query_ids),
        grade=np.array(
            [max(g.get(c, 0), 0) for g, c in zip(grades, chunk_ids, strict=True)], float
        ),
        judged_doc=np.array([c in g for g, c in zip(grades, chunk_ids, strict=True)], bool),
        stale=np.array(
            [c in stale_sets.get(q, ()) for q, c in zip(qid_of_row, chunk_ids, strict=True)],
            dtype=bool,
        ),
        tokens=np.array([token_memo[t] for t in texts], dtype=np.float64),
        judged=np.array([len(r) > 0 for r in relevant], dtype=bool) & ~abstain,
        relevant=relevant,
        has_stale=np.array([bool(stale_sets.get(q)) for q in query_ids], dtype=bool),
        abstention=abstain,
        nuggets=NuggetTable.build(
            [
                nuggets.get(q, {}).get(c, frozenset())
                for q, c in zip(qid_of_row, chunk_ids, strict=True)
            ],
            [list(nuggets.get(q, {}).values()) for q in query_ids],
            ~abstain,
        )
        if nuggets
        else None,
    )


def judgements_for(batch: CandidateBatch, timeline: Timeline) -> Judgements:
    """Judgements of every row of ``batch`` as resolved at each query's time."""
    abstention = {q.query_id for q in timeline.dataset.queries if q.abstention}
    return build_judgements(
        batch.query_ids,
        batch.segment,
        [str(c) for c in batch.chunk_id],
        [str(t) for t in batch.text],
        timeline.qrels,
        abstention=abstention,
        stale=timeline.stale,
        nuggets=timeline.nuggets,
    )
