"""The simulator's engine: each user's events in time order, one user at a time, compiled.

``simulate_trace_compiled`` prepares a trace for the compiled loop (``sim.loop``:
compiling it takes about 20 s once per machine, numba's cache then loads it in
milliseconds; numba's own start costs about 0.5 s once per process, before a pool forks:
``ready``), grows its buffers when a user outgrows them, and returns the attempt columns.

The model's draws are not recomputed in the loop: the uniform of a trigger is the same
integer hash (``trace.hashed_uniform``), and its latency comes from ``Trace.lognormal``
in numpy, for every trigger up front (numpy's exp, log and cos need not round as the
compiled ones do). The tests prove the engine equal to ``sim.reference`` (the same traces
through Dream's own functions), run for run.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from memlab.config import DreamConfig
from memlab.dream.sim import loop
from memlab.dream.sim import slots as layout
from memlab.dream.sim.latency import latency_uniforms
from memlab.dream.sim.params import SESSION_COST, SimParams
from memlab.dream.sim.state import COLUMNS, COUNTERS, FAILED
from memlab.dream.sim.triggers import Trace

CALL_SLOTS = 64  # calls in flight one user may have before the buffer grows
MANUAL_SLOTS = 4096  # /dream logs in flight (per user) before the buffer grows
_FLOAT_COLUMNS = {"input_bytes": layout.F_INPUT, "response_chars": layout.F_RESPONSE}
_INT_COLUMNS = {"trigger": layout.R_TRIGGER, "outcome": layout.R_OUTCOME,
                "sessions": layout.R_SESSIONS, "content_bytes": layout.R_CONTENT,
                "deleted": layout.R_DELETED, "kept_active": layout.R_ACTIVE,
                "memory_chars": layout.R_MEMORY, "truncated": layout.R_TRUNCATED,
                "duplicate": layout.R_DUPLICATE}  # fmt: skip


def _ints(a: Any) -> np.ndarray:
    return np.ascontiguousarray(a, dtype=np.int64)


def _floats(a: Any) -> np.ndarray:
    return np.ascontiguousarray(a, dtype=np.float64)


def _settings(config: DreamConfig, params: SimParams, trace: Trace) -> np.ndarray:
    """The loop's settings vector (``layout.S_*``); the initial memory as an integer, as
    MEMORY.md would hold it."""
    cfg = np.zeros(layout.N_SETTINGS)
    cfg[layout.S_MEMORY] = np.full(1, params.memory_bytes, dtype=np.int64)[0]
    cfg[layout.S_FAILURE], cfg[layout.S_NO_REPLY] = params.model_failure_rate, params.no_reply_rate
    cfg[layout.S_GROWTH], cfg[layout.S_ENABLED] = params.memory_growth, bool(config.enabled)
    cfg[layout.S_MIN_HOURS], cfg[layout.S_MIN_SESSIONS] = config.min_hours, config.min_sessions
    cfg[layout.S_STALE_SECS] = config.stale_lock_secs
    cfg[layout.S_STALE_CHECK] = bool(config.stale_input_check)
    cfg[layout.S_MAX_EXISTING] = config.max_existing_bytes
    cfg[layout.S_MAX_INPUT] = config.max_input_bytes
    cfg[layout.S_MAX_RESPONSE] = config.max_response_chars
    cfg[layout.S_GRACE], cfg[layout.S_T0] = config.active_grace_secs, trace.t0
    cfg[layout.S_LINGER] = trace.linger
    return cfg


def _loop_trace(trace: Trace) -> layout.Trace:
    """The trace's arrays in the loop's types, the latency of every trigger and ``cost``."""
    toff = _ints(trace.toff)
    seed32 = np.uint64(trace.seed % 2**32)
    triggers = len(trace.t)
    if trace.latency_mean <= 0 or trace.latency_sigma <= 0 or not triggers:
        latency = _floats(trace.latency(np.arange(triggers)))
    else:  # Trace.latency of every trigger, its hashing compiled
        latency = _floats(trace.lognormal(*latency_uniforms(toff, int(trace.u0), seed32)))
    log_bytes = _ints(trace.log_bytes)
    cost = np.concatenate([[0], np.cumsum(SESSION_COST + log_bytes)])
    return layout.Trace(
        toff, _floats(trace.t), np.ascontiguousarray(trace.kind, dtype=np.int8),
        _ints(trace.sess), _ints(trace.sess_end_ms), _ints(trace.nw), _ints(trace.base),
        _ints(trace.loff), _floats(trace.log_t), log_bytes, latency, cost,
    )  # fmt: skip


def _grown(b: layout.Buffers, status: int, n: int, need_rows: int) -> layout.Buffers:
    """The buffers with room for what ``loop.run`` lacked (its first ``n`` rows kept)."""
    if status == layout.NEED_ROWS:
        cap = max(2 * b.rows.shape[1], n + need_rows)
        rows = np.concatenate([b.rows[:, :n], np.empty((layout.ROW_INTS, cap - n), np.int64)], 1)
        rows_f = np.concatenate([b.rows_f[:, :n], np.empty((layout.ROW_FLOATS, cap - n))], 1)
        return b._replace(rows=rows, rows_f=rows_f)
    if status == layout.NEED_CALLS:
        slots = 2 * b.calls.shape[1]
        return b._replace(calls=np.zeros((layout.CALL_INTS, slots), np.int64),
                          calls_f=np.zeros((2, slots)))  # fmt: skip
    return b._replace(mbuf=np.zeros(2 * len(b.mbuf), dtype=np.int64))


def _check_whole(trace: Trace) -> None:
    """Sessions, logs and byte counts are whole numbers (a trace built from ``Sessions``)."""
    for name in ("toff", "sess", "sess_end_ms", "nw", "base", "loff", "log_bytes"):
        a = np.asarray(getattr(trace, name))
        if a.dtype.kind not in "iu" and not np.array_equal(a, np.trunc(a)):
            raise ValueError(f"trace.{name} must hold whole numbers")


def simulate_trace_compiled(
    trace: Trace, config: DreamConfig, params: SimParams, *, consolidated: Any = None
) -> tuple[dict[str, np.ndarray], dict[str, np.ndarray]]:
    """The attempt columns (``COLUMNS``, in trigger order) and per-user counters
    (``COUNTERS``) of ``trace``. ``consolidated`` (float64, one per log of the trace,
    ``inf``) receives when each log was first read by a completed consolidation (its
    acquisition time). Every argument of the loop has one type (one compiled version)."""
    _check_whole(trace)
    tr = _loop_trace(trace)
    users, logs = trace.users, len(tr.log_bytes)
    if consolidated is None:
        consolidated = np.full(logs, np.inf)
    capacity = len(tr.t) // 3 + 16
    b = layout.Buffers(
        np.zeros(logs, dtype=bool), consolidated, np.zeros((len(COUNTERS), users), np.int64),
        np.empty((layout.ROW_INTS, capacity), np.int64), np.empty((layout.ROW_FLOATS, capacity)),
        np.zeros((layout.CALL_INTS, CALL_SLOTS), np.int64), np.zeros((2, CALL_SLOTS)),
        np.zeros(MANUAL_SLOTS, dtype=np.int64),
    )  # fmt: skip
    cfg, seed32 = _settings(config, params, trace), np.uint64(trace.seed % 2**32)
    n, done, status = 0, 0, layout.NEED_ROWS
    while done < users:
        n, done, status = loop.run(tr, cfg, b, int(trace.u0), seed32, n, done)
        if done < users:
            b = _grown(b, status, n, int(tr.toff[done + 1] - tr.toff[done]))
    counters = {c: b.counters[i] for i, c in enumerate(COUNTERS)}
    return _columns(trace, config, params, b, n), counters


def _columns(
    trace: Trace, config: DreamConfig, params: SimParams, b: layout.Buffers, n: int
) -> dict[str, np.ndarray]:
    """The rows as ``COLUMNS`` (users in order, each user's attempts in trigger order).
    Input bytes and answers are integers when every setting is; with a fractional byte
    cap or memory, the bytes a failed call sent and the answers are kept as float64."""
    if n == 0:  # no attempt: every column int64
        return {c: np.zeros(0, dtype=np.int64) for c in COLUMNS}
    k = b.rows[layout.R_TRIGGER, :n]
    columns: dict[str, np.ndarray] = {
        "user": trace.tuser[k],
        "kind": trace.kind[k].astype(np.int64),
        "t": trace.t[k],
        "acquire": b.rows_f[layout.F_ACQUIRE, :n].copy(),
    }
    for name, j in _INT_COLUMNS.items():
        columns[name] = b.rows[j, :n].copy()
    float_block = np.result_type(np.int64, config.max_existing_bytes).kind == "f"
    failed = columns["outcome"] == FAILED
    keep_float = {  # as the rows' types combine: a float in any row makes the column float
        "input_bytes": float_block and _fractional(config, params) and bool(failed.any()),
        "response_chars": float_block and _fractional(config, params) and not failed.all(),
    }
    for name, j in _FLOAT_COLUMNS.items():
        values = b.rows_f[j, :n].copy()
        columns[name] = values if keep_float[name] else values.astype(np.int64)
    return {c: columns[c] for c in COLUMNS}


def _fractional(config: DreamConfig, params: SimParams) -> bool:
    whole = (params.memory_bytes, config.min_sessions, config.max_existing_bytes,
             config.max_input_bytes, config.max_response_chars)  # fmt: skip
    return not all(float(v).is_integer() for v in whole)


def ready() -> None:
    """Load (or compile) the engine in this process: before a pool forks its workers, so
    that they start with it instead of each loading it again. A line on stderr says so
    when it is about to be compiled (nothing in numba's cache yet)."""
    from memlab.dream.sim.sessions import generate_sessions
    from memlab.jit import note_compiling, start_without_scipy

    start_without_scipy()
    note_compiling("the Dream simulator's engine", loop.__name__)
    from memlab.dream.sim.planner import flight_levels, freshness_histogram
    from memlab.dream.sim.triggers import build_trace

    params, config = SimParams(users=2, days=1.0), DreamConfig()
    simulate_trace_compiled(build_trace(generate_sessions(params), config, params), config, params)
    freshness_histogram(np.zeros(1), np.zeros(1))  # what every block runs after the engine
    flight_levels(np.zeros(1), np.ones(1), 2)  # and the summary (``memlab warmup``: compiled)
