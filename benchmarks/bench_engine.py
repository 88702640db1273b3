"""Engine benchmark: memlab against raw SQLite on the same data, in the same run.

Ingest (chunks/s): ``MemoryStore.build`` (scan, read, chunk, hash, write in
batches) beside plain ``INSERT``s of the same chunk rows and FTS rows into the same
schema in one transaction, row by row (a straightforward script). FTS-only
search (p50/p95): ``memlab.search`` (sync check, keywords, FTS + evergreen
supplement, features, the scoring core) beside the same two FTS statements run
raw plus fetching the rows.

With ``--vectors``: ingest again with vectors (an embedder that looks up
precomputed random unit vectors of 384 dimensions, so embedding costs nothing)
beside raw inserts of chunk, FTS and vec0 rows; hybrid search on those chunks
beside raw vec0 KNN plus raw FTS5; and embedding throughput of ``hash`` (and of
``minilm`` when installed).

    python benchmarks/bench_engine.py --chunks 100000 --queries 200 --vectors
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import statistics
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

from memlab.config import SearchConfig
from memlab.embeddings.base import Matrix
from memlab.embeddings.hashing import HashEmbedder
from memlab.search.keywords import extract_keywords, match_expression
from memlab.search.pipeline import search
from memlab.store import vectors
from memlab.store.connection import open_connection
from memlab.store.schema import migrate
from memlab.store.store import MemoryStore

WS = "bench-0000aaaa"
T0 = 1_767_225_600.0


def vocabulary(rng: random.Random, size: int = 20_000) -> list[str]:
    letters = "abcdefghijklmnopqrstuvwxyz"
    return ["".join(rng.choice(letters) for _ in range(rng.randint(3, 10))) for _ in range(size)]


def make_corpus(root: Path, n_chunks: int, seed: int = 7) -> list[str]:
    """Session files of 20 sections (≈ 700 bytes each → one chunk per section)."""
    rng = random.Random(seed)
    vocab = vocabulary(rng)
    weights = [1.0 / (i + 1) for i in range(len(vocab))]  # Zipf-like
    sessions = root / WS / "sessions"
    sessions.mkdir(parents=True)
    per_file = 20
    (root / "MEMORY.md").write_text("# Global\n\n" + " ".join(rng.choices(vocab, weights, k=80)))
    (root / WS / "MEMORY.md").write_text(
        "# Workspace\n\n" + " ".join(rng.choices(vocab, weights, k=80))
    )
    for f in range((n_chunks - 2) // per_file):
        parts = [f"# Session {f}\n"]
        for s in range(per_file):
            parts.append(f"\n## Part {s}\n\n" + " ".join(rng.choices(vocab, weights, k=100)) + "\n")
        (sessions / f"2026-01-01-s{f}-{f:08d}.md").write_text("".join(parts))
    return vocab


def percentiles(samples: Sequence[float]) -> dict[str, float]:
    ordered = sorted(samples)
    return {
        "p50_ms": 1000 * statistics.median(ordered),
        "p95_ms": 1000 * ordered[int(0.95 * (len(ordered) - 1))],
    }


def timed(fn: Callable[[], object]) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def raw_ingest(rows: list[tuple], path: Path, vecs: dict[str, bytes] | None = None) -> float:
    """Insert ``rows`` (chunk rows) and their FTS rows — and vec0 rows when ``vecs`` —
    one statement per row, in one transaction."""
    conn = open_connection(path)
    migrate(conn.conn, "unicode61", str(path))
    db = conn.conn
    if vecs is not None:
        dims = len(next(iter(vecs.values()))) // 4
        db.execute(f"CREATE VIRTUAL TABLE IF NOT EXISTS raw_vec USING vec0("
                   f"chunk_id TEXT PRIMARY KEY, embedding float[{dims}], +hash TEXT)")  # fmt: skip

    def run() -> None:
        db.execute("BEGIN")
        for row in rows:
            cur = db.execute(
                "INSERT INTO chunks(id, path, start_line, end_line, text, hash, source, "
                "created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                row,
            )
            db.execute("INSERT INTO chunks_fts(rowid, text) VALUES (?, ?)", (cur.lastrowid, row[4]))
            if vecs is not None:
                db.execute(
                    "INSERT INTO raw_vec(chunk_id, embedding, hash) VALUES (?, ?, ?)",
                    (row[0], vecs[row[4]], row[5]),
                )
        db.execute("COMMIT")

    elapsed = timed(run)
    conn.close()
    return elapsed


def raw_fts(db: object, match: str, limit: int, tie: str = ", rowid") -> None:
    """The same two FTS statements memlab runs (``memlab.search.candidates``), plus
    fetching the rows' text.

    ``tie=""`` gives c0's plain ``ORDER BY rank`` for the main query: FTS5 then sorts
    every match by rank internally, which measures slower here than SQLite's bounded
    sort that ``ORDER BY rank, rowid`` uses (memlab's form, which also makes ties
    deterministic).
    """
    from memlab.search.candidates import _FTS_SQL, _SUPPLEMENT_SQL
    from memlab.sources import EVERGREEN_SOURCES

    execute = db.execute  # type: ignore[attr-defined]
    main_sql = _FTS_SQL.replace("ORDER BY rank, rowid", f"ORDER BY rank{tie}")
    ids = [r[0] for r in execute(main_sql, (match, limit))]
    ids += [r[0] for r in execute(_SUPPLEMENT_SQL, (match, *EVERGREEN_SOURCES, limit))]
    marks = ",".join("?" * len(ids))
    execute(f"SELECT id, text FROM chunks WHERE rowid IN ({marks})", ids).fetchall()


class TableEmbedder:
    """Vectors precomputed by text, so the benchmark measures memlab, not a model."""

    def __init__(self, table: dict[str, np.ndarray], dims: int) -> None:
        self.table, self._dims = table, dims

    @property
    def id(self) -> str:
        return "bench-random"

    @property
    def dims(self) -> int:
        return self._dims

    def embed_batch(self, texts: Sequence[str]) -> Matrix:
        return np.stack([self.table[t] for t in texts]).astype(np.float32)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--chunks", type=int, default=100_000)
    ap.add_argument("--queries", type=int, default=200)
    ap.add_argument("--vectors", action="store_true")
    ap.add_argument("--dims", type=int, default=384)
    args = ap.parse_args()
    work = Path(tempfile.mkdtemp(prefix="memlab-bench-"))
    try:
        print(json.dumps(run(work, args), indent=2))
    finally:
        shutil.rmtree(work, ignore_errors=True)


def ingest(root: Path, work: Path, vecs: dict[str, bytes] | None, dims: int) -> dict[str, float]:
    """Build memlab's index of ``root`` and insert the same rows raw; chunks per second."""
    tag = "vec" if vecs is not None else "fts"
    embedder = None
    if vecs is not None:
        table = {t: np.frombuffer(b, dtype=np.float32) for t, b in vecs.items()}
        embedder = TableEmbedder(table, dims)
    store = MemoryStore.open(root, index_path=work / f"memlab-{tag}.sqlite", scan=False,
                             embedder=embedder)  # fmt: skip
    elapsed = timed(lambda: store.build(now=T0))
    n = store.index.stats().chunks
    rows = list(
        store.index.db.execute(
            "SELECT id, path, start_line, end_line, text, hash, source, created_at, updated_at "
            "FROM chunks ORDER BY rowid"
        )
    )
    store.close()
    raw_elapsed = raw_ingest(rows, work / f"raw-{tag}.sqlite", vecs)
    return {
        "chunks": n,
        "memlab_chunks_per_s": n / elapsed,
        "raw_chunks_per_s": n / raw_elapsed,
        "ratio_memlab_over_raw": raw_elapsed / elapsed,
    }


