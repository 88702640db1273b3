"""Published protocols on the LoCoMo and BEIR fixtures: question sets, units with the
source's ids, chunk → unit aggregation, one record per chunk."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import replace
from pathlib import Path

import pytest

from memlab.config import profile
from memlab.datasets import load_dataset
from memlab.datasets.importers import import_dataset
from memlab.datasets.importers._common import render_conversation
from memlab.datasets.importers.locomo import CATEGORIES
from memlab.errors import ConfigError, DatasetError
from memlab.eval.protocols import (
    chunk_spans,
    get_protocol,
    prepare_protocol,
    run_protocol,
    write_protocol_outputs,
)
from memlab.eval.runs.rankers import Run
from memlab.eval.runs.trec_out import strictly_decreasing
from tests.datasets.conftest import FIXTURES

LOCOMO = get_protocol("locomo")
BEIR = get_protocol("beir")


def _fts() -> dict[str, Run]:
    return {"fts": Run(replace(profile("standard-ir").search, vectors=False))}


@pytest.fixture(scope="module")
def locomo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    dest = tmp_path_factory.mktemp("protocol") / "locomo"
    import_dataset("locomo", FIXTURES / "locomo_mini.json", dest)
    return dest


@pytest.fixture(scope="module")
def beir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    dest = tmp_path_factory.mktemp("protocol") / "beir"
    import_dataset("beir", FIXTURES / "beir_mini", dest)
    return dest


def _upstream_turn_spans() -> dict[str, dict[str, tuple[str, int, int]]]:
    """conversation -> dia_id -> (session key, first line, last line), rendered from the
    fixture the way the paper's conversations are laid out (one block per turn)."""
    out: dict[str, dict[str, tuple[str, int, int]]] = {}
    for sample in json.loads((FIXTURES / "locomo_mini.json").read_text()):
        conv = sample["conversation"]
        spans = {}
        for key, turns in conv.items():
            if key.startswith("session_") and isinstance(turns, list) and turns:
                pairs = [(t["speaker"], t["text"] + _caption(t)) for t in turns]
                rendered = render_conversation("x", pairs)
                for turn, (a, b) in zip(turns, rendered.spans, strict=True):
                    spans[turn["dia_id"]] = (key, a, b)
        out[sample["sample_id"]] = spans
    return out


def _caption(turn: dict[str, str]) -> str:
    return f"\n[image: {turn['blip_caption']}]" if turn.get("blip_caption") else ""


def test_locomo_question_set_is_the_papers(locomo: Path) -> None:
    """All questions, every category, adversarial included; the fixture's counts."""
    prepared = prepare_protocol(locomo, LOCOMO)
    result = run_protocol(prepared, _fts(), LOCOMO)
    upstream = json.loads((FIXTURES / "locomo_mini.json").read_text())
    categories = Counter(CATEGORIES[q["category"]] for s in upstream for q in s["qa"])
    assert result.questions.total == sum(categories.values()) == 7
    assert result.questions.all_categories == dict(sorted(categories.items()))
    assert "adversarial" in result.questions.categories
    # the question whose evidence names no turn ("D9:9", "D") is in the set, not scored
    assert result.questions.excluded == {LOCOMO.no_unit: ("conv-mini-1-q006",)}
    assert result.unit == "turn" and prepared.dataset.level == "turn"
    # turn ids as in the source, evidence repaired as the importer does
    assert result.qrels == {
        "conv-mini-1-q001": {"D1:3": 2},
        "conv-mini-1-q002": {"D1:4": 2, "D2:2": 2},
        "conv-mini-1-q003": {"D2:3": 2},  # "D2:03"
        "conv-mini-1-q004": {"D2:4": 2},  # "D:2:4"
        "conv-mini-1-q005": {"D1:2": 2},  # adversarial: judged on its evidence
        "conv-mini-2-q001": {"D1:2": 2},
    }
    per = result.perquery.set_index(["query_id", "measure"])["value"]
    for qid in result.questions.scored:  # R@k: the share of the evidence in the top k
        relevant = set(result.qrels[qid])
        top = result.rankings["fts"][qid][:5]
        assert per[(qid, "R@5")] == len(relevant & set(top)) / len(relevant)


@pytest.mark.parametrize("chunk_bytes", [60, 160, 1600])
def test_locomo_chunks_aggregate_to_turns_by_first_occurrence(
    locomo: Path, chunk_bytes: int
) -> None:
    prepared = prepare_protocol(locomo, LOCOMO, chunk_bytes=chunk_bytes, chunk_overlap=20)
    result = run_protocol(prepared, _fts(), LOCOMO)
    spans = chunk_spans(prepared.timeline(3000).batch)
    turns = _upstream_turn_spans()
    ds = prepared.dataset
    for q in ds.queries:
        session_of = {p: ds.groups[q.group].origin_ids[p] for p in ds.groups[q.group].origin_ids}
        expected: list[str] = []
        for chunk in result.runs["fts"].rankings[q.query_id]:
            path, start, end = spans[q.query_id][chunk]
            held = [
                dia
                for dia, (key, a, b) in turns[q.group].items()
                if key == session_of[path] and a <= end and b >= start
            ]
            expected += sorted(held, key=lambda d: turns[q.group][d][1:])
        assert result.rankings["fts"][q.query_id] == list(dict.fromkeys(expected))


