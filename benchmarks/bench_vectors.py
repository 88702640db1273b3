"""Vector candidates for a whole query set: one matrix product against vec0 per query.

An index of ``--chunks`` chunks with random unit vectors (384 dimensions) and
``--queries`` query vectors. ``vec0``: ``memlab.store.vectors.knn`` for each query
(what live search and a per-query evaluation do); ``batch``: one
``VectorMatrix.knn_many`` for all of them (evaluation at one moment), loading the
matrix included. Both return the k = 18 nearest; the results are compared, id
for id and distance for distance.

    python benchmarks/bench_vectors.py [--chunks 20000] [--queries 300] [--json]
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path

import numpy as np

from memlab.retrieval.vector_batch import VectorMatrix
from memlab.store import vectors
from memlab.store.store import MemoryStore

K = 18


def measure(chunks: int, queries: int, dims: int = 384) -> dict[str, object]:
    rng = np.random.default_rng(4)
    with tempfile.TemporaryDirectory(prefix="bench-vectors-") as tmp:
        root = Path(tmp) / "memory"
        (root / "ws-0000aaaa").mkdir(parents=True)
        (root / "ws-0000aaaa" / "MEMORY.md").write_text("# Project\n")
        store = MemoryStore.open(root, "ws-0000aaaa", index_path=Path(tmp) / "i.sqlite")
        vectors.ensure_table(store.index, f"random-{dims}", dims)
        ids = [f"c{i:06d}" for i in range(chunks)]
        for start in range(0, chunks, 5000):
            m = rng.normal(size=(min(5000, chunks - start), dims)).astype(np.float32)
            m /= np.linalg.norm(m, axis=1, keepdims=True)
            vectors.put_vectors(store.index, [(c, "h") for c in ids[start : start + 5000]], m)
        q = rng.normal(size=(queries, dims)).astype(np.float32)
        q /= np.linalg.norm(q, axis=1, keepdims=True)
        start = time.perf_counter()
        one_by_one = [vectors.knn(store.index, v, K) for v in q]
        vec0_s = time.perf_counter() - start
        start = time.perf_counter()
        matrix = VectorMatrix(store.index)
        matrix.update(ids)
        loaded = time.perf_counter()
        together = matrix.knn_many(q, K)
        batch_s = time.perf_counter() - start
        store.close()
    return {
        "chunks": chunks,
        "queries": queries,
        "vec0_s": round(vec0_s, 3),
        "batch_s": round(batch_s, 3),
        "batch_load_s": round(loaded - (start), 3),
        "ratio_batch_over_vec0": round(batch_s / vec0_s, 3),
        "identical": together == one_by_one,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--chunks", type=int, default=20_000)
    ap.add_argument("--queries", type=int, default=300)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    out = measure(args.chunks, args.queries)
    print(json.dumps(out) if args.json else json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
