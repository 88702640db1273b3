"""Configuration differences on the real engine: a planted default change fails the
report and is named with both values; a setting a run never reads leaves it compared."""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from pathlib import Path

import pytest

from memlab.config import MmrConfig, SearchConfig, config_hash, to_dict
from memlab.eval.compare.experiment import Experiment, run_experiment, write_outputs
from memlab.eval.replay.prepared import Prepared, PrepareOptions, prepare_dataset
from memlab.eval.runs.rankers import named_configs
from memlab.report import baseline as bl
from memlab.report.config_diff import READ_THROUGH, run_changes
from memlab.report.jobs import JobResult, ReportResult
from memlab.report.run_report import write_summary

KEY = "regression/tiny"
RUNS = ["fts", "hybrid", "openclaw"]


@pytest.fixture(scope="module")
def prepared(tiny_dataset: Path, tmp_path_factory: pytest.TempPathFactory) -> Prepared:
    return prepare_dataset(
        tiny_dataset, PrepareOptions(embedder="hash", work_dir=tmp_path_factory.mktemp("w"))
    )


def outputs(exp: Experiment, folder: Path) -> Path:
    """The files the regression notebook writes (aggregated.csv, manifest.json, …)."""
    folder.mkdir(parents=True)
    write_outputs(exp, folder)
    return folder


def test_a_planted_default_change_fails_the_report_and_is_named(
    prepared: Prepared, tmp_path: Path
) -> None:
    configs = named_configs(RUNS)
    before = outputs(run_experiment(prepared, configs), tmp_path / "before")
    base = bl.write_baseline(tmp_path / "baseline.json", {KEY: bl.entry_from_outputs(before)})
    planted = {name: replace(c, candidate_multiplier=2) for name, c in configs.items()}
    after = outputs(run_experiment(prepared, planted), tmp_path / "after")

    check = bl.check_outputs(after, KEY, base)
    job = JobResult(KEY, "regression", after, after / "regression.ipynb", 1.0, check=check)
    result = ReportResult(tmp_path / "report", [job], base)
    write_summary(result)
    assert result.exit_code == 1

    text = (tmp_path / "report" / "summary.txt").read_text(encoding="utf-8")
    lines = text.splitlines()
    assert (
        "configuration differs from the baseline's in 3 of 3 runs (2 not compared; after an "
        "intended change, refresh the baseline):"
    ) in lines
    assert (
        "[FAIL] fts                    candidate_multiplier 3 → 2  (values not compared)" in lines
    )
    assert (
        "[FAIL] hybrid                 candidate_multiplier 3 → 2  (values not compared)" in lines
    )
    # openclaw's candidate limit is 4 × max_results: unaffected, compared, and passing
    assert (
        "[OK]   openclaw               candidate_multiplier 3 → 2  (not read by this run: its "
        "candidate limit 24 either way; values compared)"
    ) in lines
    assert text.count("candidate_multiplier") == 3  # once per run
    assert set(documented_example()) <= set(lines)  # docs/report.md shows these lines
    assert lines[-1].startswith("result: FAIL — ")
    assert "configuration differs in 2 run(s)" in lines[-1]

    data = json.loads((tmp_path / "report" / "summary.json").read_text(encoding="utf-8"))
    assert data["ok"] is False
    changes = {c["run"]: c for c in data["checks"][0]["config_changes"]}
    for run in RUNS:
        assert changes[run]["changes"] == [
            {"key": "candidate_multiplier", "baseline": 3, "value": 2}
        ]
    assert [changes[r]["affected"] for r in RUNS] == [True, True, False]
    openclaw = [m for m in data["checks"][0]["metrics"] if m["run"] == "openclaw"]
    assert {(m["status"], m["compared"]) for m in openclaw} == {("OK", True)}
    assert all(m["value"] == m["baseline"] for m in openclaw)  # not merely within tolerance


def documented_example() -> list[str]:
    doc = Path(__file__).resolve().parents[2] / "docs" / "report.md"
    block = doc.read_text(encoding="utf-8").split("```text\n", 1)[1].split("```", 1)[0]
    return block.splitlines()


@dataclass(frozen=True)
class Pair:
    """Two changes of one setting: one the quantity it is read through absorbs, one it
    does not."""

    base: SearchConfig
    inert: SearchConfig  # ``base`` with the setting changed, the quantity equal
    read_base: SearchConfig
    read: SearchConfig  # ``read_base`` with the setting changed, the quantity moved


G = SearchConfig(min_score=0.0, max_results=2)  # nothing filtered: every change shows
OFF = replace(G, temporal_decay=False)
PAIRS = {
    "candidate_multiplier": Pair(
        replace(G, strategy="openclaw"),
        replace(G, strategy="openclaw", candidate_multiplier=1),
        G,
        replace(G, candidate_multiplier=1),
    ),
    "half_life_days": Pair(
        OFF, replace(OFF, half_life_days=30.0), G, replace(G, half_life_days=0.01)
    ),
    "recency_decay": Pair(G, replace(G, recency_decay=0.5), OFF, replace(OFF, recency_decay=0.01)),
    "temporal_decay": Pair(
        replace(G, half_life_days=None, recency_decay=None),
        replace(OFF, half_life_days=None, recency_decay=None),
        G,
        OFF,
    ),
    "mmr.lambda": Pair(
        replace(G, mmr=MmrConfig(False, 0.99)),
        replace(G, mmr=MmrConfig(False, 0.0)),
        replace(G, mmr=MmrConfig(True, 0.99)),
        replace(G, mmr=MmrConfig(True, 0.0)),
    ),
}


def entry(config: SearchConfig) -> dict[str, object]:
    return {"config": to_dict(config), "config_hash": config_hash(config)}


def test_what_a_run_does_not_read_leaves_its_results_equal(prepared: Prepared) -> None:
    """Every rule of READ_THROUGH on the engine: the change it calls inert gives the same
    hits and scores; the change it calls read gives others."""
    assert set(PAIRS) == set(READ_THROUGH)
    runs = {
        f"{key}/{field}": getattr(pair, field)
        for key, pair in PAIRS.items()
        for field in ("base", "inert", "read_base", "read")
    }
    exp = run_experiment(prepared, runs, measures=["nDCG@10"])
    got = {name: (r.rankings, r.scores) for name, r in exp.runs.items()}
    for key, pair in PAIRS.items():
        inert = run_changes(key, entry(pair.base), entry(pair.inert))
        assert inert is not None and inert.keys == [key] and not inert.affected, key
        assert got[f"{key}/inert"] == got[f"{key}/base"], key
        read = run_changes(key, entry(pair.read_base), entry(pair.read))
        assert read is not None and read.keys == [key] and read.affected, key
        assert got[f"{key}/read"] != got[f"{key}/read_base"], key
