"""Sweeps on a real Dask cluster (a LocalCluster of 2 worker processes): the work is
shipped once per worker, chunks stream back into the resumable results file, and
ids, scores and measures are identical to one process."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pandas as pd
import pytest

from memlab.config import SearchConfig
from memlab.eval.replay.prepared import Prepared
from memlab.sweep import Sweep, grid, read_results, run_points, run_sweep, split_queries

SPACE: dict[str, Any] = {
    "half_life_days": [1, 30, None],
    "source_weights.session": [0.5, 1.0],
    "mmr.enabled": [True, False],
    "mmr.lambda": [0.5, 1.0],
    "strategy": ["grok", "rrf"],
}


@pytest.fixture(scope="module")
def sweep(agent_memory: Prepared) -> Sweep:
    split = split_queries(agent_memory.dataset.queries, 0.3, seed=0)
    measures = ["nDCG@10", "R@5", "Redundancy"]
    return Sweep(agent_memory, measures=measures, split=split, base=SearchConfig(min_score=0.0))


def by_hash(folder: Path) -> pd.DataFrame:
    table = read_results(folder)
    return table.sort_values("config_hash").reset_index(drop=True)


def test_a_sweep_on_dask_equals_one_process(sweep: Sweep, dask_client: Any, tmp_path: Path) -> None:
    one = run_sweep(sweep, SPACE, out=tmp_path / "one", progress=False, workers=1)
    there = run_sweep(sweep, SPACE, out=tmp_path / "dask", progress=False, client=dask_client)
    assert there.evaluated == len(one.table) == 48
    pd.testing.assert_frame_equal(one.table, there.table, check_exact=True)
    pd.testing.assert_frame_equal(
        by_hash(tmp_path / "one"), by_hash(tmp_path / "dask"), check_exact=True
    )


def test_a_sweep_on_dask_resumes_from_the_results_file(
    sweep: Sweep, dask_client: Any, tmp_path: Path
) -> None:
    points = grid(SPACE, sweep.base)
    run_points(sweep, points[:20], out=tmp_path, progress=False, workers=1)
    rest = run_points(sweep, points, out=tmp_path, progress=False, client=dask_client)
    assert (rest.evaluated, rest.resumed) == (28, 20)
    one = run_points(sweep, points, progress=False, workers=1)
    pd.testing.assert_frame_equal(one.table, rest.table, check_exact=True)
    saved = read_results(tmp_path)
    assert len(saved) == 48 and saved["config_hash"].is_unique
