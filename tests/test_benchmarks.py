"""The engine benchmark runs in CI's slow suite (at a small size).

``benchmarks/bench_engine.py`` measures FTS-only and hybrid search p50/p95 and
ingest against raw SQLite on the same data; ``python -m benchmarks`` runs it at
full size for the table of docs/benchmarks.md. Here it runs small so a change that breaks it
(memlab's FTS statements, the schema it inserts into raw, the vector table) fails
CI. Speed is not asserted: the benchmark reports it.
"""

from __future__ import annotations

import argparse
import ast
import math
from pathlib import Path

import pytest

from benchmarks import bench_engine


@pytest.mark.slow
def test_the_engine_benchmark_runs_and_reports_every_figure(tmp_path: Path) -> None:
    args = argparse.Namespace(chunks=402, queries=12, vectors=True, dims=16)
    out = bench_engine.run(tmp_path, args, model=False)
    ingest, with_vectors = out["ingest"], out["ingest_with_vectors"]
    assert isinstance(ingest, dict) and isinstance(with_vectors, dict)
    assert ingest["chunks"] == with_vectors["chunks"] >= 400  # both builds: the same chunks
    fts, hybrid = out["fts_search"], out["hybrid_search"]
    assert isinstance(fts, dict) and isinstance(hybrid, dict)
    figures = [
        ingest["ratio_memlab_over_raw"],
        with_vectors["ratio_memlab_over_raw"],
        fts["p50_ratio"],
        fts["p95_ratio"],
        hybrid["p50_ratio_over_raw_sum"],
        hybrid["p95_ratio_over_raw_sum"],
        hybrid["knn_exact_p50_ratio_over_raw_sum"],
        hybrid["knn_exact_p95_ratio_over_raw_sum"],
    ]
    assert all(math.isfinite(f) and f > 0 for f in figures)


@pytest.mark.slow
def test_the_protocol_benchmark_agrees_with_its_plain_script() -> None:
    """``bench_protocol`` at a small size: the plain script (no memlab) and ``memlab eval
    --protocol beir`` print the same nDCG@10 and R@100, so the CPU ratio compares the
    same work."""
    from benchmarks import bench_protocol

    out = bench_protocol.measure(400, 40, repeat=1)
    assert out["same_numbers"] is True and out["plain"]["NumQ"] == 40
    assert math.isfinite(out["ratio"]) and out["ratio"] > 0


@pytest.mark.slow
def test_the_eval_benchmark_measures_both_sides_and_the_anchor_imports_no_memlab() -> None:
    """``bench_beir`` at a small size: both sides' CPU and the ratio, and the anchor's
    measures over every judged query; the anchor script imports nothing from memlab."""
    from benchmarks import bench_beir

    tree = ast.parse(bench_beir.ANCHOR.read_text(encoding="utf-8"))
    imported = {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    imported |= {n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
    assert "sqlite3" in imported and not any(m.split(".")[0] == "memlab" for m in imported)
    out = bench_beir.measure(300, 20, repeat=1)
    assert out["anchor_measures"]["NumQ"] == 20
    assert 0 < out["anchor_measures"]["nDCG@10"] <= 1
    assert all(math.isfinite(out[k]) and out[k] > 0 for k in ("memlab_cpu_s", "anchor_cpu_s"))
    assert out["ratio"] == out["memlab_cpu_s"] / out["anchor_cpu_s"]
