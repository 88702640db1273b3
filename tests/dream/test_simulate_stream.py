"""Fleet summaries in bounded memory (``dream.sim.stream``): number for number the
summary of the full simulation, in this process, on memlab's pool and on Dask."""

from __future__ import annotations

from typing import Any

import pytest

from memlab.config import DreamConfig
from memlab.dream.sim import Fleet, simulate
from memlab.dream.sim.figures import hourly
from memlab.dream.sim.fleet import BLOCK_USERS
from memlab.dream.sim.params import SimParams
from memlab.dream.sim.stream import simulate_summary

CASES = [
    (SimParams(users=300, days=10, max_concurrent=2, subagent_share=0.2, manual_share=0.05,
               model_failure_rate=0.05, no_reply_rate=0.1, latency_secs=600),
     DreamConfig(check_interval_secs=1800.0)),
    (SimParams(users=2 * BLOCK_USERS + 17, days=3, arrivals="weekly"), DreamConfig(min_hours=24)),
]  # fmt: skip


def same(a: dict[str, Any], b: dict[str, Any]) -> bool:
    """Equal keys in the same order and equal values (None where there is no data)."""
    return list(a) == list(b) and all(a[k] == b[k] for k in a)


@pytest.mark.parametrize(("params", "config"), CASES)
def test_streamed_summary_is_the_full_summary(params: SimParams, config: DreamConfig) -> None:
    full = simulate(params, config, workers=1)
    want = full.summary()
    assert want["runs"] > 0
    assert same(simulate_summary(params, config, workers=1).summary(), want)
    assert same(simulate_summary(params, config, workers=2).summary(), want)
    fleet = Fleet.generate(params)
    assert same(simulate_summary(params, config, fleet=fleet, workers=1).summary(), want)


def test_streamed_summary_runs_per_hour_is_the_full_count() -> None:
    params, config = CASES[0]
    full = simulate(params, config, workers=1)
    done = full.attempts[full.attempts["outcome"] == "completed"]
    want = hourly(done["acquire"].to_numpy(), full.start, full.days)
    streamed = simulate_summary(params, config, workers=1)
    assert want.sum() > 0
    assert streamed.runs_per_hour.tolist() == want.tolist()


def test_streamed_summary_on_a_dask_cluster_is_the_full_summary(dask_client: Any) -> None:
    params, config = CASES[1]
    want = simulate(params, config, workers=1).summary()
    got = simulate_summary(params, config, executor=dask_client.get_executor())
    assert same(got.summary(), want)
    there = simulate(params, config, executor=dask_client.get_executor())
    assert same(there.summary(), want)


@pytest.mark.slow
def test_streamed_summary_on_a_subprocess_scheduler_is_the_full_summary(
    dask_scheduler_address: str,
) -> None:
    from distributed import Client

    params, config = CASES[1]
    want = simulate(params, config, workers=1).summary()
    with Client(dask_scheduler_address, timeout=30) as client:
        got = simulate_summary(params, config, executor=client.get_executor())
    assert same(got.summary(), want)
