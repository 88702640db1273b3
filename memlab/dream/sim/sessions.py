"""Synthetic sessions for the capacity simulator (they do not depend on the Dream config).

Per user, sessions arrive as a Poisson process (rates gamma-distributed across
users when ``rate_shape`` is set), shaped by the arrival profile; a share are
sub-agent sessions (no log, no trigger); a main session lasts a lognormal time
and at most ``max_concurrent`` run at once; some issue ``/dream``. Times are
whole milliseconds after ``t0``. See ``SimParams`` for every parameter.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from memlab.arrays import FloatArray as F64
from memlab.arrays import IntArray as I64
from memlab.dream.sim.compiled import normalised_spacings, one_slot_starts
from memlab.dream.sim.params import DIURNAL, WEEKDAYS, SimParams
from memlab.timefmt import DAY


def offsets(user: I64, users: int) -> I64:
    return np.concatenate([[0], np.cumsum(np.bincount(user, minlength=users))]).astype(np.int64)


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

    def take(self, lo: int, hi: int) -> Sessions:
        """Users lo..hi-1 (renumbered from 0): sessions are grouped by user."""
        off = offsets(self.user, self.users)
        a, b = int(off[lo]), int(off[hi])
        return Sessions(
            hi - lo,
            self.user[a:b] - lo,
            self.start_ms[a:b],
            self.end_ms[a:b],
            self.nbytes[a:b],
            self.manual_ms[a:b],
            self.subagent_ends[lo:hi],
            self.t0,
        )


def _sorted_uniforms(rng: np.random.Generator, counts: I64) -> F64:
    """Per block of ``counts[u]`` values: sorted uniforms on (0, 1), from normalised
    exponential spacings (no sort needed; normalised in one compiled pass, ``sim.kernels``)."""
    cs = np.cumsum(rng.exponential(size=int(counts.sum()) + len(counts)))
    values: F64 = normalised_spacings(cs, np.ascontiguousarray(counts, dtype=np.int64))
    return values


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
    if slots == 1:  # start_i = max(a_i, end_{i−1}): compiled (``sim.kernels``)
        starts: I64 = one_slot_starts(off, arrive, length)
        return starts
    counts = np.diff(off)
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
    start = _schedule(
        user, arrive.astype(np.int64), length.astype(np.int64), params.max_concurrent, users
    )
    end = start + length.astype(np.int64)
    size = _lognormal(rng, params.session_bytes, params.session_bytes_sigma, n)
    nbytes = np.maximum(1, np.rint(size)).astype(np.int64)
    manual = np.full(n, -1, dtype=np.int64)
    if params.manual_share > 0:
        asks = np.flatnonzero(rng.random(n) < params.manual_share)
        at = start[asks] + np.floor(rng.random(len(asks)) * (end[asks] - start[asks]))
        manual[asks] = np.where(at < end[asks], at, -1)
    return Sessions(users, user, start, end, nbytes, manual, subagent_ends, params.start)
