"""Engine benchmark: memlab against raw SQLite on the same data, in the same run.

The anchor is ``raw_sqlite`` (plain SQLite, no memlab: the same schema, driver,
pragmas and SQL statements). Every timing is repeated ``runs`` times (≥ 5 in the
table) and reported as the median over runs with the spread (lowest–highest run).

* Ingest: ``MemoryStore.build`` (scan, read, chunk, hash, write in batches; memlab
  reads in a helper thread) beside plain ``INSERT``s of the same chunk rows and FTS
  rows into the same schema in one transaction, row by row (a straightforward
  single-threaded script). Chunks per second, and the ratios of wall time and of
  CPU time (the process's, every thread counted).
* FTS-only search p50/p95, for three query sets drawn from the index's own
  document frequencies: ``common`` (2–4 of the 3,000 most frequent words),
  ``rare`` (2–4 of the quarter of the vocabulary with the lowest document
  frequency) and ``mixed`` (one rare word and 1–3 common ones). memlab:
  ``memlab.search`` as the user calls it (sync check, keywords, FTS + evergreen
  supplement, features, the scoring core, recording the access: the default);
  raw: the same two FTS statements plus fetching the rows.
* With ``vectors``: ingest again with vectors (an embedder that looks up
  precomputed random unit vectors, so embedding costs nothing) beside raw inserts
  of chunk, FTS and vec0 rows; hybrid search (the mixed set) beside raw vec0 KNN
  plus raw FTS5, with memlab's default KNN (vec0) and with ``search.knn = "exact"``
  (memlab's exact numpy KNN), whose hits are compared with the default's.

    python benchmarks/bench_engine.py --chunks 100000 --queries 100 --vectors
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))  # raw_sqlite, run as a script

import raw_sqlite

from memlab.config import SearchConfig
from memlab.embeddings.base import Matrix
from memlab.embeddings.hashing import HashEmbedder
from memlab.retrieval.keywords import extract_keywords, match_expression
from memlab.retrieval.pipeline import search
from memlab.store import vectors
from memlab.store.store import MemoryStore

WS = "bench-0000aaaa"
T0 = 1_767_225_600.0
QUERY_SETS = ("common", "rare", "mixed")


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


def over_runs(values: Sequence[float], digits: int = 3) -> dict[str, float]:
    """The median of per-run figures and their spread."""
    return {
        "median": round(statistics.median(values), digits),
        "min": round(min(values), digits),
        "max": round(max(values), digits),
    }


def timed(fn: Callable[[], object]) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def clocked(fn: Callable[[], object]) -> tuple[float, float]:
    """Wall and CPU seconds of ``fn`` (CPU: the whole process, every thread)."""
    wall, cpu = time.perf_counter(), time.process_time()
    fn()
    return time.perf_counter() - wall, time.process_time() - cpu


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


def schema(index: Path) -> list[str]:
    """The ``CREATE`` statements of memlab's own tables in ``index`` (chunks, FTS and the
    rest; not FTS5's shadow tables, not vec0's): what the raw script creates."""
    db = raw_sqlite.connect(str(index))
    rows = db.execute(
        "SELECT name, sql FROM sqlite_master WHERE sql IS NOT NULL AND type IN ('table', 'index') "
        "AND name NOT LIKE 'sqlite_%' ORDER BY rowid"
    ).fetchall()
    db.close()
    fts_shadows = ("_data", "_idx", "_content", "_docsize", "_config")
    virtual = {n for n, sql in rows if sql.upper().startswith("CREATE VIRTUAL")}
    skip = {n for n in virtual if "vec0" in rows[[r[0] for r in rows].index(n)][1].lower()}
    skip |= {n for n, _ in rows if any(n == v + s for v in virtual for s in fts_shadows)}
    skip |= {n for n, _ in rows if any(n.startswith(v + "_") for v in skip)}
    return [sql for n, sql in rows if n not in skip]


def ingest(
    root: Path, work: Path, vecs: dict[str, bytes] | None, dims: int, runs: int
) -> dict[str, Any]:
    """Build memlab's index of ``root`` and insert the same rows raw, ``runs`` times each
    (alternating who goes first); chunks per second and the wall and CPU ratios."""
    tag = "vec" if vecs is not None else "fts"
    embedder = None
    if vecs is not None:
        table = {t: np.frombuffer(b, dtype=np.float32) for t, b in vecs.items()}
        embedder = TableEmbedder(table, dims)
    ours: list[tuple[float, float]] = []
    raw: list[tuple[float, float]] = []
    keep = work / f"memlab-{tag}.sqlite"
    rows: list[tuple[Any, ...]] = []
    statements: list[str] = []

    def memlab_once(run: int) -> None:
        path = keep if run == 0 else work / f"memlab-{tag}-{run}.sqlite"
        store = MemoryStore.open(root, index_path=path, scan=False, embedder=embedder)
        ours.append(clocked(lambda: store.build(now=T0)))
        if run == 0:
            rows.extend(
                store.index.db.execute(
                    f"SELECT {raw_sqlite.CHUNK_COLUMNS} FROM chunks ORDER BY rowid"
                )
            )
        store.close()
        if run:
            for p in work.glob(f"memlab-{tag}-{run}.sqlite*"):
                p.unlink()

    def raw_once(run: int) -> None:
        path = work / f"raw-{tag}-{run}.sqlite"
        db = raw_sqlite.connect(str(path))
        raw_sqlite.create_schema(db, statements, dims if vecs is not None else None)
        raw.append(clocked(lambda: raw_sqlite.ingest(db, rows, vecs)))
        db.close()
        for p in work.glob(f"raw-{tag}-{run}.sqlite*"):
            p.unlink()

    memlab_once(0)
    statements.extend(schema(keep))
    raw_once(0)
    for run in range(1, runs):
        for step in (memlab_once, raw_once) if run % 2 else (raw_once, memlab_once):
            step(run)
    n = len(rows)
    wall = [r[0] / m[0] for m, r in zip(ours, raw, strict=True)]
    cpu = [r[1] / m[1] for m, r in zip(ours, raw, strict=True)]
    return {
        "chunks": n,
        "runs": runs,
        "memlab_chunks_per_s": over_runs([n / m[0] for m in ours], 0),
        "raw_chunks_per_s": over_runs([n / r[0] for r in raw], 0),
        "memlab_cpu_s": over_runs([m[1] for m in ours]),
        "raw_cpu_s": over_runs([r[1] for r in raw]),
        "wall_ratio": over_runs(wall),  # raw time / memlab time: ≥ 1 means memlab is faster
        "cpu_ratio": over_runs(cpu),
    }


def document_frequencies(index: Path) -> list[tuple[str, int]]:
    """Every term of the FTS index with the number of chunks holding it, most frequent
    first (FTS5's ``fts5vocab``: the index's own tokens)."""
    db = raw_sqlite.connect(":memory:")
    db.execute(f"ATTACH DATABASE '{index}' AS idx")
    db.execute("CREATE VIRTUAL TABLE temp.vocab USING fts5vocab(idx, chunks_fts, 'row')")
    terms = [(str(t), int(d)) for t, d in db.execute("SELECT term, doc FROM temp.vocab")]
    db.close()
    return sorted(terms, key=lambda t: (-t[1], t[0]))


def query_sets(terms: list[tuple[str, int]], n: int, seed: int = 11) -> dict[str, list[str]]:
    """``n`` queries of each kind (``QUERY_SETS``); words made of letters only, so none is
    dropped by keyword extraction as a number or a symbol."""
    words = [(t, d) for t, d in terms if t.isalpha()]
    common = [t for t, _ in words[:3000]]
    rare = [t for t, _ in words[-max(1, len(words) // 4) :]]
    rng = random.Random(seed)
    return {
        "common": [" ".join(rng.choices(common, k=rng.randint(2, 4))) for _ in range(n)],
        "rare": [" ".join(rng.choices(rare, k=rng.randint(2, 4))) for _ in range(n)],
        "mixed": [
            " ".join([rng.choice(rare), *rng.choices(common, k=rng.randint(1, 3))])
            for _ in range(n)
        ],
    }


def median_df(queries: list[str], df: dict[str, int]) -> float:
    return float(statistics.median(df.get(w, 0) for q in queries for w in q.split()))


def latencies(
    paths: dict[str, Callable[[int], object]], n: int, runs: int, anchor: str = "raw"
) -> dict[str, Any]:
    """Time every path on queries ``0..n-1``, ``runs`` times over, in turn per query (the
    order rotating, so no path always meets a warm cache). Per run, the p50 and p95 of
    each path's per-query CPU and wall seconds; over runs, their medians and spread, and
    each path's per-run ratio to ``anchor``'s."""
    names = list(paths)
    figures: dict[str, dict[str, list[float]]] = {k: {} for k in names}
    for _ in range(runs):
        cpu: dict[str, list[float]] = {k: [] for k in names}
        wall: dict[str, list[float]] = {k: [] for k in names}
        for i in range(n):
            shift = i % len(names)
            for name in names[shift:] + names[:shift]:
                w, c = time.perf_counter(), time.process_time()
                paths[name](i)
                c, w = time.process_time() - c, time.perf_counter() - w
                cpu[name].append(c)
                wall[name].append(w)
        for name in names:
            for kind, samples in (("cpu", cpu[name]), ("wall", wall[name])):
                p = percentiles(samples)
                figures[name].setdefault(f"{kind}_p50_ms", []).append(p["p50_ms"])
                figures[name].setdefault(f"{kind}_p95_ms", []).append(p["p95_ms"])
    out: dict[str, Any] = {"runs": runs, "queries": n}
    for name in names:
        out[name] = {k: over_runs(v) for k, v in figures[name].items()}
        if name != anchor:
            out[name]["ratio"] = {
                k.removesuffix("_ms"): over_runs(
                    [a / b for a, b in zip(v, figures[anchor][k], strict=True)]
                )
                for k, v in figures[name].items()
            }
    return out


def fts_search(
    store: MemoryStore, raw: Any, queries: list[str], limit: int, runs: int
) -> dict[str, Any]:
    """memlab's FTS-only search as the user calls it (accesses recorded) beside raw FTS5."""
    cfg = SearchConfig(vectors=False)
    matches = [match_expression(extract_keywords(q)) or '""' for q in queries]
    return latencies(
        {
            "raw": lambda i: raw_sqlite.fts(raw, matches[i], limit),
            "memlab": lambda i: search(store, queries[i], cfg, T0),
        },
        len(queries),
        runs,
    )