def run(work: Path, args: argparse.Namespace, *, model: bool = True) -> dict[str, object]:
    """Every measure of this benchmark (``model=False``: leave out the real model's
    embedding throughput, which loads torch)."""
    rng = random.Random(11)
    root = work / "memory"
    vocab = make_corpus(root, args.chunks)
    # the corpus just written is still being written back to disk: flush it first, or the
    # write-back is charged to whichever ingest runs first (memlab's, which reads the files)
    os.sync()
    out: dict[str, object] = {"ingest": ingest(root, work, None, args.dims)}
    store = MemoryStore.open(root, index_path=work / "memlab-fts.sqlite", scan=False)
    rows = list(store.index.db.execute("SELECT text FROM chunks ORDER BY rowid"))
    queries = [
        " ".join(rng.choices(vocab[:3000], k=rng.randint(2, 4))) for _ in range(args.queries)
    ]
    cfg = SearchConfig(vectors=False)
    limit = cfg.max_results * cfg.candidate_multiplier
    mem, raw, raw_c0 = [], [], []
    for i, q in enumerate(queries):
        match = match_expression(extract_keywords(q)) or '""'
        pair = [
            lambda m=match: raw.append(timed(lambda: raw_fts(store.index.db, m, limit))),
            lambda q=q: mem.append(timed(lambda: search(store, q, cfg, T0, record_access=False))),
        ]
        for step in pair if i % 2 == 0 else pair[::-1]:  # alternate who runs with a warm cache
            step()
        raw_c0.append(timed(lambda m=match: raw_fts(store.index.db, m, limit, tie="")))  # type: ignore[misc]
    out["fts_search"] = {
        "memlab": percentiles(mem),
        "raw": percentiles(raw),
        "raw_c0_order_by_rank": percentiles(raw_c0),
        "p50_ratio": statistics.median(mem) / statistics.median(raw),
        "p95_ratio": percentiles(mem)["p95_ms"] / percentiles(raw)["p95_ms"],
    }
    store.close()
    if args.vectors:
        gen = np.random.default_rng(3)
        texts = sorted({r[0] for r in rows})
        mat = gen.normal(size=(len(texts), args.dims)).astype(np.float32)
        mat /= np.linalg.norm(mat, axis=1, keepdims=True)
        vecs = {t: mat[i].tobytes() for i, t in enumerate(texts)}
        out["ingest_with_vectors"] = ingest(root, work, vecs, args.dims)
        store = MemoryStore.open(root, index_path=work / "memlab-fts.sqlite", scan=False)
        out["hybrid_search"] = hybrid(store, queries, args.dims, limit)
        store.close()
        out["embedding_throughput"] = throughput([r[0] for r in rows[:2000]], model=model)
    return out


