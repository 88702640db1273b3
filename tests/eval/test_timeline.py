"""As-of evaluation on a timeline: no leakage, and every query sees its own moment."""

from __future__ import annotations

from dataclasses import astuple, fields
from pathlib import Path

import numpy as np
import pytest

from memlab.config import SearchConfig
from memlab.datasets import DatasetWriter, load_dataset
from memlab.embeddings.hashing import HashEmbedder
from memlab.eval.compare.experiment import run_experiment
from memlab.eval.replay.prepared import Prepared, prepare
from memlab.retrieval.candidates import gather
from memlab.retrieval.candidates_batch import ABSENT, CandidateBatch, build_batch
from memlab.retrieval.pipeline import search
from memlab.retrieval.ranking import rank_batch
from memlab.store.store import MemoryStore
from memlab.sweep import Sweep
from tests.datasets.v2fixture import DAY, LOG_A1, LOG_A2, T0, write_timeline_mini

OPEN = SearchConfig(min_score=0.0, max_results=20, half_life_days=None)  # nothing filtered


def _texts(prepared: Prepared, qid: str) -> list[str]:
    """Texts of every candidate of ``qid`` (what any configuration could return)."""
    batch = prepared.batch(60)
    q = batch.query_ids.index(qid)
    return [str(t) for t in batch.text[batch.offsets[q] : batch.offsets[q + 1]]]


@pytest.fixture(scope="module")
def mini(tmp_path_factory: pytest.TempPathFactory) -> Prepared:
    path = write_timeline_mini(tmp_path_factory.mktemp("ds") / "mini")
    return prepare(
        load_dataset(path), embedder=HashEmbedder(), work_dir=tmp_path_factory.mktemp("w")
    )


def write_leak(dest: Path) -> Path:
    """The same question asked before and after its answer is written."""
    w = DatasetWriter(
        dest, name="leak", licence="CC0-1.0", origin="tests", as_of=T0 + 9 * DAY, format_version=2
    )
    w.add_file("ws/MEMORY.md", "# Project\n\n- The linter is ruff\n", T0)
    w.add_file("ws/sessions/2026-03-03-queue-cccc0001.md", "# Queue\n\n- The queue is nats\n", None)
    w.add_event("ws/sessions/2026-03-03-queue-cccc0001.md", T0 + 2 * DAY)
    w.add_fact("f-queue", "ws/sessions/2026-03-03-queue-cccc0001.md", "The queue is nats")
    w.add_query("q-before", "which queue do we use", as_of=T0 + 2 * DAY - 1, abstention=True)
    w.add_query("q-at", "which queue do we use", as_of=T0 + 2 * DAY)
    w.judge("q-at", "fact:f-queue", 2)
    w.add_query("q-after", "which queue do we use", as_of=T0 + 5 * DAY)
    w.judge("q-after", "fact:f-queue", 2)
    return w.finish()


def test_a_query_asked_before_its_answer_is_written_cannot_see_it(tmp_path: Path) -> None:
    prepared = prepare(load_dataset(write_leak(tmp_path / "leak")), work_dir=tmp_path / "w")
    batch = prepared.batch(60, vectors=False)
    ranked = rank_batch(batch, OPEN, prepared.query_now)
    hits = {
        qid: [str(batch.chunk_id[i]) for i in ranked.hits(q)]
        for q, qid in enumerate(batch.query_ids)
    }
    assert not any("queue" in h for h in hits["q-before"])
    assert hits["q-at"] and "queue" in hits["q-at"][0] and "queue" in hits["q-after"][0]
    assert prepared.qrels["q-after"] == {"ws/sessions/2026-03-03-queue-cccc0001.md:0": 2}
    assert not prepared.unresolved


