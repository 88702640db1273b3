"""The vectorised simulator's state: one entry per user (or per log) in named arrays.

``SimState`` is what Dream keeps on disk per workspace — the lock file, the
session logs, ``MEMORY.md`` — plus the engine's cursors into each user's
triggers. ``InFlight`` holds the model calls that have not returned yet
(one slot per call; a user can have several). ``Attempts`` collects one record
per model call, in the order calls are resolved.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from memlab.arrays import BoolArray as Bools
from memlab.arrays import FloatArray as F64
from memlab.arrays import IntArray as I64
from memlab.dream.sim.params import SESSION_COST, SimParams
from memlab.dream.sim.trace import Trace

__all__ = ["F64", "I64", "Attempts", "Bools", "InFlight", "SimState"]

# The outcome of a model call (codes in ``Attempts``; names in ``OUTCOMES``).
FAILED, BUSY, NOTHING, COMPLETED, STALE = 0, 1, 2, 3, 4
OUTCOMES = ("failed", "lock-busy", "nothing", "completed", "stale-input")
NO_LOCK = -1.0  # "the lock's mtime" when there is no lock file
COLUMNS = (
    "user",
    "trigger",
    "kind",
    "t",
    "acquire",
    "outcome",
    "sessions",
    "input_bytes",
    "content_bytes",
    "deleted",
    "kept_active",
    "memory_chars",
    "response_chars",
    "truncated",
    "duplicate",
)
# Per-user counts of triggers that did not call the model, and of /dream commands.
COUNTERS = ("checks", "disabled", "too_soon", "too_few", "no_input", "manual", "manual_empty")


@dataclass
class SimState:
    """Per user (``[users]``) unless noted; triggers and logs are indices into the trace."""

    next_trigger: I64  # the user's next unprocessed trigger
    trigger_stop: I64  # one past the user's last trigger
    first_time_ok: I64  # first trigger from next_trigger on that passes the time gate
    first_open: I64  # first trigger from next_trigger on that passes both gates
    lock_exists: Bools  # a lock file exists (with a PID, or empty after a rollback)
    lock_mtime: F64  # its mtime = the last successful acquisition; 0.0 (the epoch) if none
    holder_alive_until: F64  # the PID in the lock blocks until then (-inf: empty body)
    logs_before_lock: I64  # the user's logs with mtime <= lock_mtime (a prefix of them)
    memory_chars: I64  # the size of MEMORY.md
    last_completed: F64  # acquisition time of the user's last completed run
    log_deleted: Bools  # [logs] deleted by a cleanup
    log_consolidated: F64  # [logs] when a completed run first read it (inf: never)
    log_cost: I64  # [logs + 1] prefix sums of the input bytes each log adds
    counters: dict[str, I64]  # COUNTERS, per user
    manual_logs: dict[int, I64] = field(default_factory=dict)  # /dream trigger -> its logs

    @classmethod
    def start(cls, trace: Trace, params: SimParams) -> SimState:
        """Every user before their first trigger: no lock, no run, the initial memory."""
        users = trace.users
        first = trace.toff[:-1].copy()
        return cls(
            next_trigger=first,
            trigger_stop=trace.toff[1:],
            first_time_ok=first.copy(),
            first_open=first.copy(),
            lock_exists=np.zeros(users, dtype=bool),
            lock_mtime=np.zeros(users),
            holder_alive_until=np.full(users, -np.inf),
            logs_before_lock=np.zeros(users, dtype=np.int64),
            memory_chars=np.full(users, params.memory_bytes, dtype=np.int64),
            last_completed=np.full(users, -np.inf),
            log_deleted=np.zeros(len(trace.log_t), dtype=bool),
            log_consolidated=np.full(len(trace.log_t), np.inf),
            log_cost=np.concatenate([[0], np.cumsum(SESSION_COST + trace.log_bytes)]),
            counters={name: np.zeros(users, dtype=np.int64) for name in COUNTERS},
        )

    def lock_seen(self, users: I64) -> F64:
        """The lock's mtime as a run would remember it (``NO_LOCK`` without a lock file)."""
        return np.where(self.lock_exists[users], self.lock_mtime[users], NO_LOCK)


@dataclass
class InFlight:
    """Model calls waiting to return: ``[users, slots]`` arrays; a free slot returns at inf."""

    returns_at: F64  # when the call returns and tries the lock
    lock_seen: F64  # the lock's mtime when its input was built (NO_LOCK: none)
    trigger: I64
    first_log: I64  # the first processed log (-1 for /dream: see SimState.manual_logs)
    sessions: I64  # logs processed
    input_bytes: I64
    content_bytes: I64
    memory_seen: I64  # MEMORY.md size when the input was built

    @classmethod
    def empty(cls, users: int) -> InFlight:
        ints = {name: np.zeros((users, 2), dtype=np.int64) for name in cls._int_fields()}
        return cls(np.full((users, 2), np.inf), np.zeros((users, 2)), **ints)

    @staticmethod
    def _int_fields() -> tuple[str, ...]:
        return ("trigger", "first_log", "sessions", "input_bytes", "content_bytes", "memory_seen")

    def pending(self, users: I64) -> Bools:
        """Users with at least one call in flight."""
        return np.isfinite(self.returns_at[users].min(axis=1))

    def free_slots(self, users: I64) -> I64:
        """A free slot for each user (more slots are added when someone has none)."""
        free = np.isinf(self.returns_at[users])
        while not free.any(axis=1).all():
            self._grow()
            free = np.isinf(self.returns_at[users])
        return np.argmax(free, axis=1)

    def put(self, users: I64, slots: I64, **values: Any) -> None:
        for name, value in values.items():
            getattr(self, name)[users, slots] = value

    def take(self, users: I64, slots: I64) -> dict[str, np.ndarray]:
        """The fields of these calls; their slots become free."""
        out = {name: getattr(self, name)[users, slots] for name in self._int_fields()}
        out["returns_at"] = self.returns_at[users, slots]
        out["lock_seen"] = self.lock_seen[users, slots]
        self.returns_at[users, slots] = np.inf
        return out

    def _grow(self) -> None:
        pad = ((0, 0), (0, self.returns_at.shape[1]))
        self.returns_at = np.pad(self.returns_at, pad, constant_values=np.inf)
        self.lock_seen = np.pad(self.lock_seen, pad)
        for name in self._int_fields():
            setattr(self, name, np.pad(getattr(self, name), pad))


@dataclass
class Attempts:
    """One record per model call (``COLUMNS``), in the order the calls were resolved."""

    trace: Trace
    rows: list[dict[str, np.ndarray]] = field(default_factory=list)

    def record(self, users: I64, k: I64, acquire: F64, outcome: int, **cols: Any) -> None:
        n = len(users)
        row: dict[str, np.ndarray] = {
            "user": users,
            "trigger": k,
            "kind": self.trace.kind[k].astype(np.int64),
            "t": self.trace.t[k],
            "acquire": acquire,
            "outcome": np.full(n, outcome, dtype=np.int64),
        }
        zeros = np.zeros(n, dtype=np.int64)
        for c in COLUMNS[6:]:
            row[c] = np.asarray(cols.get(c, zeros))
        self.rows.append(row)

    def columns(self) -> dict[str, np.ndarray]:
        if not self.rows:
            return {c: np.zeros(0, dtype=np.int64) for c in COLUMNS}
        return {c: np.concatenate([r[c] for r in self.rows]) for c in COLUMNS}