def run(
    work: Path,
    chunks: int,
    queries: int,
    *,
    runs: int = 5,
    vectors: bool = False,
    dims: int = 384,
    hybrid_queries: int | None = None,
    ingest_vectors: bool | None = None,
    model: bool = False,
) -> dict[str, Any]:
    """Every measure of this benchmark at ``chunks`` chunks (``vectors``: the hybrid
    search too, and ingest with vectors unless ``ingest_vectors`` is False; ``model``:
    also the real model's embedding throughput, which loads torch)."""
    root = work / "memory"
    make_corpus(root, chunks)
    # the corpus just written is still being written back to disk: flush it first, or the
    # write-back is charged to whichever ingest runs first (memlab's, which reads the files)
    os.sync()
    out: dict[str, Any] = {"chunks": chunks, "ingest": ingest(root, work, None, dims, runs)}
    index = work / "memlab-fts.sqlite"
    terms = document_frequencies(index)
    df = dict(terms)
    sets = query_sets(terms, queries)
    cfg = SearchConfig(vectors=False)
    limit = cfg.max_results * cfg.candidate_multiplier
    store = MemoryStore.open(root, index_path=index, scan=False)
    raw = raw_sqlite.connect(str(index))
    out["fts_search"] = {}
    for name, qs in sets.items():
        out["fts_search"][name] = fts_search(store, raw, qs, limit, runs)
        out["fts_search"][name]["median_document_frequency"] = median_df(qs, df)
    raw.close()
    texts = sorted({r[0] for r in store.index.db.execute("SELECT text FROM chunks")})
    store.close()
    if vectors:
        gen = np.random.default_rng(3)
        if ingest_vectors is not False:
            mat = gen.normal(size=(len(texts), dims)).astype(np.float32)
            mat /= np.linalg.norm(mat, axis=1, keepdims=True)
            vecs = {t: mat[i].tobytes() for i, t in enumerate(texts)}
            out["ingest_with_vectors"] = ingest(root, work, vecs, dims, runs)
            del vecs, mat
        store = MemoryStore.open(root, index_path=index, scan=False)
        mixed = sets["mixed"][: hybrid_queries or queries]
        out["hybrid_search"] = hybrid(store, index, mixed, dims, limit, runs)
        store.close()
        if model:
            out["embedding_throughput"] = throughput(texts[:2000], model=model)
    return out


