"""Importers keep the source's ids: files (origin_id), turns (record_ids), queries
(origin_id); the validator checks that record_ids name the file's records."""

from __future__ import annotations

import json
from pathlib import Path

from memlab.datasets import load_dataset, validate_dataset
from memlab.datasets.importers import import_dataset
from memlab.store.records import split_records
from tests.datasets.test_longmemeval import _question


def test_longmemeval_turn_ids_are_the_upstream_ones(tmp_path: Path) -> None:
    q = _question("q1", ["2023/05/19 (Fri) 09:00"] * 2, ["answer_1", "s2"], ["answer_1"])
    q["haystack_sessions"][1].append(
        {"role": "assistant", "content": "Options:\n\n**user**\n\n**Plan A**\nrest"}
    )
    src = tmp_path / "lme.json"
    src.write_text(json.dumps([q]))
    import_dataset("longmemeval", src, tmp_path / "ds")
    group = load_dataset(tmp_path / "ds").groups["q1"]
    by_origin = {group.origin_ids[p]: p for p in group.created_at}
    assert set(by_origin) == {"answer_1", "s2"}
    assert group.record_ids[by_origin["s2"]] == ("s2_1", "s2_2", "s2_3")
    text = (group.root / by_origin["s2"]).read_text()
    assert "\n **user**\n" in text and "\n **Plan A**\n" in text  # text, not a speaker line
    assert len(split_records(text).records) == 3


def test_record_ids_must_name_every_record(tmp_path: Path) -> None:
    import_dataset(
        "locomo", Path(__file__).parent / "fixtures" / "locomo_mini.json", tmp_path / "d"
    )
    files = tmp_path / "d" / "files.jsonl"
    lines = [json.loads(line) for line in files.read_text().splitlines()]
    lines[0]["record_ids"] = lines[0]["record_ids"][:-1]
    lines[1]["record_ids"] = ["D2:1"] * len(lines[1]["record_ids"])
    files.write_text("".join(json.dumps(rec) + "\n" for rec in lines))
    errors = [str(p) for p in validate_dataset(tmp_path / "d").errors]
    assert any("record_ids lists 3 ids, the file has 4 records" in e for e in errors), errors
    assert any("record_ids repeat" in e for e in errors), errors


def test_beir_keeps_an_unusable_query_id(tmp_path: Path) -> None:
    src = tmp_path / "src"
    (src / "qrels").mkdir(parents=True)
    (src / "corpus.jsonl").write_text(json.dumps({"_id": "d1", "text": "**Bold**\n\ntext"}) + "\n")
    (src / "queries.jsonl").write_text(json.dumps({"_id": "what is? 1", "text": "bold"}) + "\n")
    (src / "qrels" / "test.tsv").write_text("query-id\tcorpus-id\tscore\nwhat is? 1\td1\t1\n")
    import_dataset("beir", src, tmp_path / "ds")
    ds = load_dataset(tmp_path / "ds")
    [query] = ds.queries
    assert query.query_id == "what-is-1" and query.origin_id == "what is? 1"
    [path] = ds.groups["default"].created_at
    text = (ds.groups["default"].root / path).read_text()
    assert text == " **Bold**\n\ntext\n" and len(split_records(text).records) == 1
