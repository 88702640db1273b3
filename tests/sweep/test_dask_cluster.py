"""Sweeps on a ``dask scheduler`` and 2 ``dask worker`` processes started as
subprocesses (``tcp://127.0.0.1``): the CLI's results file equals one process's, and a
worker killed in the middle of a sweep costs nothing — Dask retries its chunk; no row
is lost or duplicated in the results file. Slow (a cluster start, a few thousand
configurations)."""

from __future__ import annotations

import os
import signal
import threading
import time
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

from memlab.cli import main
from memlab.eval.replay.prepared import Prepared
from memlab.sweep import Sweep, random_configs, read_results, run_points, split_queries
from tests.cli.test_sweep import GRID

pytestmark = pytest.mark.slow

SPACE: dict[str, Any] = {
    "half_life_days": {"loguniform": [0.5, 120]},
    "source_weights.session": {"uniform": [0.0, 2.0]},
    "mmr.enabled": [True, False],
    "mmr.lambda": {"uniform": [0.3, 1.0]},
    "strategy": ["grok", "rrf"],
}


def by_hash(table: pd.DataFrame) -> pd.DataFrame:
    return table.sort_values("config_hash").reset_index(drop=True)


def test_the_cli_sweeps_on_a_remote_scheduler_as_in_one_process(
    dask_scheduler_address: str, evalmini_path: Path, tmp_path: Path
) -> None:
    grid = tmp_path / "grid.yaml"
    grid.write_text(GRID)
    argv = ["sweep", str(evalmini_path), "--grid", str(grid), "--embedder", "hash", "--quiet"]
    argv += ["--work", str(tmp_path / "w")]
    assert main([*argv, "--out", str(tmp_path / "one")]) == 0
    remote = ["--out", str(tmp_path / "there"), "--scheduler", dask_scheduler_address]
    assert main([*argv, *remote]) == 0
    one, there = read_results(tmp_path / "one"), read_results(tmp_path / "there")
    assert len(one) == 24
    pd.testing.assert_frame_equal(by_hash(one), by_hash(there), check_exact=True)


def kill_a_worker_when_busy(client: Any, killed: list[int]) -> None:
    """SIGKILL one worker process as soon as it is scoring a chunk (its nanny restarts it)."""
    pids = client.run(os.getpid)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        busy = [w for w, tasks in client.processing().items() if tasks]
        if busy:
            time.sleep(0.3)  # well inside the chunk
            os.kill(pids[busy[0]], signal.SIGKILL)
            killed.append(pids[busy[0]])
            return
        time.sleep(0.05)


def test_a_worker_killed_mid_sweep_loses_and_duplicates_nothing(
    dask_scheduler_address: str, agent_memory: Prepared, tmp_path: Path
) -> None:
    from distributed import Client

    split = split_queries(agent_memory.dataset.queries, 0.3, seed=0)
    sweep = Sweep(agent_memory, measures=["nDCG@10", "R@5"], split=split)
    points = random_configs(SPACE, 3000, seed=1, base=sweep.base)
    one = run_points(sweep, points, progress=False, workers=1)
    with Client(dask_scheduler_address, timeout=30) as client:
        killed: list[int] = []
        killer = threading.Thread(target=kill_a_worker_when_busy, args=(client, killed))
        killer.start()
        there = run_points(sweep, points, out=tmp_path, progress=False, client=client)
        killer.join()
        assert killed and killed[0] not in client.run(os.getpid).values()  # it did die
        client.wait_for_workers(2, timeout=120)  # restarted by its nanny for the next test
    assert there.evaluated == len(points) and not there.interrupted
    pd.testing.assert_frame_equal(one.table, there.table, check_exact=True)
    saved = read_results(tmp_path)
    assert len(saved) == len(points) and saved["config_hash"].is_unique
