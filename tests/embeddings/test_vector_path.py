"""The vector path on real SQLite + sqlite-vec: golden merges, faults, persistence."""

from __future__ import annotations

import math
import os
import subprocess
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np
import pytest

from memlab.config import SearchConfig, WatcherConfig, profile
from memlab.embeddings.base import Matrix
from memlab.embeddings.faulty import FAULT_MODES, FaultyEmbedder
from memlab.embeddings.hashing import HashEmbedder
from memlab.errors import SchemaMismatchError
from memlab.retrieval.pipeline import search
from memlab.store import vectors
from memlab.store.store import MemoryStore
from tests.conftest import T0, WS, backdate, write

DIMS = 8


def unit_at(cos: float) -> np.ndarray:
    """A unit vector whose cosine with e0 is ``cos`` (so its L2 distance is sqrt(2 − 2cos))."""
    v = np.zeros(DIMS, dtype=np.float32)
    v[0], v[1] = cos, math.sqrt(max(0.0, 1 - cos * cos))
    return v


class FakeEmbedder:
    """Vectors written by hand: a text containing a marker gets that marker's vector."""

    def __init__(self, table: dict[str, np.ndarray]) -> None:
        self.table = table
        self.calls = 0

    @property
    def id(self) -> str:
        return "fake-8"

    @property
    def dims(self) -> int:
        return DIMS

    def embed_batch(self, texts: Sequence[str]) -> Matrix:
        self.calls += 1
        out = np.zeros((len(texts), DIMS), dtype=np.float32)
        for i, text in enumerate(texts):
            key = next((k for k in self.table if k in text), None)
            out[i] = self.table[key] if key else np.eye(DIMS, dtype=np.float32)[7]
        return out


COS_09 = 1 - 0.2**2 / 2  # distance 0.2 → vec score 0.9


@pytest.fixture
def golden_memory(tmp_path: Path) -> Path:
    root = tmp_path / "g"
    s = f"{WS}/sessions"
    write(root, f"{s}/2026-01-01-a-aaaaaaaa.md", "# A\n\nalpha alpha alpha beta gamma MARKA\n")
    write(root, f"{s}/2026-01-01-b-bbbbbbbb.md", "# B\n\nalpha beta filler filler MARKB\n")
    write(root, f"{s}/2026-01-01-c-cccccccc.md", "# C\n\nalpha filler filler filler filler MARKC\n")
    write(root, f"{s}/2026-01-01-d-dddddddd.md", "# D\n\nnothing lexical here MARKD\n")
    return root


def fake() -> FakeEmbedder:
    return FakeEmbedder(
        {
            "QUERY": unit_at(1.0),
            "MARKA": unit_at(COS_09),
            "MARKB": unit_at(COS_09),
            "MARKC": unit_at(COS_09),
            "MARKD": unit_at(COS_09),
        }
    )


def test_merge_golden_through_sqlite(
    golden_memory: Path, open_store: Callable[..., MemoryStore]
) -> None:
    store = open_store(golden_memory, embedder=fake())
    store.build(now=T0)
    cfg = SearchConfig(min_score=0.0, half_life_days=None)
    result = search(store, "alpha beta QUERY", cfg, T0, trace=True, record_access=False)
    t = {r["chunk_id"].split("-")[-1][0]: r for r in result.trace or []}
    assert {k: round(t[k]["vec"], 6) for k in "abcd"} == {k: 0.9 for k in "abcd"}
    assert t["a"]["distance"] == pytest.approx(0.2, abs=1e-6)
    assert t["a"]["fts"] == 1.0 and t["a"]["merged"] == pytest.approx(1.0)  # max(0.3+0.63, 1.0)
    assert t["c"]["fts"] == 0.0 and t["c"]["merged"] == pytest.approx(0.63)  # worst FTS: 0.7·vec
    assert t["d"]["bm25_rank"] is None and t["d"]["merged"] == pytest.approx(0.63)  # vector only
    fb = t["b"]["fts"]
    assert 0 < fb < 1 and t["b"]["merged"] == pytest.approx(max(0.3 * fb + 0.63, fb))
    assert not result.degraded


def fts_only(store: MemoryStore, query: str) -> list[tuple[str, float]]:
    cfg = SearchConfig(min_score=0.0, vectors=False)
    return [(h.chunk_id, h.score) for h in search(store, query, cfg, T0, record_access=False).hits]


@pytest.mark.parametrize("mode", FAULT_MODES)
def test_every_fault_mode_degrades_to_fts_only(
    golden_memory: Path,
    open_store: Callable[..., MemoryStore],
    mode: str,
    caplog: pytest.LogCaptureFixture,
) -> None:
    store = open_store(golden_memory, embedder=fake())
    store.build(now=T0)
    expected = fts_only(store, "alpha beta QUERY")
    store.embedder = FaultyEmbedder(fake(), mode, 1.0)
    caplog.clear()
    result = search(store, "alpha beta QUERY", SearchConfig(min_score=0.0), T0, record_access=False)
    assert [(h.chunk_id, h.score) for h in result.hits] == expected
    assert result.degraded and len(result.reasons) == 1 and "FTS-only" in result.reasons[0]
    assert len([r for r in caplog.records if "degraded" in r.getMessage()]) == 1


