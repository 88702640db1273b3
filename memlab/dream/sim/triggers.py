"""The triggers one Dream configuration sees, from the sessions (``sim.sessions``).

Sessions do not depend on the Dream configuration (a sweep reuses them);
``build_trace`` turns them into the triggers of one configuration — session ends
(each writes its log first), periodic checks (``start + k·interval < end``, as
``gates.periodic_check_times``) and ``/dream`` commands — ordered per user by
time, then kind (end, periodic, manual), then session. Times are whole
milliseconds after ``t0`` so that this order is exact. The model's outcome and
latency of a trigger are a pure function of (seed, the user's fleet-wide number,
the trigger's place among that user's triggers) — a counter-based hash — so they
are drawn only for the triggers that do call the model, the reference and the
engine see the same numbers, and a block of users simulates the same
wherever the fleet is cut into blocks (and on whichever core).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike, NDArray

from memlab.arrays import FloatArray as F64
from memlab.arrays import IntArray as I64
from memlab.config import DreamConfig
from memlab.dream.sim.params import SimParams
from memlab.dream.sim.sessions import Sessions, offsets

END, TICK, MANUAL = 0, 1, 2
USER_KEY = 2**22  # draw keys: user · USER_KEY + the trigger's place (a user has fewer)
_MIX = (np.uint64(0x9E3779B97F4A7C15), np.uint64(0xBF58476D1CE4E5B9), np.uint64(0x94D049BB133111EB))


def hashed_uniform(seed: int, stream: int, k: ArrayLike) -> F64:
    """A uniform on [0, 1) for each index ``k``: splitmix64 of (seed, stream, k)."""
    x = np.asarray(k, dtype=np.uint64).reshape(-1)
    x = x * np.uint64(4) + np.uint64(stream) + np.uint64(seed % 2**32) * np.uint64(2**34)
    with np.errstate(over="ignore"):
        z = x + _MIX[0]
        z = (z ^ (z >> np.uint64(30))) * _MIX[1]
        z = (z ^ (z >> np.uint64(27))) * _MIX[2]
        z = z ^ (z >> np.uint64(31))
    return (z >> np.uint64(11)).astype(np.float64) * 2.0**-53


@dataclass(frozen=True)
class Trace:
    users: int
    t0: float
    seed: int
    latency_mean: float
    latency_sigma: float
    linger: float
    toff: I64  # triggers of user u: toff[u]:toff[u+1]
    t: F64
    kind: NDArray[np.int8]
    sess: I64  # index into the sessions
    sess_end_ms: I64  # per session
    nw: I64  # logs written when the trigger fires (an end counts its own log)
    base: I64  # logs the session gate could count (written, minus its own): nw − is_end
    loff: I64  # logs of user u: loff[u]:loff[u+1], in write (= mtime = stem) order
    log_t: F64
    log_bytes: I64
    subagent_ends: I64
    auto_cs: I64 | None  # automatic triggers before each index (None: no /dream, so k)
    manual_pos: I64  # global indices of /dream triggers
    tuser: I64  # the user of each trigger
    u0: int = 0  # the fleet-wide number of this trace's first user (keys the draws)

    @property
    def n_triggers(self) -> int:
        return len(self.t)

    def key(self, k: ArrayLike) -> I64:
        """Trigger k's draw key: (fleet-wide user, its place among the user's triggers)."""
        user = self.tuser[np.asarray(k)]
        key: I64 = (self.u0 + user) * USER_KEY + (np.asarray(k) - self.toff[user])
        return key

    def u(self, k: ArrayLike) -> F64:
        """The uniform deciding trigger k's model outcome (failure, NO_REPLY, answer)."""
        return hashed_uniform(self.seed, 0, self.key(k))

    def latency(self, k: ArrayLike) -> F64:
        """Trigger k's model latency: lognormal (Box–Muller on two hashed uniforms)."""
        shape = np.asarray(k).reshape(-1).shape
        if self.latency_mean <= 0 or self.latency_sigma <= 0:
            return np.full(shape, max(self.latency_mean, 0.0))
        g = self.key(k)
        return self.lognormal(hashed_uniform(self.seed, 1, g), hashed_uniform(self.seed, 2, g))

    def lognormal(self, h1: F64, h2: F64) -> F64:
        """The latency from the two hashed uniforms of a trigger (streams 1 and 2)."""
        s = self.latency_sigma
        # exp(log(mean) − s²/2 + s·z), z = sqrt(−2·log(1 − h1))·cos(2π·h2): in place, the
        # same operations in the same order
        z = np.subtract(1.0, h1)
        np.log(z, out=z)
        z *= -2.0
        np.sqrt(z, out=z)
        c = np.multiply(2.0 * np.pi, h2)
        np.cos(c, out=c)
        z *= c
        z *= s
        z += np.log(self.latency_mean) - s * s / 2.0
        return np.exp(z, out=z)

    def alive(self, k: ArrayLike) -> F64:
        """Until when the agent process of trigger k's session lives at least (end + linger)."""
        ends = self.sess_end_ms[self.sess[np.asarray(k).reshape(-1)]]
        return self.t0 + ends / 1000.0 + self.linger


