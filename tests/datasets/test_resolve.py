"""Resolving targets to chunks: file, line span, fact; max grade; re-chunking keeps labels."""

from __future__ import annotations

from pathlib import Path

import pytest

from memlab.datasets import (
    ChunkRecord,
    DatasetWriter,
    chunk_group,
    load_dataset,
    qrels_by_file,
    resolve_qrels,
    resolve_stale_targets,
    resolve_targets,
    run_by_file,
)
from memlab.errors import DatasetError
from memlab.timefmt import parse_iso

from .conftest import SESSION, WS


def _chunk(cid: str, path: str, start: int, end: int, text: str = "x") -> ChunkRecord:
    return ChunkRecord(cid, path, start, end, text, "session", 0.0)


def test_rules() -> None:
    chunks = [
        _chunk("a.md:0", "a.md", 1, 10),
        _chunk("a.md:1", "a.md", 11, 20, "tail <!-- fact:f1 --> end"),
        _chunk("b.md:0", "b.md", 1, 5, "carried over <!-- fact:f1 -->"),
    ]
    got = resolve_targets(
        ["a.md", "a.md#L10-L11", "a.md#L12", "fact:f1", "a.md#L30-L31", "c.md"], chunks
    )
    assert got == {
        "a.md": ["a.md:0", "a.md:1"],
        "a.md#L10-L11": ["a.md:0", "a.md:1"],
        "a.md#L12": ["a.md:1"],
        "fact:f1": ["a.md:1", "b.md:0"],
        "a.md#L30-L31": [],
        "c.md": [],
    }


def test_resolve_qrels_takes_max_grade(tiny: Path) -> None:
    ds = load_dataset(tiny)
    chunks = chunk_group(ds.groups["default"])
    assert [c.chunk_id for c in chunks] == ["MEMORY.md:0", f"{WS}/MEMORY.md:0", f"{SESSION}:0"]
    assert [c.source for c in chunks] == ["global", "workspace", "session"]
    qrels = resolve_qrels(ds, chunks)
    assert qrels == {"q1": {"MEMORY.md:0": 2}, "q2": {f"{SESSION}:0": 2, f"{WS}/MEMORY.md:0": 0}}
    assert resolve_stale_targets(ds, chunks) == {"q2": [f"{WS}/MEMORY.md:0"]}
    # The engine's candidate rows (or any object with these attributes) work too.
    from memlab.retrieval.candidates_batch import CandidateRow

    rows = [
        CandidateRow(
            chunk_id=c.chunk_id,
            path=c.path,
            start_line=c.start_line,
            end_line=c.end_line,
            text=c.text,
            source=c.source,
            created_at=0.0,
            access_count=0,
        )
        for c in chunks
    ]
    assert resolve_qrels(ds, rows) == qrels


def test_labels_survive_rechunking(tmp_path: Path) -> None:
    body = "\n".join(
        [
            f"# Log {i}\n\n" + "\n".join(f"filler line {i}.{j} with some words" for j in range(12))
            for i in range(6)
        ]
    )
    body += "\n\n## Answer\n\nThe port is 7123. <!-- fact:f9 -->\nMore context here.\n"
    w = DatasetWriter(
        tmp_path / "d", name="d", licence="x", origin="y", as_of=parse_iso("2026-01-01T00:00:00Z")
    )
    w.add_file("ws-1/sessions/2025-12-01-log-00000000.md", body, parse_iso("2025-12-01T00:00:00Z"))
    answer_line = body.split("\n").index("The port is 7123. <!-- fact:f9 -->") + 1
    w.add_query("q", "port")
    w.judge("q", "fact:f9", 2)
    w.judge("q", f"ws-1/sessions/2025-12-01-log-00000000.md#L{answer_line}-L{answer_line}", 1)
    ds = load_dataset(w.finish())
    group = ds.groups["default"]
    for max_bytes, overlap in ((1600, 320), (400, 80), (200, 0), (100_000, 0)):
        chunks = chunk_group(group, max_bytes=max_bytes, overlap_chars=overlap)
        judged = resolve_qrels(ds, chunks)["q"]
        holding = {c.chunk_id for c in chunks if "fact:f9" in c.text}
        assert judged and set(judged) >= holding, (max_bytes, judged)
        assert all(g == 2 for cid, g in judged.items() if cid in holding)


def test_group_must_be_named_for_grouped_datasets(tmp_path: Path) -> None:
    w = DatasetWriter(tmp_path / "g", name="g", licence="x", origin="y", as_of=0.0, grouped=True)
    for gid in ("a", "b"):
        w.add_group(gid)
        w.add_file("MEMORY.md", f"# {gid}\n\nfact {gid}\n", 0.0, group=gid)
        w.add_query(f"{gid}-q", "fact", group=gid)
        w.judge(f"{gid}-q", "MEMORY.md", 2)
    ds = load_dataset(w.finish())
    with pytest.raises(DatasetError, match="pass group=<id>"):
        resolve_qrels(ds, [])
    chunks = chunk_group(ds.groups["b"])
    assert resolve_qrels(ds, chunks, group="b") == {"b-q": {"MEMORY.md:0": 2}}
    with pytest.raises(DatasetError, match="unknown group 'c'"):
        resolve_qrels(ds, chunks, group="c")


def test_file_level_judgements_and_runs(tiny: Path) -> None:
    ds = load_dataset(tiny)
    assert qrels_by_file(ds) == {"q1": {"MEMORY.md": 2}, "q2": {SESSION: 2, f"{WS}/MEMORY.md": 0}}
    run = {"q2": {f"{SESSION}:0": 0.4, f"{SESSION}:1": 0.9, "MEMORY.md:0": 0.5}}
    assert run_by_file(run) == {"q2": {SESSION: 0.9, "MEMORY.md": 0.5}}
