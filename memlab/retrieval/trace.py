"""The trace schema: one row per candidate with every stage's value (SPEC §4.1–§5).

``TRACE_FIELDS`` is the one definition of a trace row: each field's key (as in
``SearchResult.trace`` and ``--json``), its column label in the notebook tables,
its heading and width in the ``--explain`` text table (width 0: not shown
there) and what it means. ``trace_rows`` builds the rows from a ranked batch.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from memlab.retrieval.candidates_batch import ABSENT
from memlab.retrieval.ranking import RankedBatch


@dataclass(frozen=True)
class TraceField:
    key: str
    label: str  # notebook table column ("" = not shown)
    heading: str  # --explain text table heading
    width: int  # --explain column width (0 = not shown)
    meaning: str


TRACE_FIELDS = (
    TraceField("final_rank", "rank", "rank", 4, "1-based rank among the returned hits"),
    TraceField("chunk_id", "chunk", "chunk", 34, "<path>:<i>"),
    TraceField("source", "source", "source", 9, "global, workspace, session, dream …"),
    TraceField("bm25_rank", "bm25", "bm25", 7, "FTS5 bm25 rank (negative, lower = better)"),
    TraceField("fts_pos", "fts list", "", 0, "0-based position in the main FTS list"),
    TraceField("supp_pos", "supplement", "", 0, "0-based position in the evergreen supplement"),
    TraceField("fts", "fts", "fts", 5, "min–max normalised text score"),
    TraceField("distance", "distance", "dist", 5, "L2 distance of the unit vectors"),
    TraceField("vec_pos", "", "", 0, "0-based position in the KNN list"),
    TraceField("vec", "vec", "vec", 5, "vector score 1 − distance / 2"),
    TraceField("merged", "merged", "merged", 6, "the strategy's merge of fts and vec"),
    TraceField("content_free", "content-free", "", 0, "dropped by the content-free filter"),
    TraceField(
        "age_days", "age (days)", "age", 6, "days since the chunk was first indexed (created_at)"
    ),
    TraceField("decay", "decay", "decay", 5, "time decay (1 for evergreen sources)"),
    TraceField("source_weight", "source w", "srcw", 5, "source weight"),
    TraceField("boost", "boost", "boost", 5, "access boost 1 + 0.05·ln(1 + accesses)"),
    TraceField("raw", "raw", "raw", 5, "merged × decay × source weight × boost"),
    TraceField("display", "score", "score", 5, "raw clamped to [0, 1]"),
    TraceField("kept", "kept", "kept", 4, "in play, not content-free, score ≥ min_score"),
    TraceField("mmr_position", "mmr", "mmr", 3, "1-based position after MMR"),
    TraceField("in_set", "in limit", "", 0, "within the strategy's candidate limit"),
)
TRACE_COLUMNS = tuple(f.key for f in TRACE_FIELDS)


def json_safe(value: Any) -> Any:
    """NaN and infinities become None (JSON has no NaN)."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


def _position(value: int) -> int | None:
    """A list position for the trace; None where the row is not in that list."""
    return None if value == ABSENT else int(value)


def trace_rows(ranked: RankedBatch, q: int) -> list[dict[str, Any]]:
    """One row per candidate of query ``q`` (keys: ``TRACE_COLUMNS``): the returned hits
    in rank order first, then the rest by raw score (ties by chunk id)."""
    b = ranked.batch
    out: list[dict[str, Any]] = []
    for i in range(int(b.offsets[q]), int(b.offsets[q + 1])):
        values = {
            "final_rank": int(ranked.final_rank[i]) or None,
            "chunk_id": str(b.chunk_id[i]),
            "source": str(b.source[i]),
            "bm25_rank": json_safe(float(b.fts_rank[i])) if ranked.in_fts[i] else None,
            "fts_pos": _position(b.fts_pos[i]),
            "supp_pos": _position(b.supp_pos[i]),
            "fts": float(ranked.fts[i]),
            "distance": json_safe(float(b.distance[i])) if ranked.in_vec[i] else None,
            "vec_pos": _position(b.vec_pos[i]),
            "vec": float(ranked.vec[i]),
            "merged": float(ranked.merged[i]),
            "content_free": bool(b.content_free[i]),
            "age_days": round(float(ranked.age_days[i]), 2),
            "decay": float(ranked.decay[i]),
            "source_weight": float(ranked.weight[i]),
            "boost": float(ranked.boost[i]),
            "raw": float(ranked.raw[i]),
            "display": float(ranked.display[i]),
            "kept": bool(ranked.kept[i]),
            "mmr_position": int(ranked.mmr_position[i]) or None,
            "in_set": bool(ranked.in_set[i]),
        }
        out.append({key: values[key] for key in TRACE_COLUMNS})
    out.sort(
        key=lambda r: (r["final_rank"] is None, r["final_rank"] or 0, -r["raw"], r["chunk_id"])
    )
    return out
