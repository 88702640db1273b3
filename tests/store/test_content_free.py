"""The ``content_free`` column (schema 4): SPEC §4.3 step 1 computed when a chunk row is
written, filled by the migration for an index written before it, and equal to
``is_content_free`` of the row's text and source wherever it is read."""

from __future__ import annotations

import struct
from pathlib import Path

from memlab.config import SearchConfig
from memlab.retrieval.content import is_content_free
from memlab.retrieval.pipeline import search
from memlab.store.schema import SCHEMA_VERSION, get_meta
from memlab.store.store import MemoryStore
from tests.conftest import T0, WS, write
from tests.store.conftest import index_problems

HEADINGS_ONLY = "# Deploy\n\n## Deploy notes\n"
SCAFFOLD = "# Project\n\nAdd project-specific knowledge here\n"


def flags(store: MemoryStore) -> dict[str, tuple[int, bool]]:
    """chunk id → (the stored flag, ``is_content_free`` of the row's text and source)."""
    rows = store.index.db.execute("SELECT id, text, source, content_free FROM chunks")
    return {cid: (free, is_content_free(text, source)) for cid, text, source, free in rows}


def memory(root: Path) -> None:
    write(root, "MEMORY.md", "# Global\n\nDeploy with the blue-green checklist.\n")
    write(root, f"{WS}/MEMORY.md", SCAFFOLD + "\n<!-- deploy -->\n")
    for i in range(6):
        body = HEADINGS_ONLY if i % 3 == 0 else f"# S{i}\n\ndeploy smoke {i}\n"
        write(root, f"{WS}/sessions/2026-01-0{i + 1}-s{i}-{i:08d}.md", body)


def hit_bits(store: MemoryStore, query: str) -> list[tuple[str, bytes, bytes]]:
    result = search(store, query, SearchConfig(vectors=False), T0, record_access=False)
    return [(h.chunk_id, struct.pack("<d", h.score), struct.pack("<d", h.raw)) for h in result.hits]


def test_rows_are_flagged_when_written_and_when_their_text_changes(tmp_path: Path) -> None:
    root = tmp_path / "memory"
    memory(root)
    store = MemoryStore.open(root, index_path=tmp_path / "index.sqlite")
    try:
        store.build(now=T0)
        first = flags(store)
        assert sum(free for free, _ in first.values()) == 3  # two heading-only, one scaffold
        assert all(free == want for free, want in first.values())
        # same ids, new texts: content-free rows gain content and the other way round
        session = f"{WS}/sessions/2026-01-01-s0-00000000.md"
        write(root, session, "# S0\n\ndeploy now\n")
        write(root, f"{WS}/sessions/2026-01-02-s1-00000001.md", HEADINGS_ONLY)
        store.index.reindex_file(root / session, now=T0 + 1)
        store.index.reindex_file(root / f"{WS}/sessions/2026-01-02-s1-00000001.md", now=T0 + 1)
        after = flags(store)
        assert after[f"{session}:0"] == (0, False)
        assert after[f"{WS}/sessions/2026-01-02-s1-00000001.md:0"] == (1, True)
        assert all(free == want for free, want in after.values())
        assert index_problems(root, None, tmp_path / "index.sqlite") == []
        store.index.db.execute("UPDATE chunks SET content_free = 0 WHERE content_free = 1")
        assert len(index_problems(root, None, tmp_path / "index.sqlite")) == 3
    finally:
        store.close()


def test_an_updated_row_is_judged_by_the_source_it_keeps(tmp_path: Path) -> None:
    """A text update keeps the row's source (SPEC §2.2), so the scaffold rule, which holds
    only for evergreen sources, is read with the stored source, not the one passed."""
    root = tmp_path / "memory"
    write(root, "MEMORY.md", "# Global\n\nreal content\n")
    store = MemoryStore.open(root, index_path=tmp_path / "index.sqlite")
    try:
        store.build(now=T0)
        write(root, "MEMORY.md", SCAFFOLD)
        store.index.reindex_file(root / "MEMORY.md", source="session", now=T0 + 1)
        row = store.index.db.execute("SELECT source, content_free FROM chunks").fetchone()
        assert tuple(row) == ("global", 1)
    finally:
        store.close()


def test_a_schema_3_index_is_upgraded_in_place(tmp_path: Path) -> None:
    root = tmp_path / "memory"
    memory(root)
    path = tmp_path / "index.sqlite"
    store = MemoryStore.open(root, index_path=path)
    try:
        store.build(now=T0)
        want = hit_bits(store, "deploy project knowledge global")
        chunks = store.index.db.execute("SELECT COUNT(*) FROM chunks").fetchone()[0]
        # back to schema 3: no content_free column (every row as memlab 3 left it)
        store.index.db.execute("ALTER TABLE chunks DROP COLUMN content_free")
        store.index.db.execute("UPDATE meta SET value = '3' WHERE key = 'schema_version'")
    finally:
        store.close()
    store = MemoryStore.open(root, index_path=path, scan=False)
    try:
        assert get_meta(store.index.db, "schema_version") == str(SCHEMA_VERSION) == "5"
        upgraded = flags(store)
        assert len(upgraded) == chunks
        assert sum(free for free, _ in upgraded.values()) == 3
        assert all(free == want for free, want in upgraded.values())
        assert hit_bits(store, "deploy project knowledge global") == want
        assert not any(cid.endswith("s0-00000000.md:0") for cid, _, _ in want)
    finally:
        store.close()


def test_reading_lines_up_to_the_first_content_equals_splitting_them_all() -> None:
    """``is_content_free`` finds the first line of content with one regular expression;
    it answers as the whole split (SPEC §4.3 step 1, written out here) on
    random texts of headings, blank and whitespace-only lines, CR, Unicode spaces,
    comments (closed and not), scaffold markers and evergreen or session sources."""
    import random

    from memlab.retrieval.content import is_scaffold, strip_comments
    from memlab.sources import is_evergreen
    from memlab.store.chunker import heading_level

    def split_all(text: str, source: str) -> bool:
        body = strip_comments(text) if "<!--" in text else text
        for line in body.split("\n"):
            if line.strip() and not heading_level(line):
                return is_evergreen(source) and is_scaffold(text)
        return True

    pieces = ["# A", "## b", "#no", "   ### c", "####", "\t", " ", "\u3000", "\r", "text",
              "<!-- x -->", "<!--", "-->", "Add project-specific knowledge here", "", "#\t",
              "\x0b", "\x0c", "\x1c", "\u00a0", "\u2028", "\u200b", "# \u00a0", "\r#"]  # fmt: skip
    rng = random.Random(7)
    for _ in range(20000):
        text = "".join(rng.choice([*pieces, "\n", "\n", "\n"]) for _ in range(rng.randint(0, 12)))
        for source in ("global", "workspace", "session", "dream"):
            assert is_content_free(text, source) == split_all(text, source), (text, source)
