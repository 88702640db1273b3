"""Pooling: each run's top k at the query's time, de-duplicated, blind, traced, merged."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memlab.datasets import load_dataset, resolve_targets
from memlab.errors import DatasetError
from memlab.eval.replay.prepared import PrepareOptions, prepare_dataset
from memlab.eval.runs.rankers import parse_run_specs
from memlab.judging.pool import pool_candidates, pool_dataset, pool_key, read_pool, read_settings
from memlab.retrieval.ranking import rank_batch
from memlab.retrieval.trace import trace_rows
from tests.datasets.team_memory import SHOP


def test_the_pool_is_the_union_of_each_runs_top_k(pooled: Path) -> None:
    pool = read_pool(pooled)
    prepared = prepare_dataset(pooled, PrepareOptions(embedder="hash"))
    runs = parse_run_specs("fts,hybrid,mmr")
    timeline = prepared.timeline(18)
    expected: dict[str, set[str]] = {}
    for name, run in runs.items():
        ranked = rank_batch(timeline.batch, run.config, timeline.query_now)
        for q, qid in enumerate(timeline.batch.query_ids):
            rows = [r for r in trace_rows(ranked, q) if r["in_set"] and not r["content_free"]]
            top = [r["chunk_id"] for r in rows[:4]]
            expected.setdefault(qid, set()).update(top)
            # the returned hits come first in a run's top k
            hits = [r["chunk_id"] for r in rows if r["final_rank"]]
            assert top[: len(hits)] == hits[:4]
            for rank, cid in enumerate(top, start=1):
                cand = next(c for c in pool[qid] if c.chunk_id == cid)
                assert cand.found_by[name] == rank
                assert cand.traces[name]["chunk_id"] == cid
    assert {qid: {c.chunk_id for c in cands} for qid, cands in pool.items()} == expected


def test_blind_stable_order_and_no_duplicates(pooled: Path) -> None:
    pool = read_pool(pooled)
    for qid, cands in pool.items():
        targets = [c.target for c in cands]
        assert len(targets) == len(set(targets))
        assert [c.key for c in cands] == sorted(pool_key(0, qid, t) for t in targets)
    again = pooled.parent / "again"
    again.mkdir()
    # the same runs in another order give the same pool, line for line
    (pooled / "pool.jsonl").rename(again / "first.jsonl")
    (pooled / "pool.json").unlink()
    pool_dataset(pooled, "mmr,hybrid,fts", depth=4, embedder="hash")
    assert (pooled / "pool.jsonl").read_text() == (again / "first.jsonl").read_text()


def test_targets_name_the_chunk_at_the_querys_time(pooled: Path) -> None:
    ds = load_dataset(pooled)
    prepared = prepare_dataset(ds, PrepareOptions(embedder="hash"))
    q4 = ds.query("q4")  # asked on 2026-03-05: the Node 22 session did not exist yet
    pool = read_pool(pooled)
    assert not any("node-upgrade" in c.path for c in pool["q4"])
    assert any("node-upgrade" in c.path for c in pool["q1"])
    with prepared.store_at(SHOP, q4.as_of) as store:
        chunks = store.index.chunks()
        for c in pool["q4"]:
            assert resolve_targets([c.target], chunks)[c.target] == [c.chunk_id]
            assert next(ch.text for ch in chunks if ch.chunk_id == c.chunk_id) == c.text


def test_pooling_a_new_run_adds_and_keeps(pooled: Path, tmp_path: Path) -> None:
    before = read_pool(pooled)
    tuned = tmp_path / "tuned.yaml"
    tuned.write_text("half_life_days: 365\nmin_score: 0.05\n")
    report = pool_dataset(pooled, f"tuned={tuned}", depth=6, embedder="hash")
    after = read_pool(pooled)
    for qid, cands in before.items():
        assert {c.target for c in cands} <= {c.target for c in after[qid]}
    assert report.added == sum(len(c) for c in after.values()) - sum(
        len(c) for c in before.values()
    )
    assert report.added > 0
    assert any("tuned" in c.found_by for cands in after.values() for c in cands)
    settings = read_settings(pooled)
    assert settings is not None and settings.runs == ("fts", "hybrid", "mmr", f"tuned={tuned}")
    with pytest.raises(DatasetError, match="seed 0"):
        pool_dataset(pooled, "fts", seed=7)


def test_pool_lines_are_json(pooled: Path) -> None:
    for line in (pooled / "pool.jsonl").read_text().splitlines():
        record = json.loads(line)
        assert record["target"] == f"{record['path']}#L{record['start_line']}-L{record['end_line']}"


def test_pool_candidates_with_no_queries(pooled: Path) -> None:
    ds = load_dataset(pooled).select(where=lambda q: False)
    assert pool_candidates(prepare_dataset(ds), parse_run_specs("fts"), 4) == {}


def test_a_rewrite_of_the_dataset_drops_its_pool(pooled: Path, tmp_path: Path) -> None:
    from memlab.datasets.from_memory import dataset_from_memory
    from tests.datasets.team_memory import write_team_memory

    (pooled / "judgements.jsonl").write_text("{}\n")
    root = write_team_memory(tmp_path / "again")
    dataset_from_memory(root, pooled, force=True)
    assert not any((pooled / f).exists() for f in ("pool.jsonl", "pool.json", "judgements.jsonl"))
