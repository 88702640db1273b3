"""The planner's table on traces whose numbers are computed by hand: concurrent calls,
calls per day and per hour, freshness and the logs never consolidated."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from memlab.cli import main
from memlab.config import DreamConfig
from memlab.dream.sim import load_events, simulate
from memlab.dream.sim.params import SimParams
from memlab.dream.sim.planner import (
    call_seconds,
    flight_levels,
    freshness_histogram,
    hist_max,
    hist_quantile,
    horizon_seconds,
    in_flight,
)

T = 1_767_571_200  # a whole second


def test_calls_in_flight_at_each_second() -> None:
    # calls [0.5, 2.0), [1, 3.2) and [10, 12) after the start; a horizon of 11 s
    first, stop = call_seconds([T + 0.5, T + 1, T + 10], [T + 2.0, T + 3.2, T + 12], T)
    assert first.tolist() == [1, 1, 10] and stop.tolist() == [2, 4, 12]
    assert in_flight(first, stop, 11).tolist() == [0, 2, 1, 1, 0, 0, 0, 0, 0, 0, 1]
    assert flight_levels(first, stop, 11).tolist() == [7, 3, 1]  # seconds at 0, 1, 2 calls


@pytest.mark.parametrize("seed", range(8))
def test_flight_levels_count_the_seconds_of_each_level(seed: int) -> None:
    """The compiled histogram of calls in flight equals the one counted
    second by second (calls before, across and after the horizon, empty and instant)."""
    rng = np.random.default_rng(seed)
    seconds = int(rng.integers(1, 400))
    first = rng.integers(-50, seconds + 50, int(rng.integers(0, 60)))
    stop = first + rng.integers(0, 80, len(first))
    expected = np.bincount(in_flight(first, stop, seconds))
    np.testing.assert_array_equal(flight_levels(first, stop, seconds), expected)


def test_histogram_quantiles_are_values_that_occurred() -> None:
    counts = np.bincount([0, 0, 0, 1, 5])  # five observations
    assert hist_quantile(counts, 0.5) == 0  # 3 of 5 are <= 0
    assert hist_quantile(counts, 0.6) == 0 and hist_quantile(counts, 0.61) == 1
    assert hist_quantile(counts, 0.95) == 5 and hist_max(counts) == 5
    assert hist_quantile(np.zeros(3, dtype=np.int64), 0.5) is None and hist_max([]) is None


def test_freshness_in_minutes_rounded_up_never_read_left_out() -> None:
    hist = freshness_histogram([0.0, 0.0, 100.0, 5.0], [60.0, 61.0, np.inf, 5.0])
    assert hist.tolist() == [1, 1, 1]  # 0 min (read at once), 1 min, 2 min (61 s)


def test_a_horizon_of_seconds_over_a_day_is_those_seconds() -> None:
    assert horizon_seconds(14_430 / 86_400) == 14_430 and horizon_seconds(14.0) == 14 * 86_400


def _events(tmp_path: Path) -> Path:
    """Two users, five instant sessions each, an hour apart; the second user 30 s later."""
    rows = ["user,start,end"]
    for user, shift in (("a", 0), ("b", 30)):
        rows += [f"{user},{T + shift + h * 3600},{T + shift + h * 3600}" for h in range(5)]
    path = tmp_path / "events.csv"
    path.write_text("\n".join(rows) + "\n")
    return path


# Per user, with min_sessions 1, no time gate and a 60 s model call: the end at 0 h finds
# no older log; at 1 h the log of 0 h is read (call 1 h → 1 h + 60 s, the lock's time);
# at 2 h no log is newer than the lock (the 1 h log is 60 s older: stranded); at 3 h the
# 2 h log is read (call 3 h → 3 h + 60 s); at 4 h the 3 h log is older than the lock.
# So 4 calls, 4 logs read each 61 minutes after their session's end, 6 of 10 never read.
# In flight: user a at 3600–3659 s and 10800–10859 s, user b 30 s later: 60 s with two
# calls, 120 s with one, the other 14,250 of the 14,430 s with none.
HAND = {
    "attempts": 4,
    "runs": 4,
    "concurrent_calls_p50": 0,
    "concurrent_calls_p95": 0,
    "concurrent_calls_p99": 1,  # 14,250 / 14,430 = 98.75 % of seconds have none
    "concurrent_calls_max": 2,
    "freshness_hours_p50": 61 / 60,
    "freshness_hours_p95": 61 / 60,
    "freshness_hours_max": 61 / 60,
    "logs_consolidated": 4,
    "logs_never_consolidated_share": 0.6,
    "fleet_calls_per_hour_mean": 4 / 5,  # five hours (4 h 0 min 30 s, rounded up)
    "fleet_calls_per_hour_p95": 2,
    "fleet_calls_per_hour_peak": 2,
}
PARAMS = SimParams(latency_secs=60.0, latency_sigma=0.0)
CONFIG = DreamConfig(min_hours=0, min_sessions=1)


def test_the_planner_table_of_a_hand_computed_trace(tmp_path: Path) -> None:
    fleet = load_events(_events(tmp_path), PARAMS)
    s = simulate(PARAMS, CONFIG, fleet=fleet).summary()
    days = 14_430 / 86_400
    assert s["days"] == pytest.approx(days)
    for key, want in HAND.items():
        assert s[key] == pytest.approx(want), key
    assert s["calls_per_day"] == pytest.approx(4 / days)
    assert s["input_tokens_per_day"] == pytest.approx(s["input_tokens"] / days)
    assert s["cost_per_day"] == pytest.approx(s["cost"] / days)
    # per user: two users, so the mean and the median are half the fleet's, the max more
    half = (s["input_tokens"] + s["output_tokens"]) / 2 / days
    for stat in ("p50", "mean"):
        assert s[f"user_tokens_per_day_{stat}"] == pytest.approx(half), stat
        assert s[f"user_cost_per_day_{stat}"] == pytest.approx(s["cost_per_day"] / 2), stat
    assert (
        s["user_tokens_per_day_max"] >= half and s["user_cost_per_day_max"] >= s["cost_per_day"] / 2
    )


def test_the_cli_prints_the_planner_table_as_json(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["dream", "simulate", "--events", str(_events(tmp_path)), "--set", "min_hours=0",
            "--set", "min_sessions=1", "--sim", "latency_secs=60",
            "--sim", "latency_sigma=0"]  # fmt: skip
    assert main([*args, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    for key, want in HAND.items():
        assert data[key] == pytest.approx(want), key
    assert main(args) == 0
    text = capsys.readouterr().out
    peak = next(line for line in text.splitlines() if "concurrent model calls, peak" in line)
    assert peak.split()[-2:] == ["2", "calls"]
    assert "a call lasts from its trigger to its return" in text


def test_the_fleets_peak_hour_follows_the_arrival_profile() -> None:
    """Under the weekly profile the busiest hour of model calls is a working hour on a
    weekday; under flat arrivals the calls spread evenly over the day."""
    from memlab.dream.sim.figures import hourly
    from memlab.dream.sim.params import DIURNAL, WEEKDAYS

    shares = {}
    for arrivals in ("weekly", "poisson"):
        params = SimParams(users=300, days=14, seed=3, arrivals=arrivals)
        result = simulate(params, DreamConfig())
        per_hour = hourly(result.attempts["t"].to_numpy(), result.start, result.days)
        busiest = int(np.argmax(per_hour))  # hours after the start, a Monday 00:00 UTC
        shares[arrivals] = np.bincount(np.arange(len(per_hour)) % 24, per_hour) / per_hour.sum()
        if arrivals == "weekly":
            assert DIURNAL[busiest % 24] >= 1.5 and WEEKDAYS[busiest // 24 % 7] >= 1.0
    assert shares["weekly"].max() > 1.5 * shares["poisson"].max()
    assert shares["poisson"].max() < 1.5 / 24


@pytest.mark.parametrize("seed", range(6))
def test_freshness_histogram_is_the_bincount_of_minutes(seed: int) -> None:
    """The compiled histogram equals numpy's: minutes rounded up, negative ones at 0,
    logs never read (inf) left out."""
    rng = np.random.default_rng(seed)
    n = int(rng.integers(0, 400))
    end = rng.uniform(0, 1e6, n)
    read = end + rng.uniform(-300, 90_000, n)
    read[rng.random(n) < 0.2] = np.inf
    read[: min(n, 3)] = end[: min(n, 3)] + np.array([0.0, 60.0, 60.000001])[: min(n, 3)]
    done = np.isfinite(read)
    minutes = np.ceil((read[done] - end[done]) / 60.0)
    expected = np.bincount(np.maximum(minutes, 0).astype(np.int64))
    got = freshness_histogram(end, read)
    assert got.dtype == np.int64
    np.testing.assert_array_equal(got, expected)
