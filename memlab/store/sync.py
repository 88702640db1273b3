"""Sync-on-search (SPEC §3): the dirty set, the file watcher and the reindex claim.

* ``DirtySet`` — paths changed since the last sync (thread-safe: the watcher
  thread adds, the searching thread swaps out).
* ``Watcher`` — real file-system events (watchdog: inotify on Linux) for
  ``*.md`` files under the memory root feed the dirty set.
* ``ReindexClaim`` — one atomic ``UPDATE meta … WHERE value = '' OR <stale>``;
  the claim is stale after 60 s; success iff one row changed. A process that
  loses the claim keeps its dirty set for the next search.

The claim uses the wall clock (it coordinates real processes); search time
(``now``) stays explicit and separate.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Callable, Iterable
from typing import Any

from memlab.store.layout import MemoryLayout

log = logging.getLogger("memlab")


class DirtySet:
    """Paths (relative to the memory root) waiting to be reindexed."""

    def __init__(self) -> None:
        self._paths: set[str] = set()
        self._lock = threading.Lock()

    def add(self, paths: Iterable[str]) -> None:
        with self._lock:
            self._paths.update(paths)

    def swap(self) -> set[str]:
        """Take every pending path, leaving the set empty."""
        with self._lock:
            taken, self._paths = self._paths, set()
        return taken

    def __len__(self) -> int:
        with self._lock:
            return len(self._paths)

    def snapshot(self) -> set[str]:
        with self._lock:
            return set(self._paths)


class ReindexClaim:
    """The ``meta.reindex_claim`` row: ``"<pid>:<unix_secs>"``, or ``''`` when free."""

    def __init__(
        self,
        db: Any,
        stale_secs: float = 60.0,
        clock: Callable[[], float] = time.time,
        pid: int | None = None,
        reclaim_dead: bool = False,
    ) -> None:
        self.db = db
        self.stale_secs = stale_secs
        self.reclaim_dead = reclaim_dead
        self.clock = clock
        self.pid = os.getpid() if pid is None else pid
        self._value: str | None = None

    def try_claim(self, *, reclaim_dead: bool | None = None) -> bool:
        """Take the claim if it is free or stale (or, with ``reclaim_dead``, held by a
        dead process on this machine); ``reclaim_dead`` None uses the configured value."""
        reclaim_dead = self.reclaim_dead if reclaim_dead is None else reclaim_dead
        now = int(self.clock())
        value = f"{self.pid}:{now}"
        cur = self.db.execute(
            "UPDATE meta SET value = ? WHERE key = 'reindex_claim' AND (value = '' OR "
            "CAST(substr(value, instr(value, ':') + 1) AS INTEGER) < ?)",
            (value, now - self.stale_secs),
        )
        won = cur.rowcount == 1
        if not won and reclaim_dead:
            won = self._take_from_dead_holder(value)
        self._value = value if won else None
        return won

    def _take_from_dead_holder(self, value: str) -> bool:
        holder = self.holder()
        pid_text = holder.partition(":")[0]
        if not pid_text.isdigit() or pid_alive(int(pid_text)):
            return False
        cur = self.db.execute(
            "UPDATE meta SET value = ? WHERE key = 'reindex_claim' AND value = ?", (value, holder)
        )
        return bool(cur.rowcount == 1)

    def release(self) -> None:
        if self._value is not None:
            self.db.execute(
                "UPDATE meta SET value = '' WHERE key = 'reindex_claim' AND value = ?",
                (self._value,),
            )
            self._value = None

    def holder(self) -> str:
        row = self.db.execute("SELECT value FROM meta WHERE key = 'reindex_claim'").fetchone()
        return "" if row is None else str(row[0])


def pid_alive(pid: int) -> bool:
    """Signal 0: success or a permission error means the process exists."""
    if pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    except OverflowError:
        return False
    return True


class Watcher:
    """watchdog observer feeding ``*.md`` create/modify/delete/move events into a DirtySet."""

    def __init__(self, layout: MemoryLayout, dirty: DirtySet) -> None:
        from watchdog.events import FileSystemEvent, FileSystemEventHandler
        from watchdog.observers import Observer

        self.layout = layout
        self.dirty = dirty
        watcher = self

        class _Handler(FileSystemEventHandler):
            def on_any_event(self, event: FileSystemEvent) -> None:
                if event.is_directory or event.event_type in ("opened", "closed_no_write"):
                    return
                for raw in (event.src_path, getattr(event, "dest_path", "")):
                    watcher._note(raw)

        self._observer = Observer()
        self._observer.schedule(_Handler(), str(layout.root), recursive=True)
        self._observer.daemon = True
        self._observer.start()

    def _note(self, raw: str | bytes) -> None:
        if not raw:
            return
        path = os.fsdecode(raw)
        if not path.endswith(".md"):
            return
        try:
            rel = self.layout.rel(path)
        except Exception:
            return
        if self.layout.in_scope(rel):
            self.dirty.add([rel])

    def stop(self) -> None:
        self._observer.stop()
        self._observer.join(timeout=5)