def hybrid(
    store: MemoryStore, index: Path, queries: list[str], dims: int, limit: int, runs: int
) -> dict[str, Any]:
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
    load_s = timed(lambda: search(store, queries[0], exact, T0))
    raw = raw_sqlite.connect(str(index))
    blobs = [table[q].astype(np.float32).tobytes() for q in queries]
    matches = [match_expression(extract_keywords(q)) or '""' for q in queries]
    # identical hits, compared without recording accesses (recording between the two
    # searches would change the second one's access features)
    identical = all(
        [(h.chunk_id, h.score) for h in search(store, q, cfg, T0, record_access=False).hits]
        == [(h.chunk_id, h.score) for h in search(store, q, exact, T0, record_access=False).hits]
        for q in queries
    )

    def raw_both(i: int) -> None:
        raw_sqlite.knn(raw, "chunks_vec", blobs[i], limit)
        raw_sqlite.fts(raw, matches[i], limit)

    out = latencies(
        {
            "raw": raw_both,
            "memlab": lambda i: search(store, queries[i], cfg, T0),
            "memlab_knn_exact": lambda i: search(store, queries[i], exact, T0),
        },
        len(queries),
        runs,
    )
    raw.close()
    out["knn_exact_first_search_s"] = round(load_s, 3)
    out["knn_exact_identical_hits"] = identical
    return out


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


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--chunks", type=int, default=100_000)
    ap.add_argument("--queries", type=int, default=100)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--vectors", action="store_true")
    ap.add_argument("--dims", type=int, default=384)
    args = ap.parse_args()
    work = Path(tempfile.mkdtemp(prefix="memlab-bench-"))
    try:
        out = run(work, args.chunks, args.queries, runs=args.runs, vectors=args.vectors,
                  dims=args.dims, model=True)  # fmt: skip
        print(json.dumps(out, indent=2))
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
