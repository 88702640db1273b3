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

``MemoryIndex`` is composed of ``index_core.IndexCore`` (connection, transactions),
``index_reads.IndexReads`` (the lookups search and eval make) and
``index_rows.IndexRows`` (row-level writes); this module opens the index and decides
what reindexing a file writes.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

from memlab.config import IndexConfig
from memlab.retrieval.content import is_content_free
from memlab.safefs import printable_name, utf8_name
from memlab.store import vectors
from memlab.store.chunker import Chunk, content_hashes
from memlab.store.chunking import chunk_file
from memlab.store.connection import open_connection
from memlab.store.guard import check_index_target
from memlab.store.index_core import Clock, IndexCore
from memlab.store.index_reads import IndexedChunk, IndexReads, IndexStats
from memlab.store.index_rows import Existing, IndexRows
from memlab.store.layout import MemoryLayout
from memlab.store.memory_files import FileText, Skip, created_time, file_signature, read_memory_file
from memlab.store.schema import check_chunking, migrate
from memlab.store.schema import created_at_rule as schema_created_at_rule

__all__ = [
    "PIPELINE_FILES",
    "Clock",
    "Existing",
    "FileChunks",
    "FileOutcome",
    "IndexCore",
    "IndexStats",
    "IndexedChunk",
    "MemoryIndex",
    "read_chunked",
]

# Files per group of a pipelined ``reindex_files`` (≈ 5,000 chunks of the usual size: an
# FTS statement that long costs no more per row than one for the whole batch).
PIPELINE_FILES = 250


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


def _explicit_rule(config: IndexConfig) -> str | None:
    """``config``'s created_at rule when it is not the default (c0's ``insert``)."""
    return (
        None if config.created_at_rule == IndexConfig().created_at_rule else config.created_at_rule
    )


class MemoryIndex(IndexRows, IndexReads):
    """The SQLite index of one workspace (chunks, FTS5, optional vectors)."""

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
