"""Writing judgement files so that a kill at any moment loses at most the line in flight.

* ``append_lines`` — one ``write`` of whole lines to a file opened ``O_APPEND``,
  then ``fsync``: after it returns, the lines are on disk;
* ``memlab.safefs.write_atomic`` (rewrites) — temp file in the same folder,
  ``fsync``, rename: a reader sees the old or the new content, never a mix;
* ``repair_tail`` — a file whose last line has no ``\\n`` was cut by a kill
  mid-write: the torn line is cut off (and returned, so the caller can say so).

Never through a symbolic link: the files are opened with ``O_NOFOLLOW``; and never
anything but a regular file (``check_regular``: a FIFO would block, a device never
ends).
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

from memlab.safefs import Refused, fsync_dir

_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)


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
        fsync_dir(path.parent)


def check_regular(path: Path, what: str) -> None:
    """Refuse ``path`` (one line) unless it is missing or a regular file."""
    if (path.exists() and not path.is_file()) or path.is_symlink():
        raise Refused(path, f"{what} must be a regular file (not a link, FIFO or device)")


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
