"""Dream's index update on the real store (SPEC §7.3 step 4), and a c0 finding on real files."""

from __future__ import annotations

from pathlib import Path

import pytest

from memlab.config import DreamConfig
from memlab.dream.offline import OfflineConsolidator
from memlab.dream.run import DreamStatus, run_dream
from memlab.store.store import MemoryStore

from .conftest import HOUR, NOW, WS, add_session, stems


def chunk_sources(store: MemoryStore, rel: str) -> dict[str, str]:
    rows = store.index.db.execute("SELECT id, source FROM chunks WHERE path = ?", (rel,))
    return dict(rows.fetchall())


@pytest.mark.parametrize("source", ["dream", "workspace"])
def test_real_index_gets_the_configured_source(root: Path, tmp_path: Path, source: str) -> None:
    """SPEC §7.3 step 4 on the real store. Per SPEC §2.2 an updated chunk id keeps its
    source; new chunk ids get the one Dream passes ("dream" in c0: they decay)."""
    ws = root / WS
    for i in range(40):  # enough to make the new MEMORY.md several chunks long
        add_session(ws, f"2026-01-05-more-{i:04d}ffff",
                    text=f"# S\n\n## Topic {i}\n\n- detail {i}: " + "x" * 60 + "\n")  # fmt: skip
    add_session(ws, "2026-01-06-live-5555bbbb", mtime=NOW - 10)  # active: kept
    rel = f"{WS}/MEMORY.md"
    with MemoryStore.open(root, WS, index_path=tmp_path / "index.sqlite") as store:
        store.build(now=NOW - HOUR)
        before = chunk_sources(store, rel)
        assert before == {f"{rel}:0": "workspace"}
        indexed = store.index.indexed_paths()
        got = run_dream(ws, OfflineConsolidator(), now=NOW, index=store,
                        config=DreamConfig(memory_source=source))  # fmt: skip
        assert got.status is DreamStatus.COMPLETED and got.index_error is None
        after = chunk_sources(store, rel)
        remaining = store.index.indexed_paths()
    assert len(after) > 1 and after[f"{rel}:0"] == "workspace"
    assert {cid: src for cid, src in after.items() if cid not in before} == {
        cid: source for cid in after if cid not in before
    }
    deleted = {f"{WS}/sessions/{s}.md" for s in got.deleted}
    assert len(deleted) == 43 and deleted <= indexed and not deleted & remaining
    assert f"{WS}/sessions/2026-01-06-live-5555bbbb.md" in remaining  # kept: still indexed


def test_real_index_first_memory_is_all_dream(root: Path, tmp_path: Path) -> None:
    (root / WS / "MEMORY.md").unlink()
    with MemoryStore.open(root, WS, index_path=tmp_path / "index.sqlite") as store:
        store.build(now=NOW - HOUR)
        run_dream(root / WS, OfflineConsolidator(), now=NOW, index=store)
        sources = set(chunk_sources(store, f"{WS}/MEMORY.md").values())
    assert sources == {"dream"}


def test_c0_strands_the_log_of_the_session_that_triggered_dream(tmp_path: Path) -> None:
    """Finding: the current session is excluded, and its log is older than the new lock
    mtime, so no later automatic run ever counts it again (only /dream picks it up)."""
    ws = tmp_path
    for i in range(3):
        add_session(ws, f"2026-01-01-old-{i}000cccc", mtime=NOW - 2 * HOUR)
    add_session(ws, "2026-01-01-current-9999dddd", mtime=NOW - 400)  # just ended
    first = run_dream(ws, OfflineConsolidator(), now=NOW, current_session="9999dddd-full")
    assert first.status is DreamStatus.COMPLETED and len(first.deleted) == 3
    for i in range(3):  # three more sessions later: the gates open again
        add_session(ws, f"2026-01-02-new-{i}000eeee", mtime=NOW + 5 * HOUR)
    second = run_dream(ws, OfflineConsolidator(), now=NOW + 6 * HOUR)
    assert second.status is DreamStatus.COMPLETED
    assert stems(ws) == ["2026-01-01-current-9999dddd"]  # never consolidated automatically
