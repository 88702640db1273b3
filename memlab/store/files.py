"""Reading memory files safely: every bad file is a reason, never a crash.

``read_memory_file`` returns the text, or a ``Skip`` saying why the file was
not read (too large, not UTF-8, binary, a symlink out of the root, unreadable)
or that it is gone. The store turns a ``Skip`` into a warning and leaves the
file's existing chunks as they were (c0: a read error is a no-op); a file that
is gone has its chunks deleted.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

from memlab.store.layout import MemoryLayout

_DATE_IN_NAME = re.compile(r"(\d{4})-(\d{2})-(\d{2})")


@dataclass(frozen=True)
class Skip:
    reason: str
    gone: bool = False  # the file does not exist (any more): delete its chunks


@dataclass(frozen=True)
class FileText:
    text: str
    size: int
    mtime_ns: int


def read_memory_file(layout: MemoryLayout, rel: str, max_bytes: int) -> FileText | Skip:
    path = layout.abs(rel)
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return Skip("file no longer exists", gone=True)
    except OSError as exc:
        return Skip(f"cannot stat: {exc.strerror or exc}")
    if os.path.islink(path) and not layout.resolves_inside(rel):
        return Skip("symbolic link pointing outside the memory root (not followed)", gone=True)
    try:
        st = os.stat(path)
        if not os.path.isfile(path):
            return Skip("not a regular file")
        if st.st_size > max_bytes:
            return Skip(f"file is {st.st_size} bytes, over the {max_bytes}-byte limit")
        with open(path, "rb") as fh:
            data = fh.read(max_bytes + 1)
    except FileNotFoundError:
        return Skip("file deleted while reading", gone=True)
    except OSError as exc:
        return Skip(f"cannot read: {exc.strerror or exc}")
    if len(data) > max_bytes:
        return Skip(f"file grew over the {max_bytes}-byte limit while reading")
    return decode_memory_bytes(data, st.st_size, st.st_mtime_ns, max_bytes)


def decode_memory_bytes(data: bytes, size: int, mtime_ns: int, max_bytes: int) -> FileText | Skip:
    """A memory file's bytes as text, or why it is skipped (over the size limit, binary,
    not UTF-8); a leading BOM is dropped. ``read_memory_file`` reads, this decides."""
    if len(data) > max_bytes:
        return Skip(f"file is {len(data)} bytes, over the {max_bytes}-byte limit")
    if b"\x00" in data:
        return Skip("binary file (contains NUL bytes)")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        return Skip(f"not valid UTF-8 (byte {exc.start}); re-save the file as UTF-8")
    if text.startswith("\ufeff"):
        text = text[1:]
    return FileText(text, size, mtime_ns)


def filename_date(rel: str, mtime_ns: int) -> float:
    """OpenClaw's age rule: ``YYYY-MM-DD`` in the file name (UTC midnight), else mtime."""
    m = _DATE_IN_NAME.search(Path(rel).name)
    if m:
        try:
            y, mo, d = (int(g) for g in m.groups())
            return datetime(y, mo, d, tzinfo=timezone.utc).timestamp()
        except ValueError:
            pass
    return mtime_ns / 1e9
