"""The index's row-level writes: chunk rows and their FTS rows inserted, updated and
deleted, file records written, access recorded, and ``_deferred`` (new rows held
back and written together at the end of a batch). ``index.MemoryIndex`` decides what
to write for a file (SPEC §2.2); this module writes it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import Future
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from memlab.store import vectors
from memlab.store.file_table import Signature, file_record, record_file, record_files
from memlab.store.index_core import IndexCore

# an indexed chunk as a reindex compares it: (rowid, hash, text, source)
Existing = tuple[int, str, str, str]
_ACCESS_PART = 500  # rowids per statement recording access


def _access_sql(n: int) -> str:
    """Record one access of ``n`` rows by rowid (parameters: the time, then the rowids)."""
    return (
        "UPDATE chunks SET access_count = access_count + 1, last_accessed = ? "
        f"WHERE rowid IN ({','.join('?' * n)})"
    )


class IndexRows(IndexCore):
    """The row-level writes of the index (a part of ``MemoryIndex``)."""

    def _write_pending(self, during_fts: Callable[[], Future[Any]]) -> Future[Any]:
        """Inside ``_deferred``: write the chunk rows held back so far, calling
        ``during_fts`` (which starts work in another thread) just before their FTS
        statement; the future it returned."""
        assert self._pending is not None, "_write_pending runs inside _deferred"
        rows, self._pending = self._pending, []
        return self._insert_chunks(rows, during_fts)

    @contextmanager
    def _deferred(self) -> Iterator[None]:
        """Inside a transaction: hold back every new chunk row and file record and write
        them in two statements at the end (new chunk rows are only ever appended, so the
        rows and rowids are those of writing each file's at once; ``_write_pending``
        writes the rows held so far earlier, with the same effect). The paths written
        must be distinct: a record held back is not seen by a later read of its path."""
        assert self.db.in_transaction, "_deferred runs inside a transaction"
        files: list[tuple[Any, ...]] = []
        self._pending, self._pending_files = [], files
        try:
            yield
            pending = self._pending or []
        finally:
            self._pending = self._pending_files = None
        self._insert_chunks(pending)
        record_files(self.db, files)

    def _existing(self, paths: list[str]) -> dict[str, dict[str, Existing]]:
        """path → {chunk id: (rowid, hash, text, source)} of the chunks indexed for
        ``paths``."""
        out: dict[str, dict[str, Existing]] = {}
        for start in range(0, len(paths), 500):
            part = paths[start : start + 500]
            sql = (
                "SELECT path, id, rowid, hash, text, source FROM chunks "
                f"WHERE path IN ({','.join('?' * len(part))})"
            )
            for path, cid, rowid, digest, text, source in self.db.execute(sql, part):
                out.setdefault(path, {})[cid] = (rowid, digest, text, source)
        return out

    def _add_rows(self, new_rows: list[tuple[Any, ...]]) -> None:
        """Insert new chunk rows (inside ``_deferred``: at its end)."""
        if self._pending is not None:
            self._pending.extend(new_rows)
        else:
            self._insert_chunks(new_rows)

    def delete_path(self, path: str | Path) -> int:
        """Remove every chunk of a path (FTS rows, vectors, chunk rows)."""
        rel = self.layout.rel(path)
        with self.transaction():
            rows = [
                (r[0], r[1], r[2])
                for r in self.db.execute(
                    "SELECT id, rowid, text FROM chunks WHERE path = ?", (rel,)
                )
            ]
            self._delete_rows(rows)
            self.db.execute("DELETE FROM files WHERE path = ?", (rel,))
        return len(rows)

    def _delete_rows(self, rows: list[tuple[str, int, str]]) -> None:
        if not rows:
            return
        for _, rowid, text in rows:
            self._fts_delete(rowid, text)
        vectors.delete_vectors(self, [cid for cid, _, _ in rows])
        self.db.executemany("DELETE FROM chunks WHERE rowid = ?", [(r[1],) for r in rows])

    def _insert_chunks(
        self, rows: list[tuple[Any, ...]], during_fts: Callable[[], Any] | None = None
    ) -> Any:
        """Insert new chunk rows (``_apply_chunks``'s: the columns of ``chunks`` from ``id``
        to ``updated_at``, then ``content_free``), then their FTS rows from the rows just
        written, each in one statement (AUTOINCREMENT numbers the new rows on from the
        table's sequence, one by one, so they are one range of rowids: the texts are not
        bound twice).

        ``during_fts`` is called just before the FTS statement (``reindex_files`` starts
        reading the next files there); what it returned is returned."""
        started: Any = None
        if not rows:
            return during_fts() if during_fts is not None else None
        first = self._sequence() + 1
        self.db.executemany(
            "INSERT INTO chunks(id, path, start_line, end_line, text, hash, source, "
            "created_at, updated_at, content_free) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            rows,
        )
        last = first + len(rows) - 1
        if during_fts is not None:
            started = during_fts()
        if self._sequence() == last:
            self.db.execute(
                "INSERT INTO chunks_fts(rowid, text) SELECT rowid, text FROM chunks "
                "WHERE rowid BETWEEN ? AND ? ORDER BY rowid",
                (first, last),
            )
            return started
        found: dict[str, int] = {}  # not numbered on from the sequence (never with memlab's
        for start in range(0, len(rows), 500):  # schema): look the rowids up
            part = [row[0] for row in rows[start : start + 500]]
            sql = f"SELECT id, rowid FROM chunks WHERE id IN ({','.join('?' * len(part))})"
            found.update(self.db.execute(sql, part))
        self.db.executemany(
            "INSERT INTO chunks_fts(rowid, text) VALUES (?, ?)",
            [(found[row[0]], row[4]) for row in rows],
        )
        return started

    def _sequence(self) -> int:
        seq = self.db.execute("SELECT seq FROM sqlite_sequence WHERE name = 'chunks'").fetchone()
        return int(seq[0]) if seq else 0

    def _fts_insert(self, rowid: int, text: str) -> None:
        self.db.execute("INSERT INTO chunks_fts(rowid, text) VALUES (?, ?)", (rowid, text))

    def _fts_delete(self, rowid: int, text: str) -> None:
        self.db.execute(
            "INSERT INTO chunks_fts(chunks_fts, rowid, text) VALUES ('delete', ?, ?)", (rowid, text)
        )

    def _record_file(
        self, rel: str, signature: Signature, checked_ns: int, now: float, skipped: str | None
    ) -> None:
        if self._pending_files is not None:  # inside _deferred: written at its end
            self._pending_files.append(file_record(rel, signature, checked_ns, now, skipped))
        else:
            record_file(self.db, rel, signature, checked_ns, now, skipped)

    def record_access(self, chunk_ids: Iterable[str], now: float | None = None) -> None:
        """``access_count += 1`` and ``last_accessed = now`` for every returned chunk."""
        ids = [(self.clock() if now is None else now, cid) for cid in chunk_ids]
        if not ids:
            return
        before = self.db.total_changes
        with self.transaction():
            self.db.executemany(
                "UPDATE chunks SET access_count = access_count + 1, last_accessed = ? WHERE id = ?",
                ids,
            )
        self._access_changes += self.db.total_changes - before  # not a change of content

    def record_access_rows(self, rowids: Sequence[int], now: float | None = None) -> None:
        """``record_access`` of the chunks with these distinct rowids (as a search read
        them): one statement by primary key rather than one per chunk by id."""
        if len(set(rowids)) != len(rowids):
            raise ValueError("record_access_rows takes each rowid once")
        if not rowids:
            return
        when = self.clock() if now is None else now
        before = self.db.total_changes
        if len(rowids) <= _ACCESS_PART:  # one statement: atomic on its own (no BEGIN and
            # COMMIT to send), and inside a transaction part of it, as ``transaction()``
            self.db.execute(_access_sql(len(rowids)), (when, *rowids))
        else:
            with self.transaction():
                for start in range(0, len(rowids), _ACCESS_PART):
                    part = rowids[start : start + _ACCESS_PART]
                    self.db.execute(_access_sql(len(part)), (when, *part))
        self._access_changes += self.db.total_changes - before  # not a change of content