def _ticks(s: Sessions, interval: float) -> tuple[I64, I64]:
    """(session, ms) of every periodic check: start + k·interval < end for k ≥ 1."""
    start, end = s.start_ms / 1000.0, s.end_ms / 1000.0
    k_max = np.floor((end - start) / interval).astype(np.int64) + 1
    rep = np.repeat(np.arange(len(start)), k_max)
    k = np.arange(len(rep)) - np.repeat(np.cumsum(k_max) - k_max, k_max) + 1
    raw = start[rep] + k * interval
    ms = np.rint(raw * 1000.0).astype(np.int64)
    keep = (raw < end[rep]) & (ms < s.end_ms[rep])
    return rep[keep], ms[keep]


def build_trace(s: Sessions, config: DreamConfig, params: SimParams, u0: int = 0) -> Trace:
    """The triggers one configuration sees, in processing order (``u0``: the fleet-wide
    number of the sessions' first user)."""
    sess, ms, kind = [np.arange(len(s.user), dtype=np.int64)], [s.end_ms], [END]
    interval = config.periodic_interval()
    if interval is not None:
        rep, tick_ms = _ticks(s, interval)
        sess.append(rep)
        ms.append(tick_ms)
        kind.append(TICK)
    manual = np.flatnonzero(s.manual_ms >= 0)
    sess.append(manual)
    ms.append(s.manual_ms[manual])
    kind.append(MANUAL)
    kinds = np.concatenate(
        [np.full(len(x), c, dtype=np.int8) for x, c in zip(sess, kind, strict=True)]
    )
    if len(kinds) == len(s.user):  # session ends only (the default): nothing to gather
        all_sess, all_ms, user = sess[0], s.end_ms, s.user
    else:
        all_sess, all_ms = np.concatenate(sess), np.concatenate(ms)
        user = s.user[all_sess]
    key = user << 40  # the order: user, time, kind (in place: fewer temporaries)
    key |= all_ms << 2
    key |= kinds
    reordered = len(key) > 1 and not bool(np.all(key[1:] >= key[:-1]))
    if reordered:
        order = np.argsort(key, kind="stable")
        user, all_ms, kinds, all_sess = user[order], all_ms[order], kinds[order], all_sess[order]
    return _finish(s, params, user, all_ms, kinds, all_sess, u0, reordered)


def _finish(
    s: Sessions,
    params: SimParams,
    user: I64,
    ms: I64,
    kind: NDArray[np.int8],
    sess: I64,
    u0: int,
    reordered: bool,
) -> Trace:
    toff = offsets(user, s.users)
    t = s.t0 + ms / 1000.0
    is_end = kind == END
    only_ends = bool(is_end.all())
    cs = np.cumsum(is_end, dtype=np.int64) if not only_ends else np.arange(1, len(t) + 1)
    nw = cs - np.repeat(np.concatenate([[0], cs])[toff[:-1]], np.diff(toff))
    logs = slice(None) if only_ends else np.flatnonzero(is_end)
    manual = kind == MANUAL
    return Trace(
        users=s.users,
        t0=s.t0,
        seed=params.seed,
        latency_mean=params.latency_secs,
        latency_sigma=params.latency_sigma,
        linger=params.linger_secs,
        toff=toff,
        t=t,
        kind=kind,
        sess=sess,
        sess_end_ms=s.end_ms,
        nw=nw,
        base=nw - is_end,
        loff=toff if only_ends else offsets(user[logs], s.users),
        log_t=t[logs],
        log_bytes=s.nbytes if only_ends and not reordered else s.nbytes[sess[logs]],
        subagent_ends=s.subagent_ends,
        auto_cs=np.concatenate([[0], np.cumsum(~manual, dtype=np.int64)]) if manual.any() else None,
        manual_pos=np.flatnonzero(manual),
        tuser=user,
        u0=u0,
    )
