"""DreamLock (SPEC §7.4): best-effort coordination, not mutual exclusion.

The file ``<workspace>/.dream-lock`` holds a PID; its **mtime is the time of the
last successful consolidation** (the time gate reads it). ``try_acquire`` is
write-then-read-back, so two processes can still both believe they won; Dream
is idempotent to absorb that. ``rollback(prior)`` undoes an acquisition after a
failed write, so a failure never moves the time gate.

The lock is never read or written through a symbolic link, and a FIFO or
device in its place is never opened for reading (``memlab.safefs``).

Time is explicit: ``try_acquire(now)`` judges staleness against ``now`` and
stamps the lock's mtime with ``now`` (c0 stamps the write time, which is the
same instant when ``now`` is the wall clock).
"""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from memlab.safefs import Refused, read_bytes
from memlab.store.layout import LOCK_FILE

MAX_PID = 2**32 - 1  # c0 parses the body as an unsigned 32-bit PID
MAX_LOCK_BYTES = 64  # a longer body is corrupt (reclaimable)


def pid_alive(pid: int) -> bool:
    """Signal 0: success or a permission error means alive; no such process means dead."""
    if pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except PermissionError:
        return True
    except ProcessLookupError:
        return False
    except OverflowError:  # larger than any PID the kernel hands out
        return False
    except OSError as exc:
        return exc.errno == errno.EPERM
    return True


def parse_pid(body: str) -> int | None:
    """The PID in a lock body, or None for an empty or corrupt body."""
    text = body.strip()
    if not text or not text.isascii() or not text.isdigit():
        return None
    pid = int(text)
    return pid if 0 < pid <= MAX_PID else None


def holder_blocks(
    pid: int | None, mtime: float, now: float, stale_secs: float, is_alive: Callable[[int], bool]
) -> bool:
    """Does an existing lock keep us out? A PID body, younger than stale, whose process lives.

    ``is_alive`` is consulted last (only for a fresh lock with a PID), as in c0.
    Our own live PID blocks too.
    """
    return pid is not None and (now - mtime) < stale_secs and is_alive(pid)


@dataclass(frozen=True)
class LockState:
    pid: int | None  # None: empty or corrupt body
    mtime: float


@dataclass(frozen=True)
class Acquired:
    """We hold the lock; ``prior`` is the mtime before we took it (None: there was no file)."""

    prior: float | None
    acquired: bool = True


@dataclass(frozen=True)
class Busy:
    """Not acquired: a live holder, or another process overwrote our PID before read-back."""

    holder: int | None
    reason: str
    acquired: bool = False


@dataclass
class DreamLock:
    path: Path
    stale_secs: float = 3600.0
    pid: int = field(default_factory=os.getpid)
    is_alive: Callable[[int], bool] = pid_alive

    @classmethod
    def for_workspace(cls, workspace_dir: str | Path, stale_secs: float = 3600.0) -> DreamLock:
        return cls(Path(workspace_dir) / LOCK_FILE, stale_secs)

    def read(self) -> LockState | None:
        """The lock as it is on disk, or None if there is no lock file."""
        mtime = self.last_success()
        if mtime is None:
            return None
        try:
            data = read_bytes(self.path, root=self.path.parent, max_bytes=MAX_LOCK_BYTES).data
        except FileNotFoundError:
            return None
        except OSError:
            data = b""  # unreadable, too long, a link, a FIFO: corrupt, so reclaimable
        return LockState(parse_pid(data.decode("utf-8", errors="replace")), mtime)

    def last_success(self) -> float | None:
        """The mtime of the lock file: the time of the last successful consolidation."""
        try:
            return os.stat(self.path, follow_symlinks=False).st_mtime
        except FileNotFoundError:
            return None

    def try_acquire(self, now: float) -> Acquired | Busy:
        """SPEC §7.4 ``try_acquire``: reclaim empty, corrupt, dead or stale locks."""
        state = self.read()
        if state is not None and holder_blocks(
            state.pid, state.mtime, now, self.stale_secs, self.is_alive
        ):
            return Busy(state.pid, f"held by live process {state.pid}")
        prior = None if state is None else state.mtime
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._write(str(self.pid))
        os.utime(self.path, (now, now), follow_symlinks=False)
        try:
            data = read_bytes(self.path, root=self.path.parent, max_bytes=MAX_LOCK_BYTES).data
            back = data.decode("utf-8", errors="replace")
        except OSError:
            back = ""
        if parse_pid(back) != self.pid:
            return Busy(parse_pid(back), "lost the race: another process wrote the lock after us")
        return Acquired(prior)

    def rollback(self, prior: float | None) -> None:
        """Undo an acquisition: delete the lock, or restore ``prior`` with an empty body."""
        if prior is None:
            self.path.unlink(missing_ok=True)
            return
        self._write("")
        os.utime(self.path, (prior, prior), follow_symlinks=False)

    def _write(self, body: str) -> None:
        """Write the body in place, never through a symbolic link (an OSError if it is one)."""
        flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_NOFOLLOW", 0)
        fd = os.open(self.path, flags | getattr(os, "O_NONBLOCK", 0), 0o644)
        try:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                raise Refused(self.path, "not a regular file; the lock is not written")
            os.write(fd, body.encode("utf-8"))
        finally:
            os.close(fd)