def test_vector_sql_error_degrades(
    golden_memory: Path, open_store: Callable[..., MemoryStore]
) -> None:
    store = open_store(golden_memory, embedder=fake())
    store.build(now=T0)
    expected = fts_only(store, "alpha QUERY")
    store.index.db.execute("DROP TABLE chunks_vec")
    store.index.db.execute("CREATE TABLE chunks_vec (chunk_id TEXT)")  # not a vec0 table any more
    result = search(store, "alpha QUERY", SearchConfig(min_score=0.0), T0, record_access=False)
    assert result.degraded and "vector query failed" in result.reasons[0]
    assert [(h.chunk_id, h.score) for h in result.hits] == expected


def test_missing_sqlite_vec_degrades(golden_memory: Path, tmp_path: Path) -> None:
    path = tmp_path / "idx.sqlite"
    code = (
        "from memlab.store.store import MemoryStore\n"
        "from memlab.retrieval.pipeline import search\n"
        "from memlab.config import SearchConfig\n"
        "from memlab.embeddings.hashing import HashEmbedder\n"
        f"s = MemoryStore.open({str(golden_memory)!r}, index_path={str(path)!r},\n"
        "                      embedder=HashEmbedder())\n"
        "s.build(now=0)\n"
        "c = SearchConfig(min_score=0.0)\n"
        "r = search(s, 'alpha beta', c, 0, record_access=False)\n"
        "f = search(s, 'alpha beta', c.__class__(min_score=0.0, vectors=False), 0,\n"
        "           record_access=False)\n"
        "same = [h.chunk_id for h in r.hits] == [h.chunk_id for h in f.hits]\n"
        "print(r.degraded, same, r.reasons)\n"
    )
    env = {**os.environ, "MEMLAB_DISABLE_VEC": "1"}
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True
    )
    assert out.stdout.startswith("True True") and "sqlite-vec is not loaded" in out.stdout
    assert out.stderr.count("sqlite-vec cannot be loaded") == 1


def test_dimension_mismatch_is_refused(golden_memory: Path, tmp_path: Path) -> None:
    path = tmp_path / "idx.sqlite"
    with MemoryStore.open(golden_memory, index_path=path, embedder=HashEmbedder(64)) as store:
        store.build(now=T0)
    with pytest.raises(SchemaMismatchError, match="'hash-64' \\(64 dims\\).*--embedder"):
        MemoryStore.open(golden_memory, index_path=path, embedder=HashEmbedder(32))


def test_vectors_survive_reopening(golden_memory: Path, tmp_path: Path) -> None:
    path = tmp_path / "idx.sqlite"
    with MemoryStore.open(golden_memory, index_path=path, embedder=fake()) as store:
        store.build(now=T0)
        assert vectors.count(store.index) == 4
    again = fake()
    with MemoryStore.open(golden_memory, index_path=path, embedder=again) as store:
        result = search(
            store, "QUERY alpha", SearchConfig(min_score=0.0), T0, trace=True, record_access=False
        )
        assert vectors.count(store.index) == 4
        assert again.calls == 1  # only the query was embedded
        assert not result.degraded
        assert sum(r["vec_pos"] is not None for r in result.trace or []) == 4


def test_deleted_file_loses_its_vectors(
    golden_memory: Path, open_store: Callable[..., MemoryStore]
) -> None:
    store = open_store(golden_memory, embedder=fake())
    store.build(now=T0)
    rel = f"{WS}/sessions/2026-01-01-d-dddddddd.md"
    (golden_memory / rel).unlink()
    store.dirty.add([rel])
    result = search(store, "QUERY", SearchConfig(min_score=0.0), T0, record_access=False)
    assert vectors.count(store.index) == 3
    assert rel not in {h.path for h in result.hits}


def test_changed_chunk_gets_a_new_vector(
    golden_memory: Path, open_store: Callable[..., MemoryStore]
) -> None:
    emb = fake()
    store = open_store(golden_memory, embedder=emb)
    store.build(now=T0)
    rel = f"{WS}/sessions/2026-01-01-a-aaaaaaaa.md"
    write(golden_memory, rel, "# A\n\nnow about MARKD instead\n")
    store.dirty.add([rel])
    store.sync(now=T0)
    [(digest,)] = store.index.db.execute(
        "SELECT hash FROM chunks_vec WHERE chunk_id = ?", (f"{rel}:0",)
    )
    [(current,)] = store.index.db.execute("SELECT hash FROM chunks WHERE id = ?", (f"{rel}:0",))
    assert digest == current


def _many_notes(root: Path, n: int = 70) -> Path:
    for i in range(n):
        write(
            root, f"{WS}/sessions/2026-01-01-n{i}-{i:08d}.md", f"# N{i}\n\nnote number {i} text\n"
        )
    return root


