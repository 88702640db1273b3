"""Dream gates (SPEC §7.1) and triggers (§7.2), as pure functions.

Every decision is a small frozen value that carries its reason::

    Disabled              dream.enabled is false
    SubAgentSession       sub-agent sessions never run Dream automatically
    NoTimer               a periodic check with no interval configured (None or 0)
    TooSoon(hours)        floor(hours since the last consolidation) < min_hours
    TooFewSessions(n, k)  n session logs changed since then, k required
    NoSessions            /dream found no session log besides the current one
    Open(sessions)        run Dream on these session stems (sorted)

The gates are checked cheapest first and never take the lock. ``last`` is the
mtime of ``.dream-lock`` (None when absent, which counts as the Unix epoch).
The capacity simulator evaluates the very same rules on arrays; its equality
with these functions is proven by ``tests/dream/test_simulate_reference.py``.
"""

from __future__ import annotations

import enum
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import ClassVar

from memlab.config import DreamConfig

SECONDS_PER_HOUR = 3600.0


class Trigger(str, enum.Enum):
    """What asks for a Dream run (SPEC §7.2)."""

    SESSION_END = "session-end"
    PERIODIC = "periodic"
    MANUAL = "manual"  # the /dream command: bypasses every gate


@dataclass(frozen=True)
class SessionFile:
    """A session log as the gates see it: its stem (file name without .md) and mtime."""

    stem: str
    mtime: float


@dataclass(frozen=True)
class _Decision:
    kind: ClassVar[str] = ""
    is_open: ClassVar[bool] = False

    def reason(self) -> str:
        raise NotImplementedError


@dataclass(frozen=True)
class Disabled(_Decision):
    kind: ClassVar[str] = "disabled"

    def reason(self) -> str:
        return "dream.enabled is false"


@dataclass(frozen=True)
class SubAgentSession(_Decision):
    kind: ClassVar[str] = "sub-agent"

    def reason(self) -> str:
        return "sub-agent sessions never run Dream at session end (use /dream)"


@dataclass(frozen=True)
class NoTimer(_Decision):
    kind: ClassVar[str] = "no-timer"

    def reason(self) -> str:
        return "no periodic check: dream.check_interval_secs is None or 0"


@dataclass(frozen=True)
class TooSoon(_Decision):
    hours: int
    required: float
    kind: ClassVar[str] = "too-soon"

    def reason(self) -> str:
        return f"{self.hours} h since the last consolidation, {self.required:g} h required"


@dataclass(frozen=True)
class TooFewSessions(_Decision):
    count: int
    required: int
    kind: ClassVar[str] = "too-few-sessions"

    def reason(self) -> str:
        return (
            f"{self.count} session log(s) changed since the last consolidation, "
            f"{self.required} required"
        )


@dataclass(frozen=True)
class NoSessions(_Decision):
    kind: ClassVar[str] = "no-sessions"

    def reason(self) -> str:
        return "no session log to consolidate besides the current session"


@dataclass(frozen=True)
class Open(_Decision):
    sessions: tuple[str, ...]
    bypassed: bool = False  # True for /dream (gates not checked)
    kind: ClassVar[str] = "open"
    is_open: ClassVar[bool] = True

    def reason(self) -> str:
        how = "/dream bypasses the gates" if self.bypassed else "all gates open"
        return f"{how}: {len(self.sessions)} session log(s) to consolidate"


GateDecision = Disabled | SubAgentSession | NoTimer | TooSoon | TooFewSessions | NoSessions | Open


def sid8(session_id: str | None) -> str | None:
    """The first 8 characters of a session id (None or "" for no current session)."""
    return session_id[:8] if session_id else None


def hours_since(last: float | None, now: float) -> int:
    """Whole hours since ``last`` (epoch if None); a future ``last`` counts as 0."""
    elapsed = max(0.0, now - (0.0 if last is None else last))
    return math.floor(elapsed / SECONDS_PER_HOUR)


def _not_current(stem: str, current: str | None) -> bool:
    return not (current and stem.endswith(current))


def pending_sessions(
    sessions: Iterable[SessionFile], last: float | None, current_session: str | None
) -> tuple[str, ...]:
    """Stems strictly newer than ``last``, minus the current session, sorted by stem."""
    since = 0.0 if last is None else last
    current = sid8(current_session)
    return tuple(
        sorted(s.stem for s in sessions if s.mtime > since and _not_current(s.stem, current))
    )


def all_sessions_except(
    sessions: Iterable[SessionFile], current_session: str | None
) -> tuple[str, ...]:
    """/dream's input: every session log except the current one, sorted by stem."""
    current = sid8(current_session)
    return tuple(sorted(s.stem for s in sessions if _not_current(s.stem, current)))


def check_dream_gates(
    config: DreamConfig,
    last: float | None,
    sessions: Sequence[SessionFile],
    current_session: str | None,
    now: float,
) -> GateDecision:
    """SPEC §7.1: config gate, time gate, session gate — cheapest first."""
    if not config.enabled:
        return Disabled()
    hours = hours_since(last, now)
    if hours < config.min_hours:
        return TooSoon(hours, config.min_hours)
    pending = pending_sessions(sessions, last, current_session)
    if len(pending) < config.min_sessions:
        return TooFewSessions(len(pending), config.min_sessions)
    return Open(pending)


def decide(
    trigger: Trigger,
    config: DreamConfig,
    last: float | None,
    sessions: Sequence[SessionFile],
    current_session: str | None,
    now: float,
    *,
    is_subagent: bool = False,
) -> GateDecision:
    """The decision for one trigger (SPEC §7.2).

    /dream bypasses every gate and the sub-agent check. The automatic triggers
    (session end, periodic check) never run for sub-agent sessions; the periodic
    check exists only when ``check_interval_secs`` > 0 and Dream is enabled.
    """
    if trigger is Trigger.MANUAL:
        stems = all_sessions_except(sessions, current_session)
        return Open(stems, bypassed=True) if stems else NoSessions()
    if trigger is Trigger.PERIODIC and config.enabled and config.periodic_interval() is None:
        return NoTimer()
    if is_subagent and config.enabled:
        return SubAgentSession()
    return check_dream_gates(config, last, sessions, current_session, now)


def periodic_check_times(config: DreamConfig, start: float, end: float) -> list[float]:
    """When a session's actor checks the gates: start + k·interval for k ≥ 1, before ``end``."""
    interval = config.periodic_interval()
    if interval is None:
        return []
    times = []
    k = 1
    while start + k * interval < end:
        times.append(start + k * interval)
        k += 1
    return times
