"""Event-by-event reference for the capacity simulator, built on Dream's own functions.

For each user it keeps the session logs as ``SessionFile`` values and the lock
as (mtime, holder), and for each event calls the real code: ``gates.decide``
for the gate decision, ``inputs.assemble_input`` on synthetic texts of the
logs' sizes, ``lock.holder_blocks`` for the lock, ``response.process_response``
on a synthetic answer, and the cleanup rule of ``run.cleanup``. It is slow (a
Python loop per event) and exists to prove the engine (``sim.kernel``, ``sim.loop``)
equal to Dream, run for run, on small traces: a SPEC §7 change is made here (or in
Dream's own functions) and in ``sim.loop``.
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass, field

import numpy as np

from memlab.config import DreamConfig
from memlab.dream.gates import Open, SessionFile, TooFewSessions, TooSoon, Trigger, decide
from memlab.dream.inputs import assemble_input
from memlab.dream.lock import holder_blocks
from memlab.dream.response import NewMemory, Nothing, process_response
from memlab.dream.sim.params import NO_REPLY_CHARS, SimParams, response_chars, sim_stem
from memlab.dream.sim.state import BUSY, COLUMNS, COMPLETED, COUNTERS, FAILED, NOTHING, STALE
from memlab.dream.sim.triggers import END, MANUAL, TICK, Trace

# (acquire time, trigger, processed stems, input bytes, content bytes, memory seen, lock seen)
_Pending = tuple[float, int, tuple[str, ...], int, int, int, float | None]
TRIGGERS = {END: Trigger.SESSION_END, TICK: Trigger.PERIODIC, MANUAL: Trigger.MANUAL}


@dataclass
class _User:
    logs: dict[str, tuple[float, int]] = field(default_factory=dict)  # stem -> (mtime, bytes)
    lock_mtime: float | None = None
    lock_pid: bool = False  # the body holds a PID (False: empty after a rollback)
    holder_until: float = -np.inf
    memory: int = 0
    last_done: float = -np.inf
    pending: list[_Pending] = field(default_factory=list)


class Reference:
    def __init__(self, trace: Trace, config: DreamConfig, params: SimParams) -> None:
        self.trace, self.config, self.params = trace, config, params
        self.rows: list[dict[str, float]] = []
        self.counters = {name: np.zeros(trace.users, dtype=np.int64) for name in COUNTERS}
        self.consolidated = np.full(len(trace.log_t), np.inf)  # first read by a completed run
        # the log rank of each session: its stem, and so the "current session" id
        ends = np.flatnonzero(trace.kind == END)
        self.rank = {
            int(trace.sess[i]): int(j - trace.loff[self._user(int(i))]) for j, i in enumerate(ends)
        }

    def _user(self, k: int) -> int:
        return int(np.searchsorted(self.trace.toff, k, side="right") - 1)

    def run(self) -> dict[str, np.ndarray]:
        for u in range(self.trace.users):
            self._run_user(u)
        out = {c: np.array([r[c] for r in self.rows]) for c in COLUMNS}
        if not self.rows:
            return {c: np.zeros(0) for c in COLUMNS}
        order = np.lexsort((out["trigger"], out["user"]))
        return {c: v[order] for c, v in out.items()}

    def _run_user(self, u: int) -> None:
        trace = self.trace
        state = _User(memory=self.params.memory_bytes)
        k, stop = int(trace.toff[u]), int(trace.toff[u + 1])
        while k < stop or state.pending:
            if state.pending and (k >= stop or state.pending[0][0] <= trace.t[k]):
                self._acquire(u, state, heapq.heappop(state.pending))
            else:
                self._trigger(u, state, k)
                k += 1

    def _trigger(self, u: int, state: _User, k: int) -> None:
        trace, cfg = self.trace, self.config
        kind, t = int(trace.kind[k]), float(trace.t[k])
        session = f"{self.rank[int(trace.sess[k])]:08x}-session"
        if kind == END:
            j = int(trace.nw[k]) - 1
            g = int(trace.loff[u]) + j
            state.logs[sim_stem(j)] = (float(trace.log_t[g]), int(trace.log_bytes[g]))
        if kind != MANUAL:
            self.counters["checks"][u] += 1
        else:
            self.counters["manual"][u] += 1
        files = [SessionFile(stem, m) for stem, (m, _) in state.logs.items()]
        decision = decide(TRIGGERS[kind], cfg, state.lock_mtime, files, session, t)
        if not isinstance(decision, Open):
            name = {TooSoon: "too_soon", TooFewSessions: "too_few"}.get(type(decision))
            if kind == MANUAL:
                name = "manual_empty"
            self.counters[name or "disabled"][u] += 1
            return
        memory = "m" * state.memory if state.memory else None
        built = assemble_input(
            memory,
            decision.sessions,
            lambda stem: "x" * state.logs[stem][1],
            max_existing_bytes=cfg.max_existing_bytes,
            max_input_bytes=cfg.max_input_bytes,
        )
        if not built.processed:
            self.counters["no_input"][u] += 1
            return
        content = sum(state.logs[s][1] for s in built.processed)
        if trace.u(k)[0] < self.params.model_failure_rate:
            done = t + float(trace.latency(k)[0])
            self._row(
                u,
                k,
                done,
                FAILED,
                len(built.processed),
                built.nbytes,
                content,
                memory_chars=state.memory,
            )
            return
        item = (
            t + float(trace.latency(k)[0]),
            k,
            built.processed,
            built.nbytes,
            content,
            state.memory,
            state.lock_mtime,
        )
        heapq.heappush(state.pending, item)

    def _acquire(self, u: int, state: _User, item: _Pending) -> None:
        cfg, prm, trace = self.config, self.params, self.trace
        tau, k, processed, nbytes, content, seen, seen_lock = item
        counts = (len(processed), nbytes, content)
        no_reply = trace.u(k)[0] < prm.model_failure_rate + prm.no_reply_rate
        want = NO_REPLY_CHARS if no_reply else int(response_chars(seen, content, prm, cfg))
        pid = 1 if state.lock_pid else None
        mtime = 0.0 if state.lock_mtime is None else state.lock_mtime
        if holder_blocks(pid, mtime, tau, cfg.stale_lock_secs, lambda _: tau < state.holder_until):
            self._row(u, k, tau, BUSY, *counts, memory_chars=state.memory, response_chars=want)
            return
        if cfg.stale_input_check and state.lock_mtime != seen_lock:  # as run.execute_dream
            state.lock_pid = False  # rollback(prior): empty body, or no file if prior is None
            self._row(u, k, tau, STALE, *counts, memory_chars=state.memory, response_chars=want)
            return
        state.lock_mtime = tau
        state.lock_pid = True
        state.holder_until = max(float(trace.alive(k)[0]), tau + prm.linger_secs)
        if no_reply:
            if not isinstance(process_response("NO_REPLY", cfg.max_response_chars), Nothing):
                raise AssertionError("NO_REPLY must be nothing to consolidate")
            self._row(u, k, tau, NOTHING, *counts, memory_chars=state.memory, response_chars=want)
            return
        result = process_response("# " + "x" * (want - 2), cfg.max_response_chars)
        if not isinstance(result, NewMemory):
            raise AssertionError("a synthetic answer with a heading must be new memory")
        state.memory = len(result.text)
        deleted = active = 0
        for stem in processed:
            if stem not in state.logs:
                continue  # already deleted by another run: not counted
            g = int(self.trace.loff[u]) + int(stem[:10])  # the stem's rank: sim_stem
            self.consolidated[g] = min(self.consolidated[g], tau)
            if tau - state.logs[stem][0] < cfg.active_grace_secs:
                active += 1
            else:
                del state.logs[stem]
                deleted += 1
        duplicate = state.last_done > trace.t[k]
        state.last_done = tau
        self._row(
            u,
            k,
            tau,
            COMPLETED,
            *counts,
            deleted=deleted,
            kept_active=active,
            memory_chars=state.memory,
            response_chars=want,
            truncated=int(result.truncated),
            duplicate=int(duplicate),
        )

    def _row(
        self,
        u: int,
        k: int,
        acquire: float,
        outcome: int,
        sessions: int,
        nbytes: int,
        content: int,
        **extra: int,
    ) -> None:
        row = {
            "user": u,
            "trigger": k,
            "kind": int(self.trace.kind[k]),
            "t": float(self.trace.t[k]),
            "acquire": float(acquire),
            "outcome": outcome,
            "sessions": sessions,
            "input_bytes": nbytes,
            "content_bytes": content,
        }
        for c in COLUMNS[9:]:
            row[c] = extra.get(c, 0)
        self.rows.append(row)


def reference_trace(
    trace: Trace, config: DreamConfig, params: SimParams, *, consolidated: np.ndarray | None = None
) -> tuple[dict[str, np.ndarray], dict[str, np.ndarray]]:
    ref = Reference(trace, config, params)
    columns = ref.run()
    if consolidated is not None:
        consolidated[:] = ref.consolidated
    return columns, ref.counters
