"""The ``files`` table: what the last read of every memory file found.

One row per path the index has read — indexed, or skipped with a reason — with
the file's signature (size and mtime), the wall clock just before the read
(``checked_ns``) and, for a skipped file, why. The stat scan compares the disk
with it (``FileState.stale``): a file is read again when its signature changed
or when its mtime is not older than its last read (the racy-timestamp rule), so
an unchanged bad file is neither re-read nor re-warned.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

Signature = tuple[int, int]  # (size, mtime_ns)

_COLUMNS = "path, size, mtime_ns, checked_ns, skipped"


@dataclass(frozen=True)
class FileState:
    """A file as last read: its signature, when it was read, why it was skipped (if it was)."""

    signature: Signature
    checked_ns: int
    skipped: str | None

    def stale(self, signature: Signature | None, racy_ns: int) -> bool:
        """Must the file be read again? Its signature changed, or its mtime is not older
        than the read by ``racy_ns`` (a change within the same timestamp tick would
        keep size and mtime: the racy-timestamp rule)."""
        return signature != self.signature or self.signature[1] >= self.checked_ns - racy_ns


def _state(row: Any) -> FileState:
    return FileState((int(row[1]), int(row[2])), int(row[3]), row[4])


_UPSERT = (
    f"INSERT INTO files({_COLUMNS}, indexed_at) VALUES (?, ?, ?, ?, ?, ?) "
    "ON CONFLICT(path) DO UPDATE SET size = excluded.size, mtime_ns = excluded.mtime_ns, "
    "indexed_at = excluded.indexed_at, checked_ns = excluded.checked_ns, "
    "skipped = excluded.skipped"
)


def file_record(
    rel: str, signature: Signature, checked_ns: int, now: float, skipped: str | None
) -> tuple[Any, ...]:
    """The parameters of one file's row (``record_files``)."""
    return (rel, signature[0], signature[1], checked_ns, skipped, now)


def record_file(
    db: Any, rel: str, signature: Signature, checked_ns: int, now: float, skipped: str | None
) -> None:
    record_files(db, [file_record(rel, signature, checked_ns, now, skipped)])


def record_files(db: Any, records: list[tuple[Any, ...]]) -> None:
    """Insert or update the rows of many files (``file_record``), in order."""
    if records:
        db.executemany(_UPSERT, records)


def file_state(db: Any, rel: str) -> FileState | None:
    row = db.execute(f"SELECT {_COLUMNS} FROM files WHERE path = ?", (rel,)).fetchone()
    return None if row is None else _state(row)


def file_states(db: Any) -> dict[str, FileState]:
    return {r[0]: _state(r) for r in db.execute(f"SELECT {_COLUMNS} FROM files")}
