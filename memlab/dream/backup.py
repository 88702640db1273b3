"""Backups of what a Dream run replaces and deletes (the CLI's default; not c0).

Before ``MEMORY.md`` is written, ``make_backup`` copies the current
``MEMORY.md`` and every session log the run read (the ones cleanup may
delete) into ``<workspace>/.dream-backups/<UTC time>-<pid>/``, fsynced; only
then is anything written or deleted. A failed backup stops the run before it
touches a file. The folder is hidden, so it is neither indexed nor scanned by
Dream; ``prune_backups`` keeps the newest ones. To restore, copy the files
back (``MEMORY.md`` to the workspace, ``sessions/*.md`` to ``sessions/``).
"""

from __future__ import annotations

import os
import shutil
import time
from collections.abc import Iterable
from pathlib import Path

from memlab.safefs import Refused, copy_into, fsync_dir, resolve_inside

BACKUP_DIR = ".dream-backups"
MAX_BACKUP_FILE = 64 * 1024 * 1024


def backup_root(workspace: Path) -> Path:
    return workspace / BACKUP_DIR


def make_backup(workspace: Path, memory: Path, sessions: Iterable[Path]) -> Path:
    """Copy ``memory`` (if it exists) and ``sessions`` (those that exist) into a new
    backup folder; return it. Raises ``OSError`` if anything cannot be copied."""
    root = backup_root(workspace)
    if root.is_symlink():
        raise Refused(root, "a symbolic link; backups are written only inside the workspace")
    resolve_inside(root, workspace)
    stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())
    folder = root / f"{stamp}-{os.getpid()}-{time.monotonic_ns() % 10**6:06d}"
    (folder / "sessions").mkdir(parents=True)
    for src, dest in [(memory, folder / memory.name)] + [
        (s, folder / "sessions" / s.name) for s in sessions
    ]:
        try:
            copy_into(src, dest, root=workspace, max_bytes=MAX_BACKUP_FILE)
        except FileNotFoundError:
            continue  # nothing to back up: no MEMORY.md yet, or a log already gone
    fsync_dir(folder / "sessions")
    fsync_dir(folder)
    fsync_dir(folder.parent)
    return folder


def prune_backups(workspace: Path, keep: int) -> list[Path]:
    """Delete all but the newest ``keep`` backup folders; return the deleted ones."""
    root = backup_root(workspace)
    try:
        folders = sorted(p for p in root.iterdir() if p.is_dir() and not p.is_symlink())
    except OSError:
        return []
    old = folders[: max(len(folders) - keep, 0)]
    for folder in old:
        shutil.rmtree(folder, ignore_errors=True)
    return old
