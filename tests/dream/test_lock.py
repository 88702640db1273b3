"""DreamLock (SPEC §7.4) and its golden cases (§10), with real processes."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from memlab.dream.lock import Acquired, Busy, DreamLock, holder_blocks, parse_pid, pid_alive

from .conftest import HOUR, NOW


def lock_at(tmp_path: Path, body: str | None = None, mtime: float = NOW - 60) -> DreamLock:
    lock = DreamLock(tmp_path / "ws" / ".dream-lock")
    if body is not None:
        lock.path.parent.mkdir(parents=True, exist_ok=True)
        lock.path.write_text(body)
        os.utime(lock.path, (mtime, mtime))
    return lock


def test_golden_empty_dir_acquire_writes_our_pid(tmp_path: Path) -> None:
    lock = lock_at(tmp_path)
    assert lock.try_acquire(NOW) == Acquired(prior=None)
    assert lock.path.read_text() == str(os.getpid())
    assert lock.path.stat().st_mtime == NOW
    assert lock.last_success() == NOW


def test_golden_rollback_none_deletes_the_file(tmp_path: Path) -> None:
    lock = lock_at(tmp_path)
    lock.try_acquire(NOW)
    lock.rollback(None)
    assert not lock.path.exists()
    lock.rollback(None)  # not-found is fine


def test_golden_rollback_prior_restores_mtime_with_empty_body(
    tmp_path: Path, dead_pid: int
) -> None:
    prior = NOW - 5 * HOUR
    lock = lock_at(tmp_path, str(dead_pid), prior)
    got = lock.try_acquire(NOW)
    assert got == Acquired(prior=prior)
    lock.rollback(prior)
    assert lock.path.read_text() == ""
    assert lock.path.stat().st_mtime == prior
    # the empty body no longer blocks, although we (the last writer) are alive
    assert lock.try_acquire(NOW) == Acquired(prior=prior)


@pytest.mark.parametrize("pid", ["4000000000", "dead"])
def test_golden_dead_pid_is_reclaimed(tmp_path: Path, dead_pid: int, pid: str) -> None:
    body = pid if pid != "dead" else str(dead_pid)
    lock = lock_at(tmp_path, body, NOW - 60)
    assert lock.try_acquire(NOW) == Acquired(prior=NOW - 60)
    assert lock.path.read_text() == str(os.getpid())


def test_golden_live_pid_younger_than_stale_blocks(tmp_path: Path, live_pid: int) -> None:
    lock = lock_at(tmp_path, str(live_pid), NOW - 3599)
    got = lock.try_acquire(NOW)
    assert isinstance(got, Busy) and got.holder == live_pid
    assert lock.path.read_text() == str(live_pid)
    assert lock.path.stat().st_mtime == NOW - 3599  # untouched


def test_golden_live_pid_older_than_stale_is_reclaimed(tmp_path: Path, live_pid: int) -> None:
    lock = lock_at(tmp_path, str(live_pid), NOW - 3600)
    assert lock.try_acquire(NOW) == Acquired(prior=NOW - 3600)


@pytest.mark.parametrize("body", ["", "  ", "not-a-pid", "12x", "-5", "0", "99999999999"])
def test_golden_corrupt_or_empty_body_is_reclaimed(tmp_path: Path, body: str) -> None:
    lock = lock_at(tmp_path, body, NOW - 1)
    assert lock.try_acquire(NOW) == Acquired(prior=NOW - 1)


def test_our_own_live_pid_blocks(tmp_path: Path) -> None:
    lock = lock_at(tmp_path)
    assert isinstance(lock.try_acquire(NOW), Acquired)
    got = lock.try_acquire(NOW + 1)
    assert isinstance(got, Busy) and got.holder == os.getpid()


def test_permission_error_means_alive(monkeypatch: pytest.MonkeyPatch) -> None:
    def eperm(pid: int, sig: int) -> None:
        raise PermissionError(1, "Operation not permitted")

    monkeypatch.setattr(os, "kill", eperm)
    assert pid_alive(12345)


def test_pid_alive_on_real_processes(live_pid: int, dead_pid: int) -> None:
    assert pid_alive(os.getpid()) and pid_alive(live_pid)
    assert not pid_alive(dead_pid)
    assert not pid_alive(4_000_000_000) and not pid_alive(0) and not pid_alive(-1)


def test_losing_the_read_back_means_not_acquired(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another process writes its PID between our write and our read-back."""
    lock = lock_at(tmp_path)
    real_write = DreamLock._write

    def racing_write(self: DreamLock, body: str) -> None:
        real_write(self, body)
        if self.path == lock.path:
            real_write(self, "424242")

    monkeypatch.setattr(DreamLock, "_write", racing_write)
    got = lock.try_acquire(NOW)
    assert isinstance(got, Busy) and got.holder == 424242


def test_holder_blocks_is_pure_and_checks_liveness_last() -> None:
    calls: list[int] = []

    def alive(pid: int) -> bool:
        calls.append(pid)
        return True

    assert not holder_blocks(None, NOW, NOW, 3600, alive)
    assert not holder_blocks(7, NOW - 3600, NOW, 3600, alive)
    assert calls == []
    assert holder_blocks(7, NOW - 3599.5, NOW, 3600, alive) and calls == [7]
    assert parse_pid(" 123\n") == 123 and parse_pid("") is None
