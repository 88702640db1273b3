"""The evergreen supplement on a dataset, measured rather than asserted.

Rows the supplement adds (evergreen chunks outside the main FTS list) rank
below every main-list row, so min–max normalisation gives them the lowest text
scores of their query's candidates, the last one exactly 0. Without vectors
such a row passes ``min_score`` only when the main list is bunched together
and the supplement reaches much further down: its text score is
``1 − (rank − best) / (bottom − best)`` with ``rank`` at or below the main
list's worst, so it can reach ``min_score`` only when the main list spans at
most ``1 − min_score`` of the whole range (``supplement_passes``). A vector
score lets more of them pass. They also become the new bottom of the range,
which lifts every main-list row's text score, so the supplement changes
FTS-only results too. ``supplement_tally`` counts all this over a dataset;
``supplement_effect`` switches the supplement off and on;
``supplement_example`` shows one query's traces.

The functions take a ``Prepared`` (``prepare_dataset``): candidates gathered
once, each query at its own time, read-only.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import numpy as np
import pandas as pd

from memlab.config import SearchConfig
from memlab.eval.replay.prepared import Prepared, gather_batch
from memlab.retrieval.candidates_batch import CandidateBatch
from memlab.retrieval.ranking import RankedBatch, rank_batch
from memlab.retrieval.strategies import candidate_limit
from memlab.workbench.display import Panel
from memlab.workbench.traces import query_trace

FTS_ONLY = SearchConfig(vectors=False)
HYBRID = SearchConfig(vectors=True)


def _supplement_only(
    prepared: Prepared, config: SearchConfig
) -> tuple[CandidateBatch, RankedBatch, np.ndarray]:
    limit = candidate_limit(config)
    batch = gather_batch(prepared, limit)
    ranked = rank_batch(batch, config, prepared.query_now)
    only = (batch.fts_pos >= limit) & (batch.supp_pos < limit)
    return batch, ranked, only


def supplement_tally(prepared: Prepared, runs: Sequence[str] = ("fts", "hybrid")) -> pd.DataFrame:
    """Supplement-only candidates over the whole dataset, FTS-only and hybrid (c0)."""
    rows = []
    for name in runs:
        config = SearchConfig(vectors=name != "fts")
        batch, ranked, only = _supplement_only(prepared, config)
        relevant = np.array(
            [
                prepared.qrels.get(batch.query_ids[s], {}).get(str(c), 0) > 0
                for s, c in zip(batch.segment, batch.chunk_id, strict=True)
            ],
            dtype=bool,
        )
        returned = ranked.final_rank > 0
        rows.append(
            {
                "run": name,
                "supplement-only candidates": int(only.sum()),
                "highest fts": float(ranked.fts[only].max(initial=0.0)),
                "with a vector score": int((only & (ranked.vec > 0)).sum()),
                "highest merged": float(ranked.merged[only].max(initial=0.0)),
                "passed min_score": int((only & ranked.kept).sum()),
                "returned": int((only & returned).sum()),
                "relevant among them": int((only & relevant).sum()),
                "relevant returned": int((only & relevant & returned).sum()),
                "queries": batch.n_queries,
                "queries whose hits change without it": _changed(prepared, batch, ranked),
            }
        )
    return pd.DataFrame(rows)


def _changed(prepared: Prepared, batch: CandidateBatch, ranked: RankedBatch) -> int:
    """Queries whose returned hits differ when the supplement is switched off."""
    off = replace(ranked.config, evergreen_supplement=False)
    without = rank_batch(batch, off, prepared.query_now)
    return sum(not np.array_equal(ranked.hits(q), without.hits(q)) for q in range(batch.n_queries))


def supplement_passes(prepared: Prepared) -> pd.DataFrame:
    """Every supplement-only row that passes ``min_score`` without vectors, with its
    query's bm25 range: the main list's span (best to worst main-list row) as a
    share of the whole range (best to the supplement's bottom)."""
    batch, ranked, only = _supplement_only(prepared, FTS_ONLY)
    limit = candidate_limit(FTS_ONLY)
    rows = []
    for i in np.flatnonzero(only & ranked.kept):
        q = int(batch.segment[i])
        own = np.arange(batch.offsets[q], batch.offsets[q + 1])
        ranks = batch.fts_rank[own]
        main = ranks[batch.fts_pos[own] < limit]
        best, bottom = float(np.nanmin(ranks)), float(np.nanmax(ranks[only[own]]))
        rows.append(
            {
                "query_id": batch.query_ids[q],
                "chunk": str(batch.chunk_id[i]),
                "fts": float(ranked.fts[i]),
                "main-list span": float(main.max() - best),
                "whole range": bottom - best,
                "main share of the range": float(main.max() - best) / (bottom - best),
            }
        )
    return pd.DataFrame(
        rows,
        columns=[
            "query_id",
            "chunk",
            "fts",
            "main-list span",
            "whole range",
            "main share of the range",
        ],
    )


def supplement_effect(prepared: Prepared, category: str = "evergreen-crowded") -> pd.DataFrame:
    """Queries of ``category`` whose answer is returned, supplement off and on."""
    qids = [q.query_id for q in prepared.dataset.queries if q.category == category]
    rows = []
    for vectors in (False, True):
        for supplement in (False, True):
            config = SearchConfig(vectors=vectors, evergreen_supplement=supplement)
            batch, ranked, _ = _supplement_only(prepared, config)
            found = sum(1 for q in qids if _answer_returned(prepared, batch, ranked, q))
            rows.append(
                {
                    "run": "hybrid" if vectors else "fts",
                    "supplement": supplement,
                    "queries": len(qids),
                    "answer returned": found,
                }
            )
    return pd.DataFrame(rows)


def _answer_returned(
    prepared: Prepared, batch: CandidateBatch, ranked: RankedBatch, qid: str
) -> bool:
    q = batch.query_ids.index(qid)
    grades = prepared.qrels.get(qid, {})
    return any(grades.get(str(batch.chunk_id[i]), 0) > 0 for i in ranked.hits(q))


def passes_only_with_vectors(prepared: Prepared) -> list[str]:
    """Queries with a supplement-only row that passes ``min_score`` with vectors on and
    not without (dataset order)."""
    batch, hybrid, only = _supplement_only(prepared, HYBRID)
    fts_only = rank_batch(batch, FTS_ONLY, prepared.query_now)
    picked = np.flatnonzero(only & hybrid.kept & ~fts_only.kept)
    return list(dict.fromkeys(batch.query_ids[int(batch.segment[i])] for i in picked))


def supplement_example(prepared: Prepared, query_id: str = "") -> Panel:
    """Traces of a query whose supplement-only row passes ``min_score`` only with vectors."""
    if not query_id:
        found = passes_only_with_vectors(prepared)
        if not found:
            return Panel("no supplement-only row passes min_score only with vectors here")
        query_id = found[0]
    q = prepared.dataset.query(query_id)
    panel = Panel(
        f"{query_id}: {q.text!r}", ["rows shown: returned hits and every row the supplement found"]
    )
    for name, config in (("FTS-only", FTS_ONLY), ("hybrid", HYBRID)):
        df = query_trace(prepared, query_id, config)
        keep = df["rank"].notna() | df["supplement"].notna()
        panel.add(name, df[keep].drop(columns=["in limit"]))
    return panel
