"""Two small Dream scenarios of the course, on the real gates and the real lock.

* ``gate_scenario``: a session ends 6 hours after the last consolidation; one
  other session log changed since; ``decide`` (SPEC §7.1–7.2) says which gate
  stops the run under c0's settings.
* ``lock_rollback``: a run takes the ``.dream-lock`` of a scratch workspace
  (the last success 30 hours ago), its write fails and it rolls back (SPEC §7.4):
  the lock's mtime, the gates' "last consolidation", is the prior one again.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

import pandas as pd

from memlab.config import DreamConfig, profile
from memlab.dream.gates import (
    SECONDS_PER_HOUR,
    GateDecision,
    SessionFile,
    Trigger,
    decide,
    hours_since,
)
from memlab.dream.lock import Acquired, DreamLock
from memlab.scratch import scratch_dir
from memlab.timefmt import parse_iso
from memlab.workbench.display import Panel

NOW = parse_iso("2026-03-15T09:00:00Z")  # the tour's "as of"
HOUR = SECONDS_PER_HOUR


@dataclass(frozen=True)
class GateScenario:
    config: DreamConfig
    last: float
    sessions: tuple[SessionFile, ...]
    current: str

    def decision(self) -> GateDecision:
        return decide(Trigger.SESSION_END, self.config, self.last, self.sessions, self.current, NOW)


def gate_scenario(profile_name: str = "grok-c0") -> GateScenario:
    """A session end 6 h after the last consolidation; one other log changed since."""
    ages: dict[str, float] = {"2026-03-13-a1b2c3d4": 40, "2026-03-14-b2c3d4e5": 20}
    ages["2026-03-15-c3d4e5f6"] = 3
    ages["2026-03-15-d4e5f6a7"] = 0.5  # the session that is ending now
    sessions = tuple(SessionFile(stem, NOW - h * HOUR) for stem, h in ages.items())
    return GateScenario(profile(profile_name).dream, NOW - 6 * HOUR, sessions, "d4e5f6a7")


def gate_table(scenario: GateScenario) -> Panel:
    """The scenario as the gates see it (not their decision: that is the exercise)."""
    cfg = scenario.config
    notes = [
        f"Dream settings: enabled={cfg.enabled}, min_hours={cfg.min_hours:g}, "
        f"min_sessions={cfg.min_sessions}; trigger: session end (current session "
        f"{scenario.current})",
        f"last consolidation (.dream-lock mtime): {(NOW - scenario.last) / HOUR:g} h ago",
    ]
    rows = [
        {
            "session log": s.stem,
            "changed (h ago)": (NOW - s.mtime) / HOUR,
            "after the last consolidation": s.mtime > scenario.last,
            "current session": s.stem.endswith(scenario.current),
        }
        for s in scenario.sessions
    ]
    return Panel("a session ends", notes, [("", pd.DataFrame(rows))])


@dataclass(frozen=True)
class Rollback:
    before: float | None  # hours since the last consolidation, before the run
    acquired: float | None  # … while the run holds the lock
    after: float | None  # … after the failed write rolled it back


def lock_rollback(prior_hours: float = 30.0) -> Rollback:
    """Take a real lock whose last success is ``prior_hours`` old, then roll it back."""
    folder = scratch_dir("memlab-dream-lock-")
    lock = DreamLock.for_workspace(folder)
    lock.path.write_text("", encoding="utf-8")
    prior = NOW - prior_hours * HOUR
    os.utime(lock.path, (prior, prior))

    def hours() -> float | None:
        last = lock.last_success()
        return None if last is None else float(hours_since(last, NOW))

    before = hours()
    taken = lock.try_acquire(NOW)
    if not isinstance(taken, Acquired):  # nobody else knows this scratch folder
        raise RuntimeError(f"the scratch lock is busy: {taken.reason}")
    during = hours()
    lock.rollback(taken.prior)  # the write of MEMORY.md failed
    return Rollback(before, during, hours())


def rollback_table(result: Rollback) -> pd.DataFrame:
    """Hours since the last consolidation as the gates would read them, step by step."""
    return pd.DataFrame(
        {
            "moment": ["before the run", "lock taken (model call running)"],
            "hours since the last consolidation": [result.before, result.acquired],
        }
    )