def hybrid(store: MemoryStore, queries: list[str], dims: int, limit: int) -> dict[str, object]:
    gen = np.random.default_rng(5)
    table = {
        q: v / np.linalg.norm(v)
        for q, v in zip(queries, gen.normal(size=(len(queries), dims)), strict=True)
    }
    emb = TableEmbedder(table, dims)
    vectors.ensure_table(store.index, emb.id, dims)
    ids = [
        (r[0], r[1]) for r in store.index.db.execute("SELECT id, hash FROM chunks ORDER BY rowid")
    ]
    for start in range(0, len(ids), 5000):
        part = ids[start : start + 5000]
        mat = gen.normal(size=(len(part), dims)).astype(np.float32)
        vectors.put_vectors(store.index, part, mat / np.linalg.norm(mat, axis=1, keepdims=True))
    store.embedder = emb
    store._vectors_pending = False
    cfg = SearchConfig()
    exact = SearchConfig(knn="exact")
    # the exact KNN reads the vectors into memory on its first search: timed on its own
    load_s = timed(lambda: search(store, queries[0], exact, T0, record_access=False))
    mem, mem_exact, raw_vec, raw_text = [], [], [], []
    knn = "SELECT chunk_id, distance FROM chunks_vec WHERE embedding MATCH ? AND k = ?"
    for i, q in enumerate(queries):
        blob = table[q].astype(np.float32).tobytes()
        match = match_expression(extract_keywords(q)) or '""'

        def raw_both(b: bytes = blob, m: str = match) -> None:
            raw_vec.append(timed(lambda: store.index.db.execute(knn, (b, limit)).fetchall()))
            raw_text.append(timed(lambda: raw_fts(store.index.db, m, limit)))

        def ours(q: str = q) -> None:
            mem.append(timed(lambda: search(store, q, cfg, T0, record_access=False)))
            mem_exact.append(timed(lambda: search(store, q, exact, T0, record_access=False)))

        for step in (raw_both, ours) if i % 2 == 0 else (ours, raw_both):
            step()
    raw_sum = [a + b for a, b in zip(raw_vec, raw_text, strict=True)]
    return {
        "memlab": percentiles(mem),
        "raw_vec0_knn": percentiles(raw_vec),
        "raw_fts5": percentiles(raw_text),
        "raw_sum": percentiles(raw_sum),
        "p50_ratio_over_raw_sum": statistics.median(mem) / statistics.median(raw_sum),
        "p95_ratio_over_raw_sum": percentiles(mem)["p95_ms"] / percentiles(raw_sum)["p95_ms"],
        "memlab_knn_exact": percentiles(mem_exact),
        "knn_exact_first_search_s": load_s,
        "knn_exact_p50_ratio_over_raw_sum": statistics.median(mem_exact)
        / statistics.median(raw_sum),
        "knn_exact_p95_ratio_over_raw_sum": percentiles(mem_exact)["p95_ms"]
        / percentiles(raw_sum)["p95_ms"],
    }


def throughput(texts: list[str], *, model: bool = True) -> dict[str, float]:
    out = {}
    h = HashEmbedder()
    out["hash_texts_per_s"] = len(texts) / timed(lambda: h.embed_batch(texts))
    from memlab.embeddings.minilm import MiniLMEmbedder, available

    if model and available()[0]:
        m = MiniLMEmbedder()
        m.embed_batch(texts[:8])  # load the model outside the timing
        sample = texts[:500]
        out["minilm_texts_per_s"] = len(sample) / timed(lambda: m.embed_batch(sample))
    return out


if __name__ == "__main__":
    main()
