"""``search(store, query, config, now)``: sync → candidates → the scoring core → hits.

The scoring core is ``rank_batch``; without a trace, where it applies (c0's merge, no
MMR), ``rank_one`` computes the same hits on plain floats, faster for one query.

The result carries the hits, a ``degraded`` flag with its reasons, and on
request a trace: one row per candidate with every stage's value. After a live
search the returned chunks' access counts go up (SPEC §4.3 step 9); evaluation
passes ``record_access=False`` and ``sync=False`` (read-only, DESIGN invariant 4).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from memlab.config import MemlabConfig, SearchConfig
from memlab.errors import ConfigError
from memlab.retrieval.candidates import (
    CHUNK_ID,
    END,
    PATH,
    ROWID,
    SOURCE,
    START,
    TEXT,
    gather_rows,
)
from memlab.retrieval.candidates_batch import build_batch
from memlab.retrieval.ranking import RankedBatch, rank_batch
from memlab.retrieval.ranking_one import applies, rank_one
from memlab.retrieval.strategies import candidate_limit
from memlab.retrieval.trace import json_safe, trace_rows
from memlab.store import exact_knn
from memlab.store.store import MemoryStore, SyncReport


@dataclass(frozen=True)
class Hit:
    chunk_id: str
    path: str
    start_line: int
    end_line: int
    source: str
    score: float  # display score: clamp(raw, 0, 1)
    raw: float
    snippet: str

    def to_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


@dataclass
class SearchResult:
    query: str
    hits: list[Hit]
    degraded: bool = False
    reasons: list[str] = field(default_factory=list)
    trace: list[dict[str, Any]] | None = None
    sync: SyncReport | None = None

    def to_dict(self, include_trace: bool = False) -> dict[str, Any]:
        out: dict[str, Any] = {
            "query": self.query,
            "hits": [h.to_dict() for h in self.hits],
            "degraded": self.degraded,
            "reasons": list(self.reasons),
        }
        if include_trace and self.trace is not None:
            out["trace"] = [{k: json_safe(v) for k, v in row.items()} for row in self.trace]
        return out


def search_config(config: SearchConfig | MemlabConfig | None) -> SearchConfig:
    if config is None:
        return SearchConfig()
    return config.search if isinstance(config, MemlabConfig) else config


def search(
    store: MemoryStore,
    query: str,
    config: SearchConfig | MemlabConfig | None = None,
    now: float | None = None,
    *,
    trace: bool = False,
    record_access: bool = True,
    sync: bool = True,
) -> SearchResult:
    """Search the store's memory (SPEC §3–§5)."""
    cfg = search_config(config)
    now = store.clock() if now is None else float(now)
    if not math.isfinite(now):
        raise ConfigError(f"search time must be a finite number of seconds, got {now!r}")
    report = store.sync(now) if sync else None
    limit = candidate_limit(cfg)
    candidates = gather_rows(
        store.index,
        query,
        limit,
        embedder=store.embedder,
        use_vectors=cfg.vectors,
        supplement=cfg.evergreen_supplement,
        keywords=cfg.keywords,
        knn=partial(exact_knn.knn, store.index) if cfg.knn == "exact" else None,
    )
    stale = report.stale_reason() if report is not None else None
    unvectored = report.vector_reason() if report is not None and cfg.vectors else None
    for reason in (stale, unvectored):
        if reason is not None:
            candidates.degraded = True
            candidates.reasons.append(reason)
    ranked = None
    if trace or not applies(cfg):
        ranked = rank_batch(build_batch([candidates.candidates()]), cfg, now)
        hits = hits_of(ranked, 0)
        rowids = None
    else:  # the same hits, without the arrays only a trace needs
        best = rank_one(candidates, cfg, now)
        hits = [_hit(row, display, raw) for row, display, raw in best]
        rowids = [row[ROWID] for row, _, _ in best]
    if record_access and hits:
        if rowids is not None:
            store.index.record_access_rows(rowids, now)
        else:
            store.index.record_access([h.chunk_id for h in hits], now)
    return SearchResult(
        query=candidates.query,
        hits=hits,
        degraded=candidates.degraded,
        reasons=list(candidates.reasons),
        trace=trace_rows(ranked, 0) if ranked is not None and trace else None,
        sync=report,
    )


def _hit(row: list[Any], display: float, raw: float) -> Hit:
    """A hit from a row as ``gather_rows`` gives it."""
    return Hit(
        chunk_id=row[CHUNK_ID],
        path=row[PATH],
        start_line=int(row[START]),
        end_line=int(row[END]),
        source=row[SOURCE],
        score=display,
        raw=raw,
        snippet=row[TEXT],
    )


def hits_of(ranked: RankedBatch, q: int) -> list[Hit]:
    b = ranked.batch
    return [
        Hit(
            chunk_id=str(b.chunk_id[i]),
            path=str(b.path[i]),
            start_line=int(b.start_line[i]),
            end_line=int(b.end_line[i]),
            source=str(b.source[i]),
            score=float(ranked.display[i]),
            raw=float(ranked.raw[i]),
            snippet=str(b.text[i]),
        )
        for i in ranked.hits(q)
    ]
