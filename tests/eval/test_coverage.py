"""Judged@k per run and the gap warning (``memlab.eval.compare.coverage``), by hand."""

from __future__ import annotations

import json
from pathlib import Path

from memlab.config import SearchConfig
from memlab.datasets import load_dataset
from memlab.eval.compare.coverage import gap_command, gap_warning, pooled_configs, run_coverage
from memlab.eval.runs.rankers import RANKERS
from tests.datasets.conftest import write_tiny


def test_judged_at_k_and_the_unjudged_share(tmp_path: Path) -> None:
    ds = load_dataset(write_tiny(tmp_path / "tiny"))  # q1, q2 judged; q3 abstention
    judged = {"q1": {"a": 2, "b": 0}, "q2": {"c": 1}, "q3": {"x": 0}}
    rankings = {"q1": ["a", "z", "b"], "q2": ["y"], "q3": ["u", "v"]}
    cov = run_coverage("new", ds, rankings, judged, k=4)
    # q1: 2 of 4 positions judged (0.5); q2: 0 of 4 (0.0); q3 (abstention) left out
    assert cov.judged_at_k == 0.25 and cov.queries == 2
    assert cov.hits == 4 and cov.unjudged == 2 / 4
    assert gap_warning(cov, tmp_path) is None  # half is not "mostly"
    cov = run_coverage("new", ds, {"q1": ["z", "y", "a"]}, judged, k=4)
    assert cov.unjudged == 2 / 3


def test_the_warning_names_the_command(tmp_path: Path) -> None:
    ds = load_dataset(write_tiny(tmp_path / "tiny"))
    cov = run_coverage("mine", ds, {"q1": ["z", "y"]}, {"q1": {"a": 2}}, k=10)
    warning = gap_warning(cov, tmp_path / "my data", "mine=tuned.yaml")
    assert warning is not None and "100% of its top-10 hits" in warning
    assert warning.endswith(gap_command(tmp_path / "my data", "mine=tuned.yaml", 10))
    assert f"memlab pool '{tmp_path}/my data' --runs mine=tuned.yaml --depth 10" in warning
    pooled = gap_warning(cov, tmp_path, "mine", pooled=True)
    assert pooled is not None and pooled.endswith(f"not all judged yet: memlab judge {tmp_path}")


def test_pooled_configs(tmp_path: Path) -> None:
    assert pooled_configs(tmp_path, 10) == []
    (tmp_path / "pool.json").write_text(json.dumps({"runs": ["fts", "mmr"], "depth": 10}))
    assert pooled_configs(tmp_path, 10) == [RANKERS[r](SearchConfig()) for r in ("fts", "mmr")]
    assert pooled_configs(tmp_path, 20) == []  # pooled shallower than asked
