"""Baseline checks: directions, tolerances, comparability, the file format."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from memlab.errors import ReportError
from memlab.report.baseline import (
    FAIL,
    NEW,
    OK,
    check_entry,
    check_outputs,
    judge,
    load_baseline,
    read_metrics,
    tolerance_for,
    write_baseline,
)

MANIFEST: dict[str, Any] = {
    "dataset": {"digest": "sha256:aaa", "level": "default", "name": "tiny"},
    "unit": "chunk",
    "index": {"config": {"tokenizer": "unicode61"}},
    "embedder": {"id": "hash-384", "dims": 384},
    "measures": ["nDCG@10", "NumQ"],
    "runs": {"fts": {"config_hash": "f1"}, "hybrid": {"config_hash": "h1"}},
}
METRICS = {
    "fts": {"nDCG@10": 0.50, "Redundancy": 0.20, "NumQ": 4.0},
    "hybrid": {"nDCG@10": 0.60, "Redundancy": 0.10, "NumQ": 4.0},
}


def entry(**changes: Any) -> dict[str, Any]:
    e = {"manifest": copy.deepcopy(MANIFEST), "metrics": copy.deepcopy(METRICS)}
    e.update(changes)
    return e


def statuses(result: Any) -> dict[tuple[str, str], str]:
    return {(c.run, c.measure): c.status for c in result.checks}


def test_directions() -> None:
    assert judge("nDCG@10", 0.49, 0.50, 0.005) == (FAIL, "regression: lower than the baseline")
    assert judge("nDCG@10", 0.51, 0.50, 0.005)[0] == OK
    assert "refresh it" in judge("nDCG@10", 0.51, 0.50, 0.005)[1]
    assert judge("nDCG@10", 0.497, 0.50, 0.005) == (OK, "")
    assert judge("Redundancy", 0.30, 0.20, 0.005) == (FAIL, "regression: higher than the baseline")
    assert judge("Redundancy", 0.10, 0.20, 0.005)[0] == OK
    assert judge("NumQ", 5.0, 4.0, 0.0) == (FAIL, "changed beyond tolerance")
    assert judge("Tokens", 90.0, 100.0, 2.0)[0] == FAIL


def test_tolerances_absolute_and_relative() -> None:
    tols = {"default": 0.01, "Tokens": {"abs": 1.0, "rel": 0.05}}
    assert tolerance_for("nDCG@10", tols, 0.5) == 0.01
    assert tolerance_for("Tokens", tols, 100.0) == 5.0
    assert tolerance_for("Tokens", tols, 10.0) == 1.0


def test_identical_results_pass() -> None:
    result = check_entry("regression/tiny", entry(), entry())
    assert result.ok and set(statuses(result).values()) == {OK}
    assert len(result.checks) == 6


def test_a_drop_is_a_regression_and_a_new_metric_is_reported() -> None:
    current = entry()
    current["metrics"]["hybrid"]["nDCG@10"] = 0.40
    current["metrics"]["hybrid"]["RR"] = 0.7
    result = check_entry("k", current, entry())
    got = statuses(result)
    assert got[("hybrid", "nDCG@10")] == FAIL and got[("hybrid", "RR")] == NEW
    assert not result.ok
    line = next(c for c in result.checks if c.status == FAIL).line()
    assert line.startswith("[FAIL] hybrid") and "nDCG@10" in line and "Δ -0.2000" in line


def test_missing_metric_fails() -> None:
    current = entry()
    del current["metrics"]["fts"]["Redundancy"]
    assert statuses(check_entry("k", current, entry()))[("fts", "Redundancy")] == FAIL


def test_incomparable_manifests_fail_every_metric() -> None:
    current = entry()
    current["manifest"]["dataset"]["digest"] = "sha256:bbb"
    current["manifest"]["embedder"]["id"] = "minilm"
    result = check_entry("k", current, entry())
    assert not result.ok
    assert any("dataset.digest" in item for item in result.incompatible)
    assert any("embedder.id" in item for item in result.incompatible)
    assert all(c.status == FAIL and c.note.startswith("incomparable") for c in result.checks)


def test_a_changed_run_configuration_is_incomparable() -> None:
    current = entry()
    current["manifest"]["runs"]["hybrid"]["config_hash"] = "h2"
    got = check_entry("k", current, entry())
    assert {c.status for c in got.checks if c.run == "hybrid"} == {FAIL}
    assert {c.status for c in got.checks if c.run == "fts"} == {OK}


def test_no_entry_is_not_a_failure() -> None:
    result = check_entry("k", entry(), None)
    assert result.missing_entry and result.ok


def test_write_then_load_keeps_other_entries(tmp_path: Path) -> None:
    path = tmp_path / "b.json"
    write_baseline(path, {"regression/a": entry()})
    write_baseline(path, {"regression/b": entry()})
    data = load_baseline(path)
    assert set(data["entries"]) == {"regression/a", "regression/b"}
    assert data["format"] == 1 and data["tolerances"]["default"] == 0.005
    assert json.loads(path.read_text())  # plain JSON, no NaN


def test_bad_baseline_files(tmp_path: Path) -> None:
    with pytest.raises(ReportError, match="not found; write one with"):
        load_baseline(tmp_path / "missing.json")
    bad = tmp_path / "bad.json"
    bad.write_text("{nope")
    with pytest.raises(ReportError, match="not valid JSON"):
        load_baseline(bad)
    bad.write_text('{"format": 9}')
    with pytest.raises(ReportError, match="expected a memlab baseline of format 1"):
        load_baseline(bad)


def test_check_from_files(tmp_path: Path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    (out / "manifest.json").write_text(json.dumps(MANIFEST))
    rows = ["run,measure,value,ci_low,ci_high,n"]
    rows += [f"{r},{m},{v},0,1,4" for r, ms in METRICS.items() for m, v in ms.items()]
    rows.append("fts,Stale,nan,nan,nan,0")
    (out / "aggregated.csv").write_text("\n".join(rows) + "\n")
    assert read_metrics(out) == METRICS  # NaN left out
    base = tmp_path / "b.json"
    write_baseline(base, {"regression/tiny": entry()})
    assert check_outputs(out, "regression/tiny", base).ok
    with pytest.raises(ReportError, match="wrote no aggregated results"):
        read_metrics(tmp_path)
