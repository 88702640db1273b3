"""Every claim of "Things worth knowing" (docs/engine.md), computed on the real engine.

Each test names the sentence of docs/engine.md it checks (``claim``), so a test cannot
drift away from the text: if the sentence is reworded, the test fails until
both agree again.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np
import pytest

from memlab.config import DreamConfig, SearchConfig
from memlab.dream.sim import SimParams, simulate
from memlab.embeddings.base import Matrix
from memlab.retrieval.pipeline import search
from memlab.retrieval.scoring import merge_with_fts_floor
from memlab.store.store import MemoryStore
from memlab.workbench.findings import age_limit
from tests.conftest import DAY, T0, WS, doc_text, docs_say, write
from tests.search.test_supplement import crowded_memory

PAGE = "engine.md"


def claim(text: str, page: str = PAGE) -> None:
    """``page`` (docs/engine.md unless named; see ``doc_text``) says ``text``
    (whitespace-insensitive)."""
    assert docs_say(page, text), f"{page} no longer says: {text!r}"


class SameVector:
    """Every text embeds to the same unit vector (distance 0 → vec 1.0)."""

    id = "same-4"
    dims = 4

    def embed_batch(self, texts: Sequence[str]) -> Matrix:
        out = np.zeros((len(texts), 4), dtype=np.float32)
        out[:, 0] = 1.0
        return out


def test_the_worst_candidate_scores_zero_and_vectors_can_rescue_it(
    tmp_path: Path, open_store: Callable[..., MemoryStore]
) -> None:
    claim("so the worst candidate always gets exactly 0 — without vectors, with two candidates")
    claim("the second is dropped; with vectors it can still pass on its vector score.")
    root = tmp_path / "m"
    write(root, f"{WS}/sessions/2026-01-01-a-aaaa1111.md", "# A\n\ncanary canary canary\n")
    write(root, f"{WS}/sessions/2026-01-01-b-bbbb2222.md", "# B\n\ncanary and other words\n")
    store = open_store(root, embedder=SameVector())
    store.build(now=T0)
    fts_only = search(store, "canary", SearchConfig(vectors=False), T0, trace=True)
    assert [r["fts"] for r in fts_only.trace or []] == [1.0, 0.0]
    assert len(fts_only.hits) == 1
    hybrid = search(store, "canary", SearchConfig(), T0, trace=True, record_access=False)
    assert len(hybrid.hits) == 2 and min(h.score for h in hybrid.hits) == pytest.approx(0.7)


def test_the_supplement_stretches_the_range(
    tmp_path: Path, open_store: Callable[..., MemoryStore]
) -> None:
    claim("they stretch the min–max range, lifting the text score of every main-list row")
    # the stage-by-stage version: tests/search/test_supplement.py
    store = open_store(crowded_memory(tmp_path / "m"))
    store.build(now=T0)
    hits = {}
    for supplement in (False, True):
        config = SearchConfig(vectors=False, evergreen_supplement=supplement)
        hits[supplement] = search(store, "canary", config, T0, record_access=False).hits
    assert len(hits[False]) < len(hits[True])  # FTS-only results change
    assert all(h.source == "session" for h in hits[True])  # no supplement row among them


def test_a_supplement_row_passes_without_vectors_below_a_bunched_main_list(
    tmp_path: Path, open_store: Callable[..., MemoryStore]
) -> None:
    claim("so they get the lowest text scores of their query (the last one exactly 0)")
    claim("Without vectors one passes `min_score` only when the main list is bunched together")
    claim("the supplement reaches much further down (the main list spans at most")
    claim("`1 − min_score` of the whole range); a vector score lets more of them pass.")
    # the dataset's count: tests/workbench/test_tour_claims.py
    root = tmp_path / "m"
    near = " ".join(f"near{i}" for i in range(20))
    far = " ".join(f"far{i}" for i in range(150))
    other = " ".join(f"other{i}" for i in range(150))  # over 1600 bytes: one chunk a section
    text = f"# Near\n\ncanary {near}\n\n# Far\n\ncanary {far}\n\n# Other\n\n{other}\n"
    write(root, f"{WS}/MEMORY.md", text)
    for i in range(18):  # an equal main list: it spans nothing of the range
        write(root, f"{WS}/sessions/2026-01-01-n{i:02d}-{i:08d}.md", f"# N\n\ncanary n{i:02d}\n")
    store = open_store(root)
    store.build(now=T0)
    result = search(store, "canary", SearchConfig(vectors=False), T0, trace=True)
    rows = {r["chunk_id"].rsplit("/", 1)[-1]: r for r in result.trace or []}
    near_row, far_row = rows["MEMORY.md:0"], rows["MEMORY.md:1"]
    assert near_row["fts_pos"] is None and far_row["fts_pos"] is None  # supplement only
    main = [r["fts"] for r in rows.values() if r["fts_pos"] is not None]
    assert len(main) == 18 and min(main) > near_row["fts"] > far_row["fts"] == 0.0
    assert near_row["fts"] >= 0.35 and near_row["kept"]  # passes (6 better rows are returned)


def test_the_age_limit_and_how_accesses_move_it(
    tmp_path: Path, open_store: Callable[..., MemoryStore]
) -> None:
    claim("a session chunk that was never returned cannot be returned once it is older than")
    claim("7·log2(1/0.35) ≈ 10.6 days")
    claim("after 10 searches that returned it, ≈ 11.7 days")
    assert round(age_limit(7.0, 0.35), 1) == 10.6 and round(age_limit(7.0, 0.35, 10), 1) == 11.7
    stores = []
    for name in ("searched", "untouched"):
        root = tmp_path / name
        write(root, f"{WS}/sessions/2026-01-01-x-aaaa1111.md", "# X\n\ncanary notes\n")
        store = open_store(root)
        store.build(now=T0)
        stores.append(store)
    searched, untouched = stores
    for day in range(10):  # ten live searches that return it, while it is young
        assert search(searched, "canary", None, T0 + day * 0.1 * DAY).hits
    old = T0 + 11 * DAY
    assert search(searched, "canary", None, old, record_access=False).hits
    assert not search(untouched, "canary", None, old, record_access=False).hits


def test_a_vector_lifts_only_above_the_fts_score() -> None:
    claim("a vector can only lift a chunk whose vector score exceeds its FTS score")
    grid = np.linspace(0.0, 1.0, 101)
    fts, vec = (a.ravel() for a in np.meshgrid(grid[1:], grid[1:]))
    merged = merge_with_fts_floor(fts, vec, 0.7, 0.3)
    assert np.array_equal(merged > fts, vec > fts)


def test_dream_strands_the_triggering_log_and_the_simulator_counts_them() -> None:
    claim("so the automatic triggers strand logs; the capacity simulator measures how many")
    # the mechanism on real files: tests/dream/test_index_update.py
    # (test_c0_strands_the_log_of_the_session_that_triggered_dream)
    params = SimParams(users=50, days=10, manual_share=0.0)
    summary = simulate(params, DreamConfig()).summary()
    assert summary["runs"] > 0 and summary["logs_left"] > 0


def test_the_crash_figure_is_given_as_a_range() -> None:
    claim("(`python -m memlab.dream.kill_dream --kills N [--atomic]`)")
    sentence = re.search(r"killed mid-write \(([^)]*)\)", doc_text(PAGE))
    assert sentence and "machine" in sentence.group(1)  # measured here; it varies
    # the campaign itself: tests/dream/test_faults.py (slow: 400 kills each way)
