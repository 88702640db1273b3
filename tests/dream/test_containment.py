"""Dream reads and writes only inside the workspace (issue 12, item 3).

The finding: Dream followed session-log symlinks out of the root and wrote
their content into MEMORY.md (then it was indexed and searchable). Every path
Dream reads (session logs, MEMORY.md, the lock) or writes (MEMORY.md, the lock,
backups) is checked: resolved containment, regular files only, no link
followed, FIFOs and devices never opened for reading.
"""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest

from memlab.config import DreamConfig
from memlab.dream.gates import Trigger
from memlab.dream.lock import DreamLock
from memlab.dream.offline import OfflineConsolidator
from memlab.dream.run import DreamStatus, run_dream

from .conftest import NOW, OLD, add_session, stems

SECRET = "- root password: hunter2"


@pytest.fixture
def secret(tmp_path: Path) -> Path:
    path = tmp_path / "outside" / "secret.md"
    path.parent.mkdir()
    path.write_text(f"# Secret\n\n## Facts\n\n{SECRET}\n")
    return path


def run(ws: Path, atomic: bool = True) -> object:
    config = DreamConfig(atomic_write=atomic)
    return run_dream(ws, OfflineConsolidator(), now=NOW, config=config, trigger=Trigger.MANUAL)


@pytest.mark.parametrize("atomic", [True, False])
def test_a_session_log_linked_out_of_the_workspace_is_not_read(
    ws: Path, secret: Path, atomic: bool
) -> None:
    link = ws / "sessions" / "2026-01-01-link-eeee5555.md"
    os.symlink(secret, link)
    got = run(ws, atomic)
    assert got.status is DreamStatus.COMPLETED  # type: ignore[attr-defined]
    assert "hunter2" not in (ws / "MEMORY.md").read_text()
    assert link.is_symlink() and secret.exists()  # neither read nor deleted


def test_a_symlinked_sessions_dir_is_not_entered(ws: Path, secret: Path) -> None:
    sessions = ws / "sessions"
    for p in sessions.iterdir():
        p.unlink()
    sessions.rmdir()
    os.symlink(secret.parent, sessions)
    got = run(ws)
    assert got.status is DreamStatus.GATE_CLOSED  # type: ignore[attr-defined]
    assert not (ws / "MEMORY.md").exists() and secret.exists()


@pytest.mark.parametrize("atomic", [True, False])
def test_memory_md_linked_out_is_neither_read_nor_written(
    ws: Path, secret: Path, atomic: bool
) -> None:
    os.symlink(secret, ws / "MEMORY.md")
    before = secret.read_text()
    got = run(ws, atomic)
    assert got.status is DreamStatus.REFUSED and "symbolic link" in got.detail  # type: ignore[attr-defined]
    assert secret.read_text() == before and len(stems(ws)) == 3
    assert not (ws / ".dream-lock").exists()


def test_fifo_and_device_sessions_do_not_block(ws: Path) -> None:
    os.mkfifo(ws / "sessions" / "2026-01-02-fifo-ffff0000.md")
    os.symlink("/dev/zero", ws / "sessions" / "2026-01-02-zero-ffff1111.md")
    done = threading.Event()
    box: list[object] = []

    def target() -> None:
        box.append(run(ws))
        done.set()

    threading.Thread(target=target, daemon=True).start()
    assert done.wait(60), "Dream blocked on a FIFO or a device"
    got = box[0]
    assert got.status is DreamStatus.COMPLETED and len(got.processed) == 3  # type: ignore[attr-defined]
    assert (ws / "sessions" / "2026-01-02-fifo-ffff0000.md").exists()


def test_a_lock_linked_out_is_never_written(ws: Path, secret: Path) -> None:
    os.symlink(secret, ws / ".dream-lock")
    before = secret.read_text()
    got = run(ws)
    assert got.status is DreamStatus.LOCK_FAILED  # type: ignore[attr-defined]
    assert secret.read_text() == before and len(stems(ws)) == 3


def test_a_fifo_lock_is_not_opened_for_reading(ws: Path) -> None:
    os.mkfifo(ws / ".dream-lock")
    lock = DreamLock.for_workspace(ws)
    state = lock.read()
    assert state is not None and state.pid is None  # corrupt: reclaimable, never blocks


def test_a_huge_session_log_is_skipped(ws: Path) -> None:
    big = ws / "sessions" / "2026-01-03-huge-aaaa9999.md"
    with open(big, "wb") as fh:
        fh.truncate(64 * 1024 * 1024)
    os.utime(big, (OLD, OLD))
    got = run(ws)
    assert got.status is DreamStatus.COMPLETED  # type: ignore[attr-defined]
    assert big.exists() and "2026-01-03-huge-aaaa9999" not in got.processed  # type: ignore[attr-defined]


def test_a_log_appended_after_it_was_read_is_kept(ws: Path) -> None:
    """Stale-input check (the CLI's default): a log changed since it was read is not
    deleted — what was appended has not been consolidated yet."""
    appended = ws / "sessions" / "2025-12-30-work-aaaa1111.md"

    class Appending:
        name = "appending"

        def consolidate(self, dream_input: str) -> str:
            with open(appended, "a") as fh:
                fh.write("\n- late fact: appended while the model ran\n")
            os.utime(appended, (OLD, OLD))  # quiet by mtime: only the change shows it
            return OfflineConsolidator().consolidate(dream_input)

    config = DreamConfig(stale_input_check=True)
    got = run_dream(ws, Appending(), now=NOW, config=config, trigger=Trigger.MANUAL)
    assert got.status is DreamStatus.COMPLETED
    assert appended.stem in got.kept_active and appended.exists()
    add_session(ws, "2025-12-31-more-bbbb9999")
    c0 = run_dream(ws, Appending(), now=NOW, config=DreamConfig(stale_lock_secs=0),
                   trigger=Trigger.MANUAL)  # fmt: skip
    assert appended.stem in c0.deleted  # c0 deletes it: the late fact is gone


def test_backups_are_written_inside_the_workspace_only(ws: Path, tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    os.symlink(elsewhere, ws / ".dream-backups")
    got = run_dream(ws, OfflineConsolidator(), now=NOW, trigger=Trigger.MANUAL, backup=True)
    assert got.status is DreamStatus.WRITE_FAILED and "backup failed" in got.detail
    assert list(elsewhere.iterdir()) == [] and len(stems(ws)) == 3  # nothing written or deleted
    assert not (ws / "MEMORY.md").exists() and not (ws / ".dream-lock").exists()
