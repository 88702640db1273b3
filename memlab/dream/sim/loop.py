"""The compiled loop of the Dream simulator: one user's events in time order, one helper
per event (a trigger passes or fails the gates, its input is assembled, the model is
called; a call returns and takes the lock, writes and cleans up — SPEC §7).

Per user, events are processed in time order: the next trigger or the earliest returning
model call, calls first at equal times, the earliest trigger first among calls returning
together — the order of ``sim.reference``, which runs the same traces through Dream's own
functions (the tests prove the two equal, run for run).

Byte caps, ``min_sessions`` and the initial memory may be fractional: the settings are
float64 (whole numbers are exact in it), the bytes a call sends and the answer's length
are float64 columns; what Dream stores (``MEMORY.md``'s length, a call in flight's input)
is truncated to an integer, as the files would hold it.

No array is reassigned or taken out of a tuple on the loop's common path (reference
counting on every event): ``_user`` unpacks the tuples once per user, the gates take
scalars, the other helpers are inlined. When calls in flight or /dream logs outgrow their
buffers, ``run`` returns, ``sim.kernel`` grows them and runs that user again
(``NEED_CALLS``, ``NEED_LOGS``; rows are reserved before a user starts: ``NEED_ROWS``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from memlab.dream.sim import slots as lay
from memlab.dream.sim.params import EXISTING_COST, NO_REPLY_CHARS, SESSION_COST
from memlab.dream.sim.state import BUSY, COMPLETED, FAILED, NOTHING, STALE
from memlab.dream.sim.triggers import END, MANUAL, USER_KEY
from memlab.jit import numba

nb = numba()

_M0, _M1, _M2 = (np.uint64(0x9E3779B97F4A7C15), np.uint64(0xBF58476D1CE4E5B9),
                 np.uint64(0x94D049BB133111EB))  # fmt: skip
_SEED_SHIFT = np.uint64(2**34)


@nb.njit(cache=True, nogil=True)
def uniform(seed32: np.uint64, key: np.int64, stream: int = 0) -> float:
    """``hashed_uniform(seed, stream, key)``: the same splitmix64, the same float."""
    x = np.uint64(key) * np.uint64(4) + np.uint64(stream) + seed32 * _SEED_SHIFT
    z = x + _M0
    z = (z ^ (z >> np.uint64(30))) * _M1
    z = (z ^ (z >> np.uint64(27))) * _M2
    z = z ^ (z >> np.uint64(31))
    return float(z >> np.uint64(11)) * 2.0**-53


_INLINE = {"cache": True, "nogil": True, "inline": "always"}


@nb.njit(**_INLINE)
def _record(rows: Any, rows_f: Any, us: Any, row: Any, at: float, inp: float, ans: float) -> None:
    """Append one attempt (``row``: the int columns) at the user's next row."""
    n = us[lay.U_ROW]
    for c in range(lay.ROW_INTS):  # a loop: a slice assignment checks for overlap
        rows[c, n] = row[c]
    rows_f[lay.F_ACQUIRE, n], rows_f[lay.F_INPUT, n], rows_f[lay.F_RESPONSE, n] = at, inp, ans
    us[lay.U_ROW] = n + 1


@nb.njit(cache=True, nogil=True)
def _sort_by_trigger(rows: Any, rows_f: Any, lo: int, hi: int) -> None:
    """Rows lo..hi-1 (one user's attempts, in the order they were resolved: nearly in
    trigger order) into trigger order, by insertion."""
    for i in range(lo + 1, hi):
        j = i
        while j > lo and rows[lay.R_TRIGGER, j - 1] > rows[lay.R_TRIGGER, j]:
            for c in range(lay.ROW_INTS):
                rows[c, j - 1], rows[c, j] = rows[c, j], rows[c, j - 1]
            for c in range(lay.ROW_FLOATS):
                rows_f[c, j - 1], rows_f[c, j] = rows_f[c, j], rows_f[c, j - 1]
            j -= 1


@nb.njit(**_INLINE)
def _existing_block(memory: int, cfg: Any) -> float:
    """Bytes of the existing-memory block of the input (0 without memory)."""
    return EXISTING_COST + min(memory, cfg[lay.S_MAX_EXISTING]) if memory > 0 else 0.0


