"""LongMemEval import: real files from ../shared (skipped when absent) and small synthetic ones."""

from __future__ import annotations

import hashlib
import json
import os
from collections import Counter
from pathlib import Path

import pytest

from memlab.datasets import (
    chunk_group,
    load_dataset,
    resolve_qrels,
    resolve_targets,
    validate_dataset,
)
from memlab.datasets.importers import ImportOptions, import_dataset
from memlab.datasets.importers.longmemeval import parse_lme_date
from memlab.errors import DatasetError
from memlab.timefmt import parse_iso

# The upstream files live beside the repository (../shared/data/longmemeval); override with
# MEMLAB_LONGMEMEVAL_DIR. Tests on them are skipped when the files are absent.
DATA = Path(
    os.environ.get("MEMLAB_LONGMEMEVAL_DIR")
    or Path(__file__).resolve().parents[3] / "shared" / "data" / "longmemeval"
)
SHA256 = {
    "longmemeval_oracle.json": "939b4ad26703d9f51d718c7a978ac65bbc4c32cdc578155111eb37ecd4f25702",
    "longmemeval_s_dev.json": "afa59701a1a79de7b15930c61c4a6d17992bd97d198502a6fae9d698110e1e53",
}


def _source(name: str) -> Path:
    path = DATA / name
    if not path.is_file():
        pytest.skip(f"{path} not available")
    assert hashlib.sha256(path.read_bytes()).hexdigest() == SHA256[name], "unexpected data file"
    return path


