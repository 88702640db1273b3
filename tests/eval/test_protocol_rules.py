"""The published protocols' rules on hand-made miniatures of the source formats: the
paper's unit as the chunk unless the user chooses one, and each evidence rule
(LongMemEval: ``answer_session_ids`` for sessions, ``has_answer`` for turns, the
single-session-assistant questions scored once assistant turns are indexed)."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from memlab.config import profile
from memlab.datasets.importers import import_dataset
from memlab.errors import ConfigError
from memlab.eval.protocols import get_protocol, prepare_protocol, run_protocol
from memlab.eval.runs.rankers import Run
from tests.datasets.conftest import FIXTURES

LME = get_protocol("longmemeval")


@pytest.fixture(scope="module")
def sources(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("rules")
    out = {}
    for kind, src in (
        ("locomo", FIXTURES / "locomo_mini.json"),
        ("longmemeval", FIXTURES / "longmemeval_mini.json"),
        ("beir", FIXTURES / "beir_mini"),
    ):
        import_dataset(kind, src, root / kind)
        out[kind] = root / kind
    return out


def _fts() -> dict[str, Run]:
    return {"fts": Run(replace(profile("standard-ir").search, vectors=False))}


@pytest.mark.parametrize(
    ("kind", "level", "mode"),
    [
        ("locomo", None, "record"),  # a turn per chunk
        ("locomo", "session", "file"),  # a session per chunk
        ("longmemeval", None, "file"),
        ("longmemeval", "turn", "record"),
        ("beir", None, "record"),  # a document per chunk
    ],
)
def test_the_papers_unit_is_the_chunk_by_default(
    sources: dict[str, Path], kind: str, level: str | None, mode: str
) -> None:
    protocol = get_protocol(kind)
    prepared = prepare_protocol(sources[kind], protocol, level=level)
    assert prepared.index_config.chunking.mode == mode
    # every chunk holds exactly one unit: the unit ranking is the chunk ranking
    result = run_protocol(prepared, _fts(), protocol)
    for qid, units in result.rankings["fts"].items():
        assert len(units) == len(result.runs["fts"].rankings[qid])
    # the user's choice wins; chunk sizes alone choose c0's chunker
    assert (
        prepare_protocol(
            sources[kind], protocol, level=level, chunking="c0"
        ).index_config.chunking.mode
        == "c0"
    )
    sized = prepare_protocol(sources[kind], protocol, level=level, chunk_bytes=200)
    assert sized.index_config.chunking.mode == "c0"


def _evidence(
    ds: Path, level: str, evidence: str, roles: str | None = None
) -> tuple[dict[str, set[str]], tuple[str, ...]]:
    prepared = prepare_protocol(ds, LME, level=level, roles=roles)
    result = run_protocol(prepared, _fts(), LME, evidence=evidence)
    relevant = {q: {u for u, g in units.items() if g > 0} for q, units in result.qrels.items()}
    return {q: relevant[q] for q in result.questions.scored}, result.questions.scored


def test_longmemeval_session_evidence_is_answer_session_ids(sources: dict[str, Path]) -> None:
    """Upstream: every session in answer_session_ids (answer_s2 holds no has_answer turn);
    memlab's former rule (``turns``) keeps only sessions with an indexed evidence turn."""
    ds = sources["longmemeval"]
    upstream = _evidence(ds, "session", "upstream")[0]
    assert upstream == {"q_user": {"answer_s1", "answer_s2"}}
    assert _evidence(ds, "session", "turns")[0] == {"q_user": {"answer_s1"}}
    # not scored: the abstention question; q_asst (its evidence turn is the assistant's,
    # not indexed) and q_none (no has_answer turn at all), as upstream skips them
    prepared = prepare_protocol(ds, LME)
    qs = run_protocol(prepared, _fts(), LME).questions
    assert qs.excluded == {
        "abstention (excluded)": ("q_user_abs",),
        LME.no_unit: ("q_asst", "q_none"),
    }


def test_longmemeval_turn_evidence_is_has_answer(sources: dict[str, Path]) -> None:
    ds = sources["longmemeval"]
    assert _evidence(ds, "turn", "upstream")[0] == {"q_user": {"answer_s1_1"}}
    assert _evidence(ds, "turn", "turns")[0] == {"q_user": {"answer_s1_1"}}


def test_indexing_assistant_turns_scores_the_assistant_questions(
    sources: dict[str, Path],
) -> None:
    ds = sources["longmemeval"]
    sessions, scored = _evidence(ds, "session", "upstream", roles="all")
    assert sessions == {"q_user": {"answer_s1", "answer_s2"}, "q_asst": {"answer_a1"}}
    assert scored == ("q_user", "q_asst")  # q_none has no evidence turn in any role
    assert _evidence(ds, "turn", "upstream", roles="all")[0] == {
        "q_user": {"answer_s1_1"},
        "q_asst": {"answer_a1_2"},
    }


def test_an_unknown_evidence_rule_is_refused(sources: dict[str, Path]) -> None:
    prepared = prepare_protocol(sources["longmemeval"], LME)
    with pytest.raises(ConfigError, match="unknown evidence rule 'has_answer'"):
        run_protocol(prepared, _fts(), LME, evidence="has_answer")


@pytest.mark.slow
def test_hybrid_with_more_than_3000_candidates_per_query(tmp_path: Path) -> None:
    """A BEIR-format corpus of 3,100 documents: hybrid under the protocol gathers 3,000
    vector neighbours per query (standard-ir: 1,000 results × 3) and completes (the exact
    re-check once made one SQL statement over SQLite's 500-term limit)."""
    src = tmp_path / "src"
    (src / "qrels").mkdir(parents=True)
    rng = np.random.default_rng(0)
    words = [f"w{i}" for i in range(300)]
    docs = [(f"d{i}", " ".join(rng.choice(words, 12)) + " common") for i in range(3100)]
    (src / "corpus.jsonl").write_text(
        "".join(json.dumps({"_id": i, "title": "", "text": t}) + "\n" for i, t in docs)
    )
    (src / "queries.jsonl").write_text(json.dumps({"_id": "q1", "text": "common w1 w2"}) + "\n")
    (src / "qrels" / "test.tsv").write_text("query-id\tcorpus-id\tscore\nq1\td1\t1\n")
    import_dataset("beir", src, tmp_path / "ds")
    beir = get_protocol("beir")
    prepared = prepare_protocol(tmp_path / "ds", beir, embedder="hash:32")
    hybrid = profile("standard-ir").search
    result = run_protocol(prepared, {"hybrid": Run(hybrid)}, beir)
    batch = prepared.timeline(hybrid.max_results * hybrid.candidate_multiplier).batch
    assert int(batch.offsets[1] - batch.offsets[0]) >= 3000
    assert len(result.rankings["hybrid"]["q1"]) == hybrid.max_results == 1000
