"""c0 reads only the first 16,000 bytes of MEMORY.md into Dream's input and keeps only
the first 16,000 characters of the answer (SPEC §7.3): once the memory is that large, a
rewrite drops what lies beyond, the new session's facts included, and still deletes the
session's log (docs/engine.md, "Things worth knowing"). Shown with a consolidator that
keeps everything (the offline one without its budget); the offline one by default
condenses to fit."""

from __future__ import annotations

from pathlib import Path

from memlab.config import DreamConfig
from memlab.dream.gates import Trigger
from memlab.dream.offline import OfflineConsolidator
from memlab.dream.run import DreamStatus, run_dream

from .conftest import NOW, add_session


def _memory(facts: int) -> str:
    return "# Memory\n\n## Facts\n\n" + "".join(
        f"- fact-{i:04d}: value {i}\n" for i in range(facts)
    )


def test_memory_beyond_the_caps_is_lost_by_a_rewrite_with_the_new_session(tmp_path: Path) -> None:
    ws = tmp_path / "memory" / "proj-1234abcd"
    ws.mkdir(parents=True)
    existing = _memory(1000)  # about 23 kB
    cap = DreamConfig().max_existing_bytes
    assert cap == 16_000 and len(existing.encode()) > cap
    (ws / "MEMORY.md").write_text(existing)
    add_session(ws, "2025-12-30-work-aaaa1111")
    got = run_dream(ws, OfflineConsolidator(budget=None), now=NOW, trigger=Trigger.MANUAL)
    assert got.status is DreamStatus.COMPLETED
    memory = (ws / "MEMORY.md").read_text()
    seen = existing.encode()[:cap].decode()
    kept = [i for i in range(1000) if f"- fact-{i:04d}: value {i}\n" in memory]
    # every fact wholly inside the first 16,000 bytes survives, none beyond them does
    assert kept == [i for i in range(1000) if f"- fact-{i:04d}: value {i}\n" in seen]
    assert len(kept) < 1000
    assert len(memory) == DreamConfig().max_response_chars == 16_000
    # the session's fact came after the cut: gone, and so is its log
    assert "2025-12-30-work-aaaa1111" not in memory
    assert not (ws / "sessions" / "2025-12-30-work-aaaa1111.md").exists()


def test_memory_within_the_cap_loses_nothing(tmp_path: Path) -> None:
    ws = tmp_path / "memory" / "proj-1234abcd"
    ws.mkdir(parents=True)
    existing = _memory(300)
    (ws / "MEMORY.md").write_text(existing)
    add_session(ws, "2025-12-30-work-aaaa1111")
    run_dream(ws, OfflineConsolidator(), now=NOW, trigger=Trigger.MANUAL)
    memory = (ws / "MEMORY.md").read_text()
    assert all(f"- fact-{i:04d}: value {i}\n" in memory for i in range(300))
    assert "- 2025-12-30-work-aaaa1111: noted" in memory


def test_the_budgeted_offline_consolidator_keeps_the_new_session_at_the_cap(tmp_path: Path) -> None:
    ws = tmp_path / "memory" / "proj-1234abcd"
    ws.mkdir(parents=True)
    (ws / "MEMORY.md").write_text(_memory(1000))
    add_session(ws, "2025-12-30-work-aaaa1111")
    run_dream(ws, OfflineConsolidator(), now=NOW, trigger=Trigger.MANUAL)
    memory = (ws / "MEMORY.md").read_text()
    assert len(memory.encode()) <= 16_000 and "- 2025-12-30-work-aaaa1111: noted" in memory
    assert "- fact-0000: value 0\n" not in memory  # the oldest went to make room