@pytest.fixture(
    scope="module",
    params=[("longmemeval_s_dev.json", 64), ("longmemeval_oracle.json", 500)],
    ids=["s_dev", "oracle"],
)
def imported(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> tuple[Path, Path, int]:
    name, count = request.param
    src = _source(name)
    dest = tmp_path_factory.mktemp("lme") / name.removesuffix(".json")
    import_dataset("longmemeval", src, dest)
    return src, dest, count


def test_counts_flags_and_validation(imported: tuple[Path, Path, int]) -> None:
    src, dest, count = imported
    report = validate_dataset(dest)
    assert report.ok and not report.problems, report.format()
    ds = load_dataset(dest)
    upstream = {q["question_id"]: q for q in json.loads(src.read_text())}
    assert len(ds.queries) == len(ds.groups) == count
    assert ds.levels == ("session", "turn") and "MIT" in ds.licence and src.name in ds.origin
    for q in ds.queries:
        up = upstream[q.query_id]
        assert q.abstention == q.query_id.endswith("_abs")
        assert q.category == up["question_type"] and q.text == up["question"]
        assert q.as_of == parse_lme_date(up["question_date"]) == ds.groups[q.group].as_of
        user_evidence = any(
            t.get("has_answer") and t["role"] == "user" for s in up["haystack_sessions"] for t in s
        )
        assert ("no-user-evidence" in q.tags) == (not q.abstention and not user_evidence)
        assert not q.abstention or q.query_id not in ds.qrels
        assert len(ds.groups[q.group].created_at) == len(up["haystack_session_ids"])
        assert all(
            t <= q.as_of for t in ds.groups[q.group].created_at.values()
        )  # future ones clamped


def test_every_answer_session_and_turn_resolves(imported: tuple[Path, Path, int]) -> None:
    src, dest, _ = imported
    ds = load_dataset(dest)
    upstream = {q["question_id"]: q for q in json.loads(src.read_text())}
    for gid in sorted(ds.groups):
        group, query = ds.groups[gid], ds.queries_in(gid)[0]
        if query.abstention:
            continue
        chunks = chunk_group(group)
        origin = {}  # file -> upstream session id
        for line in (dest / "files.jsonl").read_text().splitlines():
            rec = json.loads(line)
            if rec["group"] == gid:
                origin[rec["path"]] = rec["origin_id"]
        session_files = set(ds.with_level("session").qrels[query.query_id])
        assert {origin[f] for f in session_files} == set(upstream[gid]["answer_session_ids"])
        for level in ds.levels:
            targets = ds.with_level(level).qrels.get(query.query_id, {})
            assert all(resolve_targets(targets, chunks).values()), (gid, level)
            assert resolve_qrels(ds, chunks, group=gid, level=level)[query.query_id]
        has_answer = sum(
            t.get("has_answer", False) for s in upstream[gid]["haystack_sessions"] for t in s
        )
        assert len(ds.with_level("turn").qrels[query.query_id]) == has_answer


def test_turn_targets_are_the_answer_turns(imported: tuple[Path, Path, int]) -> None:
    src, dest, _ = imported
    ds = load_dataset(dest, level="turn")
    upstream = {q["question_id"]: q for q in json.loads(src.read_text())}
    for q in ds.queries[:30]:
        evidence = {
            "\n".join(
                ln.rstrip() for ln in t["content"].replace("\r\n", "\n").strip("\n").split("\n")
            )
            for s in upstream[q.query_id]["haystack_sessions"]
            for t in s
            if t.get("has_answer")
        }
        for target in ds.qrels.get(q.query_id, {}):
            path, span = target.split("#L")
            start, end = (int(x) for x in span.split("-L"))
            lines = (ds.groups[q.group].root / path).read_text().split("\n")
            assert lines[start - 1] in ("**user**", "**assistant**")
            assert "\n".join(lines[start:end]) in evidence


def _question(qid: str, dates: list[str], sessions: list[str], answer: list[str]) -> dict:
    return {
        "question_id": qid,
        "question_type": "single-session-user",
        "question": f"what about {qid}?",
        "answer": "x",
        "question_date": "2023/05/20 (Sat) 12:00",
        "haystack_session_ids": sessions,
        "haystack_dates": dates,
        "haystack_sessions": [
            [
                {"role": "user", "content": f"hello number {i}", "has_answer": s in answer},
                {"role": "assistant", "content": "line one\n\nline three"},
            ]
            for i, s in enumerate(sessions)
        ],
        "answer_session_ids": answer,
    }


def test_future_sessions_duplicates_and_policies(tmp_path: Path) -> None:
    src = tmp_path / "lme.json"
    dates = ["2023/05/19 (Fri) 09:00", "2023/05/20 (Sat) 18:30", "2023/05/18 (Thu) 10:00"]
    src.write_text(
        json.dumps([_question("q1", dates, ["answer_1", "late", "answer_1"], ["answer_1"])])
    )
    clamp = import_dataset("longmemeval", src, tmp_path / "clamp")
    assert clamp.counts["future_sessions_clamp"] == 1 and clamp.counts["duplicate_sessions"] == 1
    ds = load_dataset(tmp_path / "clamp")
    assert sorted(ds.groups["q1"].created_at.values())[-1] == parse_iso("2023-05-20T12:00:00Z")
    assert len(ds.qrels["q1"]) == 2  # both copies of the answer session
    text = (ds.groups["q1"].root / next(iter(ds.qrels["q1"]))).read_text()
    assert "answer_1" not in text and "**user**\nhello number 0" in text
    names = list(ds.groups["q1"].created_at)
    assert all("answer" not in n for n in names)
    import_dataset("longmemeval", src, tmp_path / "keep", ImportOptions(future_sessions="keep"))
    report = validate_dataset(tmp_path / "keep")
    assert report.ok and Counter(p.kind for p in report.warnings) == {"future_timestamps": 1}
    import_dataset("longmemeval", src, tmp_path / "drop", ImportOptions(future_sessions="drop"))
    assert len(load_dataset(tmp_path / "drop").groups["q1"].created_at) == 2


def test_schema_problems_are_listed(tmp_path: Path) -> None:
    src = tmp_path / "bad.json"
    good = _question("q1", ["2023/05/19 (Fri) 09:00"], ["s1"], ["s1"])
    bad = dict(good, haystack_dates=[])
    src.write_text(json.dumps([good, {"question_id": "q2"}, dict(bad, question_id="q3")]))
    with pytest.raises(DatasetError) as err:
        import_dataset("longmemeval", src, tmp_path / "out")
    assert len(err.value.problems) == 2
    assert (
        "question #1: missing" in err.value.problems[0]
        and "different lengths" in err.value.problems[1]
    )
    with pytest.raises(
        DatasetError, match="unknown importer 'longmemevl'; did you mean 'longmemeval'"
    ):
        import_dataset("longmemevl", src, tmp_path / "out")
