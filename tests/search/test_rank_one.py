"""``rank_one`` (a live search's one query, in plain floats) equals ``rank_batch``:
the same hits, in the same order, with the same display and raw scores bit for bit.

Candidate sets are drawn to make every branch and tie common: few distinct BM25
ranks and distances (equal raw scores, broken by chunk id), rows only in the
evergreen supplement, only in the KNN list or in both, evergreen and decaying
sources, creation times before and after ``now``, access counts, content-free and
scaffold texts, zero, one or many rows; configurations over every axis a sweep
varies (weights, decay, source weights, ``min_score``, vectors on and off, limits).
"""

from __future__ import annotations

import struct
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from memlab.config import SearchConfig, with_overrides
from memlab.retrieval.candidates import CHUNK_ID, Gathered
from memlab.retrieval.candidates_batch import ABSENT, CandidateRow, QueryCandidates, build_batch
from memlab.retrieval.pipeline import hits_of, search
from memlab.retrieval.ranking import rank_batch
from memlab.retrieval.ranking_one import applies, rank_one
from memlab.retrieval.strategies import candidate_limit
from memlab.store.store import MemoryStore
from memlab.timefmt import DAY
from tests.conftest import T0, WS, write
from tests.sweep.conftest import draw_overrides

NOW = 1_790_000_000.0
TEXTS = [
    "alpha beta",
    "# Only a heading\n\n## and another",  # content-free
    "<!-- a comment -->\n# Heading",  # content-free
    "Auto-populated by dream consolidation",  # a scaffold: content-free when evergreen
    "gamma delta\n\nmore text",
]
SOURCES = ["session", "workspace", "global", "dream", "openclaw"]


def bits(x: float) -> bytes:
    return struct.pack("<d", x)


def draw_candidates(rng: np.random.Generator, limit: int) -> QueryCandidates:
    n = int(rng.integers(0, 3 * limit + 1))
    ids = sorted(rng.choice(500, size=n, replace=False).tolist())
    fts, vec = rng.permutation(n), rng.permutation(n)
    n_fts, n_supp, n_vec = (int(rng.integers(0, limit + 1)) for _ in range(3))
    fractional = rng.random() < 0.5  # else few distinct ranks and distances: many ties
    rows = []
    for i, cid in enumerate(ids):
        in_fts = fts[i] < n_fts
        in_supp = fts[i] >= n_fts and fts[i] < n_fts + n_supp
        in_vec = vec[i] < n_vec or not (in_fts or in_supp)
        rank = -float(rng.uniform(0.01, 12)) if fractional else -float(rng.integers(1, 4))
        distance = float(rng.uniform(0, 2.2)) if fractional else float(rng.integers(0, 9)) / 4
        rows.append(
            CandidateRow(
                chunk_id=f"c{cid:03d}",
                path=f"p{cid % 7}.md",
                start_line=int(cid),
                end_line=int(cid) + 2,
                text=TEXTS[int(rng.integers(len(TEXTS)))],
                source=SOURCES[int(rng.integers(len(SOURCES)))],
                created_at=NOW - DAY * float(rng.choice([-3, 0, 0.5, 5, 40, 400])),
                access_count=int(rng.choice([0, 0, 1, 2, 7, 1000])),
                fts_rank=rank if (in_fts or in_supp) else np.nan,
                fts_pos=int(fts[i]) if in_fts else ABSENT,
                supp_pos=int(fts[i]) - n_fts if in_supp else ABSENT,
                distance=distance if in_vec else np.nan,
                vec_pos=int(vec[i]) if in_vec else ABSENT,
            )
        )
    return QueryCandidates("q", "query", limit, rows, vector_used=bool(rng.random() < 0.7))


def draw_config(rng: np.random.Generator, limit: int) -> SearchConfig:
    while True:
        overrides: dict[str, Any] = draw_overrides(rng)
        overrides["strategy"] = "grok"
        if rng.random() < 0.3:
            overrides["mmr.lambda"] = 1.0  # MMR on at λ = 1 changes nothing: still this path
        cfg = with_overrides(SearchConfig(), overrides)
        if applies(cfg) and candidate_limit(cfg) <= limit:
            return cfg