def test_one_record_per_chunk_makes_the_unit_ranking_the_chunk_ranking(locomo: Path) -> None:
    prepared = prepare_protocol(locomo, LOCOMO, chunking="record")
    result = run_protocol(prepared, _fts(), LOCOMO)
    spans = chunk_spans(prepared.timeline(3000).batch)
    turns = _upstream_turn_spans()
    compared = 0
    for q in prepared.dataset.queries:
        chunks = result.runs["fts"].rankings[q.query_id]
        units = result.rankings["fts"][q.query_id]
        assert len(units) == len(chunks)
        compared += len(chunks)
        for chunk, unit in zip(chunks, units, strict=True):
            path, start, end = spans[q.query_id][chunk]
            session = prepared.dataset.groups[q.group].origin_ids[path]
            assert turns[q.group][unit] == (session, start, end)  # the chunk is the turn
    assert compared >= 10


def test_beir_documents_keep_their_ids(beir: Path) -> None:
    prepared = prepare_protocol(beir, BEIR)
    result = run_protocol(prepared, _fts(), BEIR)
    assert result.unit == "document"
    assert result.qrels == {
        "q1": {"doc1": 2, "doc2": 0},
        "q2": {"doc3": 1},
        "q4": {"doc/4 odd id": 1},
    }
    assert result.questions.scored == ("q1", "q2", "q4") and result.questions.total == 3
    assert result.rankings["fts"]["q1"][0] == "doc1"
    assert result.table().loc["fts", "NumQ"] == 3
    for mode in ("record", "file"):  # a document is one record: one chunk either way
        other = run_protocol(prepare_protocol(beir, BEIR, chunking=mode), _fts(), BEIR)
        assert other.rankings == result.rankings


def test_beir_leaves_out_a_document_named_like_its_query(tmp_path: Path) -> None:
    src = tmp_path / "src"
    (src / "qrels").mkdir(parents=True)
    docs = [("d1", "cats purr when content"), ("q1", "cats purr loudly and cats sleep")]
    (src / "corpus.jsonl").write_text(
        "".join(json.dumps({"_id": i, "title": "", "text": t}) + "\n" for i, t in docs)
    )
    (src / "queries.jsonl").write_text(json.dumps({"_id": "q1", "text": "cats purr"}) + "\n")
    (src / "qrels" / "test.tsv").write_text("query-id\tcorpus-id\tscore\nq1\td1\t1\n")
    import_dataset("beir", src, tmp_path / "ds")
    prepared = prepare_protocol(tmp_path / "ds", BEIR)
    result = run_protocol(prepared, _fts(), BEIR)
    assert len(result.runs["fts"].rankings["q1"]) == 2  # both documents were found
    assert result.rankings["fts"]["q1"] == ["d1"]  # the query's own id is not a result


def test_protocol_outputs_name_the_sources_ids(locomo: Path, tmp_path: Path) -> None:
    prepared = prepare_protocol(locomo, LOCOMO, chunking="record")
    result = run_protocol(prepared, _fts(), LOCOMO)
    write_protocol_outputs(result, tmp_path / "out")
    qrels = (tmp_path / "out" / "qrels.turn.tsv").read_text().splitlines()
    assert "conv-mini-1-q002\t0\tD2:2\t2" in qrels and len(qrels) == 7
    run = (tmp_path / "out" / "runs" / "fts.turn.trec").read_text().splitlines()
    first = [line.split() for line in run if line.startswith("conv-mini-1-q001 ")]
    assert [r[2] for r in first] == result.rankings["fts"]["conv-mini-1-q001"]
    # each unit's score: its first chunk's display score (not 1/rank), strictly decreasing
    # so that a reader sorting by score (ties by id, as trec_eval) keeps the ranking
    for q in result.questions.scored:
        lines = [line.split() for line in run if line.startswith(f"{q} ")]
        units, scores = result.rankings["fts"][q], result.scores["fts"][q]
        assert [r[2] for r in lines] == units and len(scores) == len(units)
        assert set(scores) <= set(result.runs["fts"].scores[q])
        assert [float(r[4]) for r in lines] == strictly_decreasing(scores)
        resorted = sorted(lines, key=lambda r: (float(r[4]), r[2]), reverse=True)
        assert [r[2] for r in resorted] == units
    assert any(float(r[4]) != 1 / int(r[3]) for r in map(str.split, run))
    manifest = json.loads((tmp_path / "out" / "manifest.json").read_text())
    assert manifest["protocol"]["scored"] == 6 and manifest["protocol"]["unit"] == "turn"
    assert manifest["index"]["config"]["chunking"]["mode"] == "record"


def test_a_protocol_applies_to_its_own_datasets(locomo: Path, beir: Path) -> None:
    with pytest.raises(ConfigError, match="memlab dataset import beir SRC DEST.*'locomo'"):
        prepare_protocol(locomo, BEIR)
    with pytest.raises(ConfigError, match="agent-memory is made by 'generate'"):
        prepare_protocol("agent-memory", LOCOMO)
    with pytest.raises(DatasetError, match="unknown judgement level 'turn'"):
        prepare_protocol(load_dataset(beir), BEIR, level="turn")
