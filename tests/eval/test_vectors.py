"""Precomputed vectors cover every chunk text of the default replays (Dream included),
and missing vectors are reported before anything is ranked."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest

from memlab.config import profile
from memlab.datasets import load_dataset
from memlab.embeddings.cache import CachedEmbedder, VectorCache
from memlab.eval.replay.embedders import CacheOnly, shipped_vectors
from memlab.eval.replay.memory import memory_for
from memlab.eval.replay.precompute import default_memories, precompute_vectors
from memlab.eval.replay.prepared import Prepared, prepare
from tests.eval.test_dream_timeline import write_sessions


def cache_only(dataset_dir: Path) -> CachedEmbedder:
    ((pid, (path, dims)),) = shipped_vectors(load_dataset(dataset_dir)).items()
    return CachedEmbedder(CacheOnly(pid, dims, "test"), [VectorCache(path, read_only=True)])


@pytest.fixture(scope="module")
def with_vectors(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = write_sessions(tmp_path_factory.mktemp("ds") / "dreamy")
    report = precompute_vectors(path, "hash")
    assert report.embedded == report.texts > 0
    return path


def test_the_default_memories_are_dream_off_and_both_profiles_gates(with_vectors: Path) -> None:
    ds = load_dataset(with_vectors)
    memories = default_memories(ds)
    assert [m.dream is None for m in memories] == [True, False, False]
    assert memories[2].dream is not None and memories[2].dream.min_sessions == 5


def test_every_default_replay_finds_its_vectors(with_vectors: Path, tmp_path: Path) -> None:
    ds = load_dataset(with_vectors)
    prepared = prepare(ds, embedder=cache_only(with_vectors), work_dir=tmp_path)
    for dream_config in (profile("grok-c0").dream, profile("grok-2026-08").dream):
        for source in ("dream", "workspace"):
            memory = memory_for(ds, dream=True, dream_config=dream_config).with_dream(
                memory_source=source
            )
            timeline = prepared.timeline(18, memory=memory)
            assert timeline.missing_vectors == 0 and not any(timeline.batch.degraded)
    assert prepared.timeline(18, memory=memory_for(ds, dream=False)).missing_vectors == 0
    assert not prepared.warnings


def test_missing_vectors_are_reported_when_the_replay_runs(
    with_vectors: Path, tmp_path: Path
) -> None:
    copy = tmp_path / "copy"
    shutil.copytree(with_vectors, copy)
    with sqlite3.connect(next((copy / "vectors").glob("*.sqlite"))) as db:
        db.execute("DELETE FROM vectors WHERE rowid % 3 = 0")  # lose a third of them
    prepared: Prepared = prepare(load_dataset(copy), embedder=cache_only(copy), work_dir=tmp_path)
    prepared.timeline(18)  # the replay, before any ranking
    assert any("no precomputed" in w and "memlab dataset vectors" in w for w in prepared.warnings)


def test_vectors_of_texts_the_dataset_no_longer_has_are_dropped(
    with_vectors: Path, tmp_path: Path
) -> None:
    copy = tmp_path / "copy"
    shutil.copytree(with_vectors, copy)
    ((pid, (path, _)),) = shipped_vectors(load_dataset(copy)).items()
    cache = VectorCache(path)
    before = cache.count()
    some = cache.get_many(pid, [_first_key(path)])
    cache.put_many(pid, [("a text the dataset no longer has", next(iter(some.values())))])
    assert cache.count() == before + 1
    cache.close()
    report = precompute_vectors(copy, "hash")
    assert report.embedded == 0 and VectorCache(path).count() == before == report.texts


def _first_key(path: Path) -> str:
    with sqlite3.connect(path) as db:
        return str(db.execute("SELECT key FROM vectors LIMIT 1").fetchone()[0])
