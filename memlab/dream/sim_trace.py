"""Traces for the capacity simulator: sessions first, then the triggers a configuration sees.

``Sessions`` do not depend on the Dream configuration (a sweep reuses them);
``build_trace`` turns them into the triggers of one configuration — session ends
(each writes its log first), periodic checks (``start + k·interval < end``, as
``gates.periodic_check_times``) and ``/dream`` commands — ordered per user by
time, then kind (end, periodic, manual), then session. Times are whole
milliseconds after ``t0`` so that this order is exact. The model's outcome and
latency for trigger ``k`` are a pure function of (seed, k) (a counter-based
hash), so they are drawn only for the triggers that do call the model, and the
reference and the vectorised engine see the same numbers.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike, NDArray

from memlab.config import DreamConfig
from memlab.dream.sim_params import DAY, DIURNAL, WEEKDAYS, SimParams

END, TICK, MANUAL = 0, 1, 2
F64 = NDArray[np.float64]
I64 = NDArray[np.int64]
_MIX = (np.uint64(0x9E3779B97F4A7C15), np.uint64(0xBF58476D1CE4E5B9), np.uint64(0x94D049BB133111EB))


def offsets(user: I64, users: int) -> I64:
    return np.concatenate([[0], np.cumsum(np.bincount(user, minlength=users))]).astype(np.int64)


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
class Sessions:
    users: int
    user: I64  # main sessions, grouped by user
    start_ms: I64  # milliseconds after t0
    end_ms: I64
    nbytes: I64
    manual_ms: I64  # -1: no /dream in this session
    subagent_ends: I64  # per user
    t0: float

    @classmethod
    def concat(cls, parts: list[Sessions]) -> Sessions:
        """Blocks of users, one after the other, as one ``Sessions``."""
        firsts = np.cumsum([0] + [p.users for p in parts])[:-1]

        def cat(name: str) -> I64:
            return np.concatenate([getattr(p, name) for p in parts])

        user = np.concatenate([p.user + f for p, f in zip(parts, firsts, strict=True)])
        return cls(int(sum(p.users for p in parts)), user, cat("start_ms"), cat("end_ms"),
                   cat("nbytes"), cat("manual_ms"), cat("subagent_ends"), parts[0].t0)  # fmt: skip

    def take(self, lo: int, hi: int) -> Sessions:
        """Users lo..hi-1 (renumbered from 0): sessions are grouped by user."""
        off = offsets(self.user, self.users)
        a, b = int(off[lo]), int(off[hi])
        return Sessions(hi - lo, self.user[a:b] - lo, self.start_ms[a:b], self.end_ms[a:b],
                        self.nbytes[a:b], self.manual_ms[a:b], self.subagent_ends[lo:hi],
                        self.t0)  # fmt: skip


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
    k0: int = 0  # this trace's first trigger number in the whole fleet (keys the draws)

    @property
    def n_triggers(self) -> int:
        return len(self.t)

    def u(self, k: ArrayLike) -> F64:
        """The uniform deciding trigger k's model outcome (failure, NO_REPLY, answer)."""
        return hashed_uniform(self.seed, 0, np.asarray(k) + self.k0)

    def latency(self, k: ArrayLike) -> F64:
        """Trigger k's model latency: lognormal (Box–Muller on two hashed uniforms)."""
        shape = np.asarray(k).reshape(-1).shape
        if self.latency_mean <= 0 or self.latency_sigma <= 0:
            return np.full(shape, max(self.latency_mean, 0.0))
        g = np.asarray(k) + self.k0
        u1, u2 = 1.0 - hashed_uniform(self.seed, 1, g), hashed_uniform(self.seed, 2, g)
        z = np.sqrt(-2.0 * np.log(u1)) * np.cos(2.0 * np.pi * u2)
        s = self.latency_sigma
        return np.exp(np.log(self.latency_mean) - s * s / 2.0 + s * z)

    def alive(self, k: ArrayLike) -> F64:
        """Until when the agent process of trigger k's session lives at least (end + linger)."""
        ends = self.sess_end_ms[self.sess[np.asarray(k).reshape(-1)]]
        return self.t0 + ends / 1000.0 + self.linger


def _sorted_uniforms(rng: np.random.Generator, counts: I64) -> F64:
    """Per block of ``counts[u]`` values: sorted uniforms on (0, 1), from normalised
    exponential spacings (no sort needed)."""
    cs = np.cumsum(rng.exponential(size=int(counts.sum()) + len(counts)))
    last = np.cumsum(counts + 1) - 1
    first = last - counts
    base = np.where(first > 0, cs[np.maximum(first - 1, 0)], 0.0)
    values = (cs - np.repeat(base, counts + 1)) / np.repeat(cs[last] - base, counts + 1)
    keep = np.ones(len(cs), dtype=bool)
    keep[last] = False
    return values[keep]


