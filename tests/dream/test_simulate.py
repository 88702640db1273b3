"""The capacity simulator: closed form, summary, replay, sweeps, plots."""

from __future__ import annotations

from pathlib import Path

import matplotlib
import numpy as np
import pytest

from memlab.config import DreamConfig, profile
from memlab.dream.sim import Fleet, load_events, simulate, sweep
from memlab.dream.sim.params import SimParams
from memlab.dream.sim.sessions import generate_sessions
from memlab.dream.sim.theory import expected_hours_between_runs, expected_sessions_per_run
from memlab.errors import ConfigError, DatasetError

matplotlib.use("Agg")


@pytest.mark.parametrize(("per_day", "min_hours", "min_sessions"),
                         [(24.0, 4.0, 3), (12.0, 1.5, 1), (48.0, 0.0, 5)])  # fmt: skip
def test_plain_poisson_case_matches_the_closed_form(
    per_day: float, min_hours: float, min_sessions: int
) -> None:
    """Zero-length sessions (a Poisson process of session ends), no latency, no cap."""
    params = SimParams(users=800, days=20, sessions_per_day=per_day, rate_shape=None,
                       session_minutes=0, max_concurrent=0, latency_secs=0,
                       session_bytes=50, session_bytes_sigma=0)  # fmt: skip
    config = DreamConfig(min_hours=min_hours, min_sessions=min_sessions)
    result = simulate(params, config)
    done = result.attempts[result.attempts["outcome"] == "completed"]
    gaps = done.groupby("user")["acquire"].diff().dropna().to_numpy() / 3600.0
    later = done[done.groupby("user").cumcount() > 0]["sessions"].to_numpy()
    rate = per_day / 24.0
    want_gap = expected_hours_between_runs(rate, min_hours, min_sessions)
    want_sessions = expected_sessions_per_run(rate, min_hours, min_sessions)
    # 5 standard errors: a wrong formula or gate is off by far more
    assert abs(gaps.mean() - want_gap) <= 5 * gaps.std() / np.sqrt(len(gaps)) + 1e-9
    assert abs(later.mean() - want_sessions) <= 5 * later.std() / np.sqrt(len(later)) + 1e-9


def test_closed_form_values() -> None:
    # min_sessions 0, min_hours 0: every session end runs; gap = 1/λ, no session to merge
    assert expected_hours_between_runs(2.0, 0, 0) == pytest.approx(0.5)
    assert expected_sessions_per_run(2.0, 0, 0) == pytest.approx(0.0)
    # a huge time gate dominates: about H + 1/λ
    assert expected_hours_between_runs(5.0, 100, 1) == pytest.approx(100.2, rel=1e-6)


def test_summary_accounts_for_every_trigger_and_call() -> None:
    params = SimParams(users=300, days=10, max_concurrent=2, subagent_share=0.2, manual_share=0.05,
                       model_failure_rate=0.05, no_reply_rate=0.1, latency_secs=600)  # fmt: skip
    config = DreamConfig(check_interval_secs=1800.0)
    result = simulate(params, config)
    s = result.summary()
    a = result.attempts
    assert s["attempts"] == len(a) == s["failed"] + s["lock_busy"] + s["nothing"] + s["runs"]
    assert s["stale_input"] == 0  # c0 has no such check
    assert s["runs"] == result.users["runs"].sum() and s["lock_busy"] > 0
    assert s["subagent_ends"] > 0 and s["manual"] > 0
    closed = s["too_soon"] + s["too_few"] + s["disabled"] + s["no_input"]
    auto_calls = int((a["kind"] != "manual").sum())
    assert s["checks"] == closed + auto_calls
    assert s["logs"] == s["sessions"] and s["logs_deleted"] + s["logs_left"] == s["logs"]
    assert s["fleet_runs_per_hour_peak"] >= s["fleet_runs_per_hour_p95"] >= 0
    assert s["cost"] > 0 and s["input_tokens"] > s["output_tokens"] > 0
    assert all(v is None or np.isfinite(v) for v in s.values() if not isinstance(v, str))


