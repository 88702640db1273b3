"""Writing judgement files so that a kill at any moment loses at most the line in flight.

* ``append_lines`` — one ``write`` of whole lines to a file opened ``O_APPEND``,
  then ``fsync``: after it returns, the lines are on disk;
* ``write_atomic`` — temp file in the same folder, ``fsync``, rename: a reader sees
  the old or the new content, never a mix;
* ``repair_tail`` — a file whose last line has no ``\\n`` was cut by a kill
  mid-write: the torn line is cut off (and returned, so the caller can say so).

Never through a symbolic link: the files are opened with ``O_NOFOLLOW``.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)


def _fsync_dir(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def append_lines(path: Path, lines: Iterable[str]) -> None:
    """Append whole lines (each without ``\\n``) in one write, and fsync."""
    data = "".join(line + "\n" for line in lines).encode("utf-8")
    if not data:
        return
    created = not path.exists()
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | _NOFOLLOW | _CLOEXEC, 0o644)
    try:
        view = memoryview(data)
        while view:
            written = os.write(fd, view)
            view = view[written:]
        os.fsync(fd)
    finally:
        os.close(fd)
    if created:
        _fsync_dir(path.parent)


def write_atomic(path: Path, data: str | bytes) -> None:
    """Replace ``path`` with ``data`` atomically (temp file, fsync, rename)."""
    payload = data.encode("utf-8") if isinstance(data, str) else data
    tmp = path.with_name(f".{path.name}.tmp-{os.getpid()}")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | _NOFOLLOW | _CLOEXEC, 0o644)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(payload)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    _fsync_dir(path.parent)


def repair_tail(path: Path) -> str | None:
    """Cut a torn last line (one without ``\\n``) off ``path``; returns it, or None."""
    if not path.is_file():
        return None
    data = path.read_bytes()
    if not data or data.endswith(b"\n"):
        return None
    keep = data.rfind(b"\n") + 1
    fd = os.open(path, os.O_WRONLY | _NOFOLLOW | _CLOEXEC)
    try:
        os.ftruncate(fd, keep)
        os.fsync(fd)
    finally:
        os.close(fd)
    return data[keep:].decode("utf-8", "replace")