@nb.njit(**_INLINE)
def _earliest_call(calls: Any, calls_f: Any, pending: int) -> int:
    """The call in flight that returns first (ties: the earliest trigger); -1 if none."""
    best = -1
    for j in range(pending):
        at = calls_f[lay.C_AT, j]
        first = best < 0 or at < calls_f[lay.C_AT, best]
        if first or (
            at == calls_f[lay.C_AT, best] and calls[lay.C_TRIGGER, j] < calls[lay.C_TRIGGER, best]
        ):
            best = j
    return best


@nb.njit(**_INLINE)
def _gates(
    enabled: bool, min_hours: float, min_sessions: float, since_lock: float, base: int, lbl: int
) -> int:  # fmt: skip
    """An automatic trigger's gates (SPEC §7.1–7.2), ``since_lock`` seconds after the
    lock's mtime, ``base`` logs written (not its own), ``lbl`` of them before the lock:
    the counter of the closed one, or -1."""
    if not enabled:
        return lay.C_DISABLED
    if min_hours > 0:
        hours = np.floor(max(0.0, since_lock) / 3600.0)
        if not hours >= min_hours:
            return lay.C_TOO_SOON
    if min_sessions > 0 and not base >= lbl + min_sessions:
        return lay.C_TOO_FEW
    return -1


@nb.njit(**_INLINE)
def _auto_input(kind: Any, nw: Any, cost: Any, cfg: Any, us: Any, k: int) -> Any:
    """SPEC §7.3 step 1 for an automatic run: the memory block, then the logs newer than
    the lock until one reaches ``max_input_bytes`` (``cost`` finds it by one search).
    (first log, logs taken, input bytes, content bytes)."""
    written = nw[k]
    block = _existing_block(us[lay.U_MEMORY], cfg)
    empty = block == 0
    newer = max(0, written - (1 if kind[k] == END else 0) - us[lay.U_LBL])
    first_log = us[lay.U_FIRST_LOG] + min(written, us[lay.U_LBL])
    target = cost[first_log] + cfg[lay.S_MAX_INPUT] - block + 2 * empty
    taken = newer
    if cost[first_log + taken] >= target:
        found = np.searchsorted(cost, target) - first_log
        taken = min(max(found, 1), taken)
    span = cost[first_log + taken] - cost[first_log]
    input_bytes = block + span - 2 * (empty and taken > 0)
    return first_log, taken, input_bytes, span - taken * SESSION_COST


@nb.njit(**_INLINE)
def _manual_input(
    written: int, log_bytes: Any, deleted: Any, mbuf: Any, cfg: Any, us: Any
) -> Any:  # fmt: skip
    """SPEC §7.3 step 1 for /dream: every log still on disk of the ``written`` so far,
    listed in ``mbuf``. (logs taken, input bytes, content bytes); no room: taken is -1."""
    block = np.int64(_existing_block(us[lay.U_MEMORY], cfg))
    size = block - 2 * (block == 0)
    taken = content = 0
    start = us[lay.U_MBUF]
    for log in range(us[lay.U_FIRST_LOG], us[lay.U_FIRST_LOG] + written):
        if deleted[log]:
            continue
        if start + taken >= len(mbuf):
            return -1, 0.0, 0
        size += SESSION_COST + log_bytes[log]
        mbuf[start + taken] = log
        taken += 1
        content += log_bytes[log]
        if size >= cfg[lay.S_MAX_INPUT]:
            break
    us[lay.U_MBUF] = start + taken
    return taken, float(size), content


@nb.njit(**_INLINE)
def _cleanup(
    log_t: Any, deleted: Any, consolidated: Any, mbuf: Any, call: Any, grace: float, at: float
) -> Any:  # fmt: skip
    """SPEC §7.4: the logs ``call`` processed (from its first, or listed in ``mbuf`` for
    /dream) still on disk are first read now; those quiet for the grace period are
    deleted. (deleted, kept active)."""
    first, sessions, moff = call[1], call[2], call[6]
    gone = active = 0
    for j in range(sessions):
        log = mbuf[moff + j] if first < 0 else first + j
        if deleted[log]:
            continue
        if at < consolidated[log]:
            consolidated[log] = at
        if at - log_t[log] < grace:
            active += 1
        else:
            deleted[log] = True
            gone += 1
    return gone, active


