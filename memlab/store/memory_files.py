"""Reading memory files safely: every bad file is a reason, never a crash.

``read_memory_file`` returns the text, or a ``Skip`` saying why the file was
not read (too large, not UTF-8, binary, not a regular file, a symbolic link
out of the root, unreadable) or that it is gone. Reads go through
``memlab.safefs`` (resolved containment, no FIFOs or devices, the opened inode
checked, a size cap). The store turns a ``Skip`` into a warning and leaves the
file's existing chunks as they were (c0: a read error is a no-op); a file that
is gone — or now leads out of the root — has its chunks deleted.

Both outcomes carry the file's signature (size and mtime, following links, as
``file_signature`` computes it for the stat scan) and ``checked_ns``, the wall
clock just before the read: the store records them, so a bad file is warned
about once per change, and a file whose mtime is not older than the moment it
was read is read again on the next scan (the racy-timestamp rule).
"""

from __future__ import annotations

import os
import re
import time
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

from memlab.safefs import Outside, Refused, read_bytes
from memlab.store.file_table import Signature
from memlab.store.layout import MemoryLayout

_DATE_IN_NAME = re.compile(r"(\d{4})-(\d{2})-(\d{2})")


@dataclass(frozen=True)
class Skip:
    reason: str
    gone: bool = False  # the file does not exist (any more): delete its chunks
    signature: Signature | None = None  # recorded so the same bad file is not re-read
    checked_ns: int = 0


@dataclass(frozen=True)
class FileText:
    text: str
    size: int
    mtime_ns: int
    checked_ns: int = 0


def file_signature(path: Path) -> Signature | None:
    """(size, mtime_ns) following links (of the link itself if it dangles); None if gone."""
    try:
        st = os.stat(path)
    except OSError:
        try:
            st = os.lstat(path)
        except OSError:
            return None
    return st.st_size, st.st_mtime_ns


def read_memory_file(
    layout: MemoryLayout, rel: str, max_bytes: int, *, resolved_root: str | None = None
) -> FileText | Skip:
    """The file ``rel`` of ``layout`` as text, or why it is skipped (``resolved_root``: the
    memory root already resolved, by a caller reading many files)."""
    path = layout.abs(rel)
    checked_ns = time.time_ns()
    root = layout.root if resolved_root is None else resolved_root
    try:
        got = read_bytes(
            path, root=root, max_bytes=max_bytes, root_resolved=resolved_root is not None
        )
    except FileNotFoundError:
        return Skip("file no longer exists", gone=True, checked_ns=checked_ns)
    except OSError as exc:
        # the signature of a file not read (a read file's is that of the inode read);
        # one that changed since checked_ns is read again at the next scan (racy rule)
        signature = file_signature(path)
        if signature is None:
            return Skip("file no longer exists", gone=True, checked_ns=checked_ns)
        if isinstance(exc, Outside):
            reason = "symbolic link pointing outside the memory root (not followed)"
            return Skip(reason, gone=True, signature=signature, checked_ns=checked_ns)
        if isinstance(exc, Refused):
            return Skip(exc.reason, signature=signature, checked_ns=checked_ns)
        reason = f"cannot read: {exc.strerror or exc}"
        return Skip(reason, signature=signature, checked_ns=checked_ns)
    signature = (got.size, got.mtime_ns)  # the opened inode's: the file's, links followed
    return decode_memory_bytes(
        got.data, got.size, got.mtime_ns, signature=signature, checked_ns=checked_ns
    )


def decode_memory_bytes(
    data: bytes,
    size: int,
    mtime_ns: int,
    *,
    signature: Signature | None = None,
    checked_ns: int = 0,
) -> FileText | Skip:
    """A memory file's bytes as text, or why it is skipped (binary, not UTF-8); a
    leading BOM is dropped. ``read_memory_file`` reads, this decides (a replay holding
    files in memory calls it on their bytes)."""
    if b"\x00" in data:
        return Skip("binary file (contains NUL bytes)", signature=signature, checked_ns=checked_ns)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        reason = f"not valid UTF-8 (byte {exc.start}); re-save the file as UTF-8"
        return Skip(reason, signature=signature, checked_ns=checked_ns)
    return FileText(text.removeprefix("\ufeff"), size, mtime_ns, checked_ns)


def created_time(rule: str, rel: str, mtime_ns: int, now: float) -> float:
    """A new chunk's ``created_at`` under ``rule`` (``IndexConfig.created_at_rule``):
    ``now`` (c0: the insertion), the file's mtime, or the date in its name."""
    if rule == "mtime":
        return mtime_ns / 1e9
    if rule == "filename-date":
        return filename_date(rel, mtime_ns)
    return now


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