def test_failed_batch_waits_for_the_next_change_in_c0(
    tmp_path: Path, open_store: Callable[..., MemoryStore]
) -> None:
    """SPEC §3: missing vectors are embedded only by a sync that runs, i.e. after a change."""
    root = _many_notes(tmp_path / "many")
    flaky = FaultyEmbedder(HashEmbedder(16), "raise", 1.0)
    store = open_store(root, embedder=flaky)
    report = store.build(now=T0)
    assert report.embedded == 0 and len(report.embed_failures) == 3  # 70 chunks = 3 batches of ≤ 32
    flaky.rate = 0.0
    report = store.sync(now=T0)
    assert not report.ran and vectors.count(store.index) == 0  # nothing changed: no sync
    rel = f"{WS}/sessions/2026-01-02-new-99999999.md"
    write(root, rel, "# New\n\na new note\n")
    store.dirty.add([rel])
    report = store.sync(now=T0)
    assert report.embedded == 71 and vectors.count(store.index) == 71  # all missing ones


def test_retry_missing_vectors_option(
    tmp_path: Path, open_store: Callable[..., MemoryStore]
) -> None:
    root = _many_notes(tmp_path / "many")
    flaky = FaultyEmbedder(HashEmbedder(16), "raise", 1.0)
    watcher = WatcherConfig(retry_missing_vectors=True)
    store = open_store(root, embedder=flaky, watcher=watcher)
    assert store.build(now=T0).embedded == 0
    flaky.rate = 0.0
    report = store.sync(now=T0)  # nothing changed, but vectors are missing
    assert report.ran and report.embedded == 70 and vectors.count(store.index) == 70
    assert not store.sync(now=T0).ran  # nothing missing any more
    assert not profile("grok-c0").watcher.retry_missing_vectors
    assert not profile("grok-2026-08").watcher.retry_missing_vectors


def test_index_command_embeds_what_is_missing(
    tmp_path: Path, open_store: Callable[..., MemoryStore]
) -> None:
    """``build`` (``memlab index``) embeds missing vectors even when no file changed."""
    root = _many_notes(tmp_path / "few", 5)
    backdate(root)  # written long ago: the racy-timestamp rule re-reads fresh files
    index = tmp_path / "idx.sqlite"
    open_store(root, index_path=index).build(now=T0)  # no embedder: no vectors
    store = open_store(root, index_path=index, embedder=HashEmbedder(16))
    assert not store.sync(now=T0).ran  # c0: nothing changed, no sync
    assert store.build(now=T0).embedded == 5 and vectors.count(store.index) == 5


def test_hash_embedder_properties() -> None:
    e = HashEmbedder(256)
    m = e.embed_batch(["database migration", "database migrations", "chocolate cake recipe", ""])
    assert m.shape == (4, 256) and m.dtype == np.float32
    assert np.allclose(np.linalg.norm(m[:3], axis=1), 1.0) and not m[3].any()
    assert m[0] @ m[1] > 0.3 > 0.05 > m[0] @ m[2]  # shared words and trigrams
    assert np.array_equal(
        m,
        HashEmbedder(256).embed_batch(
            ["database migration", "database migrations", "chocolate cake recipe", ""]
        ),
    )


def _drop_one_vector(store: MemoryStore) -> str:
    """The state a killed sync leaves, made deterministically: one chunk's vector row gone."""
    [(chunk_id,)] = store.index.db.execute("SELECT id FROM chunks ORDER BY rowid LIMIT 1")
    with store.index.transaction():
        store.index.db.execute("DELETE FROM chunks_vec WHERE chunk_id = ?", (chunk_id,))
    return str(chunk_id)


def test_a_missing_vector_is_flagged_then_back_filled(
    tmp_path: Path, open_store: Callable[..., MemoryStore]
) -> None:
    """Issue 27, item 4: a chunk left without a vector by a killed sync. A later process
    (a new store) finds it at its first search: degraded with the reason (c0 embeds only
    after a change), and with ``watcher.retry_missing_vectors`` embedded then."""
    root = _many_notes(tmp_path / "many", n=5)
    backdate(root)  # not re-read as racy by the later stores
    index = tmp_path / "index.sqlite"
    first = open_store(root, embedder=HashEmbedder(16), index_path=index)
    first.build(now=T0)
    dropped = _drop_one_vector(first)
    first.close()  # (closing twice at teardown is harmless)
    c0 = open_store(root, embedder=HashEmbedder(16), index_path=index)
    result = search(c0, "note number", None, T0, record_access=False)
    assert result.degraded and any("1 chunk(s) have no vector" in r for r in result.reasons)
    assert vectors.count(c0.index) == 4  # c0's results: nothing embedded without a change
    text_only = search(c0, "note number", SearchConfig(vectors=False), T0, record_access=False)
    assert not any("no vector" in r for r in text_only.reasons)  # no vectors asked for
    c0.close()
    watcher = WatcherConfig(retry_missing_vectors=True)
    retried = open_store(root, embedder=HashEmbedder(16), watcher=watcher, index_path=index)
    result = search(retried, "note number", None, T0, record_access=False)
    assert result.sync is not None and result.sync.embedded == 1 and not result.degraded
    assert vectors.with_vectors(retried.index, [dropped]) == {dropped}
