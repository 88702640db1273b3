"""The vectorised simulator, part 2: lock acquisitions, writes and cleanup (SPEC §7.3–7.4).

An acquisition happens when a model call returns (trigger time + latency). The
lock blocks when it holds a PID, is younger than ``stale_lock_secs`` and its
process lives (``lock.holder_blocks``); otherwise we take it: its mtime becomes
the acquisition time, even for NO_REPLY (c0). A completed run writes the new
memory and deletes the processed logs that are quiet for the grace period and
still on disk.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import NDArray

from memlab.config import DreamConfig
from memlab.dream.sim_params import NO_REPLY_CHARS, SimParams
from memlab.dream.sim_search import first_true
from memlab.dream.sim_trace import Trace

FAILED, BUSY, NOTHING, COMPLETED, STALE = 0, 1, 2, 3, 4
OUTCOMES = ("failed", "lock-busy", "nothing", "completed", "stale-input")
NO_LOCK = -1.0  # "the lock's mtime" when there is no lock file
COLUMNS = ("user", "trigger", "kind", "t", "acquire", "outcome", "sessions", "input_bytes",
           "content_bytes", "deleted", "kept_active", "memory_chars", "response_chars",
           "truncated", "duplicate")  # fmt: skip
I64 = NDArray[np.int64]
F64 = NDArray[np.float64]


class Acquisitions:
    """Mixin of ``Engine``: the state below is created by ``Engine.__init__``."""

    T: Trace
    config: DreamConfig
    params: SimParams
    lock: NDArray[np.bool_]
    last: F64
    holder_until: F64
    n_le: I64
    nlogs: I64
    mem: I64
    last_done: F64
    deleted: NDArray[np.bool_]
    f: dict[str, I64]
    f_acq: F64
    f_seen: F64
    manual_sets: dict[int, I64]
    rows: list[dict[str, np.ndarray]]

    if TYPE_CHECKING:

        def _refresh(self, g: I64) -> None: ...

    def _record(self, g: I64, k: I64, acquire: F64, outcome: int, **cols: Any) -> None:
        n = len(g)
        row: dict[str, np.ndarray] = {
            "user": g, "trigger": k, "kind": self.T.kind[k].astype(np.int64), "t": self.T.t[k],
            "acquire": acquire, "outcome": np.full(n, outcome, dtype=np.int64),
        }  # fmt: skip
        zeros = np.zeros(n, dtype=np.int64)
        for c in COLUMNS[6:]:
            row[c] = np.asarray(cols.get(c, zeros))
        self.rows.append(row)

    def _acquire(self, g: I64, slot: I64) -> None:
        T, cfg, prm = self.T, self.config, self.params
        tau = self.f_acq[g, slot]
        self.f_acq[g, slot] = np.inf
        k, lo, p = self.f["trig"][g, slot], self.f["lo"][g, slot], self.f["p"][g, slot]
        seen = self.f["mem"][g, slot]
        content = self.f["content"][g, slot]
        no_reply = T.u(k) < prm.model_failure_rate + prm.no_reply_rate
        grown = np.ceil(prm.memory_growth * content).astype(np.int64)
        answer = np.maximum(3, np.minimum(seen, cfg.max_existing_bytes) + grown)
        common = {"sessions": p, "input_bytes": self.f["inb"][g, slot], "content_bytes": content,
                  "response_chars": np.where(no_reply, NO_REPLY_CHARS, answer)}  # fmt: skip
        age = tau - self.last[g]
        busy = self.lock[g] & (age < cfg.stale_lock_secs) & (tau < self.holder_until[g])
        prior = np.where(self.lock[g], self.last[g], NO_LOCK)
        stale = ~busy & cfg.stale_input_check & (prior != self.f_seen[g, slot])
        for code, mask in ((BUSY, busy), (STALE, stale)):
            if mask.any():
                self._record(g[mask], k[mask], tau[mask], code, memory_chars=self.mem[g[mask]],
                             **{c: v[mask] for c, v in common.items()})  # fmt: skip
        if stale.any():  # rollback(prior): an empty body (or no lock at all), mtime kept
            self.holder_until[g[stale]] = -np.inf
            self.lock[g[stale]] = prior[stale] != NO_LOCK
        ok = ~busy & ~stale
        g, k, tau, lo, p, nothing = g[ok], k[ok], tau[ok], lo[ok], p[ok], no_reply[ok]
        common = {c: v[ok] for c, v in common.items()}
        self.lock[g] = True
        self.last[g] = tau
        self.holder_until[g] = np.maximum(T.alive(k), tau + prm.linger_secs)
        self._update_n_le(g, k)
        self._refresh(g)
        if nothing.any():
            n = nothing
            self._record(g[n], k[n], tau[n], NOTHING, memory_chars=self.mem[g[n]],
                         **{c: v[n] for c, v in common.items()})  # fmt: skip
        d = ~nothing
        if d.any():
            self._complete(g[d], k[d], tau[d], lo[d], p[d], {c: v[d] for c, v in common.items()})

    def _update_n_le(self, g: I64, k: I64) -> None:
        """Logs with mtime <= the new lock time: those written by the trigger, then a search."""
        T = self.T
        start = T.loff[g] + np.maximum(self.n_le[g], T.nw[k])
        last = self.last[g]
        first_newer = first_true(lambda rows, i: T.log_t[i] > last[rows], start, T.loff[g + 1])
        self.n_le[g] = first_newer - T.loff[g]

    def _complete(self, g: I64, k: I64, tau: F64, lo: I64, p: I64, common: dict[str, I64]) -> None:
        cfg = self.config
        want = common["response_chars"]
        self.mem[g] = np.minimum(want, cfg.max_response_chars)
        deleted, active = self._cleanup(k, tau, lo, p)
        duplicate = self.last_done[g] > self.T.t[k]
        self.last_done[g] = tau
        truncated = (want > cfg.max_response_chars).astype(np.int64)
        self._record(g, k, tau, COMPLETED, deleted=deleted, kept_active=active,
                     memory_chars=self.mem[g], truncated=truncated,
                     duplicate=duplicate.astype(np.int64), **common)  # fmt: skip

    def _cleanup(self, k: I64, tau: F64, lo: I64, p: I64) -> tuple[I64, I64]:
        """Delete processed logs quiet for the grace period; (deleted, kept active) per run."""
        n = len(k)
        auto = lo >= 0
        manual = np.flatnonzero(~auto)
        pieces = [self.manual_sets.pop(int(k[i])) for i in manual]
        counts = np.where(auto, p, 0)
        reps = np.repeat(np.arange(n), counts)
        first = np.repeat(lo - (np.cumsum(counts) - counts), counts)
        idx = np.concatenate([first + np.arange(len(reps)), *pieces]).astype(np.int64)
        owner = np.concatenate(
            [reps, *[np.full(len(x), i) for i, x in zip(manual, pieces, strict=True)]]
        )
        owner = owner.astype(np.int64)
        present = ~self.deleted[idx]
        active = present & ((tau[owner] - self.T.log_t[idx]) < self.config.active_grace_secs)
        gone = present & ~active
        self.deleted[idx[gone]] = True
        return (np.bincount(owner[gone], minlength=n).astype(np.int64),
                np.bincount(owner[active], minlength=n).astype(np.int64))  # fmt: skip
