"""Fitting the simulator to a session log: the parameters of a generated log come back,
and the fitted fleet reproduces the log's runs per day."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from memlab.config import DreamConfig
from memlab.dream.sim import Fleet, load_events
from memlab.dream.sim.fit import fit_check, fit_events, hour_of_week, profile_shares
from memlab.dream.sim.params import START, SimParams
from memlab.dream.sim.sessions import generate_sessions

TRUE = SimParams(users=1500, days=14, seed=9, sessions_per_day=5.0, rate_shape=2.0,
                 arrivals="weekly", session_minutes=40.0, session_sigma=0.8,
                 session_bytes=2500.0, session_bytes_sigma=0.6)  # fmt: skip


def test_hours_of_the_week_start_on_monday() -> None:
    assert hour_of_week(np.array([START, START + 3600 * 25, START - 1])).tolist() == [0, 25, 167]
    assert profile_shares("poisson") == pytest.approx(np.full(168, 1 / 168))
    assert np.argmax(profile_shares("weekly")) < 120  # the busiest hour is on a weekday


@pytest.fixture(scope="module")
def log(tmp_path_factory: pytest.TempPathFactory) -> Fleet:
    """A session log written from known parameters, read back as a planner would."""
    s = generate_sessions(TRUE)
    table = pd.DataFrame({"user": s.user, "start": s.t0 + s.start_ms / 1000,
                          "end": s.t0 + s.end_ms / 1000, "bytes": s.nbytes})  # fmt: skip
    path = tmp_path_factory.mktemp("log") / "events.csv"
    table.to_csv(path, index=False, float_format="%.3f")
    return load_events(path, SimParams())


def test_the_fit_recovers_the_generating_parameters(log: Fleet) -> None:
    got = fit_events(log).params
    assert got.arrivals == "weekly"
    assert got.sessions_per_day == pytest.approx(TRUE.sessions_per_day, rel=0.05)
    assert got.rate_shape == pytest.approx(TRUE.rate_shape, rel=0.2)
    assert got.session_minutes == pytest.approx(TRUE.session_minutes, rel=0.1)
    assert got.session_bytes == pytest.approx(TRUE.session_bytes, rel=0.05)
    assert got.session_bytes_sigma == pytest.approx(TRUE.session_bytes_sigma, rel=0.05)


def test_the_fitted_fleet_reproduces_the_logs_runs_per_day(log: Fleet) -> None:
    table = fit_check(log, fit_events(log), DreamConfig()).set_index("figure")
    ratio = table.loc["runs_per_user_day_mean", "fitted / log"]
    assert ratio == pytest.approx(1.0, abs=0.05)
    assert table.loc["calls_per_day", "fitted / log"] == pytest.approx(1.0, abs=0.05)
