"""SPEC §10's MMR golden cases through the real search path (SQLite, KNN, the scoring core).

Each snippet is a memory file of its own, in a source of its own (global,
workspace, session). A hand-written embedder gives every text the same unit
vector, so each chunk is a KNN candidate with distance 0 (vec = 1, merged =
0.7 · 1) and no FTS match (the query shares no word with the memory). Source
weights then set each chunk's raw relevance exactly: raw = 0.7 · weight.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np
import pytest

from memlab.config import MmrConfig, SearchConfig
from memlab.embeddings.base import Matrix
from memlab.retrieval.pipeline import search
from memlab.store.store import MemoryStore
from tests.conftest import T0, WS, write

FILES = {
    "global": "MEMORY.md",
    "workspace": f"{WS}/MEMORY.md",
    "session": f"{WS}/sessions/2026-01-01-note-aaaa1111.md",
}


class SameVector:
    """Every text embeds to e0: every chunk sits at distance 0 from every query."""

    id = "same-4"
    dims = 4

    def embed_batch(self, texts: Sequence[str]) -> Matrix:
        out = np.zeros((len(texts), 4), dtype=np.float32)
        out[:, 0] = 1.0
        return out


def ranked(
    tmp_path: Path,
    open_store: Callable[..., MemoryStore],
    snippets: Sequence[tuple[str, float]],
    lam: float,
) -> list[str]:
    """Search memory holding ``snippets`` (text, relevance) with MMR at ``lam``; the
    returned snippets in order."""
    root = tmp_path / "m"
    weights = {}
    for (text, relevance), source in zip(snippets, FILES, strict=False):
        write(root, FILES[source], text + "\n")
        weights[source] = relevance / 0.7
    store = open_store(root, embedder=SameVector())
    store.build(now=T0)
    config = SearchConfig(
        min_score=0.0,
        half_life_days=None,
        source_weights=weights,
        mmr=MmrConfig(enabled=True, lambda_=lam),
    )
    result = search(store, "zzqx", config, T0, trace=True, record_access=False)
    assert not result.degraded and all(row["fts"] == 0.0 for row in result.trace or [])
    wanted = {source: relevance for (_, relevance), source in zip(snippets, FILES, strict=False)}
    assert {h.source: h.raw for h in result.hits} == pytest.approx(wanted)
    return [h.snippet.strip() for h in result.hits]


def test_a_near_duplicate_is_pushed_down(
    tmp_path: Path, open_store: Callable[..., MemoryStore]
) -> None:
    a, b, c = (
        "rust async programming patterns",
        "rust async programming tutorial",
        ("python web framework flask"),
    )
    assert ranked(tmp_path, open_store, [(a, 1.0), (b, 0.95), (c, 0.9)], 0.5) == [a, c, b]


def test_an_identical_copy_comes_after_a_different_topic(
    tmp_path: Path, open_store: Callable[..., MemoryStore]
) -> None:
    a, c = "exact same content here", "completely different topic"
    order = ranked(tmp_path, open_store, [(a, 1.0), (a, 0.99), (c, 0.5)], 0.5)
    assert order[:2] == [a, c]


def test_case_only_differences_are_redundant(
    tmp_path: Path, open_store: Callable[..., MemoryStore]
) -> None:
    a, b, c = "Rust Async Programming", "rust async programming", "Python Web Framework"
    assert ranked(tmp_path, open_store, [(a, 1.0), (b, 0.95), (c, 0.9)], 0.5) == [a, c, b]


def test_mmr_sees_raw_relevance_above_the_clamp(
    tmp_path: Path, open_store: Callable[..., MemoryStore]
) -> None:
    """λ 0.7, both displayed as 1.0, raw relevance 1.0 and 1.25: the 1.25 one first."""
    low, high = "first note about caching", "second note about queues"
    assert ranked(tmp_path, open_store, [(low, 1.0), (high, 1.25)], 0.7) == [high, low]