@nb.njit(**_INLINE)
def _take_call(calls: Any, calls_f: Any, us: Any, j: int) -> Any:
    """Call ``j`` leaves the calls in flight (the last one moves into its slot): its
    fields, and when it returns and the lock it saw."""
    call = (calls[lay.C_TRIGGER, j], calls[lay.C_FIRST, j], calls[lay.C_SESSIONS, j],
            calls[lay.C_INPUT, j], calls[lay.C_CONTENT, j], calls[lay.C_MEMORY, j],
            calls[lay.C_MOFF, j])  # fmt: skip
    at, lock_seen = calls_f[lay.C_AT, j], calls_f[lay.C_LOCK, j]
    last = us[lay.U_CALLS] - 1
    for c in range(lay.CALL_INTS):
        calls[c, j] = calls[c, last]
    calls_f[lay.C_AT, j], calls_f[lay.C_LOCK, j] = (
        calls_f[lay.C_AT, last],
        calls_f[lay.C_LOCK, last],
    )
    us[lay.U_CALLS] = last
    return call, at, lock_seen


@nb.njit(**_INLINE)
def _lock_decision(cfg: Any, lock: Any, at: float, lock_seen: float) -> int:
    """SPEC §7.3 step 3 and the stale-input check: BUSY, STALE (the lock rolled back), or
    COMPLETED (the run takes the lock)."""
    exists = lock[lay.L_EXISTS] > 0
    busy = exists and (at - lock[lay.L_MTIME] < cfg[lay.S_STALE_SECS]) and at < lock[lay.L_HOLDER]
    if busy:
        return BUSY
    prior = lock[lay.L_MTIME] if exists else -1.0
    if cfg[lay.S_STALE_CHECK] > 0 and prior != lock_seen:
        lock[lay.L_HOLDER] = -np.inf  # rollback(prior): an empty body (or no lock), mtime kept
        lock[lay.L_EXISTS] = 1.0 if prior != -1.0 else 0.0
        return STALE
    return COMPLETED


@nb.njit(**_INLINE)
def _take_lock(log_t: Any, cfg: Any, lock: Any, us: Any, at: float, alive: float, nw: int) -> None:
    """Our PID in the lock, its mtime ``at``; the logs before it counted anew."""
    lock[lay.L_EXISTS], lock[lay.L_MTIME] = 1.0, at
    lock[lay.L_HOLDER] = max(alive, at + cfg[lay.S_LINGER])
    i = us[lay.U_FIRST_LOG] + max(us[lay.U_LBL], nw)
    while i < us[lay.U_END_LOG] and not log_t[i] > at:
        i += 1
    us[lay.U_LBL] = i - us[lay.U_FIRST_LOG]


