"""The memory index: ``reindex_file`` / ``delete_path`` with c0 semantics (SPEC §2.2).

* Chunk ids are positional (``"<path>:<i>"``); the same id with the same hash is
  skipped; the same id with a new hash updates text, hash, lines and
  ``updated_at`` but **keeps source, created_at and access_count**, replaces the
  FTS row and drops the stale vector; a new id is inserted with
  ``created_at = updated_at = now``; ids no longer produced are deleted.
* Each file is reindexed in ONE transaction, so a killed process leaves either
  the old or the new chunks of a file, never a mix.
* Time comes from an injectable clock (or an explicit ``now``), so a dataset can
  be indexed at its logical times.
"""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

from memlab.config import IndexConfig
from memlab.safefs import printable_name, utf8_name
from memlab.search.content import is_content_free
from memlab.store import vectors
from memlab.store.chunker import Chunk, content_hashes
from memlab.store.chunking import chunk_file
from memlab.store.connection import Connection, open_connection
from memlab.store.file_table import (
    FileState,
    Signature,
    file_record,
    file_state,
    file_states,
    record_file,
    record_files,
)
from memlab.store.files import FileText, Skip, created_time, file_signature, read_memory_file
from memlab.store.guard import check_index_target
from memlab.store.layout import MemoryLayout
from memlab.store.schema import check_chunking, get_meta, migrate
from memlab.store.schema import created_at_rule as schema_created_at_rule

log = logging.getLogger("memlab")
Clock = Callable[[], float]
# Files per group of a pipelined ``reindex_files`` (≈ 5,000 chunks of the usual size: an
# FTS statement that long costs no more per row than one for the whole batch).
PIPELINE_FILES = 250
# an indexed chunk as a reindex compares it: (rowid, hash, text, source)
Existing = tuple[int, str, str, str]


@dataclass
class FileOutcome:
    """What reindexing one path did."""

    path: str
    action: str  # "indexed" | "unchanged" | "deleted" | "skipped"
    added: int = 0
    updated: int = 0
    removed: int = 0
    reason: str = ""


@dataclass(frozen=True)
class FileChunks:
    """A file read and chunked (or why it is skipped), its chunks' hashes beside them."""

    rel: str
    read: FileText | Skip
    chunks: list[Chunk]
    hashes: list[str]


def read_chunked(
    layout: MemoryLayout,
    config: IndexConfig,
    rel: str,
    read: FileText | Skip | None = None,
    resolved_root: str | None = None,
) -> FileChunks:
    """A file read (unless ``read`` is given) and chunked, with its chunks' hashes:
    everything of a reindex that does not touch the database (``resolved_root``: see
    ``read_memory_file``)."""
    if read is None:
        read = read_memory_file(layout, rel, config.max_file_bytes, resolved_root=resolved_root)
    if isinstance(read, Skip):
        return FileChunks(rel, read, [], [])
    chunks = chunk_file(read.text, config.chunking)
    return FileChunks(rel, read, chunks, content_hashes(chunks))


@dataclass(frozen=True)
class IndexedChunk:
    """One chunk row as the index holds it (``MemoryIndex.chunks``)."""

    chunk_id: str
    path: str
    start_line: int
    end_line: int
    text: str
    source: str
    created_at: float
    access_count: int
    hash: str


@dataclass
class IndexStats:
    chunks: int
    files: int
    by_source: dict[str, int] = field(default_factory=dict)


def _explicit_rule(config: IndexConfig) -> str | None:
    """``config``'s created_at rule when it is not the default (c0's ``insert``)."""
    return (
        None if config.created_at_rule == IndexConfig().created_at_rule else config.created_at_rule
    )


