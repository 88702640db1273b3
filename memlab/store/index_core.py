"""The index's connection and state, shared by its reads and writes (``MemoryIndex``).

``IndexCore`` holds what every part of ``memlab.store.index.MemoryIndex`` works on:
the workspace layout, the SQLite connection, the index's config and clock, and the
transaction helpers (``transaction``, ``batch``) that group writes into one commit.
The reads are in ``index_reads``, the row-level writes in ``index_rows``, and opening
and reindexing files in ``index``.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from memlab.config import IndexConfig
from memlab.store.connection import Connection
from memlab.store.layout import MemoryLayout
from memlab.store.schema import get_meta

log = logging.getLogger("memlab")
Clock = Callable[[], float]


class IndexCore:
    """The state of one open index and its transactions (the base of ``MemoryIndex``)."""

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

    def _warn(self, message: str) -> None:
        self.warnings.append(message)
        log.warning(message)
