"""The vectorised Dream simulator: every user advances one event per step, in lockstep.

``simulate`` runs the compiled engine (``sim.kernel``: one sequential loop per
user, several times faster); this one is the same rules in numpy alone, and the
tests keep the two equal, run for run, and both equal to ``sim.reference``.

Per user, events are processed in time order: the next trigger or the next
lock acquisition (a model call that returned), acquisitions first at equal
times, the earliest trigger first among them. A step handles one event for
every user that still has one, with numpy over the users.

The rules are SPEC §7 as in ``gates``, ``inputs``, ``lock``, ``response`` and
``run``, restated on arrays (``sim.gates`` fast-forwards the gates, ``sim.runs``
resolves returned calls); ``sim.reference`` runs the same traces event by event
through Dream's own functions, and the tests prove both equal, run for run.

Input assembly (SPEC §7.3 step 1) on arrays: the existing memory block comes
first, then the sessions newer than the lock, each adding ``SESSION_COST`` plus
its bytes, stopping after the session that reaches ``max_input_bytes``.
``log_cost`` holds the prefix sums of those additions per log, so the sessions
a run takes are found by one ``searchsorted``.
"""

from __future__ import annotations

import numpy as np

from memlab.config import DreamConfig
from memlab.dream.sim import gates
from memlab.dream.sim.params import SESSION_COST, SimParams, existing_block_bytes
from memlab.dream.sim.runs import Runs
from memlab.dream.sim.state import F64, FAILED, I64, Attempts, Bools, InFlight, SimState
from memlab.dream.sim.trace import END, MANUAL, Trace


