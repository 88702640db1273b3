"""The simulator's engine (``sim.kernel``, which ``simulate`` runs) equals, run for run,
an event-by-event reference that calls Dream's own gate, input, lock and response
functions (``memlab.dream.sim.reference``)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from memlab.config import DreamConfig
from memlab.dream.gates import periodic_check_times
from memlab.dream.sim import load_events
from memlab.dream.sim.kernel import simulate_trace_compiled
from memlab.dream.sim.params import SimParams
from memlab.dream.sim.reference import reference_trace
from memlab.dream.sim.sessions import generate_sessions
from memlab.dream.sim.state import COLUMNS, FAILED
from memlab.dream.sim.triggers import MANUAL, TICK, build_trace
from tests.conftest import campaign_size


def random_case(seed: int) -> tuple[SimParams, DreamConfig]:
    rng = np.random.default_rng(seed)

    def pick(*options: object) -> object:
        return options[int(rng.integers(len(options)))]

    params = SimParams(
        users=int(pick(1, 3, 6)), days=float(pick(1, 3)), seed=seed,
        sessions_per_day=float(pick(2, 8, 25)), max_concurrent=int(pick(0, 1, 2, 3)),
        session_minutes=float(pick(0, 5, 60)), manual_share=float(pick(0, 0, 0.2)),
        subagent_share=float(pick(0, 0.3)), model_failure_rate=float(pick(0, 0.15)),
        no_reply_rate=float(pick(0, 0.2)), latency_secs=float(pick(0, 30, 900)),
        latency_sigma=float(pick(0, 0.5)), linger_secs=float(pick(0, 600)),
        session_bytes=float(pick(300, 4000, 12000)), memory_bytes=int(pick(0, 5000)),
        arrivals=str(pick("poisson", "diurnal", "weekly")),
    )  # fmt: skip
    config = DreamConfig(
        enabled=bool(rng.random() > 0.05), min_hours=float(pick(0, 1, 2.5, 4)),
        min_sessions=int(pick(0, 1, 3, 5)), check_interval_secs=pick(None, 0.0, 600.0, 1800.0),
        stale_lock_secs=float(pick(0, 120, 3600)), active_grace_secs=float(pick(0, 300)),
        max_input_bytes=int(pick(32_000, 5_000)), stale_input_check=bool(pick(False, False, True)),
    )  # type: ignore[arg-type]  # fmt: skip
    return params, config


def assert_equal_runs(params: SimParams, config: DreamConfig, sessions: object = None) -> int:
    s = generate_sessions(params) if sessions is None else sessions
    trace = build_trace(s, config, params)  # type: ignore[arg-type]
    read = {name: np.full(len(trace.log_t), np.inf) for name in ("ref", "compiled")}
    slow, slow_counters = reference_trace(trace, config, params, consolidated=read["ref"])
    compiled, counters = simulate_trace_compiled(
        trace, config, params, consolidated=read["compiled"]
    )
    # when each log was first read by a completed run (freshness): the same in both
    np.testing.assert_array_equal(read["compiled"], read["ref"], err_msg="first read")
    for column in COLUMNS:
        np.testing.assert_array_equal(
            np.asarray(compiled[column], dtype=float),
            np.asarray(slow[column], dtype=float),
            err_msg=f"column {column}",
        )
    assert set(counters) == set(slow_counters)
    for counter, values in counters.items():
        np.testing.assert_array_equal(values, slow_counters[counter], err_msg=counter)
    return len(slow["user"])


@pytest.mark.parametrize("seed", range(60))
def test_the_engine_equals_the_reference_on_random_traces(seed: int) -> None:
    params, config = random_case(seed)
    assert_equal_runs(params, config)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(60, campaign_size(ci=120, soak=400)))
def test_the_engine_equals_the_reference_many_more(seed: int) -> None:
    params, config = random_case(seed)
    assert_equal_runs(params, config)


def test_the_random_cases_reach_every_path() -> None:
    """Guard against a comparison that passes because nothing happens."""
    seen: dict[str, int] = {}
    for seed in range(60):
        params, config = random_case(seed)
        trace = build_trace(generate_sessions(params), config, params)
        cols, counters = simulate_trace_compiled(trace, config, params)
        for code, name in enumerate(("failed", "busy", "nothing", "completed", "stale")):
            seen[name] = seen.get(name, 0) + int((cols["outcome"] == code).sum())
        for name in ("duplicate", "truncated", "kept_active"):
            seen[name] = seen.get(name, 0) + int(np.asarray(cols[name]).sum())
        seen["capped"] = seen.get("capped", 0) + int((cols["input_bytes"] >= 5_000).sum())
        seen["manual"] = seen.get("manual", 0) + int((cols["kind"] == MANUAL).sum())
        seen["periodic"] = seen.get("periodic", 0) + int((cols["kind"] == TICK).sum())
        for name in ("too_soon", "too_few", "disabled", "no_input", "manual_empty"):
            seen[name] = seen.get(name, 0) + int(counters[name].sum())
    assert all(count > 0 for count in seen.values()), seen


def test_replayed_events_with_whole_seconds_and_exact_ties(tmp_path: Path) -> None:
    """Integer times and a constant 60 s latency: acquisitions tie with session ends."""
    rng = np.random.default_rng(5)
    rows = ["user,start,end,dream_at"]
    for user in range(4):
        t = 1_767_571_200
        for _ in range(40):
            t += int(rng.choice([60, 120, 600, 3600]))
            end = t + int(rng.choice([0, 60, 120]))
            dream = t + 30 if rng.random() < 0.1 and end > t + 30 else ""
            rows.append(f"u{user},{t},{end},{dream}")
            t = end
    path = tmp_path / "events.csv"
    path.write_text("\n".join(rows) + "\n")
    params = SimParams(latency_secs=60.0, latency_sigma=0.0, no_reply_rate=0.2)
    for config in (DreamConfig(min_hours=0, min_sessions=1), DreamConfig(min_hours=1),
                   DreamConfig(min_hours=0, min_sessions=2, check_interval_secs=60.0)):  # fmt: skip
        (sessions,) = load_events(path, params).blocks
        assert assert_equal_runs(params, config, sessions) > 0


@pytest.mark.parametrize("seed", range(5))
def test_periodic_checks_match_the_gate_module(seed: int) -> None:
    params = SimParams(users=3, days=2, seed=seed, session_minutes=90.0)
    config = DreamConfig(check_interval_secs=700.0)
    s = generate_sessions(params)
    trace = build_trace(s, config, params)
    ticks = trace.kind == TICK
    for i in range(len(s.user)):
        expected = periodic_check_times(config, s.start_ms[i] / 1000.0, s.end_ms[i] / 1000.0)
        got = (trace.t[ticks & (trace.sess == i)] - trace.t0).tolist()
        assert got == pytest.approx(expected, abs=6e-4)


def _plain_python(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every compiled function of the loop run as plain Python: numpy checks every index
    (compiled code does not)."""
    from memlab.dream.sim import loop

    for name in dir(loop):
        py_func = getattr(getattr(loop, name), "py_func", None)
        if py_func is not None:
            monkeypatch.setattr(loop, name, py_func)


