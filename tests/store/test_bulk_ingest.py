"""The bulk ingest path stores exactly what the per-file path stores.

``MemoryStore.build`` / ``sync`` reindex a batch of files in one transaction
(``MemoryIndex.reindex_files``: new chunk rows and file records written together at
the end of the batch). Indexed one file after the other with ``reindex_file`` (one
transaction per file) on the same varied tree — global, workspace and session
files, CJK, files split by size, empty and blank files, binary, bad UTF-8 and
oversized files — then changed (edited, grown, shrunk, deleted, added) and brought
up to date again, the two indexes hold the same rows: every chunk column and rowid,
the FTS index term by term, the file records and the autoincrement sequence.

The chunker's section split is checked against a line-by-line reading of SPEC §2.1
on random Markdown (headings with every kind of leading space, ``#tags``, CJK).
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memlab.config import IndexConfig
from memlab.store import index as index_module
from memlab.store.chunker import _HEADING, Chunk, _split_section, chunk_markdown, context_prefix
from memlab.store.chunker import _Section as Section
from memlab.store.store import MemoryStore
from tests.conftest import T0, WS, backdate, write
from tests.store.conftest import index_problems

WORDS = ["alpha", "beta", "gamma", "记忆", "数据库", "naïve", "café", "🙂", "token", "x" * 40]


def paragraph(rng: random.Random, words: int) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(words))


def markdown(rng: random.Random) -> str:
    """A Markdown file: headings at several levels, short and long sections."""
    parts = [] if rng.random() < 0.3 else [paragraph(rng, rng.randint(1, 30)) + "\n\n"]
    for _ in range(rng.randint(0, 12)):
        level = rng.randint(1, 4)
        parts.append(f"{'#' * level} {paragraph(rng, 2)}\n\n")
        for _ in range(rng.randint(0, 4)):
            parts.append(paragraph(rng, rng.choice([3, 30, 200])) + "\n\n")
    return "".join(parts)


def varied_tree(root: Path, rng: random.Random, files: int) -> None:
    write(root, "MEMORY.md", markdown(rng))
    write(root, f"{WS}/MEMORY.md", markdown(rng))
    for i in range(files):
        write(root, f"{WS}/sessions/2026-01-{i % 28 + 1:02d}-s{i}.md", markdown(rng))
    write(root, f"{WS}/sessions/empty.md", "")
    write(root, f"{WS}/sessions/blank.md", "\n\n   \n")
    write(root, f"{WS}/sessions/binary.md", b"# bin\x00ary\n")
    write(root, f"{WS}/sessions/latin1.md", "# caf\xe9\n".encode("latin-1"))
    write(root, f"{WS}/notes/huge.md", "# big\n\n" + "word " * 15_000)


def change_tree(root: Path, rng: random.Random) -> None:
    sessions = sorted((root / WS / "sessions").glob("*-s*.md"))
    for path in sessions[::4]:  # edited: some chunks kept, some changed, some added
        text = path.read_text(encoding="utf-8")
        path.write_text(text.replace("alpha", "omega") + markdown(rng), encoding="utf-8")
    for path in sessions[1::4]:  # shrunk
        path.write_text(markdown(rng)[:200], encoding="utf-8")
    for path in sessions[2::8]:
        path.unlink()
    for i in range(5):
        write(root, f"{WS}/sessions/2026-02-01-new{i}.md", markdown(rng))
    (root / WS / "sessions" / "binary.md").write_text("# fixed\n\nnow text\n", encoding="utf-8")
    write(root, f"{WS}/notes/huge.md", "# smaller\n\n" + "word " * 100)


def rows(store: MemoryStore) -> dict[str, Any]:
    """Everything the index stores that does not depend on the wall clock."""
    db = store.index.db
    db.execute(
        "CREATE VIRTUAL TABLE IF NOT EXISTS temp.terms USING fts5vocab(main, chunks_fts, instance)"
    )
    return {
        "chunks": db.execute("SELECT * FROM chunks ORDER BY rowid").fetchall(),
        "fts": db.execute("SELECT * FROM temp.terms ORDER BY term, doc, col, offset").fetchall(),
        "files": db.execute(
            "SELECT path, size, mtime_ns, skipped, "  # a skipped file's time is the wall clock's
            "CASE WHEN skipped IS NULL THEN indexed_at END FROM files ORDER BY path"
        ).fetchall(),
        "sequence": db.execute("SELECT seq FROM sqlite_sequence WHERE name = 'chunks'").fetchall(),
    }


def per_file(store: MemoryStore, now: float) -> None:
    """The dirty paths reindexed one by one, each in its own transaction."""
    store.scan_changes()
    for rel in sorted(store.dirty.swap()):
        store.index.reindex_file(rel, None, now)


# The files of a batch are read in groups (``PIPELINE_FILES``), the next group by a helper
# thread while the FTS rows of the one before are written: the default group is larger
# than these trees, 7 makes many groups (a group of only bad files, only unchanged ones).
GROUPS = [index_module.PIPELINE_FILES, 7, 1]


@pytest.mark.parametrize("group", GROUPS)
def test_bulk_ingest_stores_what_file_by_file_stores(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, group: int
) -> None:
    monkeypatch.setattr(index_module, "PIPELINE_FILES", group)
    root = tmp_path / "memory"
    varied_tree(root, random.Random(5), files=60)
    backdate(root)
    config = IndexConfig(max_file_bytes=60_000)  # huge.md is over it
    bulk = MemoryStore.open(root, index_path=tmp_path / "bulk.sqlite", scan=False, config=config)
    single = MemoryStore.open(root, index_path=tmp_path / "one.sqlite", scan=False, config=config)
    try:
        report = bulk.build(now=T0)
        per_file(single, T0)
        assert {"indexed", "skipped", "unchanged"} == {o.action for o in report.outcomes}
        first = rows(bulk)
        assert len(first["chunks"]) > 200 and first == rows(single)
        change_tree(root, random.Random(6))
        backdate(root, T0)
        report = bulk.build(now=T0 + 3600)
        per_file(single, T0 + 3600)
        assert {"indexed", "deleted", "unchanged"} <= {o.action for o in report.outcomes}
        assert any(o.updated for o in report.outcomes) and any(o.removed for o in report.outcomes)
        assert rows(bulk) == rows(single) != first
    finally:
        bulk.close()
        single.close()
    assert index_problems(root, WS, tmp_path / "bulk.sqlite") == []


@pytest.mark.parametrize("group", GROUPS)
def test_a_batch_with_a_failing_file_keeps_nothing_of_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, group: int
) -> None:
    """The batch is one transaction: an SQL error in it rolls every file of it back,
    the groups written before it too (the sync then redoes them one by one)."""
    monkeypatch.setattr(index_module, "PIPELINE_FILES", group)
    root = tmp_path / "memory"
    varied_tree(root, random.Random(7), files=10)
    backdate(root)
    store = MemoryStore.open(root, index_path=tmp_path / "index.sqlite", scan=False)
    try:
        paths = sorted(store.layout.scan())
        last = paths[-1].replace("'", "''")
        store.index.db.execute(
            f"CREATE TEMP TRIGGER boom BEFORE INSERT ON files WHEN NEW.path = '{last}' "
            "BEGIN SELECT RAISE(ABORT, 'injected'); END"
        )
        try:
            store.index.reindex_files(paths, T0)
        except store.index.connection.Error:
            pass
        else:
            raise AssertionError("the injected error was not raised")
        assert store.index.db.execute("SELECT COUNT(*) FROM chunks").fetchone()[0] == 0
        assert store.index.db.execute("SELECT COUNT(*) FROM files").fetchone()[0] == 0
        store.index.db.execute("DROP TRIGGER boom")
        store.index.reindex_files(paths, T0)
        assert store.index.stats().chunks > 0
    finally:
        store.close()


# ---------------------------------------------------------------- the section split


def line_by_line_sections(lines: list[str]) -> list[Section]:
    """SPEC §2.1's split read literally: walk the lines, open a section at each heading."""
    sections: list[Section] = []
    stack: list[tuple[int, str]] = []
    current = Section([], 1, [])
    for number, line in enumerate(lines, start=1):
        m = _HEADING.match(line)
        if m:
            if current.lines:
                sections.append(current)
            level = len(m.group(1))
            while stack and stack[-1][0] >= level:
                stack.pop()
            stack.append((level, line.strip().lstrip("#").strip()))
            current = Section([h for _, h in stack], number, [])
        current.lines.append(line)
    if current.lines:
        sections.append(current)
    return sections


