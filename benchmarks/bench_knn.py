"""Vector KNN of one query: vec0 (``memlab.store.vectors.knn``) beside the exact numpy
KNN (``memlab.store.exact_knn.knn``, ``search.knn = "exact"``) on the same index.

An index of random unit vectors (384 dimensions) with planted exact copies; k = 18
(the default candidate limit). Each run times every query once with each path
(alternating which goes first) and takes the per-query median; the table gives the
median over runs and the spread (lowest–highest run). The exact path's first call
reads the vectors into memory and is reported apart. Every result is compared with
vec0's, id for id and distance for distance.

    python benchmarks/bench_knn.py [--sizes 10000,100000] [--queries 40] [--runs 5] [--json]
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from pathlib import Path

import numpy as np

from memlab.store import exact_knn, vectors
from memlab.store.store import MemoryStore

K = 18
DIMS = 384


def unit(rng: np.random.Generator, n: int) -> np.ndarray:
    m = rng.normal(size=(n, DIMS)).astype(np.float32)
    return m / np.linalg.norm(m, axis=1, keepdims=True)


def measure(chunks: int, queries: int, runs: int) -> dict[str, object]:
    rng = np.random.default_rng(30)
    with tempfile.TemporaryDirectory(prefix="bench-knn-") as tmp:
        root = Path(tmp) / "memory"
        (root / "ws-0000aaaa").mkdir(parents=True)
        (root / "ws-0000aaaa" / "MEMORY.md").write_text("# Project\n")
        store = MemoryStore.open(root, "ws-0000aaaa", index_path=Path(tmp) / "i.sqlite")
        index = store.index
        vectors.ensure_table(index, f"random-{DIMS}", DIMS)
        ids = [f"c{i:07d}" for i in rng.permutation(chunks)]
        copies = unit(rng, 20)
        for start in range(0, chunks, 5000):
            part = ids[start : start + 5000]
            m = unit(rng, len(part))
            m[::50] = copies[rng.integers(0, len(copies), len(m[::50]))]  # 2 % exact copies
            vectors.put_vectors(index, [(c, "h") for c in part], m)
        q = np.concatenate([unit(rng, queries - 5), copies[:5]])
        start = time.perf_counter()
        exact_knn.knn(index, q[0], K)
        load_s = time.perf_counter() - start
        vec0_runs, exact_runs, same = [], [], True
        for _ in range(runs):
            a, b = [], []
            for i, v in enumerate(q):
                for which in ("vec0", "exact") if i % 2 == 0 else ("exact", "vec0"):
                    t = time.perf_counter()
                    got = (
                        vectors.knn(index, v, K) if which == "vec0" else exact_knn.knn(index, v, K)
                    )
                    (a if which == "vec0" else b).append(time.perf_counter() - t)
                    if which == "vec0":
                        want = got
                    else:
                        found = got
                same = same and found == want
            vec0_runs.append(statistics.median(a))
            exact_runs.append(statistics.median(b))
        store.close()
    vec0_ms, exact_ms = 1000 * statistics.median(vec0_runs), 1000 * statistics.median(exact_runs)
    return {
        "chunks": chunks,
        "queries": queries,
        "runs": runs,
        "vec0_p50_ms": round(vec0_ms, 3),
        "vec0_spread_ms": [round(1000 * min(vec0_runs), 3), round(1000 * max(vec0_runs), 3)],
        "exact_p50_ms": round(exact_ms, 3),
        "exact_spread_ms": [round(1000 * min(exact_runs), 3), round(1000 * max(exact_runs), 3)],
        "exact_over_vec0": round(exact_ms / vec0_ms, 3),
        "exact_first_call_s": round(load_s, 3),
        "identical": same,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="10000,100000")
    parser.add_argument("--queries", type=int, default=40)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rows = [measure(int(n), args.queries, args.runs) for n in args.sizes.split(",")]
    if args.json:
        print(json.dumps(rows, indent=2))
        return
    print(
        f"{'vectors':>8}  {'vec0 p50':>14}  {'exact p50':>14}  {'exact/vec0':>10}  first call  same"
    )
    for r in rows:
        v, e = r["vec0_spread_ms"], r["exact_spread_ms"]
        print(
            f"{r['chunks']:>8}  {r['vec0_p50_ms']:>8.2f} ms  {r['exact_p50_ms']:>8.2f} ms  "
            f"{r['exact_over_vec0']:>9.2f}×  {r['exact_first_call_s']:>8.2f} s  {r['identical']}"
            f"   (spread vec0 {v[0]:.2f}–{v[1]:.2f}, exact {e[0]:.2f}–{e[1]:.2f} ms)"
        )


if __name__ == "__main__":
    main()