class Engine:
    def __init__(self, trace: Trace, config: DreamConfig, params: SimParams) -> None:
        self.trace, self.config, self.params = trace, config, params
        self.state = SimState.start(trace, params)
        self.calls = InFlight.empty(trace.users)
        self.attempts = Attempts(trace)
        self.runs = Runs(self.state, self.calls, self.attempts, trace, config, params)

    def run(self) -> dict[str, np.ndarray]:
        """Process every user's triggers and calls; the attempt columns."""
        state = self.state
        if len(self.trace.t) == 0:
            return self.attempts.columns()
        active = np.arange(self.trace.users)
        gates.refresh(state, self.trace, self.config, active)
        while active.size:
            self._step(active)
            more = state.next_trigger[active] < state.trigger_stop[active]
            active = active[more | self.calls.pending(active)]
        return self.attempts.columns()

    def _step(self, users: I64) -> None:
        """One event per user: an acquisition (then maybe a trigger) or a trigger."""
        state = self.state
        nxt, has_trigger, first_return, acquire_first = self._events(users)
        trig_users = [users[~acquire_first & has_trigger]]
        trig_k = [nxt[~acquire_first & has_trigger]]
        if acquire_first.any():
            g = users[acquire_first]
            self._acquisition(g, nxt[acquire_first], first_return[acquire_first])
            # in the same step, a trigger that now comes before their next acquisition
            nxt2, has_trigger2, _, acquire_first2 = self._events(g)
            trig_users.append(g[~acquire_first2 & has_trigger2])
            trig_k.append(nxt2[~acquire_first2 & has_trigger2])
        idle = users[~acquire_first & ~has_trigger]
        gates.count_closed(state, self.trace, self.config, idle, state.trigger_stop[idle])
        state.next_trigger[idle] = state.trigger_stop[idle]  # nothing left: all closed
        g, k = np.concatenate(trig_users), np.concatenate(trig_k)
        if g.size:
            gates.count_closed(state, self.trace, self.config, g, k)
            self._trigger(g, k)

    def _events(self, users: I64) -> tuple[I64, Bools, F64, Bools]:
        """Per user: the next trigger worth a step, whether there is one, the earliest
        return of a call, and whether that return comes first."""
        nxt = gates.next_worth_a_step(self.state, self.trace, users)
        has_trigger = nxt < self.state.trigger_stop[users]
        t = self.trace.t
        t_next = np.where(has_trigger, t[np.minimum(nxt, len(t) - 1)], np.inf)
        first_return = self.calls.returns_at[users].min(axis=1)
        acquire_first = (first_return <= t_next) & np.isfinite(first_return)
        return nxt, has_trigger, first_return, acquire_first

    def _acquisition(self, users: I64, nxt: I64, at: F64) -> None:
        """The earliest returning call of each user takes its turn (ties: earliest trigger)."""
        state = self.state
        # closed triggers before this acquisition were closed under the old lock
        before = gates.first_at_or_after(state, self.trace, users, at, nxt)
        gates.count_closed(state, self.trace, self.config, users, before)
        state.next_trigger[users] = before
        returns = self.calls.returns_at[users]
        tied = np.where(returns == at[:, None], self.calls.trigger[users], np.iinfo(np.int64).max)
        self.runs.acquire(users, np.argmin(tied, axis=1))

    # ------------------------------------------------------------ triggers

    def _trigger(self, users: I64, k: I64) -> None:
        """Trigger ``k`` of each user: the gates were open (or it is a /dream)."""
        trace, state, cfg = self.trace, self.state, self.config
        state.next_trigger[users] = k + 1
        manual = trace.kind[k] == MANUAL
        state.counters["checks"][users[~manual]] += 1
        written = trace.nw[k]
        newer = np.maximum(0, written - (trace.kind[k] == END) - state.logs_before_lock[users])
        first_log = trace.loff[users] + np.minimum(written, state.logs_before_lock[users])
        memory_block = existing_block_bytes(state.memory_chars[users], cfg)
        cost = state.log_cost
        # the buffer starts with the memory block; an empty buffer saves the first "\n\n"
        target = cost[first_log] + cfg.max_input_bytes - memory_block + 2 * (memory_block == 0)
        taken = np.where(manual, 0, newer)
        capped = np.flatnonzero(cost[first_log + taken] >= target)  # the 32 kB cap binds
        if capped.size:
            found = np.searchsorted(cost, target[capped], side="left") - first_log[capped]
            taken[capped] = np.clip(found, 1, taken[capped])
        span = cost[first_log + taken] - cost[first_log]
        input_bytes = memory_block + span - 2 * ((memory_block == 0) & (taken > 0))
        content = span - taken * SESSION_COST
        state.counters["no_input"][users[~manual & (taken == 0)]] += 1
        go = taken > 0
        self._manual(users, k, manual, go, first_log, taken, input_bytes, content)
        if go.any():
            self._call_model(
                users[go], k[go], first_log[go], taken[go], input_bytes[go], content[go]
            )

    def _manual(
        self,
        users: I64,
        k: I64,
        manual: Bools,
        go: Bools,
        first_log: I64,
        taken: I64,
        input_bytes: I64,
        content: I64,
    ) -> None:
        """/dream: every log still on disk (not a contiguous range) — a short loop, it is rare.

        Fills in ``go``, ``first_log`` (-1), ``taken``, ``input_bytes`` and ``content``."""
        trace, state = self.trace, self.state
        for i in np.flatnonzero(manual):
            u = users[i]
            state.counters["manual"][u] += 1
            first = trace.loff[u]
            on_disk = first + np.flatnonzero(~state.log_deleted[first : first + trace.nw[k[i]]])
            if on_disk.size == 0:
                state.counters["manual_empty"][u] += 1
                continue
            block = int(existing_block_bytes(state.memory_chars[u], self.config))
            sizes = np.cumsum(SESSION_COST + trace.log_bytes[on_disk]) + block - 2 * (block == 0)
            n = int(np.searchsorted(sizes, self.config.max_input_bytes, side="left")) + 1
            n = min(n, on_disk.size)
            state.manual_logs[int(k[i])] = on_disk[:n]
            go[i], first_log[i], taken[i] = True, -1, n
            input_bytes[i] = sizes[n - 1]
            content[i] = int(trace.log_bytes[on_disk[:n]].sum())

    def _call_model(
        self, users: I64, k: I64, first_log: I64, taken: I64, input_bytes: I64, content: I64
    ) -> None:
        """The model is called: a failure is recorded at once, an answer waits for the lock."""
        trace, state = self.trace, self.state
        failed = trace.u(k) < self.params.model_failure_rate
        if failed.any():
            f = failed
            self.attempts.record(
                users[f],
                k[f],
                trace.t[k[f]] + trace.latency(k[f]),
                FAILED,
                sessions=taken[f],
                input_bytes=input_bytes[f],
                content_bytes=content[f],
                memory_chars=state.memory_chars[users[f]],
            )
        ok = ~failed
        users, k = users[ok], k[ok]
        if users.size == 0:
            return
        slots = self.calls.free_slots(users)
        self.calls.put(
            users,
            slots,
            returns_at=trace.t[k] + trace.latency(k),
            lock_seen=state.lock_seen(users),
            trigger=k,
            first_log=first_log[ok],
            sessions=taken[ok],
            input_bytes=input_bytes[ok],
            content_bytes=content[ok],
            memory_seen=state.memory_chars[users],
        )


def simulate_trace(
    trace: Trace, config: DreamConfig, params: SimParams, *, consolidated: F64 | None = None
) -> tuple[dict[str, np.ndarray], dict[str, I64]]:
    """Run the vectorised simulator: (attempt columns, per-user counters); ``consolidated``
    (one per log, ``inf``) receives when each log was first read by a completed run."""
    engine = Engine(trace, config, params)
    columns = engine.run()
    if consolidated is not None:
        consolidated[:] = engine.state.log_consolidated
    return columns, engine.state.counters