def assert_same(found: QueryCandidates, cfg: SearchConfig, now: float) -> int:
    ranked = rank_batch(build_batch([found]), cfg, now)
    want = [(h.chunk_id, bits(h.score), bits(h.raw)) for h in hits_of(ranked, 0)]
    got = [
        (row[CHUNK_ID], bits(display), bits(raw))
        for row, display, raw in rank_one(Gathered.of(found), cfg, now)
    ]
    assert got == want, cfg
    return len(got)


@pytest.mark.parametrize("seed", range(8))
def test_rank_one_equals_rank_batch_bit_for_bit(seed: int) -> None:
    rng = np.random.default_rng(seed)
    hits = 0
    for _ in range(150):
        found = draw_candidates(rng, limit=int(rng.integers(1, 41)))
        cfg = draw_config(rng, found.limit)
        hits += assert_same(found, cfg, NOW + DAY * float(rng.integers(0, 10)))
    assert hits > 0


def test_ties_go_to_the_smaller_chunk_id() -> None:
    rows = [
        CandidateRow(f"c{i}", "a.md", 1, 2, "text", "session", NOW, 0, -1.0, i) for i in range(4)
    ]
    found = QueryCandidates("q", "query", 18, rows)
    cfg = SearchConfig(vectors=False, min_score=0.0)
    hits = rank_one(Gathered.of(found), cfg, NOW)
    assert [row[CHUNK_ID] for row, _, _ in hits] == ["c0", "c1", "c2", "c3"]
    assert assert_same(found, cfg, NOW) == 4


def test_only_grok_without_mmr_takes_this_path() -> None:
    assert applies(SearchConfig())
    assert applies(with_overrides(SearchConfig(), {"mmr.enabled": True, "mmr.lambda": 1.0}))
    assert not applies(with_overrides(SearchConfig(), {"mmr.enabled": True}))
    assert not applies(SearchConfig(strategy="rrf"))


def test_search_without_a_trace_returns_what_the_traced_search_returns(tmp_path: Path) -> None:
    """``search`` ranks with ``rank_one`` unless asked for a trace (then ``rank_batch``)."""
    root = tmp_path / "memory"
    write(root, "MEMORY.md", "# Prefs\n\nThe deploy checklist: run the deploy smoke test.\n")
    write(root, f"{WS}/MEMORY.md", "# Project\n\nDeploy with the smoke checklist.\n")
    for i in range(25):
        write(
            root,
            f"{WS}/sessions/2026-01-{i % 28 + 1:02d}-s{i}-{i:08d}.md",
            f"# S{i}\n\ndeploy {'smoke ' * (i % 4)}checklist {i}\n\n## Notes\n\nsmoke {i}\n",
        )
    store = MemoryStore.open(root, index_path=tmp_path / "index.sqlite")
    try:
        store.build(now=T0 - 30 * DAY)
        rng = np.random.default_rng(3)
        for _ in range(40):
            cfg = draw_config(rng, 10**6)
            when = T0 + DAY * float(rng.integers(0, 60))
            plain = search(store, "deploy smoke checklist", cfg, when, record_access=False)
            traced = search(
                store, "deploy smoke checklist", cfg, when, trace=True, record_access=False
            )
            assert plain.hits == traced.hits
            assert [bits(h.raw) for h in plain.hits] == [bits(h.raw) for h in traced.hits]
    finally:
        store.close()


@pytest.mark.parametrize("seed", range(4))
def test_a_query_ranked_alone_equals_it_ranked_among_others(seed: int) -> None:
    """``rank_batch``'s one-query shortcuts (scalar FTS bounds, no segment key, no vector
    arithmetic without a vector list) give what the many-query form gives."""
    rng = np.random.default_rng(100 + seed)
    found = []
    for q in range(int(rng.integers(2, 12))):
        item = draw_candidates(rng, limit=30)
        item.query_id = f"q{q}"
        found.append(item)
    configs = [with_overrides(SearchConfig(), draw_overrides(rng)) for _ in range(60)]
    for cfg in [c for c in configs if candidate_limit(c) <= 30]:
        together = rank_batch(build_batch(found), cfg, NOW)
        for q, item in enumerate(found):
            alone = rank_batch(build_batch([item]), cfg, NOW)
            want = [(h.chunk_id, bits(h.score), bits(h.raw)) for h in hits_of(together, q)]
            got = [(h.chunk_id, bits(h.score), bits(h.raw)) for h in hits_of(alone, 0)]
            assert got == want, (cfg, q)