class MemoryIndex:
    """The SQLite index of one workspace (chunks, FTS5, optional vectors)."""

    def __init__(
        self,
        layout: MemoryLayout,
        connection: Connection,
        config: IndexConfig,
        clock: Clock,
        path: Path | None,
    ) -> None:
        self.layout = layout
        self.connection = connection
        self.db = connection.conn
        self.config = config
        self.clock = clock
        self.path = path
        self.warnings: list[str] = list(connection.warnings)
        self._pending: list[tuple[Any, ...]] | None = None  # new chunk rows, inserted later
        self._pending_files: list[tuple[Any, ...]] | None = None  # file records, written later
        self._tokenizer: str | None = None
        self._access_changes = 0  # this connection's row changes that only recorded access

    @classmethod
    def open(
        cls,
        layout: MemoryLayout,
        *,
        index_path: str | Path | None = None,
        config: IndexConfig | None = None,
        clock: Clock | None = None,
        tokenizer: str | None = None,
        created_at_rule: str | None = None,
    ) -> MemoryIndex:
        """Open (creating if needed) the index; ``tokenizer`` and ``created_at_rule`` None
        accept the index's own (else ``config``'s rule for a new index)."""
        config = config or IndexConfig()
        target = Path(index_path) if index_path is not None else layout.default_index_path
        if str(target) != ":memory:":
            check_index_target(target, layout.root if index_path is None else None)
            target.parent.mkdir(parents=True, exist_ok=True)
        conn = open_connection(target)
        try:
            chosen = migrate(conn.conn, tokenizer, str(target))
            rule = schema_created_at_rule(
                conn.conn, created_at_rule or _explicit_rule(config), str(target)
            )
            check_chunking(conn.conn, config.chunking, str(target))
        except Exception:
            conn.close()
            raise
        if (chosen, rule) != (config.tokenizer, config.created_at_rule):
            config = IndexConfig(chosen, config.chunking, config.max_file_bytes, rule)
        return cls(
            layout, conn, config, clock or time.time, None if str(target) == ":memory:" else target
        )

    def close(self) -> None:
        self.connection.close()

    def change_stamp(self) -> tuple[int, int]:
        """A value that moves whenever the index's content may have changed: SQLite's
        ``data_version`` (commits by other connections) and this connection's
        ``total_changes`` (its own writes, virtual tables included) less those that only
        recorded access. Equal stamps mean nothing else was written in between, so a
        count taken then still holds."""
        version = int(self.db.execute("PRAGMA data_version").fetchone()[0])
        return version, int(self.db.total_changes) - self._access_changes

    @property
    def tokenizer(self) -> str:
        """The index's FTS5 tokenizer: fixed when the index is created, so read once (every
        search asks for it)."""
        if self._tokenizer is None:
            self._tokenizer = get_meta(self.db, "tokenizer") or self.config.tokenizer
        return self._tokenizer

    @contextmanager
    def transaction(self) -> Iterator[Any]:
        """One atomic unit of work; inside ``batch()`` it joins the batch's transaction."""
        if self.db.in_transaction:
            yield self.db
            return
        self.db.execute("BEGIN IMMEDIATE")
        try:
            yield self.db
        except BaseException:
            self.db.execute("ROLLBACK")
            raise
        self.db.execute("COMMIT")

    @contextmanager
    def batch(self) -> Iterator[None]:
        """Group many file updates into one commit.

        No savepoints per file: FTS5 flushes its pending terms at every savepoint,
        which halves the ingest rate. An error rolls the whole batch back (callers
        then redo it file by file); a killed process loses only the uncommitted
        batch, which the next stat scan finds again.
        """
        if self.db.in_transaction:
            yield
            return
        self.db.execute("BEGIN IMMEDIATE")
        try:
            yield
        except BaseException:
            self.db.execute("ROLLBACK")
            raise
        self.db.execute("COMMIT")

    # ------------------------------------------------------------------ writing

    def reindex_file(
        self, path: str | Path, source: str | None = None, now: float | None = None
    ) -> FileOutcome:
        """Bring the chunks of one file up to date (SPEC §2.2), in one transaction."""
        rel = self.layout.rel(path)
        if not utf8_name(rel):
            return self.skip_bad_name(rel)
        return self._apply(self.read_chunked(rel), source, now)

    def reindex_files(self, paths: Iterable[str], now: float | None = None) -> list[FileOutcome]:
        """``reindex_file`` for many distinct root-relative paths, in order, in one
        transaction (joining the caller's ``batch``): their indexed chunks read in one
        query, the root resolved once, and their new chunk rows and file records written
        in few statements (``_deferred``: the same rows and rowids as one file after
        the other).

        The paths go in groups of ``PIPELINE_FILES``: after a group's chunk rows are
        written, a helper thread reads and chunks the next group while this one runs
        the group's FTS statement, one long step of SQLite without the GIL; it waits
        for the helper before the next group. So the two never run Python at once (a
        helper running beside the row-by-row writes measured slower: each row would
        wait for the GIL), and the rows, rowids and FTS terms are those of reading
        every file here, one after the other."""
        wanted = list(paths)
        if len(set(wanted)) != len(wanted):
            raise ValueError("reindex_files takes each path once")
        good = [rel for rel in wanted if utf8_name(rel)]
        base = os.path.realpath(self.layout.root)

        def read(group: list[str]) -> list[FileChunks | None]:
            """Everything of the group that does not touch the database (None: a name
            that is not UTF-8)."""
            return [
                read_chunked(self.layout, self.config, rel, None, base) if utf8_name(rel) else None
                for rel in group
            ]

        step = max(1, PIPELINE_FILES)
        groups = [wanted[start : start + step] for start in range(0, len(wanted), step)]
        out: list[FileOutcome] = []
        helper = ThreadPoolExecutor(1, "memlab-read") if len(groups) > 1 else None
        try:
            with self.batch(), self._deferred():
                existing = self._existing(good)  # one query for the batch, not one per file
                files = read(groups[0]) if groups else []
                for number, group in enumerate(groups):
                    for rel, file in zip(group, files, strict=True):
                        if file is None:
                            out.append(self.skip_bad_name(rel))
                        else:
                            out.append(self._apply(file, None, now, existing.get(rel, {})))
                    if helper is None or number + 1 == len(groups):
                        break  # the last group's rows are written at the end of _deferred
                    start_next = partial(helper.submit, read, groups[number + 1])
                    files = self._write_pending(start_next).result()
        finally:
            if helper is not None:
                helper.shutdown(wait=True)
        return out

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

    def reindex_contents(
        self, items: Sequence[tuple[str, FileText | Skip, float]]
    ) -> list[FileOutcome]:
        """``reindex_content`` of many (path, content, now) with distinct paths, in one
        transaction: their indexed chunks read in one query, and every new chunk row of
        all of them inserted together at the end (the same rows and rowids as one file
        after the other)."""
        rels = [rel for rel, _, _ in items]
        if len(set(rels)) != len(rels):
            raise ValueError("reindex_contents takes each path once")
        with self.batch(), self._deferred():
            existing = self._existing(rels)
            return [
                self._apply(self.read_chunked(rel, read), None, now, existing.get(rel, {}))
                for rel, read, now in items
            ]

    def reindex_content(
        self, rel: str, read: FileText | Skip, source: str | None = None, now: float | None = None
    ) -> FileOutcome:
        """``reindex_file`` on a file's content already read (``read_memory_file``, or
        ``decode_memory_bytes`` on bytes held in memory, as a replay does)."""
        return self._apply(self.read_chunked(rel, read), source, now)

    def read_chunked(self, rel: str, read: FileText | Skip | None = None) -> FileChunks:
        """A file read (unless ``read`` is given) and chunked, with its chunks' hashes:
        everything of a reindex that does not touch the database."""
        return read_chunked(self.layout, self.config, rel, read)

    def _apply(
        self,
        file: FileChunks,
        source: str | None,
        now: float | None,
        existing: dict[str, Existing] | None = None,
    ) -> FileOutcome:
        now = self.clock() if now is None else now
        rel, read = file.rel, file.read
        if isinstance(read, Skip):
            return self._skip(rel, read)
        source = source or self.layout.classify_source(rel)
        created = created_time(self.config.created_at_rule, rel, read.mtime_ns, now)
        with self.transaction():
            if existing is None:
                existing = self._existing([rel]).get(rel, {})
            outcome = self._apply_chunks(rel, file, existing, source, now, created)
            self._record_file(rel, (read.size, read.mtime_ns), read.checked_ns, now, None)
        return outcome

    def _skip(self, rel: str, read: Skip) -> FileOutcome:
        """A file that was not read: delete its chunks if it is gone, warn once per change."""
        before = self.file_state(rel)
        if read.gone:
            removed = self.delete_path(rel)
            outcome = FileOutcome(rel, "deleted", removed=removed, reason=read.reason)
            if read.signature is None:
                return outcome  # simply gone: nothing to say, nothing to record
        else:
            outcome = FileOutcome(rel, "skipped", reason=read.reason)
        if before is None or (before.signature, before.skipped) != (read.signature, read.reason):
            self._warn(f"skipped {rel}: {read.reason}")
        if read.signature is not None:
            with self.transaction():
                self._record_file(rel, read.signature, read.checked_ns, self.clock(), read.reason)
        return outcome

    def skip_bad_name(self, rel: str) -> FileOutcome:
        """A file whose name is not valid UTF-8: never indexed; warned once per change."""
        key = printable_name(rel)
        signature = file_signature(self.layout.abs(rel))
        reason = "file name is not valid UTF-8; rename the file to index it"
        if signature is None:
            return FileOutcome(key, "skipped", reason=reason)
        return self._skip(key, Skip(reason, signature=signature, checked_ns=time.time_ns()))

    def _apply_chunks(
        self,
        rel: str,
        file: FileChunks,
        existing: dict[str, Existing],
        source: str,
        now: float,
        created: float,
    ) -> FileOutcome:
        outcome = FileOutcome(rel, "indexed")
        produced: set[str] = set()
        new_rows: list[tuple[Any, ...]]
        if not existing:  # a file with no chunks indexed (a new one): every chunk is new
            new_rows = [
                (f"{rel}:{i}", rel, c.start_line, c.end_line, c.text, h, source, created, now)
                for i, (c, h) in enumerate(zip(file.chunks, file.hashes, strict=True))
            ]
            new_rows = [(*row, is_content_free(row[4], source)) for row in new_rows]
            self._add_rows(new_rows)
            outcome.added = len(new_rows)
            if not new_rows:
                outcome.action = "unchanged"
            return outcome
        new_rows = []
        for i, (chunk, digest) in enumerate(zip(file.chunks, file.hashes, strict=True)):
            cid = f"{rel}:{i}"
            produced.add(cid)
            if cid in existing:
                rowid, old_hash, old_text, old_source = existing[cid]
                if old_hash == digest:
                    continue
                self.db.execute(
                    "UPDATE chunks SET text = ?, hash = ?, start_line = ?, end_line = ?, "
                    "updated_at = ?, content_free = ? WHERE rowid = ?",
                    (
                        chunk.text,
                        digest,
                        chunk.start_line,
                        chunk.end_line,
                        now,
                        is_content_free(chunk.text, old_source),  # the row keeps its source
                        rowid,
                    ),
                )
                self._fts_delete(rowid, old_text)
                self._fts_insert(rowid, chunk.text)
                vectors.delete_vectors(self, [cid])
                outcome.updated += 1
            else:
                row = (cid, rel, chunk.start_line, chunk.end_line, chunk.text, digest, source)
                new_rows.append((*row, created, now, is_content_free(chunk.text, source)))
        self._add_rows(new_rows)
        outcome.added = len(new_rows)
        stale = [(cid, v[0], v[2]) for cid, v in existing.items() if cid not in produced]
        self._delete_rows(stale)
        outcome.removed = len(stale)
        if not (outcome.added or outcome.updated or outcome.removed):
            outcome.action = "unchanged"
        return outcome

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
        with self.transaction():
            for start in range(0, len(rowids), 500):
                part = rowids[start : start + 500]
                self.db.execute(
                    "UPDATE chunks SET access_count = access_count + 1, last_accessed = ? "
                    f"WHERE rowid IN ({','.join('?' * len(part))})",
                    (when, *part),
                )
        self._access_changes += self.db.total_changes - before  # not a change of content

    # ------------------------------------------------------------------ reading

    def indexed_files(self) -> dict[str, tuple[int, int]]:
        """path → (size, mtime_ns) as last read (indexed or skipped)."""
        return {path: state.signature for path, state in self.file_states().items()}

    def file_state(self, rel: str) -> FileState | None:
        return file_state(self.db, rel)

    def file_states(self) -> dict[str, FileState]:
        """path → what the last read of the file found (``file_table.FileState``)."""
        return file_states(self.db)

    def indexed_paths(self) -> set[str]:
        return {r[0] for r in self.db.execute("SELECT DISTINCT path FROM chunks")}

    def chunks(self, paths: Iterable[str] | None = None) -> list[IndexedChunk]:
        """Every chunk (or the chunks of ``paths``), by path and then position in the file."""
        sql = (
            "SELECT id, path, start_line, end_line, text, source, created_at, access_count, "
            "hash FROM chunks"
        )
        order = " ORDER BY path, start_line, rowid"
        if paths is None:
            rows = self.db.execute(sql + order).fetchall()
        else:
            rows = []
            wanted = sorted(set(paths))
            for start in range(0, len(wanted), 500):  # SQLite's variable limit, with room
                part = wanted[start : start + 500]
                marks = ",".join("?" * len(part))
                rows += self.db.execute(sql + f" WHERE path IN ({marks})" + order, part).fetchall()
        return [IndexedChunk(*row) for row in rows]

    def stats(self) -> IndexStats:
        by_source = {
            r[0]: int(r[1])
            for r in self.db.execute("SELECT source, COUNT(*) FROM chunks GROUP BY source")
        }
        files = int(self.db.execute("SELECT COUNT(DISTINCT path) FROM chunks").fetchone()[0])
        return IndexStats(sum(by_source.values()), files, by_source)

    def _warn(self, message: str) -> None:
        self.warnings.append(message)
        log.warning(message)