def reference_chunks(text: str, max_bytes: int, overlap: int) -> list[Chunk]:
    if not text:
        return []
    lines = text.split("\n")
    if text.endswith("\n"):
        lines.pop()
    if len(text.encode()) <= max_bytes:
        return [Chunk(1, max(len(lines), 1), text)]
    out = []
    for section in line_by_line_sections(lines):
        prefix = context_prefix(section.stack[:-1])
        body = "\n".join(section.lines)
        if len(body.encode()) <= max_bytes:
            last = section.first_line + len(section.lines) - 1
            parts = [Chunk(section.first_line, last, body)]
        else:
            parts = _split_section(section, max_bytes, overlap)
        out += [Chunk(p.start_line, p.end_line, prefix + p.text) for p in parts if p.text.strip()]
    return out


LINE = st.one_of(
    st.text(alphabet=" \t#x记\u3000\xa0\r\x0b", max_size=12),
    st.sampled_from(["# A", "  ## B", "\t### C", "#tag", "##", "\u3000# D", "#\r", "", "   "]),
)


@settings(max_examples=300, deadline=None)
@given(st.lists(LINE, max_size=40), st.sampled_from([8, 40, 200]), st.sampled_from([0, 5]))
def test_section_split_equals_the_line_by_line_reading(
    lines: list[str], max_bytes: int, overlap: int
) -> None:
    text = "\n".join(lines)
    assert chunk_markdown(text, max_bytes, overlap) == reference_chunks(text, max_bytes, overlap)


def test_default_chunking_of_the_varied_tree_equals_the_reference(tmp_path: Path) -> None:
    rng = random.Random(9)
    config = IndexConfig().chunking
    for _ in range(200):
        text = markdown(rng)
        got = chunk_markdown(text, config.max_bytes, config.overlap_chars)
        assert got == reference_chunks(text, config.max_bytes, config.overlap_chars)
