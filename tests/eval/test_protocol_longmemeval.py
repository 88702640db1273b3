"""The LongMemEval protocol on the real development file (../shared/data/longmemeval):
the question set, the session and turn units with the upstream ids, the measures as
the upstream evaluation computes them, and one record per chunk."""

from __future__ import annotations

import json
import math
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from memlab.config import profile
from memlab.datasets import load_dataset
from memlab.datasets.importers import import_dataset
from memlab.eval.protocols import (
    UnitSpace,
    chunk_spans,
    get_protocol,
    prepare_protocol,
    question_set,
    run_protocol,
    unit_qrels,
)
from memlab.eval.runs.rankers import Run
from memlab.store.records import split_records
from tests.conftest import docs_say
from tests.datasets.test_longmemeval import _source

LME = get_protocol("longmemeval")


@pytest.fixture(scope="module")
def dev(tmp_path_factory: pytest.TempPathFactory) -> tuple[list[dict[str, Any]], Path]:
    src = _source("longmemeval_s_dev.json")
    dest = tmp_path_factory.mktemp("lme") / "s_dev"
    import_dataset("longmemeval", src, dest)
    return json.loads(src.read_text()), dest


def _fts() -> dict[str, Run]:
    return {"fts": Run(replace(profile("standard-ir").search, vectors=False))}


def _upstream(
    question: dict[str, Any], roles: set[str], evidence: str = "upstream"
) -> tuple[set[str], set[str]]:
    """The upstream evaluation's evidence of a question with an indexed evidence turn:
    every session in ``answer_session_ids`` (``evidence="turns"``: those holding an
    indexed evidence turn), and the evidence turns (``<session id>_<n>``, n counting
    every turn from 1); none for a question without an indexed evidence turn."""
    sessions, turns = set(), set()
    answer = set(question["answer_session_ids"])
    for sid, session in zip(
        question["haystack_session_ids"], question["haystack_sessions"], strict=True
    ):
        for n, turn in enumerate(session, start=1):
            if sid in answer and turn.get("has_answer") and turn["role"] in roles:
                sessions.add(sid)
                turns.add(f"{sid}_{n}")
    if evidence == "upstream" and turns:
        sessions = answer & set(question["haystack_session_ids"])
    return sessions, turns


@pytest.mark.parametrize("roles", [("user",), ()], ids=["user-turns", "all-turns"])
def test_question_set_and_units_are_the_upstream_ones(
    dev: tuple[list[dict[str, Any]], Path], roles: tuple[str, ...]
) -> None:
    upstream, dest = dev
    indexed = set(roles) or {"user", "assistant"}
    for level, unit in (("session", "session"), ("turn", "turn")):
        ds = load_dataset(dest, level=level)
        qrels = unit_qrels(UnitSpace(ds, unit, roles), LME)
        qs = question_set(ds, LME, qrels)
        abstention = [q["question_id"] for q in upstream if q["question_id"].endswith("_abs")]
        answerable = [q for q in upstream if not q["question_id"].endswith("_abs")]
        no_evidence = [q["question_id"] for q in answerable if not _upstream(q, indexed)[0]]
        assert qs.total == len(upstream) == 64
        assert (
            qs.excluded.get("abstention (excluded)") == tuple(abstention) and len(abstention) == 16
        )
        assert qs.excluded.get(LME.no_unit, ()) == tuple(no_evidence)
        assert len(no_evidence) == (8 if roles else 0)  # single-session-assistant
        assert len(qs.scored) == 64 - 16 - len(no_evidence)
        for q in answerable:
            relevant = {u for u, g in qrels.get(q["question_id"], {}).items() if g > 0}
            assert relevant == _upstream(q, indexed)[0 if level == "session" else 1]
    assert docs_say(
        "protocols.md",
        "On the development file (64 questions) the protocol scores 40: 16 abstention "
        "questions are excluded and the 8 single-session-assistant questions have their "
        "evidence only in assistant turns (48 with `--roles all`).",
    )
    if roles:
        types = {q["question_id"]: q["question_type"] for q in upstream}
        assert {types[q] for q in no_evidence} == {"single-session-assistant"}


def _plain(ranking: list[str], correct: set[str], k: int) -> dict[str, float]:
    """The upstream evaluate_retrieval, re-expressed over a ranking of unit ids."""
    recalled = set(ranking[:k])
    rel = [1.0 if u in correct else 0.0 for u in ranking[:k]]
    ideal = [1.0] * min(k, len(correct))

    def dcg(gains: list[float]) -> float:
        return sum(g if i == 0 else g / math.log2(i + 1) for i, g in enumerate(gains))

    return {
        f"recall_any@{k}": float(any(c in recalled for c in correct)),
        f"recall_all@{k}": float(all(c in recalled for c in correct)),
        f"ndcg_any@{k}": dcg(rel) / dcg(ideal),
    }


def test_session_level_measures_are_the_upstream_evaluation(
    dev: tuple[list[dict[str, Any]], Path],
) -> None:
    upstream, dest = dev
    prepared = prepare_protocol(dest, LME)
    assert prepared.index_config.chunking.roles == ("user",)  # the paper indexes user turns
    result = run_protocol(prepared, _fts(), LME)
    by_id = {q["question_id"]: q for q in upstream}
    per = result.perquery.set_index(["query_id", "measure"])["value"]
    for qid in result.questions.scored:
        ranking = result.rankings["fts"][qid]
        assert len(ranking) == len(set(ranking))
        assert set(ranking) <= set(by_id[qid]["haystack_session_ids"])  # the upstream ids
        correct = _upstream(by_id[qid], {"user"})[0]
        for k in (1, 3, 5, 10, 30, 50):
            for measure, value in _plain(ranking, correct, k).items():
                assert per[(qid, measure)] == pytest.approx(value), (qid, measure)
    assert result.table().loc["fts", "NumQ"] == 40


@pytest.mark.slow
def test_turn_level_record_and_c0_chunks(dev: tuple[list[dict[str, Any]], Path]) -> None:
    """One record per chunk: the unit ranking is the chunk ranking; c0 chunks: every
    unit is an indexed (user) turn of a chunk, in first-occurrence order."""
    upstream, dest = dev
    by_id = {q["question_id"]: q for q in upstream}
    for chunking in ("record", "c0"):
        prepared = prepare_protocol(dest, LME, level="turn", chunking=chunking)
        result = run_protocol(prepared, _fts(), LME)
        spans = chunk_spans(prepared.timeline(3000).batch)
        ds = prepared.dataset
        for q in ds.queries:
            group = ds.groups[q.group]
            turns = {
                f"{sid}_{n}": turn["role"]
                for sid, session in zip(
                    by_id[q.query_id]["haystack_session_ids"],
                    by_id[q.query_id]["haystack_sessions"],
                    strict=True,
                )
                for n, turn in enumerate(session, start=1)
            }
            expected: list[str] = []
            for chunk in result.runs["fts"].rankings[q.query_id]:
                path, start, end = spans[q.query_id][chunk]
                records = split_records((group.root / path).read_text()).overlapping(start, end)
                ids = [group.record_ids[path][r.ordinal] for r in records if r.label == "user"]
                if chunking == "record":
                    assert len(ids) == 1  # a chunk is one user turn
                expected += ids
            units = result.rankings["fts"][q.query_id]
            assert units == list(dict.fromkeys(expected))
            assert all(turns[u] == "user" for u in units)
