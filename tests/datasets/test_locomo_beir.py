"""LoCoMo (fixture in the upstream schema) and BEIR imports."""

from __future__ import annotations

from pathlib import Path

import pytest

from memlab.datasets import chunk_group, load_dataset, resolve_targets, validate_dataset
from memlab.datasets.importers import ImportOptions, import_dataset
from memlab.datasets.importers.locomo import parse_locomo_time, repair_evidence
from memlab.errors import DatasetError
from memlab.timefmt import parse_iso

from .conftest import FIXTURES


def test_locomo_time() -> None:
    assert parse_locomo_time("1:56 pm on 8 May, 2023") == parse_iso("2023-05-08T13:56:00Z")
    assert parse_locomo_time("12:05 am on 1 Jan, 2024") == parse_iso("2024-01-01T00:05:00Z")
    with pytest.raises(ValueError):
        parse_locomo_time("yesterday")


def test_evidence_repair() -> None:
    known = {"D8:6", "D9:17", "D30:5", "D11:26"}
    ids, notes = repair_evidence(["D8:6; D9:17", "D30:05", "D:11:26", "D99:1", 7, "D"], known)
    assert ids == ["D8:6", "D9:17", "D30:5", "D11:26"]
    assert any("split into" in n for n in notes)
    assert (
        "evidence 'D30:05' read as 'D30:5'" in notes
        and "evidence 'D:11:26' read as 'D11:26'" in notes
    )
    assert sum("dropped" in n or "skipped" in n for n in notes) == 3
    assert repair_evidence("D8:6", known) == (["D8:6"], [])


def test_locomo_import(tmp_path: Path) -> None:
    result = import_dataset("locomo", FIXTURES / "locomo_mini.json", tmp_path / "locomo")
    assert result.counts["questions"] == 7 and result.counts["sessions"] == 3
    assert result.counts["evidence_repaired"] == 3 and result.counts["evidence_dropped"] == 2
    report = validate_dataset(tmp_path / "locomo")
    assert report.ok, report.format()
    assert [p.kind for p in report.warnings] == [
        "unjudged_queries",
        "unjudged_queries",
    ]  # q006, both levels
    ds = load_dataset(tmp_path / "locomo", level="turn")
    assert list(ds.groups) == ["conv-mini-1", "conv-mini-2"]
    g1 = ds.groups["conv-mini-1"]
    assert g1.as_of == parse_iso("2023-06-27T10:37:00Z")  # session_3 has a date but no turns
    assert len(g1.created_at) == 2
    q = {x.query_id: x for x in ds.queries}
    assert (
        q["conv-mini-1-q001"].category == "temporal"
        and q["conv-mini-1-q001"].answer == "7 May 2023"
    )
    adversarial = q["conv-mini-1-q005"]  # judged on its evidence, as the paper evaluates it
    assert not adversarial.abstention and adversarial.tags == ("adversarial",)
    assert adversarial.answer == "Carmen" and len(ds.qrels[adversarial.query_id]) == 1
    record_ids = [ids for path, ids in sorted(g1.record_ids.items())]
    assert record_ids[0][:2] == ("D1:1", "D1:2") and sorted(g1.origin_ids.values()) == [
        "session_1",
        "session_2",
    ]
    assert "no-evidence" in q["conv-mini-1-q006"].tags
    assert len(ds.qrels["conv-mini-1-q002"]) == 2  # "D1:4; D2:2" split
    chunks = chunk_group(g1)
    for qid in ("conv-mini-1-q001", "conv-mini-1-q002", "conv-mini-1-q003", "conv-mini-1-q004"):
        resolved = resolve_targets(ds.qrels[qid], chunks)
        assert all(resolved.values()), qid
    # the turn span of D2:3 covers its two lines; the image caption is part of D1:4
    (target,) = ds.qrels["conv-mini-1-q003"]
    path, span = target.split("#L")
    start, end = (int(x) for x in span.split("-L"))
    lines = (g1.root / path).read_text().split("\n")
    assert lines[start - 1 : end] == [
        "**Caroline**",
        "I play the violin every evening now,",
        "at least for half an hour.",
    ]
    first = next(p for p in g1.created_at if "-session-1-" in p)
    assert (
        "sunrise over the lake.\n[image: a photo of a painting of a sunrise]\n"
        in (g1.root / first).read_text()
    )
    session_level = ds.with_level("session").qrels["conv-mini-1-q002"]
    assert len(session_level) == 2 and all("#" not in t for t in session_level)
    assert "snap-research/locomo" in ds.origin and "sha256:" in ds.origin


def test_locomo_rejects_other_shapes(tmp_path: Path) -> None:
    src = tmp_path / "x.json"
    src.write_text('{"not": "a list"}')
    with pytest.raises(DatasetError, match="not in the LoCoMo format"):
        import_dataset("locomo", src, tmp_path / "out")
    src.write_text(
        '[{"sample_id": "c", "conversation": {"session_1": [], "session_1_date_time": "soon"}}]'
    )
    with pytest.raises(DatasetError) as err:
        import_dataset("locomo", src, tmp_path / "out")
    assert "session time 'soon'" in err.value.problems[0]


def test_beir_import(tmp_path: Path) -> None:
    result = import_dataset(
        "beir",
        FIXTURES / "beir_mini",
        tmp_path / "beir",
        ImportOptions(licence="CC-BY-4.0", as_of="2024-01-01T00:00:00Z"),
    )
    assert result.counts == {
        "documents": 4,
        "judgements": 4,
        "queries": 3,
        "unjudged_queries_skipped": 1,
    }
    assert any("missing-doc" in n for n in result.notes)
    assert validate_dataset(tmp_path / "beir").ok
    ds = load_dataset(tmp_path / "beir")
    assert ds.licence == "CC-BY-4.0" and [q.query_id for q in ds.queries] == ["q1", "q2", "q4"]
    assert sorted(ds.qrels["q1"].values()) == [0, 2]
    group = ds.groups["default"]
    assert all(t == parse_iso("2024-01-01T00:00:00Z") for t in group.created_at.values())
    doc1 = next(t for t, g in ds.qrels["q1"].items() if g == 2)
    assert (group.root / doc1).read_text() == (
        "# Vitamin D and bones\n\n"
        "Vitamin D helps the body absorb calcium, which keeps bones strong.\n"
    )
    with pytest.raises(DatasetError, match="splits here: test"):
        import_dataset(
            "beir", FIXTURES / "beir_mini", tmp_path / "beir2", ImportOptions(split="dev")
        )
