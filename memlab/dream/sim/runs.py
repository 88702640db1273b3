"""A model call returns: lock acquisition, the write and the cleanup (SPEC §7.3–7.4).

An acquisition happens when a model call returns (trigger time + latency). The
lock blocks when it holds a PID, is younger than ``stale_lock_secs`` and its
process lives (``lock.holder_blocks``); otherwise the run takes it: its mtime
becomes the acquisition time, even for NO_REPLY (c0). With ``stale_input_check``
a run whose input was built under another lock rolls the lock back instead. A
completed run writes the new memory and deletes the processed logs that are
quiet for the grace period and still on disk.

Every function here works on many users at once (``users``, one call each).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from memlab.config import DreamConfig
from memlab.dream.sim import gates
from memlab.dream.sim.params import NO_REPLY_CHARS, SimParams, response_chars
from memlab.dream.sim.search import first_true
from memlab.dream.sim.state import (
    BUSY,
    COMPLETED,
    F64,
    I64,
    NO_LOCK,
    NOTHING,
    STALE,
    Attempts,
    Bools,
    InFlight,
    SimState,
)
from memlab.dream.sim.trace import Trace


@dataclass
class Returned:
    """Calls that returned, one per user of ``users``."""

    users: I64
    trigger: I64
    at: F64  # when the call returned and tried the lock
    first_log: I64
    no_reply: Bools
    columns: dict[str, I64]  # sessions, input_bytes, content_bytes, response_chars

    def only(self, mask: Bools) -> Returned:
        return Returned(
            self.users[mask],
            self.trigger[mask],
            self.at[mask],
            self.first_log[mask],
            self.no_reply[mask],
            {c: v[mask] for c, v in self.columns.items()},
        )


class Runs:
    """Resolves returned calls against each user's lock, MEMORY.md and logs."""

    def __init__(
        self,
        state: SimState,
        calls: InFlight,
        attempts: Attempts,
        trace: Trace,
        config: DreamConfig,
        params: SimParams,
    ) -> None:
        self.state, self.calls, self.attempts = state, calls, attempts
        self.trace, self.config, self.params = trace, config, params

    def acquire(self, users: I64, slots: I64) -> None:
        """The calls in ``slots`` return now: busy, stale, nothing to write, or completed."""
        state, cfg = self.state, self.config
        call = self.calls.take(users, slots)
        done = self._returned(users, call)
        age = done.at - state.lock_mtime[users]
        busy = (
            state.lock_exists[users]
            & (age < cfg.stale_lock_secs)
            & (done.at < state.holder_alive_until[users])
        )
        prior = state.lock_seen(users)
        stale = ~busy & cfg.stale_input_check & (prior != call["lock_seen"])
        for code, mask in ((BUSY, busy), (STALE, stale)):
            if mask.any():
                self._record(done.only(mask), code)
        if stale.any():  # rollback(prior): an empty body (or no lock at all), mtime kept
            state.holder_alive_until[users[stale]] = -np.inf
            state.lock_exists[users[stale]] = prior[stale] != NO_LOCK
        took = done.only(~busy & ~stale)
        self._take_lock(took)
        if took.no_reply.any():
            self._record(took.only(took.no_reply), NOTHING)
        if (~took.no_reply).any():
            self._complete(took.only(~took.no_reply))

    def _returned(self, users: I64, call: dict[str, np.ndarray]) -> Returned:
        k = call["trigger"]
        prm = self.params
        no_reply = self.trace.u(k) < prm.model_failure_rate + prm.no_reply_rate
        answer = response_chars(call["memory_seen"], call["content_bytes"], prm, self.config)
        columns = {
            "sessions": call["sessions"],
            "input_bytes": call["input_bytes"],
            "content_bytes": call["content_bytes"],
            "response_chars": np.where(no_reply, NO_REPLY_CHARS, answer),
        }
        return Returned(users, k, call["returns_at"], call["first_log"], no_reply, columns)

    def _record(self, done: Returned, outcome: int, **extra: I64) -> None:
        memory = self.state.memory_chars[done.users]
        extra.setdefault("memory_chars", memory)
        self.attempts.record(done.users, done.trigger, done.at, outcome, **done.columns, **extra)

    def _take_lock(self, done: Returned) -> None:
        """Our PID in the lock, its mtime the acquisition time; the gates start anew."""
        state, users = self.state, done.users
        state.lock_exists[users] = True
        state.lock_mtime[users] = done.at
        alive = self.trace.alive(done.trigger)
        state.holder_alive_until[users] = np.maximum(alive, done.at + self.params.linger_secs)
        self._count_logs_before_lock(users, done.trigger)
        gates.refresh(state, self.trace, self.config, users)

    def _count_logs_before_lock(self, users: I64, k: I64) -> None:
        """Logs with mtime <= the new lock time: those written by the trigger, then a search."""
        trace, state = self.trace, self.state
        start = trace.loff[users] + np.maximum(state.logs_before_lock[users], trace.nw[k])
        lock_mtime = state.lock_mtime[users]
        first_newer = first_true(
            lambda rows, i: trace.log_t[i] > lock_mtime[rows], start, trace.loff[users + 1]
        )
        state.logs_before_lock[users] = first_newer - trace.loff[users]

    def _complete(self, done: Returned) -> None:
        """Write the new memory (truncated at max_response_chars) and clean up."""
        state, cfg, users = self.state, self.config, done.users
        want = done.columns["response_chars"]
        state.memory_chars[users] = np.minimum(want, cfg.max_response_chars)
        deleted, active = self._cleanup(done)
        duplicate = state.last_completed[users] > self.trace.t[done.trigger]
        state.last_completed[users] = done.at
        self._record(
            done,
            COMPLETED,
            deleted=deleted,
            kept_active=active,
            truncated=(want > cfg.max_response_chars).astype(np.int64),
            duplicate=duplicate.astype(np.int64),
        )

    def _cleanup(self, done: Returned) -> tuple[I64, I64]:
        """Delete processed logs quiet for the grace period; (deleted, kept active) per run.

        An automatic run processed a contiguous range of logs from ``first_log``; a
        /dream run the logs listed in ``manual_logs``.
        """
        n = len(done.trigger)
        auto = done.first_log >= 0
        manual = np.flatnonzero(~auto)
        pieces = [self.state.manual_logs.pop(int(done.trigger[i])) for i in manual]
        counts = np.where(auto, done.columns["sessions"], 0)
        run_of = np.repeat(np.arange(n), counts)
        first = np.repeat(done.first_log - (np.cumsum(counts) - counts), counts)
        logs = np.concatenate([first + np.arange(len(run_of)), *pieces]).astype(np.int64)
        owners = [run_of, *[np.full(len(x), i) for i, x in zip(manual, pieces, strict=True)]]
        owner = np.concatenate(owners).astype(np.int64)
        present = ~self.state.log_deleted[logs]
        quiet_for = done.at[owner] - self.trace.log_t[logs]
        first_read = self.state.log_consolidated
        np.minimum.at(first_read, logs[present], done.at[owner[present]])
        active = present & (quiet_for < self.config.active_grace_secs)
        gone = present & ~active
        self.state.log_deleted[logs[gone]] = True
        deleted = np.bincount(owner[gone], minlength=n).astype(np.int64)
        return deleted, np.bincount(owner[active], minlength=n).astype(np.int64)
