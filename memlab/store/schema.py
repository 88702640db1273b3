"""Index schema: numbered migrations and the meta table (SPEC §2.2).

``meta`` records the schema version, the FTS tokenizer and the chunking (index
properties: changing them means rebuilding), the embedder id and dimension, and
the reindex claim. Migrations run in order inside one transaction each; an index
written by a newer memlab is refused with a clear error.

Beyond c0's schema memlab adds a ``files`` table (size and mtime of every
indexed file, when it was read, and why it was skipped if it was) so that
opening a store can find files changed while nothing was watching, and a bad
file is warned about once per change; and a ``content_free`` column on ``chunks``
(SPEC §4.3 step 1, which depends only on a chunk's text and source), written with
the row so that a search does not re-read every candidate's text to filter it;
and a larger FTS5 ``hashsize`` (``FTS_HASH_BYTES``): FTS5 collects the terms of a
transaction in memory and writes a segment each time they pass it, so with its 1 MB
default a bulk load writes many small segments and merges them again (an 8 MB hash
builds a 50,000-document index in half the CPU, for ≈ 17 MB more peak memory). It
changes how the index is laid out, not what it holds: every query answers the same.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from memlab.config import ChunkingConfig, to_dict
from memlab.errors import SchemaMismatchError
from memlab.retrieval.content import is_content_free

SCHEMA_VERSION = 5
FTS_HASH_BYTES = 8 << 20  # FTS5 'hashsize': pending terms held before a segment is written
TOKENIZE_CLAUSES = {
    "unicode61": "unicode61",
    "porter": "porter unicode61",
    "trigram": "trigram",
}


def _migration_1(conn: Any, tokenizer: str) -> None:
    conn.execute("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT)")
    conn.execute(
        """CREATE TABLE IF NOT EXISTS chunks (
            rowid INTEGER PRIMARY KEY AUTOINCREMENT,
            id TEXT UNIQUE NOT NULL,
            path TEXT NOT NULL,
            start_line INTEGER NOT NULL,
            end_line INTEGER NOT NULL,
            text TEXT NOT NULL,
            hash TEXT NOT NULL,
            source TEXT NOT NULL,
            created_at REAL NOT NULL,
            updated_at REAL NOT NULL,
            access_count INTEGER NOT NULL DEFAULT 0,
            last_accessed REAL
        )"""
    )
    conn.execute("CREATE INDEX IF NOT EXISTS chunks_path ON chunks(path)")
    conn.execute("CREATE INDEX IF NOT EXISTS chunks_source ON chunks(source)")
    clause = TOKENIZE_CLAUSES[tokenizer]
    conn.execute(
        f"CREATE VIRTUAL TABLE IF NOT EXISTS chunks_fts USING fts5(text, content='', "
        f"tokenize='{clause}')"
    )
    conn.execute("INSERT OR IGNORE INTO meta(key, value) VALUES ('tokenizer', ?)", (tokenizer,))
    conn.execute("INSERT OR IGNORE INTO meta(key, value) VALUES ('reindex_claim', '')")


def _migration_2(conn: Any, tokenizer: str) -> None:
    conn.execute(
        """CREATE TABLE IF NOT EXISTS files (
            path TEXT PRIMARY KEY,
            size INTEGER NOT NULL,
            mtime_ns INTEGER NOT NULL,
            indexed_at REAL NOT NULL
        )"""
    )


def _migration_3(conn: Any, tokenizer: str) -> None:
    # checked_ns: wall clock just before the file was read (the racy-timestamp rule);
    # skipped: why the file was not indexed (NULL when it was), so it is warned once.
    conn.execute("ALTER TABLE files ADD COLUMN checked_ns INTEGER NOT NULL DEFAULT 0")
    conn.execute("ALTER TABLE files ADD COLUMN skipped TEXT")


def _migration_4(conn: Any, tokenizer: str) -> None:
    # content_free: is_content_free(text, source), kept with the row (index.py writes it
    # with every insert and text update); existing rows are filled here, in this
    # migration's transaction, so a search never reads an unfilled row.
    conn.execute("ALTER TABLE chunks ADD COLUMN content_free INTEGER NOT NULL DEFAULT 0")
    fill_content_free(conn)


def fill_content_free(conn: Any) -> int:
    """Set ``chunks.content_free`` from every row's text and source; how many rows are
    content-free."""
    rows = conn.execute("SELECT rowid, text, source FROM chunks")
    free = [(rowid,) for rowid, text, source in rows if is_content_free(text, source)]
    conn.execute("UPDATE chunks SET content_free = 0 WHERE content_free != 0")
    conn.executemany("UPDATE chunks SET content_free = 1 WHERE rowid = ?", free)
    return len(free)


def _migration_5(conn: Any, tokenizer: str) -> None:
    # FTS5's 'hashsize' (kept in chunks_fts_config, read on every open): see the module
    # docstring. An FTS5 without the option (none known) answers "SQL logic error" and
    # keeps its default.
    try:
        conn.execute(
            "INSERT INTO chunks_fts(chunks_fts, rank) VALUES ('hashsize', ?)", (FTS_HASH_BYTES,)
        )
    except Exception as exc:
        if str(exc) != "SQL logic error":
            raise


MIGRATIONS: list[Callable[[Any, str], None]] = [
    _migration_1,
    _migration_2,
    _migration_3,
    _migration_4,
    _migration_5,
]


def get_meta(conn: Any, key: str) -> str | None:
    try:
        row = conn.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
    except Exception:
        return None
    return None if row is None else str(row[0])


def set_meta(conn: Any, key: str, value: str) -> None:
    conn.execute(
        "INSERT INTO meta(key, value) VALUES (?, ?) "
        "ON CONFLICT(key) DO UPDATE SET value = excluded.value",
        (key, value),
    )


def created_at_rule(conn: Any, requested: str | None, path: str) -> str:
    """The index's ``created_at`` rule (``IndexConfig.created_at_rule``), kept in ``meta``:
    the one it was built with (recorded on first use; ``insert`` before it was recorded,
    or ``requested``); asking for another one is an error (ages would mix)."""
    existing = get_meta(conn, "created_at_rule")
    if existing and requested and existing != requested:
        raise SchemaMismatchError(
            f"{path} dates its chunks by '{existing}', not '{requested}'; rebuild it with "
            f"`memlab index ROOT --created-at {requested} --rebuild`"
        )
    if existing:
        return existing
    chosen = requested or "insert"
    conn.execute("BEGIN IMMEDIATE")
    try:
        if get_meta(conn, "created_at_rule") is None:
            set_meta(conn, "created_at_rule", chosen)
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    return get_meta(conn, "created_at_rule") or chosen


def migrate(conn: Any, tokenizer: str | None, path: str) -> str:
    """Bring the index to ``SCHEMA_VERSION``; return its tokenizer.

    ``tokenizer=None`` accepts whatever the index has (``unicode61`` for a new one).
    """
    current = int(get_meta(conn, "schema_version") or 0)
    if current > SCHEMA_VERSION:
        raise SchemaMismatchError(
            f"{path} has schema version {current}, newer than this memlab ({SCHEMA_VERSION}); "
            "upgrade memlab or rebuild the index with `memlab index --rebuild`"
        )
    existing = get_meta(conn, "tokenizer")
    if existing and tokenizer and existing != tokenizer:
        raise SchemaMismatchError(
            f"{path} was built with tokenizer '{existing}', not '{tokenizer}'; "
            f"rebuild it with `memlab index ROOT --tokenizer {tokenizer} --rebuild`"
        )
    chosen = existing or tokenizer or "unicode61"
    for version in range(current + 1, SCHEMA_VERSION + 1):
        conn.execute("BEGIN IMMEDIATE")
        try:
            MIGRATIONS[version - 1](conn, chosen)
            set_meta(conn, "schema_version", str(version))
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise
    return chosen


def chunking_meta(chunking: ChunkingConfig) -> str:
    """The ``meta.chunking`` value of an index chunked with ``chunking`` (JSON)."""
    return json.dumps(to_dict(chunking), sort_keys=True, separators=(",", ":"))


def check_chunking(conn: Any, chunking: ChunkingConfig, path: str) -> None:
    """Record the index's chunking in ``meta`` (an index without the entry: the one it
    is opened with); an index chunked otherwise is refused (its chunks would mix)."""
    wanted = chunking_meta(chunking)
    existing = get_meta(conn, "chunking")
    if existing is None:
        conn.execute("BEGIN IMMEDIATE")
        try:
            conn.execute("INSERT OR IGNORE INTO meta(key, value) VALUES ('chunking', ?)", (wanted,))
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        existing = get_meta(conn, "chunking")
    if existing != wanted:
        raise SchemaMismatchError(
            f"{path} was chunked with {existing}, not {wanted}; rebuild it with "
            "`memlab index ROOT --rebuild` (or index into another --index file)"
        )