@nb.njit(**_INLINE)
def _returns(
    t: Any, sess: Any, sess_end_ms: Any, nw: Any, log_t: Any, deleted: Any, consolidated: Any,
    mbuf: Any, rows: Any, rows_f: Any, row: Any, calls: Any, calls_f: Any, cfg: Any,
    lock: Any, us: Any, j: int,
) -> None:  # fmt: skip
    """Call ``j`` returns (SPEC §7.3 steps 3–5): the lock is busy, or stale, or taken; then
    nothing to write (NO_REPLY) or the new memory and the cleanup."""
    call, at, lock_seen = _take_call(calls, calls_f, us, j)
    k, _, sessions, input_bytes, content, seen, _ = call
    no_reply = (
        uniform(np.uint64(us[lay.U_SEED]), us[lay.U_KEY] + k)
        < cfg[lay.S_FAILURE] + cfg[lay.S_NO_REPLY]
    )
    grown = np.int64(np.ceil(cfg[lay.S_GROWTH] * content))
    answer = max(3.0, min(seen, cfg[lay.S_MAX_EXISTING]) + grown)
    want = float(NO_REPLY_CHARS) if no_reply else answer
    row[:] = 0
    row[lay.R_TRIGGER], row[lay.R_SESSIONS], row[lay.R_CONTENT] = k, sessions, content
    row[lay.R_MEMORY] = us[lay.U_MEMORY]
    outcome = _lock_decision(cfg, lock, at, lock_seen)
    if outcome == COMPLETED:
        alive = cfg[lay.S_T0] + sess_end_ms[sess[k]] / 1000.0 + cfg[lay.S_LINGER]
        _take_lock(log_t, cfg, lock, us, at, alive, nw[k])
        if no_reply:
            outcome = NOTHING
    if outcome == COMPLETED:
        memory = np.int64(min(want, cfg[lay.S_MAX_RESPONSE]))
        us[lay.U_MEMORY] = memory
        gone, active = _cleanup(log_t, deleted, consolidated, mbuf, call, cfg[lay.S_GRACE], at)
        row[lay.R_DELETED], row[lay.R_ACTIVE], row[lay.R_MEMORY] = gone, active, memory
        row[lay.R_TRUNCATED] = 1 if want > cfg[lay.S_MAX_RESPONSE] else 0
        row[lay.R_DUPLICATE] = 1 if lock[lay.L_LAST_DONE] > t[k] else 0
        lock[lay.L_LAST_DONE] = at
    row[lay.R_OUTCOME] = outcome
    _record(rows, rows_f, us, row, at, float(input_bytes), want)


@nb.njit(**_INLINE)
def _call_model(
    at: float, rows: Any, rows_f: Any, row: Any, calls: Any, calls_f: Any, cfg: Any,
    lock: Any, us: Any, call: Any, input_bytes: float,
) -> int:  # fmt: skip
    """The model is called for trigger ``call[0]``, returning ``at``: a failure is
    recorded at once, an answer waits for the lock among the calls in flight. DONE, or
    NEED_CALLS."""
    k, first_log, taken, _, content, _, moff = call
    if uniform(np.uint64(us[lay.U_SEED]), us[lay.U_KEY] + k) < cfg[lay.S_FAILURE]:
        row[:] = 0
        row[lay.R_TRIGGER], row[lay.R_OUTCOME], row[lay.R_SESSIONS] = k, FAILED, taken
        row[lay.R_CONTENT], row[lay.R_MEMORY] = content, us[lay.U_MEMORY]
        _record(rows, rows_f, us, row, at, input_bytes, 0.0)
        return lay.DONE
    j = us[lay.U_CALLS]
    if j >= calls.shape[1]:
        return lay.NEED_CALLS
    calls[lay.C_TRIGGER, j], calls[lay.C_FIRST, j], calls[lay.C_SESSIONS, j] = k, first_log, taken
    calls[lay.C_INPUT, j], calls[lay.C_CONTENT, j] = np.int64(input_bytes), content
    calls[lay.C_MEMORY, j], calls[lay.C_MOFF, j] = us[lay.U_MEMORY], moff
    calls_f[lay.C_AT, j] = at
    calls_f[lay.C_LOCK, j] = lock[lay.L_MTIME] if lock[lay.L_EXISTS] > 0 else -1.0
    us[lay.U_CALLS] = j + 1
    return lay.DONE


