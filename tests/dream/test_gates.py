"""Gates and triggers (SPEC §7.1–7.2, golden cases §10)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from memlab.config import DreamConfig, profile
from memlab.dream.gates import (
    Disabled,
    NoSessions,
    NoTimer,
    Open,
    SessionFile,
    SubAgentSession,
    TooFewSessions,
    TooSoon,
    Trigger,
    check_dream_gates,
    decide,
    hours_since,
    periodic_check_times,
)

from .conftest import HOUR, NOW

C0 = DreamConfig()
LAST = NOW - 5 * HOUR


def files(*pairs: tuple[str, float]) -> list[SessionFile]:
    return [SessionFile(stem, mtime) for stem, mtime in pairs]


def test_golden_mtime_equal_to_last_is_excluded() -> None:
    sessions = files(("2026-a-11111111", LAST), ("2026-b-22222222", LAST + 1))
    assert check_dream_gates(C0, LAST, sessions, None, NOW) == TooFewSessions(1, 3)


def test_golden_current_session_is_excluded_and_stems_sorted() -> None:
    sessions = files(
        ("2026-03-c-33333333", LAST + 3),
        ("2026-01-a-11111111", LAST + 2),
        ("2026-02-b-22222222", LAST + 1),
        ("2026-04-d-cur00000", LAST + 4),
    )
    got = check_dream_gates(C0, LAST, sessions, "cur00000-rest-of-session-id", NOW)
    assert got == Open(("2026-01-a-11111111", "2026-02-b-22222222", "2026-03-c-33333333"))


def test_golden_23h59_with_min_hours_24_is_too_soon_23() -> None:
    config = profile("grok-2026-08").dream
    got = check_dream_gates(config, NOW - (23 * HOUR + 59 * 60), [], None, NOW)
    assert got == TooSoon(23, 24.0)
    assert "23 h" in got.reason()


def test_time_gate_checked_before_session_gate_and_future_mtime_clamps_to_zero() -> None:
    sessions = files(*[(f"s-{i:08d}", NOW + 10) for i in range(5)])
    assert check_dream_gates(C0, NOW + 7200, sessions, None, NOW) == TooSoon(0, 4.0)
    assert hours_since(NOW + 7200, NOW) == 0


def test_missing_lock_counts_as_epoch() -> None:
    sessions = files(*[(f"s-{i:08d}", 1.0) for i in range(3)])
    assert check_dream_gates(C0, None, sessions, None, NOW).is_open
    assert hours_since(None, 7 * HOUR + 1) == 7


def test_disabled_first() -> None:
    config = DreamConfig(enabled=False)
    assert check_dream_gates(config, None, [], None, NOW) == Disabled()
    assert decide(Trigger.SESSION_END, config, None, [], None, NOW, is_subagent=True) == Disabled()


def test_too_few_sessions_reports_count_and_required() -> None:
    sessions = files(("s-11111111", NOW - 1), ("s-22222222", NOW - 2))
    got = check_dream_gates(C0, LAST, sessions, None, NOW)
    assert got == TooFewSessions(2, 3)
    assert got.reason().startswith("2 session log(s)")


SESSIONS = files(*[(f"2026-01-0{i}-x-{i}{i}{i}{i}{i}{i}{i}{i}", LAST + i) for i in range(1, 5)])


def test_sub_agent_session_end_never_runs() -> None:
    got = decide(Trigger.SESSION_END, C0, LAST, SESSIONS, None, NOW, is_subagent=True)
    assert got == SubAgentSession()
    assert decide(Trigger.SESSION_END, C0, LAST, SESSIONS, None, NOW).is_open


def test_manual_bypasses_every_gate_and_the_sub_agent_check() -> None:
    config = DreamConfig(enabled=False, min_sessions=99)
    old = files(("2020-01-01-x-99999999", 1.0), *[(s.stem, s.mtime) for s in SESSIONS])
    got = decide(Trigger.MANUAL, config, NOW, old, "44444444", NOW, is_subagent=True)
    assert isinstance(got, Open) and got.bypassed
    assert got.sessions == tuple(sorted(s.stem for s in old if not s.stem.endswith("44444444")))


def test_manual_with_only_the_current_session_has_nothing_to_do() -> None:
    only = files(("2026-01-01-x-cur00000", NOW))
    assert decide(Trigger.MANUAL, C0, None, only, "cur00000", NOW) == NoSessions()


def test_periodic_needs_an_interval_above_zero() -> None:
    for interval in (None, 0.0):
        config = DreamConfig(check_interval_secs=interval)
        assert decide(Trigger.PERIODIC, config, LAST, SESSIONS, None, NOW) == NoTimer()
        assert config.periodic_interval() is None
    config = DreamConfig(check_interval_secs=600.0)
    assert decide(Trigger.PERIODIC, config, LAST, SESSIONS, None, NOW).is_open
    assert periodic_check_times(config, 0.0, 1800.0) == [600.0, 1200.0]
    assert periodic_check_times(config, 0.0, 1800.1) == [600.0, 1200.0, 1800.0]
    assert periodic_check_times(C0, 0.0, 1e6) == []


@given(
    mtimes=st.lists(st.integers(0, 40), max_size=12),
    last=st.one_of(st.none(), st.integers(0, 40)),
    now=st.integers(0, 60),
    min_hours=st.sampled_from([0.0, 1.0, 2.5, 4.0]),
    min_sessions=st.integers(0, 5),
    current=st.one_of(st.none(), st.integers(0, 11)),
)
def test_gates_match_a_brute_force_reading_of_the_spec(
    mtimes: list[int],
    last: int | None,
    now: int,
    min_hours: float,
    min_sessions: int,
    current: int | None,
) -> None:
    config = DreamConfig(min_hours=min_hours, min_sessions=min_sessions)
    sessions = [SessionFile(f"s{i:02d}-{i:08d}", m * HOUR / 4) for i, m in enumerate(mtimes)]
    last_t = None if last is None else last * HOUR / 4
    now_t = now * HOUR / 4
    cur = None if current is None else f"{current:08d}-session"
    got = check_dream_gates(config, last_t, sessions, cur, now_t)
    elapsed = max(0.0, now_t - (last_t or 0.0))
    hours = int(elapsed // 3600)
    pending = sorted(
        s.stem
        for s in sessions
        if s.mtime > (last_t or 0.0) and (cur is None or not s.stem.endswith(cur[:8]))
    )
    if hours < min_hours:
        assert got == TooSoon(hours, min_hours)
    elif len(pending) < min_sessions:
        assert got == TooFewSessions(len(pending), min_sessions)
    else:
        assert got == Open(tuple(pending))