def test_default_attempts_track_session_ends_not_a_timer() -> None:
    """SPEC §7.2: with no periodic check, attempts ≈ session ends that pass the gates."""
    params = SimParams(users=200, days=10)
    c0 = simulate(params, DreamConfig()).summary()
    assert c0["checks"] == c0["sessions"]  # one gate check per session end, no timer
    later = simulate(params, profile("grok-2026-08").dream).summary()
    assert later["checks"] > later["sessions"]  # the hourly check adds checks
    assert later["runs_per_user_day_mean"] < c0["runs_per_user_day_mean"]


def test_disabled_dream_makes_no_call() -> None:
    s = simulate(SimParams(users=50, days=5), DreamConfig(enabled=False)).summary()
    assert s["attempts"] == 0 and s["disabled"] == s["checks"] == s["sessions"]


def test_replay_csv(tmp_path: Path) -> None:
    path = tmp_path / "events.csv"
    path.write_text(
        "user,start,end,subagent,bytes,dream_at\n"
        "a,2026-01-05T09:00:00Z,2026-01-05T10:00:00Z,,100,\n"
        "a,2026-01-05T11:00:00Z,2026-01-05T12:00:00Z,false,100,\n"
        "a,1767614400,1767618000,,100,\n"  # 12:00-13:00 as unix seconds
        "a,2026-01-05T15:00:00,2026-01-05T16:00:00,,100,2026-01-05T15:30:00Z\n"
        "b,2026-01-05T09:30:00Z,2026-01-05T09:40:00Z,true,,\n"
    )
    params = SimParams(latency_secs=0)
    fleet = load_events(path, params)
    (sessions,) = fleet.blocks
    assert len(sessions.user) == 4 and sessions.subagent_ends.tolist() == [0, 1]
    assert fleet.days == pytest.approx(7 / 24)
    s = simulate(params, DreamConfig(min_hours=0, min_sessions=1), fleet=fleet).summary()
    # ends at 10:00 (0 older logs), 12:00 (1: run), 13:00 (0 newer: the 12:00 log is
    # stranded behind the lock), 15:30 /dream (every log left), 16:00 (0)
    assert s["runs"] == 2 and s["manual"] == 1 and s["too_few"] == 3


def test_replay_errors_say_what_is_wrong(tmp_path: Path) -> None:
    path = tmp_path / "bad.csv"
    path.write_text("user,start\na,1\n")
    with pytest.raises(DatasetError, match="lacks column"):
        load_events(path, SimParams())
    path.write_text("user,start,end\na,yesterday,2026-01-01\na,5,4\n")
    with pytest.raises(DatasetError, match="row 2: 'yesterday'"):
        load_events(path, SimParams())
    path.write_text("user,start,end\na,5,4\n")
    with pytest.raises(DatasetError, match="ends before it starts"):
        load_events(path, SimParams())


def test_sweep_is_tidy_and_equals_single_runs() -> None:
    params = SimParams(users=100, days=7)
    fleet = Fleet.generate(params)
    grid = {"min_hours": [1.0, 4.0, 24.0], "min_sessions": [1, 3],
            "check_interval_secs": [None, 3600.0]}  # fmt: skip
    table = sweep(params, DreamConfig(), grid, fleet=fleet)
    assert len(table) == 12 and list(table.columns[:3]) == list(grid)
    row = table[(table.min_hours == 4.0) & (table.min_sessions == 3)
                & table.check_interval_secs.isna()].iloc[0]  # fmt: skip
    single = simulate(params, DreamConfig(), fleet=fleet).summary()
    assert row["runs"] == single["runs"] and row["cost"] == pytest.approx(single["cost"])
    with pytest.raises(ConfigError, match="did you mean 'min_hours'"):
        sweep(params, DreamConfig(), {"min_hour": [1]}, fleet=fleet)


