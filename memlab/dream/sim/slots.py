"""The layout of the Dream engine's arrays (``sim.loop``, filled by ``sim.kernel``): the
trace and buffer tuples, and the index of every setting, attempt column, call field and
per-user state entry.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from memlab.dream.sim.state import COUNTERS


class Trace(NamedTuple):
    """The trace's arrays as the loop reads them (``sim.trace.Trace``), plus ``latency``
    (of every trigger) and ``cost`` (prefix sums of the input bytes each log adds)."""

    toff: Any
    t: Any
    kind: Any
    sess: Any
    sess_end_ms: Any
    nw: Any
    base: Any
    loff: Any
    log_t: Any
    log_bytes: Any
    latency: Any
    cost: Any


class Buffers(NamedTuple):
    """What the loop writes: the fleet's logs and counters, the attempt rows, and the
    current user's calls in flight."""

    deleted: Any  # [logs] bool: deleted by a cleanup
    consolidated: Any  # [logs] when first read by a completed run (inf: never)
    counters: Any  # [COUNTERS, users]
    rows: Any  # [ROW_INTS, capacity] int64: one attempt per column
    rows_f: Any  # [ROW_FLOATS, capacity] float64: acquire time, input bytes, answer
    calls: Any  # [CALL_INTS, slots] int64: the user's calls in flight
    calls_f: Any  # [2, slots] float64: when each returns, the lock it saw
    mbuf: Any  # the logs of the user's /dream calls in flight


# settings (float64 vector ``cfg``)
(S_MEMORY, S_FAILURE, S_NO_REPLY, S_GROWTH, S_ENABLED, S_MIN_HOURS, S_MIN_SESSIONS,
 S_STALE_SECS, S_STALE_CHECK, S_MAX_EXISTING, S_MAX_INPUT, S_MAX_RESPONSE, S_GRACE, S_T0,
 S_LINGER) = range(15)  # fmt: skip
N_SETTINGS = 15
# attempt rows: int columns, then float columns
R_TRIGGER, R_OUTCOME, R_SESSIONS, R_CONTENT, R_DELETED, R_ACTIVE, R_MEMORY = range(7)
R_TRUNCATED, R_DUPLICATE = 7, 8
ROW_INTS = 9
F_ACQUIRE, F_INPUT, F_RESPONSE = range(3)
ROW_FLOATS = 3
# a call in flight: trigger, first log (-1: /dream), sessions, input bytes (truncated),
# content bytes, memory seen, offset of a /dream's logs in mbuf; and at, lock seen
C_TRIGGER, C_FIRST, C_SESSIONS, C_INPUT, C_CONTENT, C_MEMORY, C_MOFF = range(7)
CALL_INTS = 7
C_AT, C_LOCK = 0, 1
# the user's state (float64 vector ``lock``, int64 vector ``us``)
L_EXISTS, L_MTIME, L_HOLDER, L_LAST_DONE = range(4)
# logs before the lock, MEMORY.md's length, calls in flight, mbuf used, the next row; the
# draw key of trigger k is U_KEY + k (U_SEED: the seed's low 32 bits); the user's logs
# are U_FIRST_LOG:U_END_LOG
U_LBL, U_MEMORY, U_CALLS, U_MBUF, U_ROW, U_KEY, U_FIRST_LOG, U_END_LOG, U_USER, U_SEED = range(10)
C_CHECKS, C_DISABLED, C_TOO_SOON, C_TOO_FEW, C_NO_INPUT, C_MANUAL, C_MANUAL_EMPTY = range(7)
assert COUNTERS == ("checks", "disabled", "too_soon", "too_few", "no_input", "manual",
                    "manual_empty")  # fmt: skip
# why ``run`` stopped before a user
DONE, NEED_ROWS, NEED_CALLS, NEED_LOGS = range(4)
