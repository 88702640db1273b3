"""The search pipeline on real SQLite: candidates, supplement, ordering, safety, traces."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memlab.config import MmrConfig, SearchConfig
from memlab.retrieval.pipeline import search
from memlab.retrieval.trace import TRACE_COLUMNS
from memlab.store.store import MemoryStore
from tests.conftest import DAY, T0, WS, write

ALL = SearchConfig(min_score=0.0, max_results=50)


def crowded(root: Path, n: int = 30) -> None:
    """Many session logs mention the keywords more often than the global memory does."""
    write(root, "MEMORY.md", "# Prefs\n\nThe deploy checklist: run the deploy smoke test.\n")
    for i in range(n):
        write(
            root,
            f"{WS}/sessions/2026-01-{i % 28 + 1:02d}-s{i}-{i:08d}.md",
            f"# S{i}\n\ndeploy deploy deploy checklist checklist smoke smoke {i}\n",
        )


def test_evergreen_supplement_rescues_crowded_out_memory(
    tmp_path: Path, open_store: Callable[..., MemoryStore]
) -> None:
    root = tmp_path / "m"
    crowded(root)
    store = open_store(root)
    store.build(now=T0)
    cfg = SearchConfig(min_score=0.0)  # max_results 6 → 18 candidates per list
    with_supp = search(store, "deploy checklist smoke", cfg, T0, trace=True, record_access=False)
    ids = {r["chunk_id"] for r in with_supp.trace or [] if r["in_set"]}
    assert "MEMORY.md:0" in ids
    row = next(r for r in with_supp.trace or [] if r["chunk_id"] == "MEMORY.md:0")
    assert row["fts_pos"] is None and row["supp_pos"] == 0
    no_supp = search(
        store,
        "deploy checklist smoke",
        SearchConfig(min_score=0.0, evergreen_supplement=False),
        T0,
        trace=True,
        record_access=False,
    )
    assert "MEMORY.md:0" not in {r["chunk_id"] for r in no_supp.trace or [] if r["in_set"]}


def test_candidate_limit_is_three_times_max_results(
    tmp_path: Path, open_store: Callable[..., MemoryStore]
) -> None:
    root = tmp_path / "m"
    crowded(root)
    store = open_store(root)
    store.build(now=T0)
    cfg = SearchConfig(max_results=4, min_score=0.0)
    result = search(store, "deploy", cfg, T0, trace=True, record_access=False)
    fts_main = [r for r in result.trace or [] if r["fts_pos"] is not None]
    assert len(fts_main) == 12
    assert len(result.hits) == 4


def test_ties_are_broken_by_chunk_id(
    tmp_path: Path, open_store: Callable[..., MemoryStore]
) -> None:
    root = tmp_path / "m"
    for name in ("c", "a", "b"):
        write(
            root, f"{WS}/sessions/2026-01-01-{name}-{name * 8}.md", "# T\n\nidentical words here\n"
        )
    write(
        root, f"{WS}/sessions/2026-01-01-z-zzzzzzzz.md", "# T\n\nidentical words here twice words\n"
    )
    store = open_store(root)
    store.build(now=T0)
    cfg = SearchConfig(min_score=0.0, max_results=10, half_life_days=None)
    hits = search(store, "identical words", cfg, T0, record_access=False).hits
    assert hits[0].chunk_id.endswith("z-zzzzzzzz.md:0")
    tied = [h.chunk_id for h in hits[1:]]
    assert len({h.raw for h in hits[1:]}) == 1 and len(tied) == 3
    assert tied == sorted(tied)


def test_min_score_applies_to_display_and_sort_uses_raw(
    memory: Path, open_store: Callable[..., MemoryStore]
) -> None:
    store = open_store(memory)
    store.build(now=T0)
    cfg = SearchConfig(
        min_score=1.0,
        source_weights={"workspace": 2.0, "global": 1.5},
        half_life_days=None,
        max_results=10,
    )
    hits = search(store, "port API pytest", cfg, T0, record_access=False).hits
    assert all(h.score == 1.0 for h in hits)
    assert [h.raw for h in hits] == sorted((h.raw for h in hits), reverse=True)


def test_record_access_is_on_for_live_search_and_off_for_evaluation(
    memory: Path, open_store: Callable[..., MemoryStore]
) -> None:
    store = open_store(memory)
    store.build(now=T0)

    def count() -> int:
        return int(store.index.db.execute("SELECT SUM(access_count) FROM chunks").fetchone()[0])

    search(store, "token refresh bug", now=T0, record_access=False)
    assert count() == 0
    result = search(store, "token refresh bug", now=T0)
    assert count() == len(result.hits) == 1
    row = store.index.db.execute(
        "SELECT last_accessed FROM chunks WHERE access_count = 1"
    ).fetchone()
    assert row[0] == T0


def test_access_boost_changes_later_rankings(
    tmp_path: Path, open_store: Callable[..., MemoryStore]
) -> None:
    root = tmp_path / "m"
    write(root, f"{WS}/sessions/2026-01-01-a-aaaaaaaa.md", "# A\n\nredis cache notes\n")
    write(root, f"{WS}/sessions/2026-01-01-b-bbbbbbbb.md", "# B\n\nredis cache notes\n")
    store = open_store(root)
    store.build(now=T0)
    cfg = SearchConfig(min_score=0.0, half_life_days=None)
    first = search(store, "redis cache", cfg, T0, record_access=False).hits
    store.index.record_access([first[1].chunk_id], now=T0)
    again = search(store, "redis cache", cfg, T0, record_access=False).hits
    assert again[0].chunk_id == first[1].chunk_id


def test_trigram_tokenizer_makes_cjk_findable(
    tmp_path: Path, open_store: Callable[..., MemoryStore]
) -> None:
    root = tmp_path / "m"
    write(root, f"{WS}/MEMORY.md", "# 记忆\n\n我们的记忆检索使用全文索引和向量索引。\n")
    plain = open_store(root)
    plain.build(now=T0)
    assert search(plain, "记忆检索", ALL, T0, record_access=False).hits == []
    tri = open_store(root, tokenizer="trigram")
    tri.build(now=T0)
    assert [h.path for h in search(tri, "记忆检索", ALL, T0, record_access=False).hits] == [
        f"{WS}/MEMORY.md"
    ]


def test_porter_tokenizer_stems(tmp_path: Path, open_store: Callable[..., MemoryStore]) -> None:
    root = tmp_path / "m"
    write(root, f"{WS}/MEMORY.md", "# Notes\n\nWe were deploying services all day.\n")
    porter = open_store(root, tokenizer="porter")
    porter.build(now=T0)
    assert search(porter, "deployed service", ALL, T0, record_access=False).hits
    plain = open_store(root, tokenizer="unicode61")
    plain.build(now=T0)
    assert not search(plain, "deployed service", ALL, T0, record_access=False).hits


HOSTILE = [
    '"',
    '""',
    "'",
    "NEAR(",
    "NEAR(a b, 3)",
    "a*",
    "*",
    "col:value",
    ":",
    "^start",
    "-a -b",
    "((((",
    "))",
    "a AND OR NOT b",
    "\x00\x01\x1f",
    "x" * 10_000,
    "中文检索",
    "😀🔥 emoji",
    "{braces} [brackets]",
    "\\",
    "%_",
    "'; DROP TABLE chunks; --",
    "rank MATCH",
]


@pytest.mark.parametrize("query", HOSTILE)
def test_hostile_queries_are_safe(
    memory: Path, open_store: Callable[..., MemoryStore], query: str
) -> None:
    store = open_store(memory)
    store.build(now=T0)
    result = search(store, query, ALL, T0, record_access=False)
    assert not result.degraded
    assert store.index.stats().chunks == 4


@pytest.fixture(scope="module")
def shared_store(tmp_path_factory: pytest.TempPathFactory) -> MemoryStore:
    root = tmp_path_factory.mktemp("hypo") / "m"
    crowded(root, 8)
    store = MemoryStore.open(root, index_path=root.parent / "i.sqlite")
    store.build(now=T0)
    return store


@settings(
    max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.text(max_size=300))
def test_any_query_text_is_safe(shared_store: MemoryStore, query: str) -> None:
    result = search(shared_store, query, ALL, T0, record_access=False)
    # Degraded only where c0's keywords read the query differently from the index.
    assert all("keywords" in reason for reason in result.reasons)


def test_deleted_file_never_returned(memory: Path, open_store: Callable[..., MemoryStore]) -> None:
    store = open_store(memory)
    store.build(now=T0)
    for rel in store.layout.scan():
        (memory / rel).unlink()
        store.dirty.add([rel])
        for q in ("pytest", "port API", "token refresh", "deploy rate limits"):
            assert all(h.path != rel for h in search(store, q, ALL, T0, record_access=False).hits)


def test_trace_has_every_stage(memory: Path, open_store: Callable[..., MemoryStore]) -> None:
    store = open_store(memory)
    store.build(now=T0 - 10 * DAY)
    cfg = SearchConfig(min_score=0.0, mmr=MmrConfig(enabled=True))
    result = search(store, "API token pytest port", cfg, T0, trace=True, record_access=False)
    assert result.trace
    assert list(result.trace[0]) == list(TRACE_COLUMNS)  # in_set included
    ranked = [r for r in result.trace if r["final_rank"]]
    assert [r["final_rank"] for r in ranked] == list(range(1, len(result.hits) + 1))
    assert all(r["mmr_position"] for r in ranked)
    session = next(r for r in result.trace if r["source"] == "session")
    assert session["decay"] == pytest.approx(0.5 ** (10 / 7))