def test_plots_draw() -> None:
    from memlab.dream.sim.plot import plot_fleet_runs_per_hour, plot_per_user_day, plot_sweep

    params = SimParams(users=50, days=3)
    result = simulate(params, DreamConfig())
    ax = plot_fleet_runs_per_hour(result)
    assert len(ax.lines[0].get_ydata()) == 72
    assert plot_per_user_day(result).patches
    table = sweep(params, DreamConfig(), {"min_hours": [1.0, 4.0], "min_sessions": [1, 3]})
    assert len(plot_sweep(table, "min_hours", hue="min_sessions").lines) == 2


def test_profiles_shape_arrivals() -> None:
    hours = []
    for arrivals in ("poisson", "weekly"):
        s = generate_sessions(SimParams(users=200, days=14, arrivals=arrivals))
        start = s.start_ms / 1000.0 / 3600.0
        night = np.mean((start % 24) < 5)
        weekend = np.mean((start // 24) % 7 >= 5)  # t0 is a Monday
        hours.append((night, weekend))
    (flat_night, flat_weekend), (weekly_night, weekly_weekend) = hours
    assert weekly_night < flat_night / 3 and weekly_weekend < flat_weekend / 2


def test_concurrency_limit_is_respected() -> None:
    for slots in (1, 2):
        s = generate_sessions(
            SimParams(users=30, days=5, max_concurrent=slots, sessions_per_day=30)
        )
        for u in range(30):
            mine = s.user == u
            events = sorted([(t, 1) for t in s.start_ms[mine]] + [(t, -1) for t in s.end_ms[mine]],
                            key=lambda e: (e[0], e[1]))  # fmt: skip
            running = np.cumsum([d for _, d in events])
            assert running.max(initial=0) <= slots


def test_one_session_at_a_time_is_the_general_schedule_with_one_slot() -> None:
    """The compiled one-slot schedule (``kernels.one_slot_starts``) gives the start times of
    the general slot loop, and of the segmented running maximum it replaced."""
    from memlab.dream.sim.sessions import _schedule, offsets

    rng = np.random.default_rng(7)
    users = 40
    user = np.sort(rng.integers(0, users, 3000))
    arrive = np.sort(rng.integers(0, 10**9, len(user)))
    length = rng.integers(0, 10**7, len(user))
    start = _schedule(user, arrive, length, 1, users)
    free = np.full(users, np.iinfo(np.int64).min)
    expected = np.empty_like(arrive)
    for i, u in enumerate(user):  # at arrival, or when the user's last session ends
        expected[i] = max(arrive[i], free[u])
        free[u] = expected[i] + length[i]
    assert np.array_equal(start, expected)
    off = offsets(user, users)  # the formula it replaced: end_i = S_i + max_j(a_j − S_j−1)
    cs = np.cumsum(length)
    before = np.repeat(np.where(off[:-1] > 0, cs[np.maximum(off[:-1] - 1, 0)], 0), np.diff(off))
    s_prev = cs - length - before
    shift = user << 42
    assert np.array_equal(start, s_prev + np.maximum.accumulate(arrive - s_prev + shift) - shift)


def test_sorted_uniforms_are_the_normalised_spacings() -> None:
    """The compiled normalisation (``kernels.normalised_spacings``) gives the values of the
    numpy formula it replaced, users without sessions included."""
    from memlab.dream.sim.sessions import _sorted_uniforms

    counts = np.random.default_rng(3).poisson(np.linspace(0, 300, 200))
    counts[:3] = 0
    cs = np.cumsum(np.random.default_rng(4).exponential(size=int(counts.sum()) + len(counts)))
    last = np.cumsum(counts + 1) - 1
    first = last - counts
    base = np.where(first > 0, cs[np.maximum(first - 1, 0)], 0.0)
    values = (cs - np.repeat(base, counts + 1)) / np.repeat(cs[last] - base, counts + 1)
    keep = np.ones(len(cs), dtype=bool)
    keep[last] = False
    got = _sorted_uniforms(np.random.default_rng(4), counts)
    assert np.array_equal(got, values[keep]) and np.all((got > 0) & (got < 1))


def test_blocks_are_invisible(monkeypatch: pytest.MonkeyPatch) -> None:
    """Users are independent and draws are keyed by fleet-wide trigger numbers, so
    simulating in blocks gives the very same attempts as one pass."""
    import memlab.dream.sim.fleet as sim

    params = SimParams(users=90, days=5, manual_share=0.1, no_reply_rate=0.1,
                       model_failure_rate=0.05)  # fmt: skip
    fleet = Fleet.generate(params)
    whole = simulate(params, DreamConfig(), fleet=fleet)
    (sessions,) = fleet.blocks
    monkeypatch.setattr(sim, "BLOCK_USERS", 25)
    split = simulate(params, DreamConfig(), fleet=Fleet.from_sessions(sessions, fleet.days))
    assert len(Fleet.from_sessions(sessions, 5).blocks) == 4
    assert whole.attempts.equals(split.attempts) and whole.users.equals(split.users)


def test_generated_sessions_are_grouped_by_user() -> None:
    fleet = Fleet.generate(SimParams(users=30, days=2, subagent_share=0.2))
    (s,) = fleet.blocks
    assert s.users == 30 and set(np.unique(s.user)) <= set(range(30))
    assert np.all(np.diff(s.user) >= 0) and s.subagent_ends.shape == (30,)
    assert np.all(s.end_ms >= s.start_ms)


def test_blocks_on_other_cores_give_the_same_result(monkeypatch: pytest.MonkeyPatch) -> None:
    """Blocks are pure functions of (params, config, first user): run in this process, on
    two worker processes or on any executor, the fleet's attempts and users are equal."""
    from concurrent.futures import ThreadPoolExecutor

    import memlab.dream.sim.fleet as sim

    monkeypatch.setattr(sim, "BLOCK_USERS", 40)
    params = SimParams(users=150, days=6, manual_share=0.1, no_reply_rate=0.1,
                       model_failure_rate=0.05)  # fmt: skip
    here = simulate(params, DreamConfig(), workers=1)
    there = simulate(params, DreamConfig(), workers=2)
    with ThreadPoolExecutor(2) as pool:
        pooled = simulate(params, DreamConfig(), executor=pool)
    assert len(here.attempts) > 100
    for other in (there, pooled):
        assert here.attempts.equals(other.attempts) and here.users.equals(other.users)
    fleet = Fleet.generate(params)  # the same sessions, generated up front
    assert simulate(params, DreamConfig(), fleet=fleet).attempts.equals(here.attempts)


def test_blocks_shipped_narrow_join_to_the_same_tables(monkeypatch: pytest.MonkeyPatch) -> None:
    """A block bound for another process narrows its integer columns; joined, the fleet's
    tables are the very same (values and int64 types) as from the blocks as computed."""
    import memlab.dream.sim.fleet as sim

    monkeypatch.setattr(sim, "BLOCK_USERS", 30)
    params = SimParams(users=60, days=4, manual_share=0.1, model_failure_rate=0.05)
    config = DreamConfig()
    plain = [sim.simulate_block(params, config, f) for f in (0, 30)]
    shipped = [sim.shipped_block(params, config, f) for f in (0, 30)]
    assert shipped[0].columns["outcome"].dtype == np.int8
    assert plain[0].columns["outcome"].dtype == np.int64
    joined = [sim._result(params, config, 4, params.start, b) for b in (plain, shipped)]
    assert len(joined[0].attempts) > 50
    assert joined[0].attempts.equals(joined[1].attempts)
    assert joined[0].users.equals(joined[1].users)
    big = np.array([0, 2**40], dtype=np.int64)  # too wide to narrow: kept as it is
    assert sim._narrow(big).dtype == np.int64
    assert sim._joined([np.array([1], dtype=np.int8), np.array([2**40])]).tolist() == [1, 2**40]
