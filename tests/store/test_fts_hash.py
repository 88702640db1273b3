"""FTS5's ``hashsize`` (schema 5): set on every index, new or upgraded, and a layout
choice only — an index built with it answers every query exactly as one built with
FTS5's 1 MB default, which writes (and merges) more segments on the way."""

from __future__ import annotations

import random
import struct
from pathlib import Path

from memlab.config import SearchConfig
from memlab.retrieval.pipeline import search
from memlab.store.schema import FTS_HASH_BYTES, SCHEMA_VERSION, get_meta
from memlab.store.store import MemoryStore
from tests.conftest import T0, WS, write
from tests.store.conftest import index_problems

FTS_DEFAULT_HASH = 1 << 20  # FTS5's own default


def hash_bytes(store: MemoryStore) -> int | None:
    row = store.index.db.execute("SELECT v FROM chunks_fts_config WHERE k = 'hashsize'").fetchone()
    return None if row is None else int(row[0])


def corpus(root: Path, files: int = 120, seed: int = 5) -> list[str]:
    """Session logs of ≈ 3,000 words each (≈ 2.2 MB of text: more than FTS5's default hash
    holds) from a Zipfian vocabulary; returns queries of common, rare and absent words."""
    rng = random.Random(seed)
    vocab = [f"w{i:04d}" for i in range(3000)]
    weights = [1.0 / (i + 1) for i in range(len(vocab))]
    write(root, "MEMORY.md", "# Global\n\nDeploy with the blue-green checklist.\n")
    for f in range(files):
        paragraphs = [
            " ".join(rng.choices(vocab, weights, k=60)) for _ in range(50)
        ]  # many chunks per file
        body = f"# Session {f}\n\n" + "\n\n".join(paragraphs) + "\n"
        write(root, f"{WS}/sessions/2026-01-{f % 28 + 1:02d}-s{f}-{f:08d}.md", body)
    return ["w0001 w0002", "w0500 w2999", "w1234", "deploy checklist", "w0007 w0100 w2000", "zz"]


def fts_rows(store: MemoryStore, query: str) -> list[tuple[int, bytes]]:
    sql = "SELECT rowid, rank FROM chunks_fts WHERE chunks_fts MATCH ? ORDER BY rank"
    return [
        (rowid, struct.pack("<d", rank)) for rowid, rank in store.index.db.execute(sql, (query,))
    ]


def hits(store: MemoryStore, query: str) -> list[tuple[str, bytes]]:
    result = search(store, query, SearchConfig(vectors=False), T0, record_access=False)
    return [(h.chunk_id, struct.pack("<d", h.score)) for h in result.hits]


def test_a_new_index_holds_the_larger_hash(tmp_path: Path) -> None:
    root = tmp_path / "memory"
    write(root, "MEMORY.md", "# Global\n\nnotes\n")
    with MemoryStore.open(root, index_path=tmp_path / "index.sqlite") as store:
        assert hash_bytes(store) == FTS_HASH_BYTES == 8 << 20


def test_the_hash_changes_the_layout_not_one_answer(tmp_path: Path) -> None:
    root = tmp_path / "memory"
    queries = corpus(root)
    built: dict[int, MemoryStore] = {}
    try:
        for size in (FTS_DEFAULT_HASH, FTS_HASH_BYTES):
            path = tmp_path / f"index-{size}.sqlite"
            store = built[size] = MemoryStore.open(root, index_path=path, scan=False)
            store.index.db.execute(
                "INSERT INTO chunks_fts(chunks_fts, rank) VALUES ('hashsize', ?)", (size,)
            )
            store.build(now=T0)
            assert index_problems(root, None, path) == []
        small, large = built[FTS_DEFAULT_HASH], built[FTS_HASH_BYTES]
        segments = {
            size: store.index.db.execute("SELECT COUNT(*) FROM chunks_fts_data").fetchone()[0]
            for size, store in built.items()
        }
        # the default wrote segments that the larger hash did not (the test would be
        # vacuous if both built one segment)
        assert segments[FTS_DEFAULT_HASH] != segments[FTS_HASH_BYTES]
        for query in queries:
            for word in query.split():
                assert fts_rows(small, word) == fts_rows(large, word)
            assert hits(small, query) == hits(large, query)
        assert any(hits(large, q) for q in queries)
    finally:
        for store in built.values():
            store.close()


def test_a_schema_4_index_gains_the_hash_and_keeps_its_answers(tmp_path: Path) -> None:
    root = tmp_path / "memory"
    queries = corpus(root, files=8)
    path = tmp_path / "index.sqlite"
    with MemoryStore.open(root, index_path=path) as store:
        store.build(now=T0)
        want = {q: hits(store, q) for q in queries}
        # back to schema 4: no hashsize row (FTS5's default, as memlab 4 left it)
        store.index.db.execute("DELETE FROM chunks_fts_config WHERE k = 'hashsize'")
        store.index.db.execute("UPDATE meta SET value = '4' WHERE key = 'schema_version'")
    with MemoryStore.open(root, index_path=path, scan=False) as store:
        assert get_meta(store.index.db, "schema_version") == str(SCHEMA_VERSION) == "5"
        assert hash_bytes(store) == FTS_HASH_BYTES
        assert {q: hits(store, q) for q in queries} == want