def test_a_growing_log_is_seen_at_its_length_then(mini: Prepared) -> None:
    # q-deploy: the log holds only its first part; the rollback line is written later
    assert any("staging cluster kappa" in t for t in _texts(mini, "q-deploy"))
    assert not any("helm rollback" in t for t in _texts(mini, "q-deploy"))
    assert any("helm rollback" in t for t in _texts(mini, "q-rollback"))
    assert mini.qrels["q-deploy"] == {f"{LOG_A1}:0": 2}


def test_a_rewritten_file_is_seen_only_in_its_version_then(mini: Prepared) -> None:
    before, after = _texts(mini, "q-db-old"), _texts(mini, "q-db-new")
    assert any("PostgreSQL 16" in t for t in before) and not any("MySQL" in t for t in before)
    assert any("MySQL 8" in t for t in after) and not any("PostgreSQL" in t for t in after)
    # the judged version resolves to the chunk that holds it at each time (same id)
    assert mini.qrels["q-db-old"] == {"ws-a/MEMORY.md:0": 2} == mini.qrels["q-db-new"]


def test_an_appended_then_deleted_log_is_seen_only_while_it_exists(mini: Prepared) -> None:
    assert any("port 6379" in t for t in _texts(mini, "q-redis"))  # appended at day 3 + 1 h
    ids = {qid: set(mini.qrels.get(qid, {})) for qid in ("q-redis", "q-ios")}
    assert ids["q-redis"] == {f"{LOG_A2}:0"}
    # the log is deleted at day 8: a later query of group a never sees it
    timeline = mini.timeline(60)
    late = [q for q in mini.dataset.queries if q.group == "a" and q.as_of > T0 + 8 * DAY]
    assert all(LOG_A2 not in c for q in late for c in timeline.judgements[q.query_id].grades)


def test_groups_sharing_a_root_share_its_global_file_only(mini: Prepared) -> None:
    assert any("helix" in t for t in _texts(mini, "q-editor-b"))
    assert mini.qrels["q-editor-b"] == {"MEMORY.md:0": 2}
    batch = mini.batch(60)
    for qid in ("q-ios", "q-editor-b", "q-none"):
        q = batch.query_ids.index(qid)
        ids = [str(c) for c in batch.chunk_id[batch.offsets[q] : batch.offsets[q + 1]]]
        assert not any(c.startswith("ws-a/") for c in ids), ids


def test_relevant_chunks_carry_their_source_and_age_at_the_query_time(mini: Prepared) -> None:
    (chunk,) = mini.relevant["q-deploy"]
    assert (chunk.chunk_id, chunk.source, chunk.created_at) == (f"{LOG_A1}:0", "session", T0 + DAY)
    assert {c.chunk_id for c in mini.relevant["q-stack"]} == {f"{LOG_A1}:0"}
    assert mini.nuggets["q-stack"] == {f"{LOG_A1}:0": frozenset({1, 2})}


def test_batch_ranking_equals_search_at_each_query_time(mini: Prepared) -> None:
    for cfg in (OPEN, SearchConfig(), SearchConfig(vectors=False, min_score=0.1)):
        batch = mini.batch(60)
        ranked = rank_batch(batch, cfg, mini.query_now)
        for i, q in enumerate(mini.dataset.queries):
            with mini.store_at(q.group, q.as_of) as store:
                live = search(store, q.text, cfg, q.as_of, record_access=False, sync=False)
            ours = [(str(batch.chunk_id[r]), float(ranked.display[r])) for r in ranked.hits(i)]
            assert ours == [(h.chunk_id, h.score) for h in live.hits], (cfg, q.query_id)


def _same(a: object, b: object) -> bool:
    return a == b or (isinstance(a, float) and isinstance(b, float) and np.isnan(a) and np.isnan(b))


