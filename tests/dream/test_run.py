"""One Dream run end to end on real files (SPEC §7.3)."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

import pytest

from memlab.config import DreamConfig
from memlab.dream.consolidators import ScriptedConsolidator
from memlab.dream.gates import NoSessions, SubAgentSession, TooFewSessions, TooSoon, Trigger
from memlab.dream.lock import DreamLock
from memlab.dream.offline import OfflineConsolidator
from memlab.dream.run import DreamStatus, run_dream

from .conftest import HOUR, NOW, add_session, stems

ALL = ["2025-12-30-work-aaaa1111", "2025-12-31-work-bbbb2222", "2025-12-32-work-cccc3333"]


class RecordingIndex:
    def __init__(self, fail: bool = False) -> None:
        self.calls: list[tuple[Any, ...]] = []
        self.fail = fail

    def reindex_file(
        self, path: str | Path, source: str | None = None, now: float | None = None
    ) -> None:
        self.calls.append(("reindex", Path(path).name, source, now))
        if self.fail:
            raise RuntimeError("index is read-only")

    def delete_path(self, path: str | Path) -> None:
        self.calls.append(("delete", Path(path).stem))


def test_completed_run_writes_deletes_and_stamps_the_lock(ws: Path) -> None:
    index = RecordingIndex()
    got = run_dream(ws, OfflineConsolidator(), now=NOW, index=index)
    assert got.status is DreamStatus.COMPLETED
    assert got.processed == tuple(ALL) and got.deleted == tuple(ALL)
    memory = (ws / "MEMORY.md").read_text()
    assert all(f"- {s}: noted" in memory for s in ALL)
    assert stems(ws) == []
    assert (ws / ".dream-lock").read_text() == str(os.getpid())
    assert (ws / ".dream-lock").stat().st_mtime == NOW
    assert index.calls == [("reindex", "MEMORY.md", "dream", NOW)] + [("delete", s) for s in ALL]
    # the time gate is now closed: 3 h 59 min later is too soon
    add_session(ws, "2026-01-01-new-dddd4444", mtime=NOW + 1)
    again = run_dream(ws, OfflineConsolidator(), now=NOW + 4 * HOUR - 60)
    assert again.decision == TooSoon(3, 4.0)


def test_workspace_source_option(ws: Path) -> None:
    index = RecordingIndex()
    config = DreamConfig(memory_source="workspace")
    run_dream(ws, OfflineConsolidator(), now=NOW, config=config, index=index)
    assert index.calls[0] == ("reindex", "MEMORY.md", "workspace", NOW)


def test_index_failure_is_reported_not_raised(ws: Path) -> None:
    got = run_dream(ws, OfflineConsolidator(), now=NOW, index=RecordingIndex(fail=True))
    assert got.status is DreamStatus.COMPLETED and "read-only" in (got.index_error or "")


@pytest.mark.parametrize("response", ["", "NO_REPLY", "no-reply", "nothing to add today"])
def test_nothing_to_consolidate_writes_and_deletes_nothing(ws: Path, response: str) -> None:
    (ws / "MEMORY.md").write_text("# Memory\n\n- keep me\n")
    index = RecordingIndex()
    got = run_dream(ws, ScriptedConsolidator([response]), now=NOW, index=index)
    assert got.status is DreamStatus.NOTHING
    assert (ws / "MEMORY.md").read_text() == "# Memory\n\n- keep me\n"
    assert stems(ws) == ALL and index.calls == []
    # c0: the lock keeps its fresh mtime, which restarts the time gate
    assert (ws / ".dream-lock").stat().st_mtime == NOW


def raising_writer(path: Path, text: str) -> None:
    raise OSError(28, "No space left on device")


@pytest.mark.parametrize("prior", [None, NOW - 24 * HOUR])
def test_write_failure_rolls_the_lock_back_and_keeps_every_session(
    ws: Path, prior: float | None, dead_pid: int
) -> None:
    lock = ws / ".dream-lock"
    if prior is not None:
        lock.write_text(str(dead_pid))
        os.utime(lock, (prior, prior))
    index = RecordingIndex()
    got = run_dream(ws, OfflineConsolidator(), now=NOW, writer=raising_writer, index=index)
    assert got.status is DreamStatus.WRITE_FAILED and "No space" in got.detail
    assert stems(ws) == ALL and index.calls == []
    if prior is None:
        assert not lock.exists()
    else:
        assert lock.read_text() == "" and lock.stat().st_mtime == prior
    # retryable: the next attempt succeeds and consolidates the same sessions
    assert run_dream(ws, OfflineConsolidator(), now=NOW + 1).status is DreamStatus.COMPLETED
    assert stems(ws) == []


def test_memory_path_is_a_directory_is_refused_before_anything(ws: Path) -> None:
    (ws / "MEMORY.md").mkdir()
    got = run_dream(ws, OfflineConsolidator(), now=NOW, config=DreamConfig(atomic_write=True))
    assert got.status is DreamStatus.REFUSED and "a directory" in got.detail
    assert stems(ws) == ALL and not (ws / ".dream-lock").exists()
    assert [p.name for p in ws.iterdir() if ".tmp-" in p.name] == []


def test_model_failure_and_timeout_leave_the_lock_untouched(ws: Path) -> None:
    got = run_dream(ws, ScriptedConsolidator([RuntimeError("503")]), now=NOW)
    assert got.status is DreamStatus.MODEL_FAILED and "503" in got.detail
    assert not (ws / ".dream-lock").exists() and stems(ws) == ALL

    class Slow:
        name = "slow"

        def consolidate(self, dream_input: str) -> str:
            time.sleep(5)
            return "# late"

    got = run_dream(ws, Slow(), now=NOW, config=DreamConfig(model_timeout_secs=0.05))
    assert got.status is DreamStatus.MODEL_FAILED and "within" in got.detail
    assert not (ws / ".dream-lock").exists() and stems(ws) == ALL


def test_active_sessions_are_processed_but_not_deleted(ws: Path) -> None:
    add_session(ws, "2026-01-01-live-dddd4444", mtime=NOW - 299)
    add_session(ws, "2026-01-01-quiet-eeee5555", mtime=NOW - 300)
    got = run_dream(ws, OfflineConsolidator(), now=NOW)
    assert got.kept_active == ("2026-01-01-live-dddd4444",)
    assert "2026-01-01-quiet-eeee5555" in got.deleted
    assert stems(ws) == ["2026-01-01-live-dddd4444"]


def test_sessions_beyond_the_input_cap_are_neither_read_nor_deleted(ws: Path) -> None:
    config = DreamConfig(max_input_bytes=60)
    scripted = ScriptedConsolidator(["# Memory\n\n- merged\n"])
    got = run_dream(ws, scripted, now=NOW, config=config)
    assert got.processed == (ALL[0],) and got.deleted == (ALL[0],)
    assert ALL[1] not in scripted.inputs[0]
    assert stems(ws) == ALL[1:]


def test_current_and_sub_agent_sessions(ws: Path) -> None:
    got = run_dream(ws, OfflineConsolidator(), now=NOW, current_session="cccc3333-full-id")
    assert got.decision == TooFewSessions(2, 3)
    got = run_dream(ws, OfflineConsolidator(), now=NOW, is_subagent=True)
    assert got.decision == SubAgentSession()


def test_manual_dream_bypasses_the_gates_but_not_the_lock(ws: Path, live_pid: int) -> None:
    lock = DreamLock.for_workspace(ws)
    lock.path.write_text(str(live_pid))
    os.utime(lock.path, (NOW - 60, NOW - 60))  # fresh and held: time gate closed too
    got = run_dream(ws, OfflineConsolidator(), now=NOW, trigger=Trigger.MANUAL)
    assert got.status is DreamStatus.SKIPPED and str(live_pid) in got.detail
    assert stems(ws) == ALL and not (ws / "MEMORY.md").exists()
    assert lock.path.read_text() == str(live_pid)


def test_manual_dream_with_no_sessions(tmp_path: Path) -> None:
    got = run_dream(tmp_path, OfflineConsolidator(), now=NOW, trigger=Trigger.MANUAL)
    assert got.decision == NoSessions() and got.status is DreamStatus.GATE_CLOSED


def test_blank_sessions_give_no_input_and_touch_nothing(tmp_path: Path) -> None:
    for i in range(3):
        add_session(tmp_path, f"2026-01-01-blank-{i:08d}", text="  \n")
    got = run_dream(tmp_path, OfflineConsolidator(), now=NOW)
    assert got.status is DreamStatus.NO_INPUT
    assert not (tmp_path / ".dream-lock").exists() and len(stems(tmp_path)) == 3


def test_truncates_long_responses_and_atomic_write(ws: Path) -> None:
    long = "# Memory\n\n" + "- fact\n" * 5000
    config = DreamConfig(atomic_write=True)
    got = run_dream(ws, ScriptedConsolidator([long]), now=NOW, config=config)
    assert got.truncated and got.written_chars == 16_000
    assert (ws / "MEMORY.md").read_text() == long.strip()[:16_000]


def test_stale_and_dead_locks_are_reclaimed(ws: Path, dead_pid: int, live_pid: int) -> None:
    lock = ws / ".dream-lock"
    lock.write_text(str(dead_pid))
    os.utime(lock, (NOW - 24 * HOUR, NOW - 24 * HOUR))
    assert run_dream(ws, OfflineConsolidator(), now=NOW).status is DreamStatus.COMPLETED
    for i in range(3):
        add_session(ws, f"2026-01-02-more-{i:08d}", mtime=NOW + 10)
    lock.write_text(str(live_pid))  # alive but older than stale_lock_secs
    os.utime(lock, (NOW, NOW))
    got = run_dream(ws, OfflineConsolidator(), now=NOW + 5 * HOUR)
    assert got.status is DreamStatus.COMPLETED and got.lock_prior == NOW
    assert lock.read_text() == str(os.getpid())


@pytest.mark.skipif(os.geteuid() == 0, reason="root ignores directory permissions")
def test_unwritable_lock_is_a_reported_failure(ws: Path) -> None:
    os.chmod(ws, 0o555)
    try:
        got = run_dream(ws, OfflineConsolidator(), now=NOW)
    finally:
        os.chmod(ws, 0o755)
    assert got.status is DreamStatus.LOCK_FAILED and "permissions" in got.detail
    assert stems(ws) == ALL


def test_lock_write_error_is_a_reported_failure(ws: Path) -> None:
    class FailingLock(DreamLock):
        def try_acquire(self, now: float) -> Any:
            raise PermissionError(13, "Permission denied")

    lock = FailingLock(ws / ".dream-lock")
    got = run_dream(ws, OfflineConsolidator(), now=NOW, lock=lock)
    assert got.status is DreamStatus.LOCK_FAILED and "Permission denied" in got.detail
    assert stems(ws) == ALL and not (ws / "MEMORY.md").exists()


class _OverlappingRun:
    """Process A's model call, during which process B runs Dream to completion and exits.

    B sees a session log that A's input lacks (written after A read its input, and quiet
    for more than 300 s by the time B cleans up)."""

    name = "overlap"

    def __init__(self, ws: Path, dead_pid: int, config: DreamConfig) -> None:
        self.ws, self.dead_pid, self.config = ws, dead_pid, config
        self.b: Any = None

    def consolidate(self, dream_input: str) -> str:
        add_session(self.ws, "2026-01-01-late-7777aaaa", "# S\n\n## Facts\n\n- late fact: kept?\n",
                    mtime=NOW - 400)  # fmt: skip
        lock_b = DreamLock(self.ws / ".dream-lock", pid=self.dead_pid)  # B has exited since
        self.b = run_dream(self.ws, OfflineConsolidator(), now=NOW + 1, config=self.config,
                           trigger=Trigger.MANUAL, lock=lock_b)  # fmt: skip
        return OfflineConsolidator().consolidate(dream_input)


@pytest.mark.parametrize("check", [False, True])
def test_a_slow_model_call_can_overwrite_a_newer_consolidation(
    ws: Path, dead_pid: int, check: bool
) -> None:
    """Finding: c0 takes the lock only after the model call, so a run whose model outlived
    another run writes its older input over the newer memory. The other run already
    deleted the late log, so its fact is lost. ``stale_input_check`` skips such a run."""
    config = DreamConfig(stale_input_check=check)
    model = _OverlappingRun(ws, dead_pid, config)
    a = run_dream(ws, model, now=NOW, config=config, trigger=Trigger.MANUAL,
                  clock=lambda: NOW + 2)  # fmt: skip
    assert model.b.status is DreamStatus.COMPLETED
    assert "2026-01-01-late-7777aaaa" in model.b.deleted
    memory = (ws / "MEMORY.md").read_text()
    if check:
        assert a.status is DreamStatus.SKIPPED and "stale input" in a.detail
        assert "- late fact: kept?" in memory
        assert (ws / ".dream-lock").stat().st_mtime == NOW + 1  # B's success stands
    else:
        assert a.status is DreamStatus.COMPLETED  # dead PID: reclaimed, then overwritten
        assert "- late fact: kept?" not in memory and stems(ws) == []  # lost
