"""Can a query's answer pass the filters at its time? The data behind a reachability
ceiling and answer ages.

For every judged query, each relevant chunk as it stood at the query's time
(source, created_at, access count: ``Timeline.relevant``) gets the best score
it could reach under a configuration: the merged score is at most the
strategy's ``best`` (1 in c0's scoring: min–max FTS, ``1 − d/2`` vectors, a
weighted merge with the FTS floor; 1.3 for basic-memory's), so its ceiling is
``min(1, best × decay × source weight × access boost)`` — the scoring core's
own functions (``memlab.retrieval.scoring``), clamped as the displayed score that
``min_score`` filters. The query is *reachable* when its best relevant chunk's
ceiling passes ``min_score``: no ranking can return an unreachable answer. A
query whose answer no longer exists at its time (Dream consolidated and
deleted the log that held it) has no chunk and is not reachable. The answer's
age is the query's ``answer_at`` when the dataset gives one, else the age of
its youngest relevant chunk.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np
import pandas as pd

from memlab.config import SearchConfig
from memlab.eval.replay.as_of import Timeline
from memlab.eval.replay.prepared import Prepared
from memlab.retrieval.scoring import access_boost, decay_factor, source_weights
from memlab.retrieval.strategies import get_strategy
from memlab.store.layout import is_evergreen

DAY = 86400.0
COLUMNS = [
    "query_id",
    "category",
    "as_of",
    "answer_age_days",
    "chunk_id",
    "source",
    "created_at",
    "decay",
    "ceiling",
    "reachable",
]


def relevant_chunks(source: Timeline | Prepared) -> pd.DataFrame:
    """One row per (judged query, relevant chunk at the query's time)."""
    timeline = source if isinstance(source, Timeline) else source.judged()
    queries = {q.query_id: q for q in timeline.dataset.queries}
    rows = [
        {
            "query_id": qid,
            "category": queries[qid].category or "",
            "as_of": queries[qid].as_of,
            **dataclasses.asdict(c),
        }
        for qid, chunks in timeline.relevant.items()
        if not queries[qid].abstention
        for c in chunks
    ]
    columns = ["query_id", "category", "as_of", "chunk_id", "grade", "source", "created_at"]
    return pd.DataFrame(rows, columns=[*columns, "access_count"])


def reachability(source: Timeline | Prepared, config: SearchConfig) -> pd.DataFrame:
    """Per judged query: its best relevant chunk under ``config`` at the query's time, that
    chunk's decay and score ceiling, whether it can pass ``min_score``, the answer's age.

    Queries whose answer does not exist at their time have no chunk (ceiling 0)."""
    timeline = source if isinstance(source, Timeline) else source.judged()
    chunks = relevant_chunks(timeline).assign(decay=0.0, ceiling=0.0)
    if len(chunks):
        sources = chunks["source"].to_numpy(dtype=object)
        evergreen = np.array([is_evergreen(s) for s in sources], dtype=bool)
        created = chunks["created_at"].to_numpy(dtype=np.float64)
        decay = decay_factor(
            created, chunks["as_of"].to_numpy(np.float64), config.effective_half_life(), evergreen
        )
        ceiling = decay * source_weights(sources, config) * get_strategy(config.strategy).best
        ceiling = ceiling * access_boost(chunks["access_count"].to_numpy(np.float64))
        ceiling = np.minimum(ceiling, 1.0)
        chunks = chunks.assign(decay=decay, ceiling=ceiling)
    best = chunks.sort_values(["query_id", "ceiling", "chunk_id"], ascending=[True, False, True])
    best = best.drop_duplicates("query_id").set_index("query_id")
    youngest = chunks.groupby("query_id")["created_at"].max()
    rows = []
    for q in timeline.dataset.queries:
        if q.abstention or not timeline.dataset.judged(q.query_id):
            continue
        written = q.answer_at if q.answer_at is not None else youngest.get(q.query_id)
        row: dict[str, Any] = {
            "query_id": q.query_id,
            "category": q.category or "",
            "as_of": q.as_of,
            "answer_age_days": None if written is None else (q.as_of - written) / DAY,
            "decay": 0.0,
            "ceiling": 0.0,
        }
        if q.query_id in best.index:
            found = best.loc[q.query_id]
            row.update({k: found[k] for k in ("chunk_id", "source", "created_at", "decay")})
            row["ceiling"] = found["ceiling"]
        row["reachable"] = bool(row["ceiling"] >= config.min_score and "chunk_id" in row)
        rows.append(row)
    return pd.DataFrame(rows, columns=COLUMNS)