def _arrival_times(unit: F64, params: SimParams) -> F64:
    """Seconds after the start, shaped by the arrival profile."""
    span = params.days * DAY
    if params.arrivals == "poisson":
        return unit * span
    hours = int(np.ceil(span / 3600.0))
    absolute = np.floor(params.start / 3600.0) + np.arange(hours)
    weight = np.asarray(DIURNAL)[(absolute % 24).astype(int)]
    if params.arrivals == "weekly":
        weight = weight * np.asarray(WEEKDAYS)[((absolute // 24 + 3) % 7).astype(int)]
    weight[-1] *= span / 3600.0 - (hours - 1)  # the last, partial hour
    cumulative = np.concatenate([[0.0], np.cumsum(weight)]) / weight.sum()
    return np.interp(unit, cumulative, np.minimum(np.arange(hours + 1) * 3600.0, span))


def _lognormal(rng: np.random.Generator, mean: float, sigma: float, n: int) -> F64:
    """Lognormal values with the given mean (exp of a normal: faster than rng.lognormal)."""
    if mean <= 0:
        return np.zeros(n)
    z = rng.standard_normal(n)
    z *= sigma
    z += np.log(mean) - sigma**2 / 2.0
    return np.exp(z, out=z)


def _schedule(user: I64, arrive: I64, length: I64, slots: int, users: int) -> I64:
    """Start times (ms): at arrival, or when one of ``slots`` sessions ends (0: no limit)."""
    if slots == 0 or len(user) == 0:
        return arrive.copy()
    off = offsets(user, users)
    counts = np.diff(off)
    if slots == 1:  # end_i = S_i + max_{j<=i}(a_j − S_{j−1}), a segmented running max
        cs = np.cumsum(length)
        before = np.repeat(np.where(off[:-1] > 0, cs[np.maximum(off[:-1] - 1, 0)], 0), counts)
        s_prev = cs - length - before
        shift = user << 42  # keeps each user's running max to itself (exact in int64)
        best = np.maximum.accumulate(arrive - s_prev + shift) - shift
        return s_prev + best
    by_count = np.argsort(-counts, kind="stable")
    free = np.full((users, slots), np.iinfo(np.int64).min)
    start = np.empty_like(arrive)
    for k in range(int(counts.max())):
        us = by_count[: np.searchsorted(-counts[by_count], -k, side="left")]
        idx = off[us] + k
        slot = np.argmin(free[us], axis=1)
        s = np.maximum(arrive[idx], free[us, slot])
        start[idx] = s
        free[us, slot] = s + length[idx]
    return start


def generate_sessions(params: SimParams, first: int = 0, count: int | None = None) -> Sessions:
    """Synthetic sessions of users first..first+count-1 (default: all ``params.users``) over
    ``params.days`` days; each block of users has its own random stream."""
    rng = np.random.default_rng([params.seed, 0, first])
    users = params.users - first if count is None else count
    rates = np.full(users, params.sessions_per_day)
    if params.rate_shape:
        rates = rates * rng.gamma(params.rate_shape, 1.0 / params.rate_shape, users)
    counts = rng.poisson(rates * params.days)
    arrive = np.rint(_arrival_times(_sorted_uniforms(rng, counts), params) * 1000.0)
    user = np.repeat(np.arange(users, dtype=np.int64), counts)
    subagent_ends = np.zeros(users, dtype=np.int64)
    if params.subagent_share > 0:
        sub = rng.random(len(user)) < params.subagent_share
        subagent_ends = np.bincount(user[sub], minlength=users).astype(np.int64)
        user, arrive = user[~sub], arrive[~sub]
    n = len(user)
    length = np.rint(_lognormal(rng, params.session_minutes * 60_000.0, params.session_sigma, n))
    start = _schedule(user, arrive.astype(np.int64), length.astype(np.int64),
                      params.max_concurrent, users)  # fmt: skip
    end = start + length.astype(np.int64)
    size = _lognormal(rng, params.session_bytes, params.session_bytes_sigma, n)
    nbytes = np.maximum(1, np.rint(size)).astype(np.int64)
    manual = np.full(n, -1, dtype=np.int64)
    if params.manual_share > 0:
        asks = np.flatnonzero(rng.random(n) < params.manual_share)
        at = start[asks] + np.floor(rng.random(len(asks)) * (end[asks] - start[asks]))
        manual[asks] = np.where(at < end[asks], at, -1)
    return Sessions(users, user, start, end, nbytes, manual, subagent_ends, params.start)


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


def build_trace(s: Sessions, config: DreamConfig, params: SimParams, k0: int = 0) -> Trace:
    """The triggers one configuration sees, in processing order."""
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
    all_sess, all_ms = np.concatenate(sess), np.concatenate(ms)
    user = s.user[all_sess]
    key = (user << 40) | (all_ms << 2) | kinds
    reordered = len(key) > 1 and not bool(np.all(key[1:] >= key[:-1]))
    if reordered:
        order = np.argsort(key, kind="stable")
        user, all_ms, kinds, all_sess = user[order], all_ms[order], kinds[order], all_sess[order]
    return _finish(s, params, user, all_ms, kinds, all_sess, k0, reordered)


def _finish(s: Sessions, params: SimParams, user: I64, ms: I64, kind: NDArray[np.int8],
            sess: I64, k0: int, reordered: bool) -> Trace:  # fmt: skip
    toff = offsets(user, s.users)
    t = s.t0 + ms / 1000.0
    is_end = kind == END
    only_ends = bool(is_end.all())
    cs = np.cumsum(is_end, dtype=np.int64) if not only_ends else np.arange(1, len(t) + 1)
    nw = cs - np.repeat(np.concatenate([[0], cs])[toff[:-1]], np.diff(toff))
    logs = slice(None) if only_ends else np.flatnonzero(is_end)
    manual = kind == MANUAL
    return Trace(
        users=s.users, t0=s.t0, seed=params.seed, latency_mean=params.latency_secs,
        latency_sigma=params.latency_sigma, linger=params.linger_secs, toff=toff, t=t,
        kind=kind, sess=sess, sess_end_ms=s.end_ms, nw=nw, base=nw - is_end,
        loff=toff if only_ends else offsets(user[logs], s.users), log_t=t[logs],
        log_bytes=s.nbytes if only_ends and not reordered else s.nbytes[sess[logs]],
        subagent_ends=s.subagent_ends,
        auto_cs=np.concatenate([[0], np.cumsum(~manual, dtype=np.int64)]) if manual.any() else None,
        manual_pos=np.flatnonzero(manual), k0=k0,
    )  # fmt: skip
