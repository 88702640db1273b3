"""Format 2: events, versions, facts outside the text, nuggets, shared roots; the
validator names file, line and fix for every timeline problem."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from memlab.datasets import (
    ChunkRecord,
    DatasetWriter,
    compute_digest,
    load_dataset,
    resolve_targets,
    validate_dataset,
)
from memlab.errors import DatasetError
from memlab.timefmt import parse_iso

from .v2fixture import DAY, LOG_A1, LOG_A1_PART1, LOG_A2, T0, write_timeline_mini


@pytest.fixture
def mini(tmp_path: Path) -> Path:
    return write_timeline_mini(tmp_path / "mini")


def _lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def _write_lines(path: Path, records: list[dict]) -> None:
    path.write_text("".join(json.dumps(r, sort_keys=True) + "\n" for r in records))


def _errors(path: Path) -> list[str]:
    return [str(p) for p in validate_dataset(path).errors]


def test_a_v2_dataset_loads_with_its_timeline(mini: Path) -> None:
    report = validate_dataset(mini)
    assert report.ok and not report.problems, report.format()
    ds = load_dataset(mini)
    assert ds.format_version == 2 and ds.index == {"tokenizer": "unicode61"}
    assert ds.dream_default is False
    a, b = ds.groups["a"], ds.groups["b"]
    assert a.root == b.root == mini / "memory" and (a.workspace, b.workspace) == ("ws-a", "ws-b")
    # the global MEMORY.md is written once, into both groups' timelines
    assert b.events[0].path == "MEMORY.md" and a.events[0] == b.events[0]
    assert [e.at for e in a.events] == sorted(e.at for e in a.events)
    log = [e for e in a.events if e.path == LOG_A1]
    assert [(e.nbytes, e.end) for e in log] == [(len(LOG_A1_PART1.encode()), False), (None, True)]
    assert log[0].data().decode() == LOG_A1_PART1
    cache = [e.action for e in a.events if e.path == LOG_A2]
    assert cache == ["write", "append", "delete"]
    assert a.created_at[LOG_A1] == T0 + DAY
    assert ds.fact_texts["a"]["f-kappa"].text == "staging cluster kappa"
    assert "f-editor" in ds.fact_texts["b"]  # a fact without group: every group reading it
    assert ds.nuggets["q-stack"] == {"fact:f-kappa": {1}, "fact:f-rollback": {2}}
    assert ds.qrels["q-stack"] == {"fact:f-kappa": 2, "fact:f-rollback": 2}
    assert ds.query("q-deploy").as_of == T0 + DAY + 3600


def test_the_writer_is_deterministic_and_the_digest_covers_versions(tmp_path: Path) -> None:
    one = write_timeline_mini(tmp_path / "one")
    two = write_timeline_mini(tmp_path / "two")
    files = sorted(p.relative_to(one) for p in one.rglob("*") if p.is_file())
    assert files == sorted(p.relative_to(two) for p in two.rglob("*") if p.is_file())
    assert all((one / f).read_bytes() == (two / f).read_bytes() for f in files)
    before = compute_digest(one)
    version = next((one / "versions").rglob("*.md"))
    version.write_text(version.read_text() + "- more\n")
    assert compute_digest(one) != before
    (two / "facts.jsonl").write_text((two / "facts.jsonl").read_text().replace("kappa", "kap"))
    assert any("digest" in e for e in _errors(two))


def test_non_monotonic_prefixes_and_broken_characters_are_reported(mini: Path) -> None:
    records = _lines(mini / "files.jsonl")
    line = next(i for i, r in enumerate(records) if r.get("bytes"))
    grown = dict(records[line], at="2026-03-02T10:00:00Z", bytes=20)  # a later, shorter prefix
    records.insert(line + 1, grown)
    _write_lines(mini / "files.jsonl", records)
    (mini / "memory" / LOG_A1).write_text((mini / "memory" / LOG_A1).read_text() + "- café\n")
    records[line + 1] = dict(grown, bytes=len((LOG_A1_PART1 + "x").encode()))
    errors = _errors(mini)
    assert any(f"files.jsonl:{line + 2}" in e and "smaller than an earlier" in e for e in errors)
    size = len((mini / "memory" / LOG_A1).read_bytes())
    records[line + 1] = dict(grown, bytes=size - 2)  # inside the two bytes of "é"
    _write_lines(mini / "files.jsonl", records)
    errors = _errors(mini)
    assert any(f"files.jsonl:{line + 2}" in e and "UTF-8 character" in e for e in errors)


def test_missing_versions_unknown_groups_and_misplaced_ends_are_reported(mini: Path) -> None:
    shutil.rmtree(mini / "versions" / "a" / "ws-a" / "sessions")
    records = _lines(mini / "files.jsonl")
    records.append({"path": "ws-b/MEMORY.md", "at": "2026-03-05T00:00:00Z", "group": "zz"})
    records.append({"path": "ws-a/MEMORY.md", "at": "2026-03-05T00:00:00Z", "group": "b"})
    records.append({"path": "MEMORY.md", "at": "2026-03-05T00:00:00Z", "group": "a", "end": True})
    _write_lines(mini / "files.jsonl", records)
    errors = _errors(mini)
    n = len(records)
    assert any("files.jsonl:7" in e and "versions file" in e and "missing" in e for e in errors)
    assert any(f"files.jsonl:{n - 2}" in e and "unknown group 'zz'" in e for e in errors)
    assert any(f"files.jsonl:{n - 1}" in e and "outside the index scope" in e for e in errors)
    assert any(f"files.jsonl:{n}" in e and "'end' marks" in e for e in errors)


def test_fact_texts_must_occur_and_markers_are_refused(mini: Path) -> None:
    facts = _lines(mini / "facts.jsonl")
    facts[0]["text"] = "staging cluster lambda"
    _write_lines(mini / "facts.jsonl", facts)
    memory = mini / "memory" / "ws-b" / "MEMORY.md"
    memory.write_text(memory.read_text() + "- Flutter channel: stable <!-- fact:f9 -->\n")
    errors = _errors(mini)
    assert any("facts.jsonl:1" in e and "not found in any version" in e for e in errors)
    assert any("memory/ws-b/MEMORY.md:4" in e and "fact marker" in e for e in errors)


def test_nuggets_need_every_relevant_target_labelled(mini: Path) -> None:
    qrels = mini / "qrels.tsv"
    qrels.write_text(
        qrels.read_text() + "q-stack\t0\tws-a/MEMORY.md\t1\nq-deploy\tx\tMEMORY.md\t1\n"
    )
    errors = _errors(mini)
    assert any("judged with nuggets but 'ws-a/MEMORY.md' has none" in e for e in errors)
    assert any("qrels.tsv:11" in e and "nugget 'x'" in e for e in errors)


def test_a_target_written_after_its_query_is_a_warning(mini: Path) -> None:
    queries = _lines(mini / "queries.jsonl")
    queries[0]["as_of"] = "2026-03-01T12:00:00Z"  # q-deploy, before the log is written
    _write_lines(mini / "queries.jsonl", queries)
    report = validate_dataset(mini)
    assert any("first written after the query's as_of" in str(p) for p in report.warnings)


def test_format_2_fields_need_format_2(tmp_path: Path) -> None:
    w = DatasetWriter(tmp_path / "v1", name="v1", licence="CC0-1.0", origin="t", as_of=T0)
    for call in (
        lambda: w.add_event("MEMORY.md", T0),
        lambda: w.add_fact("f1", "MEMORY.md", "text"),
        lambda: w.judge("q", "MEMORY.md", 1, nugget=1),
        lambda: w.add_query("q", "text", answer_at=T0),
    ):
        with pytest.raises(DatasetError, match="format_version=2"):
            call()
    with pytest.raises(DatasetError, match="format_version=2"):
        DatasetWriter(
            tmp_path / "v1b", name="x", licence="x", origin="x", as_of=T0, timeline={"dream": True}
        )


def test_index_options_in_a_v1_manifest(tmp_path: Path) -> None:
    """The index defaults are not about time: importers (format 1) write them too."""
    index = {"max_bytes": 900, "chunking": "record", "roles": ["user"]}
    w = DatasetWriter(tmp_path / "v1", name="v1", licence="x", origin="x", as_of=T0, index=index)
    w.add_file("MEMORY.md", "# M\n\n- fact\n", T0)
    assert load_dataset(w.finish()).index == index
    for bad in ({"chunking": "pages"}, {"roles": "user"}, {"roles": ["**"]}):
        with pytest.raises(DatasetError, match="chunking|roles"):
            DatasetWriter(tmp_path / "b", name="x", licence="x", origin="x", as_of=T0, index=bad)


def test_a_v1_manifest_with_v2_fields_is_an_error(tmp_path: Path) -> None:
    w = DatasetWriter(tmp_path / "v1", name="v1", licence="CC0-1.0", origin="t", as_of=T0)
    w.add_file("MEMORY.md", "# M\n\n- fact\n", T0)
    path = w.finish()
    manifest = json.loads((path / "manifest.json").read_text())
    manifest["timeline"] = {"dream": True}
    (path / "manifest.json").write_text(json.dumps(manifest))
    assert any("'timeline' needs format_version 2" in e for e in _errors(path))


def test_bad_index_options_fail_in_the_writer(tmp_path: Path) -> None:
    with pytest.raises(DatasetError, match="tokenizer"):
        DatasetWriter(
            tmp_path / "x",
            name="x",
            licence="x",
            origin="x",
            as_of=T0,
            format_version=2,
            index={"tokenizer": "icu"},
        )


def test_the_writer_refuses_a_v2_dataset_with_errors(tmp_path: Path) -> None:
    w = DatasetWriter(
        tmp_path / "bad", name="b", licence="x", origin="x", as_of=T0, format_version=2
    )
    w.add_file("MEMORY.md", "# M\n\n- fact one\n", T0)
    w.add_fact("f1", "MEMORY.md", "fact two")
    with pytest.raises(DatasetError) as info:
        w.finish()
    assert any("facts.jsonl:1" in p for p in info.value.problems)


def test_fact_targets_resolve_by_text_in_v2(mini: Path) -> None:
    ds = load_dataset(mini)
    chunks = [
        ChunkRecord(
            "ws-a/MEMORY.md:0", "ws-a/MEMORY.md", 1, 3, "- Database: MySQL 8\n", "dream", 0
        ),
        ChunkRecord(f"{LOG_A1}:0", LOG_A1, 1, 3, LOG_A1_PART1, "session", 0),
    ]
    resolved = resolve_targets(["fact:f-mysql", "fact:f-kappa"], chunks, ds.fact_texts["a"])
    assert resolved == {"fact:f-mysql": ["ws-a/MEMORY.md:0"], "fact:f-kappa": [f"{LOG_A1}:0"]}
    assert parse_iso("2026-03-01T09:00:00Z") == T0