@pytest.mark.parametrize("seed", range(12))
def test_the_compiled_engine_reads_in_bounds(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """The loop run as plain Python: an index one past a user's triggers or logs fails
    here instead of reading the next user's, and the results are those compiled."""
    params, config = random_case(seed)
    trace = build_trace(generate_sessions(params), config, params, seed % 5)
    compiled, compiled_counters = simulate_trace_compiled(trace, config, params)
    _plain_python(monkeypatch)
    with np.errstate(over="ignore"):  # the hash's uint64 products wrap, as compiled
        plain, plain_counters = simulate_trace_compiled(trace, config, params)
    for column in COLUMNS:
        assert plain[column].dtype == compiled[column].dtype, column
        np.testing.assert_array_equal(plain[column], compiled[column], err_msg=column)
    for name, values in compiled_counters.items():
        np.testing.assert_array_equal(plain_counters[name], values, err_msg=name)


def test_fractional_settings_are_not_truncated() -> None:
    """A fractional byte cap or session gate is applied as it is (not truncated to an
    integer): the engine's numbers are the reference's, and differ from the whole
    numbers' below."""
    params = SimParams(users=4, days=3, sessions_per_day=20.0, seed=3)
    config = DreamConfig(min_hours=0.0, min_sessions=1, max_input_bytes=5000.5)  # type: ignore[arg-type]
    assert assert_equal_runs(params, config) > 10
    gate = DreamConfig(min_hours=0.0, min_sessions=1.5)  # type: ignore[arg-type]
    assert assert_equal_runs(params, gate) > 10
    trace = build_trace(generate_sessions(params), gate, params)
    halves = simulate_trace_compiled(trace, gate, params)[1]["too_few"].sum()
    whole = replace(gate, min_sessions=1)
    assert halves > simulate_trace_compiled(trace, whole, params)[1]["too_few"].sum()


def test_fractional_memory_settings_keep_the_bytes_and_answers_as_floats() -> None:
    """A fractional existing-memory cap makes the memory block, so the bytes a failed
    call sent and the answers, fractional: float64 columns; what MEMORY.md holds and a
    call in flight remembers is truncated to whole bytes."""
    params = SimParams(users=6, days=4, sessions_per_day=12.0, seed=5, memory_bytes=20000,
                       model_failure_rate=0.2)  # fmt: skip
    config = DreamConfig(min_hours=0.0, min_sessions=1, max_existing_bytes=1500.5,  # type: ignore[arg-type]
                         max_response_chars=2500.75)  # type: ignore[arg-type]  # fmt: skip
    trace = build_trace(generate_sessions(params), config, params)
    cols, _ = simulate_trace_compiled(trace, config, params)
    failed = cols["outcome"] == FAILED
    assert failed.any() and (~failed).any()
    assert cols["input_bytes"].dtype == cols["response_chars"].dtype == np.float64
    assert (cols["input_bytes"][failed] % 1 == 0.5).any()  # the block: 1500.5 + its header
    assert (cols["input_bytes"][~failed] % 1 == 0).all()  # remembered in whole bytes
    assert (cols["response_chars"][~failed] % 1 == 0.5).any()
    assert cols["memory_chars"].dtype == np.int64
    assert (cols["memory_chars"][cols["truncated"] == 1] == 2500).all()
    assert cols["truncated"].sum() > 0


@pytest.mark.parametrize("seed", [4, 9])
def test_users_outgrowing_the_engines_buffers_run_again_with_more_room(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One call in flight and one /dream log of room at first: every user who needs more
    makes the engine grow its buffers and run them again, with the reference's results
    (compiled, and in plain Python where an index past a buffer fails)."""
    from memlab.dream.sim import kernel
    from memlab.dream.sim import slots as layout

    monkeypatch.setattr(kernel, "CALL_SLOTS", 1)
    monkeypatch.setattr(kernel, "MANUAL_SLOTS", 1)
    grown: list[int] = []
    grow = kernel._grown

    def counted(b: Any, status: int, n: int, need_rows: int) -> Any:
        grown.append(status)
        return grow(b, status, n, need_rows)

    monkeypatch.setattr(kernel, "_grown", counted)
    params = SimParams(users=4, days=3, sessions_per_day=20.0, manual_share=0.3, seed=seed,
                       max_concurrent=3, latency_secs=1800.0)  # fmt: skip
    config = DreamConfig(min_hours=0.0, min_sessions=1)
    assert assert_equal_runs(params, config) > 10
    assert {layout.NEED_CALLS, layout.NEED_LOGS} <= set(grown)
    _plain_python(monkeypatch)
    with np.errstate(over="ignore"):
        assert assert_equal_runs(params, config) > 10


def _equal_and_columns(params: SimParams, config: DreamConfig) -> dict[str, np.ndarray]:
    """The engine equals the replay through Dream's own functions; the reference's rows."""
    assert assert_equal_runs(params, config) > 0
    trace = build_trace(generate_sessions(params), config, params)
    return reference_trace(trace, config, params)[0]


def test_the_periodic_timer_equals_the_replay() -> None:
    """Hourly checks during long sessions (the later release's timer) call the model."""
    params = SimParams(users=4, days=3, seed=11, sessions_per_day=4.0, session_minutes=240.0)
    config = DreamConfig(min_hours=1.0, min_sessions=1, check_interval_secs=3600.0)
    cols = _equal_and_columns(params, config)
    assert int((cols["kind"] == TICK).sum()) > 0


def test_model_failures_no_reply_and_their_retries_equal_the_replay() -> None:
    """A failed call leaves the lock alone, so the user's next trigger passes the gates
    again and retries the same logs; NO_REPLY takes the lock and reads nothing."""
    params = SimParams(users=5, days=4, seed=12, sessions_per_day=10.0,
                       model_failure_rate=0.3, no_reply_rate=0.2)  # fmt: skip
    config = DreamConfig(min_hours=1.0, min_sessions=1)
    cols = _equal_and_columns(params, config)
    outcome, user = cols["outcome"], cols["user"]
    assert int((outcome == 0).sum()) > 0 and int((outcome == 2).sum()) > 0
    # a retry: the user's call right after a failed one is made (with the gates open again)
    retried = [i for i in np.flatnonzero(outcome[:-1] == 0) if user[i + 1] == user[i]]
    assert retried


def test_two_processes_per_user_equal_the_replay() -> None:
    """Two terminals per user (two sessions at once) end minutes apart: both pass the
    gates before either run takes the lock, so the lock is contended (busy: the holder
    lingers 5 minutes) or, once the first holder has exited, both consolidate (duplicates)."""
    params = SimParams(users=6, days=4, seed=13, sessions_per_day=16.0, max_concurrent=2,
                       session_minutes=60.0, latency_secs=600.0, linger_secs=300.0)  # fmt: skip
    config = DreamConfig(min_hours=0.0, min_sessions=1)
    cols = _equal_and_columns(params, config)
    assert int((cols["outcome"] == 1).sum()) > 0  # lock held by the other process
    assert int(cols["duplicate"].sum()) > 0
