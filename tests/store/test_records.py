"""Records (the turns of a rendered conversation) and the chunking modes built on them."""

from __future__ import annotations

from pathlib import Path

import pytest

from memlab.config import ChunkingConfig, ConfigError, IndexConfig
from memlab.datasets.importers._common import render_conversation
from memlab.errors import SchemaMismatchError
from memlab.store.chunker import chunk_markdown
from memlab.store.chunking import chunk_file
from memlab.store.records import escape_body_line, split_records
from memlab.store.store import MemoryStore

TURNS = [
    ("user", "I moved to Lisbon.\n\n**Note**\nthe rent is high"),
    ("assistant", "Lisbon is lovely.\n\n**Tips**\n\n- walk"),
    ("user", "**user**"),
    ("assistant", ""),
]


def _session() -> tuple[str, list[tuple[int, int]]]:
    rendered = render_conversation("Chat session, 2023/05/20 (Sat) 02:21", TURNS)
    return rendered.text, rendered.spans


def test_records_are_the_rendered_turns() -> None:
    text, spans = _session()
    records = split_records(text)
    assert records.labelled and records.preamble == (1, 1)
    assert [(r.start_line, r.end_line) for r in records.records] == spans
    assert [r.label for r in records.records] == ["user", "assistant", "user", "assistant"]
    # a text line that would read as a speaker line is indented, so it stays text
    assert " **Note**" in text.split("\n") and " **user**" in text.split("\n")
    assert escape_body_line("**Tips**") == " **Tips**" and escape_body_line("a **b**") == "a **b**"


def test_a_file_without_turns_is_one_record() -> None:
    records = split_records("\n# Title\n\nsome text\n\n")
    assert not records.labelled and records.preamble is None
    assert [(r.label, r.start_line, r.end_line) for r in records.records] == [(None, 2, 4)]
    assert split_records("").records == () and split_records("\n\n").records == ()


def test_record_mode_gives_each_turn_one_chunk() -> None:
    text, _ = _session()
    big = text + "".join(f"\n**user**\n{'word ' * 400}\n" for _ in range(3))  # > max_bytes turns
    chunks = chunk_file(big, ChunkingConfig(mode="record", max_bytes=200))
    records = split_records(big)
    assert [(c.start_line, c.end_line) for c in chunks] == [
        (r.start_line, r.end_line) for r in records.records
    ]
    assert chunks[0].text == "**user**\nI moved to Lisbon.\n\n **Note**\nthe rent is high"
    assert all(not c.text.startswith("# Chat") for c in chunks)  # the title is not a turn
    users = chunk_file(big, ChunkingConfig(mode="record", roles=("user",)))
    assert len(users) == 5 and all(c.text.startswith("**user**") for c in users)


def test_file_mode_is_c0s_single_chunk_for_every_file() -> None:
    text, _ = _session()
    assert chunk_file(text, ChunkingConfig(mode="file")) == chunk_markdown(text)
    long = text * 20
    [whole] = chunk_file(long, ChunkingConfig(mode="file", max_bytes=100))
    assert whole.text == long and (whole.start_line, whole.end_line) == (1, long.count("\n"))
    doc = "# A document\n\nwith **bold** words\n"
    assert chunk_file(doc, ChunkingConfig(mode="record")) == chunk_markdown(doc)


def test_c0_mode_is_the_spec_chunker() -> None:
    text, _ = _session()
    for size in (60, 200, 1600):
        config = ChunkingConfig(max_bytes=size, overlap_chars=10)
        assert chunk_file(text, config) == chunk_markdown(text, size, 10)


def test_roles_leave_out_other_speakers_and_keep_line_numbers() -> None:
    text, _ = _session()
    lines = text.split("\n")
    for mode in ("c0", "file"):
        chunks = chunk_file(text, ChunkingConfig(mode=mode, roles=("user",), max_bytes=80))
        joined = "\n".join(c.text for c in chunks)
        assert "Lisbon is lovely" not in joined and "I moved to Lisbon" in joined
        assert "walk" not in joined and "(empty)" not in joined
    for chunk in chunk_file(text, ChunkingConfig(roles=("user",), max_bytes=80, overlap_chars=0)):
        body = [ln for ln in chunk.text.split("\n") if ln.strip() and not ln.startswith("[")]
        span = lines[chunk.start_line - 1 : chunk.end_line]
        assert body[0] == span[0].strip() or body[0] in span  # spans count the file's lines
        assert all(line in span for line in body)
    assert chunk_file(text, ChunkingConfig(roles=("nobody",), mode="record")) == []


def test_bad_chunking_options() -> None:
    with pytest.raises(ConfigError, match="chunking mode 'pages'"):
        ChunkingConfig(mode="pages")
    with pytest.raises(ConfigError, match="stands alone"):
        ChunkingConfig(roles=("all", "user"))
    assert ChunkingConfig(roles="all").roles == () and ChunkingConfig(roles="user, x").roles == (
        "user",
        "x",
    )


def test_the_index_records_its_chunking(tmp_path: Path) -> None:
    root = tmp_path / "memory"
    (root / "ws" / "sessions").mkdir(parents=True)
    text, spans = _session()
    (root / "ws" / "sessions" / "2023-05-20-chat-1.md").write_text(text)
    record = IndexConfig(chunking=ChunkingConfig(mode="record", roles=("user",)))
    with MemoryStore.open(root, "ws", config=record) as store:
        store.sync()
        chunks = store.index.chunks()
        assert [(c.start_line, c.end_line) for c in chunks] == [spans[0], spans[2]]
    with pytest.raises(SchemaMismatchError, match=r"chunked with .*record.*rebuild"):
        MemoryStore.open(root, "ws")
    with MemoryStore.open(root, "ws", config=record) as store:  # the same chunking opens
        assert len(store.index.chunks()) == 2