@nb.njit(cache=True, nogil=True)
def _user(tr: lay.Trace, b: lay.Buffers, cfg: Any, lock: Any, us: Any, row: Any) -> int:
    """All the events of user ``us[U_USER]``: DONE, or what the buffers lack. The tuples
    are unpacked here, once: inside the loop no array is taken out of one (each would
    cost reference counting on every event)."""
    u = us[lay.U_USER]
    k, stop = tr.toff[u], tr.toff[u + 1]
    t, kind, base, nw, latency, cost, log_bytes = (
        tr.t,
        tr.kind,
        tr.base,
        tr.nw,
        tr.latency,
        tr.cost,
        tr.log_bytes,
    )
    counters, deleted, mbuf = b.counters, b.deleted, b.mbuf
    calls, calls_f = b.calls, b.calls_f
    sess, sess_end_ms, log_t, consolidated = tr.sess, tr.sess_end_ms, tr.log_t, b.consolidated
    rows, rows_f = b.rows, b.rows_f
    enabled, min_hours = cfg[lay.S_ENABLED] > 0, cfg[lay.S_MIN_HOURS]
    min_sessions = cfg[lay.S_MIN_SESSIONS]
    while k < stop or us[lay.U_CALLS] > 0:
        best = _earliest_call(calls, calls_f, us[lay.U_CALLS]) if us[lay.U_CALLS] > 0 else -1
        if best >= 0 and (k >= stop or calls_f[lay.C_AT, best] <= t[k]):
            _returns(t, sess, sess_end_ms, nw, log_t, deleted, consolidated, mbuf, rows, rows_f,
                     row, calls, calls_f, cfg, lock, us, best)  # fmt: skip
            continue
        kk = k
        k += 1
        if kind[kk] == MANUAL:  # /dream: every log on disk, no gate
            counters[lay.C_MANUAL, u] += 1
            moff = us[lay.U_MBUF]
            taken, input_bytes, content = _manual_input(nw[kk], log_bytes, deleted, mbuf, cfg, us)
            if taken < 0:
                return lay.NEED_LOGS
            if taken == 0:
                counters[lay.C_MANUAL_EMPTY, u] += 1
                continue
            call = (kk, -1, taken, 0, content, us[lay.U_MEMORY], moff)
        else:
            counters[lay.C_CHECKS, u] += 1
            closed = _gates(enabled, min_hours, min_sessions, t[kk] - lock[lay.L_MTIME], base[kk],
                            us[lay.U_LBL])  # fmt: skip
            if closed >= 0:
                counters[closed, u] += 1
                continue
            first_log, taken, input_bytes, content = _auto_input(kind, nw, cost, cfg, us, kk)
            if taken == 0:
                counters[lay.C_NO_INPUT, u] += 1
                continue
            call = (kk, first_log, taken, 0, content, us[lay.U_MEMORY], 0)
        at = t[kk] + latency[kk]
        status = _call_model(at, rows, rows_f, row, calls, calls_f, cfg, lock, us, call,
                             input_bytes)  # fmt: skip
        if status != lay.DONE:
            return lay.NEED_CALLS
    return lay.DONE


@nb.njit(cache=True, nogil=True)
def run(
    tr: lay.Trace, cfg: Any, b: lay.Buffers, u0: int, seed32: np.uint64, n: int, first: int
) -> Any:
    """Users from ``first`` on, their attempts appended from row ``n`` (each user's in
    trigger order). Stops before a user the buffers might not hold (rows: all their
    triggers; calls and /dream logs: found out on the way, that user's writes undone).
    (rows, the first user not done, DONE or what the buffers lack)."""
    toff, loff = tr.toff, tr.loff
    lock = np.zeros(4)
    us = np.zeros(lay.U_SEED + 1, dtype=np.int64)
    row = np.zeros(lay.ROW_INTS, dtype=np.int64)
    for u in range(first, len(toff) - 1):
        if n + toff[u + 1] - toff[u] > b.rows.shape[1]:
            return n, u, lay.NEED_ROWS
        lock[lay.L_EXISTS], lock[lay.L_MTIME], lock[lay.L_HOLDER], lock[lay.L_LAST_DONE] = (
            0,
            0,
            -np.inf,
            -np.inf,
        )
        us[:] = 0
        us[lay.U_USER], us[lay.U_MEMORY], us[lay.U_ROW] = u, np.int64(cfg[lay.S_MEMORY]), n
        us[lay.U_KEY], us[lay.U_SEED] = (u0 + u) * USER_KEY - toff[u], np.int64(seed32)
        us[lay.U_FIRST_LOG], us[lay.U_END_LOG] = loff[u], loff[u + 1]
        status = _user(tr, b, cfg, lock, us, row)
        if status != lay.DONE:  # undo the user's writes: they run again from the start
            b.deleted[loff[u] : loff[u + 1]] = False
            b.consolidated[loff[u] : loff[u + 1]] = np.inf
            b.counters[:, u] = 0
            return n, u, status
        _sort_by_trigger(b.rows, b.rows_f, n, us[lay.U_ROW])
        n = us[lay.U_ROW]
    return n, len(toff) - 1, lay.DONE
