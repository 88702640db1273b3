"""The engine benchmark's anchor: plain SQLite doing memlab's storage work, no memlab.

This module imports nothing from memlab (``tests/test_benchmarks.py`` checks it), so
the anchor cannot borrow memlab's code paths. It does the same work as memlab's
index on the same data: the same schema (its ``CREATE`` statements, read from the
index memlab built, are passed in), the same SQL driver choice and pragmas, the same
two FTS5 statements (copied here; the test checks they still equal memlab's), the
same vec0 KNN statement.
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from typing import Any

EVERGREEN_SOURCES = ("global", "workspace")
FTS_SQL = "SELECT rowid, rank FROM chunks_fts WHERE chunks_fts MATCH ? ORDER BY rank, rowid LIMIT ?"
SUPPLEMENT_SQL = (
    "SELECT rowid, rank FROM chunks_fts WHERE chunks_fts MATCH ? AND rowid IN "
    f"(SELECT rowid FROM chunks WHERE source IN ({', '.join('?' * len(EVERGREEN_SOURCES))})) "
    "ORDER BY rank, rowid LIMIT ?"
)
KNN_SQL = "SELECT chunk_id, distance FROM {table} WHERE embedding MATCH ? AND k = ?"
CHUNK_COLUMNS = "id, path, start_line, end_line, text, hash, source, created_at, updated_at"


def connect(path: str) -> Any:
    """A connection with sqlite-vec loaded: the standard library's driver if it can load
    extensions, else sqlean's (memlab's order), in WAL mode with ``synchronous=NORMAL``."""
    for name in ("sqlite3", "sqlean"):
        module = importlib.import_module(name)
        db = module.connect(path, timeout=30.0, isolation_level=None, check_same_thread=False)
        try:
            import sqlite_vec

            db.enable_load_extension(True)
            sqlite_vec.load(db)
            db.enable_load_extension(False)
        except Exception:  # this driver cannot load extensions: try the next
            db.close()
            continue
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=NORMAL")
        db.execute("PRAGMA foreign_keys=ON")
        return db
    raise RuntimeError("no SQLite driver here can load sqlite-vec")


def create_schema(db: Any, statements: Sequence[str], vec_dims: int | None = None) -> None:
    """memlab's tables (``statements``: their ``CREATE`` statements) and, with
    ``vec_dims``, a vec0 table of that many dimensions."""
    for sql in statements:
        db.execute(sql)
    if vec_dims is not None:
        db.execute(
            "CREATE VIRTUAL TABLE raw_vec USING vec0("
            f"chunk_id TEXT PRIMARY KEY, embedding float[{vec_dims}], +hash TEXT)"
        )


def ingest(db: Any, rows: Sequence[tuple[Any, ...]], vecs: dict[str, bytes] | None) -> None:
    """Insert chunk rows, their FTS rows and (with ``vecs``: vector by text) vec0 rows,
    one statement per row, in one transaction: a straightforward single-threaded loop."""
    db.execute("BEGIN")
    for row in rows:
        cur = db.execute(
            f"INSERT INTO chunks({CHUNK_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", row
        )
        db.execute("INSERT INTO chunks_fts(rowid, text) VALUES (?, ?)", (cur.lastrowid, row[4]))
        if vecs is not None:
            db.execute(
                "INSERT INTO raw_vec(chunk_id, embedding, hash) VALUES (?, ?, ?)",
                (row[0], vecs[row[4]], row[5]),
            )
    db.execute("COMMIT")


def fts(db: Any, match: str, limit: int) -> list[tuple[Any, ...]]:
    """memlab's two FTS statements (the main query and the evergreen supplement), then
    the matched rows' ids and text."""
    ids = [r[0] for r in db.execute(FTS_SQL, (match, limit))]
    ids += [r[0] for r in db.execute(SUPPLEMENT_SQL, (match, *EVERGREEN_SOURCES, limit))]
    marks = ",".join("?" * len(ids))
    return list(db.execute(f"SELECT id, text FROM chunks WHERE rowid IN ({marks})", ids))


def knn(db: Any, table: str, blob: bytes, limit: int) -> list[tuple[Any, ...]]:
    """The ``limit`` nearest vectors of ``table`` (vec0) to ``blob``."""
    return list(db.execute(KNN_SQL.format(table=table), (blob, limit)))
