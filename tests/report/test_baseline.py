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


# ------------------------------------------------- diagnosis: configuration, subsets


def configured(**changes: Any) -> dict[str, Any]:
    """An entry whose runs record their configuration: ``fts`` (grok) and ``openclaw``,
    ``changes`` applied to every run's configuration (hashes recomputed)."""
    from memlab.config import SearchConfig, config_hash, to_dict, with_overrides

    runs = {"fts": SearchConfig(vectors=False), "openclaw": SearchConfig(strategy="openclaw")}
    e = entry()
    e["metrics"] = {"fts": METRICS["fts"], "openclaw": METRICS["hybrid"]}
    e["manifest"]["runs"] = {}
    for name, cfg in runs.items():
        cfg = with_overrides(cfg, changes)
        e["manifest"]["runs"][name] = {"config": to_dict(cfg), "config_hash": config_hash(cfg)}
    return copy.deepcopy(e)


def test_a_changed_default_names_the_key_and_marks_only_the_runs_it_reaches() -> None:
    result = check_entry("k", configured(candidate_multiplier=2), configured())
    assert not result.ok
    by_run = {c.run: c for c in result.config_changes}
    assert set(by_run) == {"fts", "openclaw"}  # both record the new value …
    assert by_run["fts"].text() == "candidate_multiplier 3 → 2"
    assert by_run["fts"].affected
    assert by_run["fts"].to_json()["changes"] == [
        {"key": "candidate_multiplier", "baseline": 3, "value": 2}
    ]
    # … but openclaw's candidate limit is 4 × max_results whatever the multiplier
    assert not by_run["openclaw"].affected
    assert by_run["openclaw"].inert == "not read by this run: its candidate limit 24 either way"
    fts = [c for c in result.checks if c.run == "fts"]
    assert {(c.status, c.compared) for c in fts} == {(FAIL, False)}
    assert fts[0].note == "incomparable: the configuration differs (candidate_multiplier)"
    claw = [c for c in result.checks if c.run == "openclaw"]
    assert {(c.status, c.compared) for c in claw} == {(OK, True)}


def test_an_inert_change_alone_passes_and_a_read_one_fails() -> None:
    # MMR off: λ is never read; a half-life with temporal decay off neither
    lam = check_entry("k", configured(**{"mmr.lambda": 0.5}), configured())
    assert lam.ok and all(not c.affected for c in lam.config_changes)
    assert lam.config_changes[0].inert == "not read by this run: its MMR λ off either way"
    decay = check_entry(
        "k",
        configured(temporal_decay=False, half_life_days=30.0),
        configured(temporal_decay=False),
    )
    assert decay.ok and decay.config_changes[0].text() == "half_life_days 7.0 → 30.0"
    # the effective half-life changes: every run is affected
    read = check_entry("k", configured(half_life_days=30.0), configured())
    assert not read.ok and all(c.affected for c in read.config_changes)


def test_several_changes_and_a_changed_memory_are_named() -> None:
    current = configured(min_score=0.3, **{"mmr.enabled": True})
    current["manifest"]["runs"]["fts"]["memory"] = {"dream": {"min_hours": 12.0}}
    base = configured()
    base["manifest"]["runs"]["fts"]["memory"] = {"dream": {"min_hours": 24.0}}
    by_run = {c.run: c for c in check_entry("k", current, base).config_changes}
    assert by_run["fts"].text() == (
        "min_score 0.35 → 0.3; mmr.enabled false → true; memory.dream.min_hours 24.0 → 12.0"
    )
    # the memory alone (the configuration hash covers only the search settings)
    only = configured()
    only["manifest"]["runs"]["fts"]["memory"] = {"index": {"tokenizer": "porter"}}
    got = check_entry("k", only, configured())
    assert [c.text() for c in got.config_changes] == ["memory.index.tokenizer (not set) → porter"]
    assert got.config_changes[0].to_json()["changes"] == [
        {"key": "memory.index.tokenizer", "value": "porter"}
    ]
    assert not got.ok


def test_a_hash_that_differs_with_equal_settings_is_still_incomparable() -> None:
    current = configured()
    current["manifest"]["runs"]["fts"]["config_hash"] = "0" * 16
    (change,) = check_entry("k", current, configured()).config_changes
    assert change.affected and change.text().startswith("config_hash ")
    assert "no recorded setting differs" in change.text()


def test_a_better_value_is_no_reason_to_refresh_while_the_run_regressed() -> None:
    current = entry()
    current["metrics"]["hybrid"]["nDCG@10"] = 0.50  # regressed …
    current["metrics"]["hybrid"]["Redundancy"] = 0.05  # … and less redundant
    current["metrics"]["fts"]["Redundancy"] = 0.10  # another run only better
    result = check_entry("k", current, entry())
    better = {c.run: c for c in result.checks if c.measure == "Redundancy"}
    assert better["hybrid"].status == OK
    assert "refresh it with" not in better["hybrid"].note
    assert better["hybrid"].note == (
        "better than the baseline, but this run failed on nDCG@10: do not refresh the baseline"
    )
    assert "refresh it only once the failures of the other runs" in better["fts"].note
    # nothing failed: the invitation stands
    alone = entry()
    alone["metrics"]["fts"]["Redundancy"] = 0.10
    note = statuses_notes(check_entry("k", alone, entry()))[("fts", "Redundancy")]
    assert note == "better than the baseline; refresh it with --write-baseline"


def statuses_notes(result: Any) -> dict[tuple[str, str], str]:
    return {(c.run, c.measure): c.note for c in result.checks}


def test_a_subset_of_the_runs_lists_the_others_once() -> None:
    base = entry()
    for run in ("rrf", "openclaw"):
        base["metrics"][run] = dict(METRICS["hybrid"])
    current = entry()
    current["metrics"]["hybrid"]["nDCG@10"] = 0.40  # the one real regression
    current["metrics"]["mine"] = {"nDCG@10": 0.3}
    result = check_entry("k", current, base)
    assert result.not_run == ["rrf", "openclaw"] and result.baseline_runs == 4
    assert result.new_runs == ["mine"]
    assert {c.run for c in result.checks} == {"fts", "hybrid", "mine"}  # no line per value
    assert [(c.run, c.measure) for c in result.failures] == [("hybrid", "nDCG@10")]
