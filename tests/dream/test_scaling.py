"""The scaling table: figures at several fleet sizes and their fitted exponents."""

from __future__ import annotations

import math

import pytest

from memlab.config import DreamConfig
from memlab.dream.sim.params import SimParams
from memlab.dream.sim.scaling import FIGURES, exponent, exponents, scaling
from memlab.dream.sim.stream import simulate_summary


def test_the_exponent_of_a_power_law_is_its_power() -> None:
    assert exponent([10, 100, 1000], [3, 30, 300]) == pytest.approx(1.0)
    assert exponent([4, 16, 64], [2, 4, 8]) == pytest.approx(0.5)
    assert exponent([4, 16], [0, 0]) is None and exponent([5], [1]) is None


def test_each_row_is_the_fleet_of_that_size() -> None:
    params, config = SimParams(users=1, days=2, seed=4), DreamConfig()
    table = scaling(params, config, [20, 80], workers=1)
    assert table["users"].tolist() == [20, 80]
    alone = simulate_summary(SimParams(users=80, days=2, seed=4), config, workers=1).summary()
    for figure in FIGURES:
        assert table[figure].iloc[1] == pytest.approx(alone[figure]), figure
    fits = exponents(table)
    # two points: the slope through them
    calls = table["calls_per_day"].tolist()
    assert fits["calls_per_day"] == pytest.approx(math.log(calls[1] / calls[0]) / math.log(4))


def test_the_scale_benchmark_runs_and_reports_time_and_memory(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``benchmarks/bench_dream_scale.py`` at two tiny sizes (its 10^6-user run is the soak)."""
    import json
    import sys

    from benchmarks import bench_dream_scale

    argv = ["bench_dream_scale", "--sizes", "20,40", "--days", "1", "--workers", "1", "--json"]
    monkeypatch.setattr(sys, "argv", argv)
    bench_dream_scale.main()
    out = json.loads(capsys.readouterr().out)
    assert [r["users"] for r in out["rows"]] == [20, 40]
    assert all(r["seconds"] >= 0 and r["peak_rss_mb"] > 0 for r in out["rows"])
    assert set(out["exponents"]) == set(FIGURES)
