"""Is an index exactly the files on disk? (``index_problems``; the SIGKILL campaign and
the race tests use it after every kill and every run.)

Checks ``PRAGMA integrity_check``, FTS5's own integrity check, the chunk ids and
hashes against a fresh chunking of every file, every row's ``content_free`` flag against
its text and source, and the FTS index term by term
(document and occurrence counts) against the same texts indexed afresh.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

from memlab.config import IndexConfig
from memlab.retrieval.content import is_content_free
from memlab.store.chunker import chunk_markdown
from memlab.store.connection import open_connection
from memlab.store.layout import MemoryLayout
from memlab.store.memory_files import FileText, read_memory_file
from memlab.store.schema import TOKENIZE_CLAUSES, get_meta


def disk_chunks(root: Path, workspace: str | None) -> dict[str, tuple[str, str]]:
    """chunk id → (hash, text) of every in-scope file as it is on disk now."""
    layout = MemoryLayout.open(root, workspace)
    config = IndexConfig()
    out: dict[str, tuple[str, str]] = {}
    for rel in layout.scan():
        read = read_memory_file(layout, rel, config.max_file_bytes)
        if isinstance(read, FileText):
            chunks = chunk_markdown(
                read.text, config.chunking.max_bytes, config.chunking.overlap_chars
            )
            for i, chunk in enumerate(chunks):
                out[f"{rel}:{i}"] = (chunk.hash, chunk.text)
    return out


def index_problems(root: Path, workspace: str | None, index_path: Path) -> list[str]:
    """Differences between the index and the files on disk (empty: they are equal)."""
    want = disk_chunks(root, workspace)
    conn = open_connection(index_path, want_vec=False)
    db = conn.conn
    problems: list[str] = []
    try:
        check = [r[0] for r in db.execute("PRAGMA integrity_check")]
        if check != ["ok"]:
            problems.append(f"integrity_check: {check[:3]}")
        try:
            db.execute("INSERT INTO chunks_fts(chunks_fts) VALUES ('integrity-check')")
        except conn.Error as exc:
            problems.append(f"fts integrity-check: {exc}")
        have = {r[0]: r[1] for r in db.execute("SELECT id, hash FROM chunks")}
        for cid in sorted(set(want) - set(have)):
            problems.append(f"missing chunk {cid}")
        for cid in sorted(set(have) - set(want)):
            problems.append(f"extra chunk {cid}")
        for cid in sorted(set(want) & set(have)):
            if want[cid][0] != have[cid]:
                problems.append(f"stale chunk {cid}")
        rows = db.execute("SELECT id, text, source, content_free FROM chunks ORDER BY id")
        for cid, text, source, free in rows:
            if bool(free) != is_content_free(text, source):
                problems.append(f"chunk {cid}: content_free is {free}, its text says otherwise")
        tokenizer = get_meta(db, "tokenizer") or "unicode61"
        if _vocab(db, "main", "chunks_fts") != _fresh_vocab(db, tokenizer, want):
            problems.append("the FTS index does not hold exactly the chunk texts on disk")
    finally:
        conn.close()
    return problems


def _vocab(db: Any, schema: str, table: str) -> Counter[tuple[str, int, int]]:
    name = f"vocab_{table}"
    db.execute(
        f"CREATE VIRTUAL TABLE IF NOT EXISTS temp.{name} USING fts5vocab({schema}, {table}, row)"
    )
    rows = db.execute(f"SELECT term, doc, cnt FROM temp.{name}")
    return Counter((str(t), int(d), int(c)) for t, d, c in rows)


def _fresh_vocab(
    db: Any, tokenizer: str, chunks: dict[str, tuple[str, str]]
) -> Counter[tuple[str, int, int]]:
    clause = TOKENIZE_CLAUSES[tokenizer]
    db.execute("DROP TABLE IF EXISTS temp.fresh")
    db.execute(f"CREATE VIRTUAL TABLE temp.fresh USING fts5(text, tokenize='{clause}')")
    db.executemany("INSERT INTO temp.fresh(text) VALUES (?)", [(t,) for _, t in chunks.values()])
    return _vocab(db, "temp", "fresh")
