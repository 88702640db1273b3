"""The simulator's compiled engine: each user's events in time order, one user at a time.

The same rules as the vectorised engine (``sim.engine``: gates, input assembly,
lock, write, cleanup — SPEC §7), restated as one sequential loop per user and
compiled with numba (``memlab.jit``: compiling takes about 20 s once per machine, its
cache then loads in milliseconds; numba's own start costs about 0.5 s once per
process, before a pool forks: ``ready``). Per user, events are processed in time
order: the next trigger or the earliest returning model call, calls first at equal
times, the earliest trigger first among calls returning together — the order of
``sim.reference``.

Every number is computed with the same operations as the vectorised engine
(integer arithmetic, IEEE additions, multiplications and divisions), and the
model's draws are not recomputed here: the uniform of a trigger is the same
integer hash (``trace.hashed_uniform``), and its latency comes from
``Trace.lognormal`` in numpy, for every trigger up front (numpy's exp, log and cos
need not round as the compiled ones do). The tests prove the kernel equal to the
vectorised engine and to the reference, run for run.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from memlab.config import DreamConfig
from memlab.dream.sim.params import EXISTING_COST, NO_REPLY_CHARS, SESSION_COST, SimParams
from memlab.dream.sim.state import BUSY, COLUMNS, COMPLETED, COUNTERS, FAILED, NOTHING, STALE
from memlab.dream.sim.trace import END, MANUAL, USER_KEY, Trace
from memlab.jit import numba

nb = numba()

# integer columns of an attempt row in the kernel's output (``user``, ``kind``, ``t`` and
# ``acquire`` are added outside: the first three follow from the trigger)
_INT = ("trigger", "outcome", *COLUMNS[6:])
_TRIGGER, _OUTCOME, _SESSIONS, _INPUT, _CONTENT, _DELETED, _ACTIVE, _MEMORY, _RESPONSE = range(9)
_TRUNCATED, _DUPLICATE = 9, 10
# pending call fields (int): trigger, first_log, sessions, input, content, memory seen,
# offset and length of a /dream's logs in the manual buffer
_P_TRIGGER, _P_FIRST, _P_SESSIONS, _P_INPUT, _P_CONTENT, _P_MEMORY, _P_MOFF, _P_MLEN = range(8)
_C_CHECKS, _C_DISABLED, _C_TOO_SOON, _C_TOO_FEW, _C_NO_INPUT, _C_MANUAL, _C_MANUAL_EMPTY = range(7)
assert COUNTERS == ("checks", "disabled", "too_soon", "too_few", "no_input", "manual",
                    "manual_empty")  # fmt: skip
MANUAL_SLOTS_MAX = 2**23  # /dream log slots the kernel may reserve (64 MB); beyond: the engine
CALL_SLOTS_MAX = 2**20  # calls in flight it may reserve for one user (80 MB); beyond: the engine
_M0, _M1, _M2 = (np.uint64(0x9E3779B97F4A7C15), np.uint64(0xBF58476D1CE4E5B9),
                 np.uint64(0x94D049BB133111EB))  # fmt: skip
_SEED_SHIFT = np.uint64(2**34)


@nb.njit(cache=True, nogil=True)
def _uniform(seed32: np.uint64, key: np.int64, stream: int = 0) -> float:
    """``hashed_uniform(seed, stream, key)``: the same splitmix64, the same float."""
    x = np.uint64(key) * np.uint64(4) + np.uint64(stream) + seed32 * _SEED_SHIFT
    z = x + _M0
    z = (z ^ (z >> np.uint64(30))) * _M1
    z = (z ^ (z >> np.uint64(27))) * _M2
    z = z ^ (z >> np.uint64(31))
    return float(z >> np.uint64(11)) * 2.0**-53


@nb.njit(cache=True, nogil=True)
def _uniforms(toff: Any, u0: int, seed32: np.uint64, stream: int) -> Any:
    """``hashed_uniform(seed, stream, trace.key(k))`` of every trigger k."""
    out = np.empty(toff[-1])
    for u in range(len(toff) - 1):
        for k in range(toff[u], toff[u + 1]):
            out[k] = _uniform(seed32, (u0 + u) * USER_KEY + (k - toff[u]), stream)
    return out


@nb.njit(cache=True, nogil=True)
def _record(out: Any, acq: Any, n: int, at: float, values: Any) -> int:
    """Append one attempt row (``values``, the ``_INT`` columns): row ``n``."""
    out[:, n] = values
    acq[n] = at
    return n + 1


@nb.njit(cache=True, nogil=True)
def _sort_by_trigger(out: Any, acq: Any, lo: int, hi: int) -> None:
    """Rows lo..hi-1 (one user's attempts, in the order they were resolved: nearly in
    trigger order) into trigger order, by insertion."""
    for i in range(lo + 1, hi):
        j = i
        while j > lo and out[_TRIGGER, j - 1] > out[_TRIGGER, j]:
            for c in range(out.shape[0]):
                out[c, j - 1], out[c, j] = out[c, j], out[c, j - 1]
            acq[j - 1], acq[j] = acq[j], acq[j - 1]
            j -= 1


@nb.njit(cache=True, nogil=True)
def _existing_block(memory: int, max_existing: int) -> int:
    return EXISTING_COST + min(memory, max_existing) if memory > 0 else 0


@nb.njit(cache=True, nogil=True)
def _run(
    toff: Any, t: Any, kind: Any, sess: Any, sess_end_ms: Any, nw: Any, base: Any,
    loff: Any, log_t: Any, log_bytes: Any, latency: Any,
    u0: int, seed32: np.uint64, t0: float, linger: float,
    memory_bytes: int, failure_rate: float, no_reply_rate: float, growth: float,
    enabled: bool, min_hours: float, min_sessions: int, stale_lock_secs: float,
    stale_check: bool, max_existing: int, max_input: int, max_response: int, grace: float,
    cost: Any, deleted: Any, consolidated: Any, counters: Any, out: Any, acq: Any, mbuf: Any,
    slots: int,
    n: int, first_user: int,
) -> tuple[int, int]:  # fmt: skip
    """Users from ``first_user`` on, their attempts appended to ``out``/``acq`` from row
    ``n``; stops before a user whose triggers might not fit (the caller grows the buffers
    and calls again from there). Returns (rows, the first user not done). No array is
    reassigned in the loop (that would cost reference counting on every event)."""
    users = len(toff) - 1
    row = np.zeros(len(_INT), dtype=np.int64)
    # the calls in flight of the current user (at most one per trigger of theirs)
    p_int = np.zeros((8, slots), dtype=np.int64)
    p_at = np.zeros(slots)
    p_lock = np.zeros(slots)
    p_n = 0
    m_n = 0  # used in mbuf: the logs of the user's /dream calls in flight
    for u in range(first_user, users):
        if n + toff[u + 1] - toff[u] > out.shape[1]:
            return n, u
        lock_exists = False
        lock_mtime = 0.0
        holder_until = -np.inf
        lbl = 0  # logs_before_lock
        memory = memory_bytes
        last_done = -np.inf
        k, stop = toff[u], toff[u + 1]
        first_user_log, end_user_log = loff[u], loff[u + 1]
        p_n = 0
        m_n = 0
        n_user = n  # this user's attempts start here
        while k < stop or p_n > 0:
            # the earliest returning call (ties: the earliest trigger)
            best = -1
            for j in range(p_n):
                if (
                    best < 0
                    or p_at[j] < p_at[best]
                    or (p_at[j] == p_at[best] and p_int[_P_TRIGGER, j] < p_int[_P_TRIGGER, best])
                ):
                    best = j
            if best >= 0 and (k >= stop or p_at[best] <= t[k]):
                at = p_at[best]
                kc = p_int[_P_TRIGGER, best]
                c_first, c_sessions = p_int[_P_FIRST, best], p_int[_P_SESSIONS, best]
                c_input, c_content = p_int[_P_INPUT, best], p_int[_P_CONTENT, best]
                c_memory, c_lock = p_int[_P_MEMORY, best], p_lock[best]
                c_moff, c_mlen = p_int[_P_MOFF, best], p_int[_P_MLEN, best]
                last = p_n - 1  # the slot is freed: the last call moves into it
                p_int[:, best] = p_int[:, last]
                p_at[best], p_lock[best] = p_at[last], p_lock[last]
                p_n = last
                draw = _uniform(seed32, (u0 + u) * USER_KEY + (kc - toff[u]))
                no_reply = draw < failure_rate + no_reply_rate
                grown = np.int64(np.ceil(growth * c_content))
                answer = max(3, min(c_memory, max_existing) + grown)
                want = NO_REPLY_CHARS if no_reply else answer
                busy = lock_exists and (at - lock_mtime < stale_lock_secs) and at < holder_until
                prior = lock_mtime if lock_exists else -1.0
                stale = (not busy) and stale_check and prior != c_lock
                row[:] = 0
                row[_TRIGGER], row[_SESSIONS] = kc, c_sessions
                row[_INPUT], row[_CONTENT], row[_RESPONSE] = c_input, c_content, want
                if busy or stale:
                    row[_OUTCOME], row[_MEMORY] = (BUSY if busy else STALE), memory
                    n = _record(out, acq, n, at, row)
                    if stale:
                        holder_until = -np.inf
                        lock_exists = prior != -1.0
                    continue
                lock_exists = True
                lock_mtime = at
                alive = t0 + sess_end_ms[sess[kc]] / 1000.0 + linger
                holder_until = max(alive, at + linger)
                i = first_user_log + max(lbl, nw[kc])
                while i < end_user_log and not log_t[i] > at:
                    i += 1
                lbl = i - first_user_log
                if no_reply:
                    row[_OUTCOME], row[_MEMORY] = NOTHING, memory
                    n = _record(out, acq, n, at, row)
                    continue
                memory = min(want, max_response)
                gone = active = 0
                count = c_mlen if c_first < 0 else c_sessions
                for j in range(count):
                    log = mbuf[c_moff + j] if c_first < 0 else c_first + j
                    if deleted[log]:
                        continue
                    if at < consolidated[log]:
                        consolidated[log] = at
                    if at - log_t[log] < grace:
                        active += 1
                    else:
                        deleted[log] = True
                        gone += 1
                row[_OUTCOME], row[_MEMORY] = COMPLETED, memory
                row[_DELETED], row[_ACTIVE] = gone, active
                row[_TRUNCATED] = 1 if want > max_response else 0
                row[_DUPLICATE] = 1 if last_done > t[kc] else 0
                last_done = at
                n = _record(out, acq, n, at, row)
                continue
            # trigger k
            kk = k
            k += 1
            written = nw[kk]
            block = _existing_block(memory, max_existing)
            if kind[kk] == MANUAL:
                counters[_C_MANUAL, u] += 1
                on_disk = 0
                for log in range(first_user_log, first_user_log + written):
                    if not deleted[log]:
                        on_disk += 1
                if on_disk == 0:
                    counters[_C_MANUAL_EMPTY, u] += 1
                    continue
                size = block - 2 * (block == 0)
                taken = content = input_bytes = 0
                for log in range(first_user_log, first_user_log + written):
                    if deleted[log]:
                        continue
                    size += SESSION_COST + log_bytes[log]
                    mbuf[m_n + taken] = log
                    taken += 1
                    content += log_bytes[log]
                    input_bytes = size
                    if size >= max_input:
                        break
                moff, first_log = m_n, -1
                m_n += taken
            else:
                counters[_C_CHECKS, u] += 1
                if not enabled:
                    counters[_C_DISABLED, u] += 1
                    continue
                if min_hours > 0:
                    hours = np.floor(max(0.0, t[kk] - lock_mtime) / 3600.0)
                    if not hours >= min_hours:
                        counters[_C_TOO_SOON, u] += 1
                        continue
                if min_sessions > 0 and not base[kk] >= lbl + min_sessions:
                    counters[_C_TOO_FEW, u] += 1
                    continue
                newer = max(0, written - (1 if kind[kk] == END else 0) - lbl)
                first_log = first_user_log + min(written, lbl)
                target = cost[first_log] + max_input - block + 2 * (block == 0)
                taken = newer
                if cost[first_log + taken] >= target:
                    found = np.searchsorted(cost, target) - first_log
                    taken = min(max(found, 1), taken)
                span = cost[first_log + taken] - cost[first_log]
                input_bytes = block + span - 2 * ((block == 0) and (taken > 0))
                content = span - taken * SESSION_COST
                moff = 0
                if taken == 0:
                    counters[_C_NO_INPUT, u] += 1
                    continue
            # the model is called
            at = t[kk] + latency[kk]
            draw = _uniform(seed32, (u0 + u) * USER_KEY + (kk - toff[u]))
            if draw < failure_rate:
                row[:] = 0
                row[_TRIGGER], row[_OUTCOME], row[_SESSIONS] = kk, FAILED, taken
                row[_INPUT], row[_CONTENT], row[_MEMORY] = input_bytes, content, memory
                n = _record(out, acq, n, at, row)
                continue
            p_at[p_n] = at
            p_lock[p_n] = lock_mtime if lock_exists else -1.0
            p_int[_P_TRIGGER, p_n], p_int[_P_FIRST, p_n] = kk, first_log
            p_int[_P_SESSIONS, p_n], p_int[_P_INPUT, p_n] = taken, input_bytes
            p_int[_P_CONTENT, p_n], p_int[_P_MEMORY, p_n] = content, memory
            p_int[_P_MOFF, p_n], p_int[_P_MLEN, p_n] = moff, taken
            p_n += 1
        _sort_by_trigger(out, acq, n_user, n)
    return n, users


def _ints(a: Any) -> np.ndarray:
    return np.ascontiguousarray(a, dtype=np.int64)


def _floats(a: Any) -> np.ndarray:
    return np.ascontiguousarray(a, dtype=np.float64)


def _vectorised(
    trace: Trace, config: DreamConfig, params: SimParams, consolidated: Any
) -> tuple[dict[str, np.ndarray], dict[str, np.ndarray]]:
    """``sim.engine.simulate_trace``, its rows in trigger order."""
    from memlab.dream.sim.engine import simulate_trace

    cols, counts = simulate_trace(trace, config, params, consolidated=consolidated)
    order = np.argsort(cols["trigger"], kind="stable")
    return {c: v[order] for c, v in cols.items()}, counts


def simulate_trace_compiled(
    trace: Trace, config: DreamConfig, params: SimParams, *, consolidated: Any = None
) -> tuple[dict[str, np.ndarray], dict[str, np.ndarray]]:
    """The attempt columns (in trigger order) and per-user counters of ``trace``: the same
    as ``sim.engine.simulate_trace`` (whose rows come in resolution order). Every argument
    of the kernel has one type (one compiled version, whatever the values' Python types).
    ``consolidated`` (float64, one per log of the trace, ``inf``) receives when each log
    was first read by a completed consolidation (its acquisition time)."""
    whole = (params.memory_bytes, config.min_sessions, config.max_existing_bytes,
             config.max_input_bytes, config.max_response_chars)  # fmt: skip
    index_arrays = (trace.toff, trace.sess, trace.sess_end_ms, trace.nw, trace.base,
                    trace.loff, trace.log_bytes)  # fmt: skip
    integral = all(np.asarray(a).dtype.kind in "iu" for a in index_arrays)
    if not integral or not all(float(v).is_integer() for v in whole):  # not the kernel's types
        return _vectorised(trace, config, params, consolidated)
    # a /dream call in flight holds at most the user's logs, and no more than fill the input
    # cap (each adds SESSION_COST bytes at least); a user has at most their /dream calls
    users = trace.users
    most = max(1, (int(config.max_input_bytes) + 2) // SESSION_COST + 2)
    per_call = np.minimum(np.diff(_ints(trace.loff)), most)
    manual = np.bincount(trace.tuser[trace.manual_pos], minlength=users)
    manual_slots = int((manual * per_call).max(initial=0))
    slots = int(np.diff(_ints(trace.toff)).max(initial=0)) + 1  # calls in flight: one a trigger
    if manual_slots > MANUAL_SLOTS_MAX or slots > CALL_SLOTS_MAX:  # a huge replayed user
        return _vectorised(trace, config, params, consolidated)
    triggers = len(trace.t)
    seed32 = np.uint64(trace.seed % 2**32)
    toff, u0 = _ints(trace.toff), int(trace.u0)
    if trace.latency_mean <= 0 or trace.latency_sigma <= 0 or not triggers:
        latency = _floats(trace.latency(np.arange(triggers)))
    else:  # Trace.latency of every trigger, its hashing compiled
        latency = trace.lognormal(*(_uniforms(toff, u0, seed32, s) for s in (1, 2)))
    logs = len(trace.log_bytes)
    per_user = np.diff(toff)
    cost = np.concatenate([[0], np.cumsum(SESSION_COST + _ints(trace.log_bytes))])
    deleted = np.zeros(logs, dtype=bool)
    if consolidated is None:
        consolidated = np.full(logs, np.inf)
    counters = np.zeros((len(COUNTERS), users), dtype=np.int64)
    mbuf = np.zeros(manual_slots, dtype=np.int64)
    capacity = triggers // 3 + 16
    out, acquire = np.empty((len(_INT), capacity), dtype=np.int64), np.empty(capacity)
    n, done = 0, 0
    while True:
        n, done = _run(
            toff, _floats(trace.t), np.ascontiguousarray(trace.kind, dtype=np.int8),
            _ints(trace.sess), _ints(trace.sess_end_ms), _ints(trace.nw), _ints(trace.base),
            _ints(trace.loff), _floats(trace.log_t), _ints(trace.log_bytes), latency,
            u0, seed32, float(trace.t0), float(trace.linger),
            int(params.memory_bytes), float(params.model_failure_rate),
            float(params.no_reply_rate), float(params.memory_growth),
            bool(config.enabled), float(config.min_hours), int(config.min_sessions),
            float(config.stale_lock_secs), bool(config.stale_input_check),
            int(config.max_existing_bytes), int(config.max_input_bytes),
            int(config.max_response_chars), float(config.active_grace_secs),
            cost, deleted, consolidated, counters, out, acquire, mbuf, slots,
            n, done,
        )  # fmt: skip
        if done == users:
            break
        capacity = max(2 * capacity, n + int(per_user[done]))  # a user's triggers fit
        out = np.concatenate([out[:, :n], np.empty((len(_INT), capacity - n), np.int64)], 1)
        acquire = np.concatenate([acquire[:n], np.empty(capacity - n)])
    if n == 0:  # as the vectorised engine: no attempt, every column int64
        empty = {c: np.zeros(0, dtype=np.int64) for c in COLUMNS}
        return empty, {c: counters[i] for i, c in enumerate(COUNTERS)}
    k = out[_TRIGGER, :n]  # users in order, each user's attempts in trigger order
    columns: dict[str, np.ndarray] = {
        "user": trace.tuser[k],
        "kind": trace.kind[k].astype(np.int64),
        "t": trace.t[k],
        "acquire": acquire[:n].copy(),
    }
    for j, name in enumerate(_INT):
        columns[name] = out[j, :n].copy()
    return {c: columns[c] for c in COLUMNS}, {c: counters[i] for i, c in enumerate(COUNTERS)}


def ready() -> None:
    """Load (or compile) the kernel in this process: before a pool forks its workers, so
    that they start with it instead of each loading it again. A line on stderr says so
    when the kernel is about to be compiled (nothing in numba's cache yet)."""
    from memlab.dream.sim.sessions import generate_sessions
    from memlab.jit import note_compiling

    note_compiling("the Dream simulator's engine", __name__)
    from memlab.dream.sim.trace import build_trace

    params, config = SimParams(users=2, days=1.0), DreamConfig()
    simulate_trace_compiled(build_trace(generate_sessions(params), config, params), config, params)
