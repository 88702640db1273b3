"""The judging flow: order, resume, skip, abstention, back, adding a query, progress."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memlab.datasets import load_dataset, validate_dataset
from memlab.errors import DatasetError
from memlab.judging.pool import read_pool
from memlab.judging.session import JudgingSession
from tests.datasets.team_memory import SHOP

CLOCK = 1_780_000_000.0


def open_session(folder: Path, **kwargs: object) -> JudgingSession:
    return JudgingSession.open(folder, judge="alice", clock=lambda: CLOCK, **kwargs)  # type: ignore[arg-type]


def qrels_lines(folder: Path, name: str = "qrels.tsv") -> list[list[str]]:
    return [line.split("\t") for line in (folder / name).read_text().splitlines()]


def test_queries_in_order_candidates_in_pool_order(pooled: Path) -> None:
    s = open_session(pooled)
    pool = read_pool(pooled)
    seen = []
    while (item := s.current()) is not None and item.query.query_id == "q1":
        assert item.candidate is not None and item.count == len(pool["q1"])
        seen.append(item.candidate.target)
        s.grade(0)
    assert seen == [c.target for c in pool["q1"]]
    assert item is not None and item.query.query_id == "q2"


def test_every_grade_is_saved_at_once_and_judging_resumes(pooled: Path) -> None:
    s = open_session(pooled)
    first = s.current()
    assert first is not None and first.candidate is not None
    s.grade(2, "the v22 answer")
    assert qrels_lines(pooled) == [["q1", "0", first.candidate.target, "2"]]
    side = [json.loads(x) for x in (pooled / "judgements.jsonl").read_text().splitlines()]
    assert side == [
        {
            "action": "grade",
            "at": "2026-05-28T20:26:40Z",
            "grade": 2,
            "judge": "alice",
            "notes": "the v22 answer",
            "query_id": "q1",
            "target": first.candidate.target,
        }
    ]
    assert validate_dataset(pooled).ok  # the digest follows every write
    second = s.current()
    again = open_session(pooled)  # a new session (after a quit or a kill)
    assert again.current() == second
    assert again.progress().judged == 1


def test_skip_comes_back_later(pooled: Path) -> None:
    s = open_session(pooled)
    skipped = s.current()
    assert skipped is not None
    s.skip()
    assert s.current() != skipped
    while (item := s.current()) is not None and item != skipped:
        if item.candidate is None:
            s.abstain()
        else:
            s.grade(0)
    assert item == skipped  # once everything else is judged
    assert open_session(pooled).current() == skipped  # a skip is no judgement


def test_abstention_marks_the_query_and_grades_its_candidates_zero(pooled: Path) -> None:
    s = open_session(pooled)
    item = s.current()
    assert item is not None
    s.abstain("nothing about CI versions")
    ds = load_dataset(pooled)
    assert ds.query("q1").abstention
    assert {t: g for t, g in ds.qrels["q1"].items()} == {
        c.target: 0 for c in read_pool(pooled)["q1"]
    }
    after = s.current()
    assert after is not None and after.query.query_id == "q2"
    assert validate_dataset(pooled).ok


def test_abstention_is_refused_after_a_relevant_grade(pooled: Path) -> None:
    s = open_session(pooled)
    s.grade(1)
    with pytest.raises(DatasetError, match="graded relevant"):
        s.abstain()
    assert not load_dataset(pooled).query("q1").abstention


def test_back_regrades_without_duplicating(pooled: Path) -> None:
    s = open_session(pooled)
    item = s.current()
    assert item is not None and item.candidate is not None
    s.grade(0)
    assert s.back()
    shown = s.current()
    assert shown is not None and shown.candidate == item.candidate and shown.grade == 0
    s.grade(2)
    assert qrels_lines(pooled) == [["q1", "0", item.candidate.target, "2"]]
    assert load_dataset(pooled).qrels["q1"][item.candidate.target] == 2
    assert not s.back() or s.current() is not None


def test_adding_a_query_pools_it(pooled: Path) -> None:
    s = open_session(pooled)
    with pytest.raises(DatasetError, match="several memories"):
        s.add_query("postgres version of the test job")
    qid = s.add_query("postgres version of the test job", group=SHOP)
    assert qid == "q001"
    ds = load_dataset(pooled)
    assert ds.query(qid).group == SHOP and ds.query(qid).as_of == ds.as_of
    assert any("ci-setup" in c.path for c in read_pool(pooled)[qid])
    assert validate_dataset(pooled).ok


def test_a_second_judge_leaves_the_dataset_alone(pooled: Path, tmp_path: Path) -> None:
    before = {p.name: p.read_bytes() for p in pooled.iterdir() if p.is_file()}
    s = open_session(pooled, qrels=tmp_path / "bob.tsv")
    s.grade(2)
    while (item := s.current()) is not None and item.query.query_id == "q1":
        s.grade(0)
    s.abstain()  # q2
    assert {p.name: p.read_bytes() for p in pooled.iterdir() if p.is_file()} == before
    assert qrels_lines(tmp_path, "bob.tsv")[0][3] == "2"
    side = (tmp_path / "bob.judgements.jsonl").read_text()
    assert '"qrels": "bob.tsv"' in side and '"action": "abstention"' in side
    with pytest.raises(DatasetError, match="dataset's own judge"):
        s.add_query("anything", group=SHOP)


def test_progress(pooled: Path) -> None:
    s = open_session(pooled)
    total = sum(len(c) for c in read_pool(pooled).values())
    assert (s.progress().judged, s.progress().total, s.progress().queries_done) == (0, total, 0)
    s.abstain()
    p = s.progress()
    assert p.judged == len(read_pool(pooled)["q1"]) and p.queries_done == 1 and p.queries == 4
