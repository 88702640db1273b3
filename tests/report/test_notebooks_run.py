"""Every notebook executes through papermill (real ``memlab`` kernel) with small parameters.

Each run goes through ``memlab report``, so the executed notebook, its HTML
copy and the files it writes are checked too.
"""

from __future__ import annotations

import csv
import json
from pathlib import Path

import nbformat
import pytest

from .conftest import Report, report


def outputs_text(executed: Path) -> str:
    nb = nbformat.read(executed, as_version=4)
    parts = []
    for cell in nb.cells:
        for out in cell.get("outputs", []):
            assert out.get("output_type") != "error", out
            parts.append(json.dumps(out.get("data", {})) + out.get("text", ""))
    return "\n".join(parts)


def assert_ok(run: Report, key: str) -> Path:
    assert run.code == 0, run.summary
    job = next(j for j in run.data["jobs"] if j["key"] == key)
    assert job["ok"], job["failure"]
    html = Path(job["html"])
    assert html.is_file() and "<img" in html.read_text()
    return Path(job["executed"]).parent


@pytest.mark.slow  # two notebooks on the whole shipped dataset: CI's slow suite
def test_tour_and_agent_config(tmp_path: Path) -> None:
    run = report(tmp_path, "--notebooks", "tour", "agent_config")
    folder = assert_ok(run, "tour/agent-memory")
    text = outputs_text(folder / "tour.ipynb")
    assert "the watcher reported it" in text  # sync-on-search, live
    assert "2026-03-15-db-upgrade-c0ffee12.md: indexed" in text
    assert "2026-03-15-db-upgrade-c0ffee12.md: deleted" in text
    assert "degraded=True" in text and "injected embedding failure" in text
    assert {"manifest.json", "memory_files.csv", "chunks.csv"} <= {p.name for p in folder.iterdir()}
    agents = tmp_path / "agent_config"
    assert "ABORTS" in outputs_text(agents / "agent_config.ipynb")
    with (agents / "failure_modes.csv").open() as fh:
        rows = {r["scenario"]: r for r in csv.DictReader(fh)}
    assert rows["persona instructions file missing"]["proceeds"] == "False"
    assert rows["role prompt file missing"]["proceeds"] == "True"


def test_compare_on_a_small_dataset(tiny_dataset: Path, tmp_path: Path) -> None:
    run = report(
        tmp_path,
        "--notebooks",
        "compare",
        "--datasets",
        str(tiny_dataset),
        "--param",
        "embedder=hash",
        "--param",
        "runs=[fts, hybrid, mmr, rrf]",
        "--param",
        "mmr_lambda=0.5",
        "--param",
        "traced_changes=1",
    )
    folder = assert_ok(run, "compare/tiny")
    for name in ("aggregated.csv", "perquery.csv", "manifest.json", "compare.csv"):
        assert (folder / name).is_file(), name
    manifest = json.loads((folder / "manifest.json").read_text())
    assert manifest["runs"]["mmr"]["config"]["mmr"]["lambda"] == 0.5
    assert set(manifest["runs"]) == {"fts", "hybrid", "mmr", "rrf"}
    params = json.loads((folder / "parameters.json").read_text())
    assert params["dataset"] == str(tiny_dataset.resolve())


def test_regression_writes_its_results_and_a_baseline(tiny_regression: Report) -> None:
    folder = assert_ok(tiny_regression, "regression/tiny")
    for name in ("aggregated.csv", "perquery.csv", "manifest.json"):
        assert (folder / name).is_file(), name
    baseline = json.loads((tiny_regression.out / "baseline.json").read_text())
    metrics = baseline["entries"]["regression/tiny"]["metrics"]
    assert set(metrics) == {"fts", "hybrid", "mmr"} and "nDCG@10" in metrics["hybrid"]
    assert "[SKIP] no baseline entry for regression/tiny" in tiny_regression.summary


def test_sweep_with_small_grids(tmp_path: Path) -> None:
    run = report(
        tmp_path,
        "--notebooks",
        "sweep",
        "--param",
        "half_lives=[7.0, 30.0, null]",
        "--param",
        "session_weights=[1.0]",
        "--param",
        "min_scores=[0.2, 0.35]",
        "--param",
        "lambdas=[0.5, 1.0]",
        "--param",
        "vector_weights=[0.5, 0.7]",
        "--param",
        "text_weights=[0.3]",
    )
    folder = assert_ok(run, "sweep/agent-memory")
    for name in ("half-life", "mmr", "fusion"):
        assert (folder / name / "sweep.csv").is_file(), name
    text = outputs_text(folder / "sweep.ipynb")
    assert "best by nDCG@10 on dev" in text and "holdout gain" in text


def test_dream_capacity_small_fleet(tmp_path: Path) -> None:
    run = report(
        tmp_path,
        "--notebooks",
        "dream-capacity",
        "--param",
        "users=200",
        "--param",
        "days=3",
        "--param",
        "min_hours_grid=[1, 4]",
        "--param",
        "min_sessions_grid=[1, 3]",
        "--param",
        "scale_users=[50, 200]",
    )
    folder = assert_ok(run, "dream_capacity")
    summary = json.loads((folder / "summary.json").read_text())
    assert summary["users"] == 200 and summary["runs"] > 0
    assert summary["concurrent_calls_max"] >= 1 and summary["freshness_hours_p95"] > 0
    assert (folder / "gate_sweep.csv").read_text().count("\n") == 5  # header + 4 combinations
    text = outputs_text(folder / "dream_capacity.ipynb")
    assert "closed form" in text
    assert "the planner&#x27;s table" in text or "the planner's table" in text
    assert "concurrent model calls, peak" in text and "memory-losing runs per day" in text
    assert "Pareto front" in text and "p95 freshness within 24 h" in text
    assert "fitted exponents" in text and "concurrent_calls_mean" in text


def test_judge_notebook_builds_its_demo_and_shows_the_widget(tmp_path: Path) -> None:
    run = report(tmp_path, "--notebooks", "judge")
    assert run.code == 0, run.summary
    (job,) = run.data["jobs"]
    assert job["ok"], job["failure"]
    executed = Path(job["executed"])
    text = outputs_text(executed)
    assert "application/vnd.jupyter.widget-view+json" in text  # the judging widget
    assert "Judging health" in text and "Judged@5 per run" in text
    assert (executed.parent / "demo-judging" / "pool.jsonl").is_file()
