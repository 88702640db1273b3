"""The benchmarks run in CI's slow suite (at a small size).

``benchmarks/bench_engine.py`` measures FTS-only search (common, rare and mixed
query sets), hybrid search (vec0 and exact KNN) and ingest against raw SQLite on
the same data; ``python -m benchmarks`` runs it at full size for the table of
docs/benchmarks.md. Here it runs small so a change that breaks it (memlab's FTS statements, the
schema the raw script copies, the vector table) fails CI. Speed is not asserted:
the benchmark reports it.
"""

from __future__ import annotations

import ast
import math
from pathlib import Path

import pytest

from benchmarks import bench_engine, raw_sqlite

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"


def test_the_raw_anchor_imports_no_memlab_and_runs_memlabs_statements() -> None:
    """The anchor does the same work without borrowing memlab's code: its FTS statements
    and evergreen sources are copies, kept equal to memlab's here."""
    from memlab.retrieval.candidates import _FTS_SQL, _SUPPLEMENT_SQL
    from memlab.sources import EVERGREEN_SOURCES

    tree = ast.parse((BENCHMARKS / "raw_sqlite.py").read_text(encoding="utf-8"))
    imported = [a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names]
    imported += [n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)]
    assert not [m for m in imported if m.split(".")[0] == "memlab"]
    assert raw_sqlite.FTS_SQL == _FTS_SQL
    assert raw_sqlite.SUPPLEMENT_SQL == _SUPPLEMENT_SQL
    assert raw_sqlite.EVERGREEN_SOURCES == EVERGREEN_SOURCES


def test_query_sets_draw_rare_words_from_the_lowest_document_frequencies() -> None:
    terms = [(f"w{chr(97 + i // 26)}{chr(97 + i % 26)}", 1000 - i) for i in range(400)]
    df = dict(terms)
    sets = bench_engine.query_sets(terms, 20)
    words = {name: [w for q in qs for w in q.split()] for name, qs in sets.items()}
    assert all(df[w] <= 700 for w in words["rare"])  # the lowest quarter: df 601..700
    assert all(df[q.split()[0]] <= 700 for q in sets["mixed"])  # one rare word first
    assert bench_engine.median_df(sets["rare"], df) < bench_engine.median_df(sets["common"], df)


@pytest.mark.slow
def test_the_engine_benchmark_runs_and_reports_every_figure(tmp_path: Path) -> None:
    out = bench_engine.run(tmp_path, 402, 6, runs=2, vectors=True, dims=16)
    ingest, with_vectors = out["ingest"], out["ingest_with_vectors"]
    assert ingest["chunks"] == with_vectors["chunks"] >= 400  # both builds: the same chunks
    assert set(out["fts_search"]) == {"common", "rare", "mixed"}
    hybrid = out["hybrid_search"]
    assert hybrid["knn_exact_identical_hits"] is True
    figures = [
        ingest["wall_ratio"]["median"],
        ingest["cpu_ratio"]["median"],
        with_vectors["wall_ratio"]["median"],
        with_vectors["cpu_ratio"]["median"],
        *(
            f["median"]
            for s in [*out["fts_search"].values(), hybrid]
            for path in ("memlab", "memlab_knn_exact")
            if path in s
            for f in s[path]["ratio"].values()
        ),
    ]
    assert len(figures) == 4 + 3 * 4 + 2 * 4
    assert all(math.isfinite(f) and f > 0 for f in figures)


@pytest.mark.slow
def test_the_table_runs_quick_with_a_goal_and_a_verdict_per_row(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from benchmarks.__main__ import main

    main(["--quick", "--only", "engine"])
    lines = [x for x in capsys.readouterr().out.splitlines() if x.startswith("| ")][1:]  # no header
    assert len(lines) == 2 * (3 + 2) + 2  # per size: 3 query sets, 2 hybrid; 2 ingests
    assert all(x.rstrip(" |").rsplit("|", 1)[1].strip() in {"yes", "**no**"} for x in lines)
    assert all("≤" in x or "≥" in x for x in lines)


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
    sides = ("memlab_cpu_s", "warm_cpu_s", "anchor_cpu_s")
    assert all(math.isfinite(out[k]) and out[k] > 0 for k in sides)
    assert out["ratio"] == out["memlab_cpu_s"] / out["anchor_cpu_s"]
    assert out["warm_ratio"] == out["warm_cpu_s"] / out["anchor_cpu_s"]
    # where each side's CPU goes: every phase measured, memlab's adding up to its total
    anchor, ours = out["anchor_phase_cpu_s"], out["memlab_phase_cpu_s"]
    assert list(anchor) == [
        "start-up and imports", "reading the files", "indexing", "ranking and measuring"
    ]  # fmt: skip
    assert all(math.isfinite(v) and v > 0 for v in anchor.values())
    assert sum(anchor.values()) <= out["anchor_cpu_s"] * 1.05  # laps within the process
    api = {k: v for k, v in ours.items() if k != "start-up, imports and the rest"}
    assert all(v > 0 for v in api.values())  # the replay wrapper saw the replay
    assert math.isclose(sum(api.values()), out["memlab_api_cpu_s"], rel_tol=1e-9)
    assert math.isclose(sum(ours.values()), out["memlab_cpu_s"], rel_tol=1e-9)
