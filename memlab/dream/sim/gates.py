"""The gates, fast-forwarded: which trigger is the next one worth a step (SPEC §7.1–7.2).

Between two changes of a user's lock both gate conditions only become truer as
time goes on (the time gate counts hours since the lock's mtime; the session
gate counts the logs written since), so the first open trigger is found by two
galloping searches (``refresh``) and the closed triggers before it are counted
in bulk (``count_closed``) instead of visited one by one.

Logs are written in mtime order and every log newer than the lock still exists
(a run deletes only logs older than its own acquisition, which becomes the lock
time), so the session gate counts ``logs written − its own − logs_before_lock``.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from memlab.config import DreamConfig
from memlab.dream.sim.search import first_true
from memlab.dream.sim.state import F64, I64, SimState
from memlab.dream.sim.trace import Trace


def refresh(state: SimState, trace: Trace, config: DreamConfig, users: I64) -> None:
    """After a lock change: the first trigger passing the time gate, and both gates."""
    start, stop = state.next_trigger[users], state.trigger_stop[users]
    if not config.enabled:
        state.first_time_ok[users] = state.first_open[users] = stop
        return
    lock_mtime = state.lock_mtime[users]
    if config.min_hours > 0:

        def time_ok(rows: I64, i: I64) -> NDArray[np.bool_]:
            hours = np.floor(np.maximum(0.0, trace.t[i] - lock_mtime[rows]) / 3600.0)
            return hours >= config.min_hours

        time_from = first_true(time_ok, start, stop)
    else:
        time_from = start.copy()
    state.first_time_ok[users] = time_from
    if config.min_sessions > 0:
        need = state.logs_before_lock[users] + config.min_sessions
        count_from = first_true(lambda rows, i: trace.base[i] >= need[rows], start, stop)
    else:
        count_from = start
    state.first_open[users] = np.maximum(time_from, count_from)


def first_at_or_after(state: SimState, trace: Trace, users: I64, tau: F64, upto: I64) -> I64:
    """The first trigger index in [next_trigger, upto) at or after time ``tau`` (else upto)."""
    t = trace.t
    return first_true(lambda rows, i: t[i] >= tau[rows], state.next_trigger[users], upto)


def next_worth_a_step(state: SimState, trace: Trace, users: I64) -> I64:
    """The next trigger worth a step: the first open automatic one, or a /dream."""
    start, stop = state.next_trigger[users], state.trigger_stop[users]
    candidate = np.maximum(start, state.first_open[users])
    manual = trace.manual_pos
    if manual.size:
        i = np.searchsorted(manual, start)
        next_manual = np.where(i < manual.size, manual[np.minimum(i, manual.size - 1)], stop)
        candidate = np.minimum(candidate, next_manual)
    return np.minimum(candidate, stop)


def count_closed(state: SimState, trace: Trace, config: DreamConfig, users: I64, upto: I64) -> None:
    """Count the automatic triggers in [next_trigger, upto): all closed, too soon or too few."""
    before, start = trace.auto_cs, state.next_trigger[users]

    def autos_before(i: I64) -> I64:
        return i - start if before is None else before[i] - before[start]

    n = autos_before(upto)
    counters = state.counters
    counters["checks"][users] += n
    if not config.enabled:
        counters["disabled"][users] += n
        return
    too_soon = autos_before(np.clip(state.first_time_ok[users], start, upto))
    counters["too_soon"][users] += too_soon
    counters["too_few"][users] += n - too_soon