@pytest.mark.parametrize("vectors", [True, False])
def test_the_replay_columns_equal_gather_row_by_row(mini: Prepared, vectors: bool) -> None:
    """The replay keeps rows as columns (no CandidateRow each): every query's rows, bit
    for bit, and the batch column by column, are what ``gather`` returns at its time."""
    timeline = mini.timeline(60, vectors=vectors)
    gathered = []
    for q in mini.dataset.queries:
        with mini.store_at(q.group, q.as_of) as store:
            found = gather(
                store.index,
                q.text,
                60,
                embedder=mini.embedder if vectors else None,
                use_vectors=vectors,
                query_id=q.query_id,
            )
        ours = timeline.candidates[q.query_id]
        assert (ours.query, ours.limit, ours.reasons, ours.vector_used) == (
            found.query,
            found.limit,
            found.reasons,
            found.vector_used,
        )
        assert len(ours.rows) == len(found.rows)
        for mine, theirs in zip(ours.rows, found.rows, strict=True):
            assert all(map(_same, astuple(mine), astuple(theirs))), (q.query_id, theirs)
        gathered.append(found)
    assert any(r.supp_pos != ABSENT for c in gathered for r in c.rows)  # the supplement ran
    assert vectors == any(r.vec_pos != ABSENT for c in gathered for r in c.rows)
    reference, batch = build_batch(gathered), timeline.batch
    for f in fields(CandidateBatch):
        if f.name != "_cache":
            mine, theirs = getattr(batch, f.name), getattr(reference, f.name)
            if isinstance(mine, np.ndarray):
                assert mine.dtype == theirs.dtype, f.name
                assert np.array_equal(mine, theirs, equal_nan=mine.dtype.kind == "f"), f.name
            else:
                assert mine == theirs, f.name


def test_the_replay_is_cached_and_never_touches_the_dataset(tmp_path: Path, mini: Prepared) -> None:
    files = {p: p.read_bytes() for p in mini.dataset.path.rglob("*") if p.is_file()}
    again = prepare(mini.dataset, embedder=HashEmbedder(), work_dir=mini.work_dir)
    assert again.batch(60).query_ids == mini.batch(60).query_ids
    assert list(mini.work_dir.glob("*.pkl"))
    assert {p: p.read_bytes() for p in mini.dataset.path.rglob("*") if p.is_file()} == files


def test_without_dream_the_replay_indexes_in_memory_what_its_files_give(
    tmp_path: Path, mini: Prepared
) -> None:
    q = max(mini.dataset.queries, key=lambda q: q.as_of)
    with mini.store_at(q.group, q.as_of) as store:
        assert store.index.path is None  # no index file is written
        assert not list(store.layout.root.rglob("*.sqlite*"))
        ours = [(c.chunk_id, c.text, c.hash, c.source) for c in store.index.chunks()]
        root, ws = store.layout.root, store.layout.workspace
        with MemoryStore.open(root, ws, index_path=tmp_path / "i.sqlite") as disk:
            disk.sync(q.as_of)
            theirs = [(c.chunk_id, c.text, c.hash, c.source) for c in disk.index.chunks()]
    assert ours and ours == theirs


def test_nugget_measures_score_the_queries_judged_with_nuggets(mini: Prepared) -> None:
    measures = ["nDCG@10", "alpha-nDCG@10", "NR@10", "NRAll@10"]
    exp = run_experiment(mini, {"open": OPEN}, measures=measures)
    pq = exp.perquery.set_index(["query_id", "measure"])["value"]
    for m in measures[1:]:
        assert list(exp.perquery[exp.perquery["measure"] == m]["query_id"]) == ["q-stack"]
        assert pq[("q-stack", m)] == 1.0  # the one log chunk holds both nuggets, ranked first
    agg = exp.aggregated.set_index(["run", "measure"])
    assert agg.loc[("open", "NR@10"), "n"] == 1 and agg.loc[("open", "NumQ"), "n"] > 1
    sweep = Sweep(mini, measures=measures)
    values = sweep.per_query(OPEN)
    q = sweep.query_ids.index("q-stack")
    assert all(values[m][q] == pq[("q-stack", m)] for m in measures)
    assert all(
        np.isnan(values[m][i]) for m in measures[1:] for i in range(len(values[m])) if i != q
    )
