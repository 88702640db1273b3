"""The vectorised Dream simulator: every user advances one event per step, in lockstep.

Per user, events are processed in time order: the next trigger or the next
lock acquisition (a model call that returned), acquisitions first at equal
times, the earliest trigger first among them. A step handles one event for
every user that still has one, with numpy over the users.

The rules are SPEC §7 as in ``gates``, ``inputs``, ``lock``, ``response`` and
``run``, restated on arrays; ``sim_reference`` runs the same traces event by
event through those very functions and the tests prove both equal, run for run.
What makes the array form exact and fast:

* logs are written in mtime order, and every log newer than the lock still
  exists (a run deletes only logs older than its own acquisition, which becomes
  the lock time), so the session gate counts ``written − own log − logs ≤ lock``
  and its sessions are a contiguous range of the user's logs;
* between two changes of the lock, both gate conditions only become truer as
  time goes on, so the first open trigger is found by two key searches and the
  closed triggers before it are counted in bulk instead of visited.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from memlab.config import DreamConfig
from memlab.dream.sim_acquire import COLUMNS, FAILED, NO_LOCK, Acquisitions
from memlab.dream.sim_params import EXISTING_COST, SESSION_COST, SimParams
from memlab.dream.sim_search import first_true
from memlab.dream.sim_trace import END, MANUAL, Trace

COUNTERS = ("checks", "disabled", "too_soon", "too_few", "no_input", "manual", "manual_empty")
I64 = NDArray[np.int64]
F64 = NDArray[np.float64]


class Engine(Acquisitions):
    def __init__(self, trace: Trace, config: DreamConfig, params: SimParams) -> None:
        self.T, self.config, self.params = trace, config, params
        users = trace.users
        self.ptr = trace.toff[:-1].copy()
        self.tend = trace.toff[1:]
        self.last = np.zeros(users)  # lock mtime; 0.0 (the epoch) when there is no lock
        self.lock = np.zeros(users, dtype=bool)
        self.holder_until = np.full(users, -np.inf)
        self.n_le = np.zeros(users, dtype=np.int64)  # logs with mtime <= last
        self.nlogs = np.diff(trace.loff)
        self.mem = np.full(users, params.memory_bytes, dtype=np.int64)
        self.last_done = np.full(users, -np.inf)
        self.deleted = np.zeros(len(trace.log_t), dtype=bool)
        self.cost = np.concatenate([[0], np.cumsum(SESSION_COST + trace.log_bytes)])
        self.counters = {name: np.zeros(users, dtype=np.int64) for name in COUNTERS}
        self.idx_time = self.ptr.copy()
        self.open_from = self.ptr.copy()
        self.f = {name: np.zeros((users, 2), dtype=np.int64)
                  for name in ("trig", "lo", "p", "inb", "content", "mem")}  # fmt: skip
        self.f_acq = np.full((users, 2), np.inf)
        self.f_seen = np.zeros((users, 2))  # the lock mtime the input was built under
        self.manual_sets: dict[int, I64] = {}
        self.rows: list[dict[str, np.ndarray]] = []

    def run(self) -> dict[str, np.ndarray]:
        if len(self.T.t) == 0:
            return self._collect()
        act = np.arange(self.T.users)
        self._refresh(act)
        while act.size:
            nxt, has_t, a_min, do_acq, acq = self._events(act)
            trig_users, trig_k = [act[~do_acq & has_t]], [nxt[~do_acq & has_t]]
            if do_acq.any():
                g = act[do_acq]
                self._acquisition_step(g, nxt[do_acq], a_min[do_acq], acq[do_acq])
                # in the same step, a trigger that now comes before their next acquisition
                nxt2, has_t2, _, do_acq2, _ = self._events(g)
                trig_users.append(g[~do_acq2 & has_t2])
                trig_k.append(nxt2[~do_acq2 & has_t2])
            idle = act[~do_acq & ~has_t]
            self._skip(idle, self.tend[idle])  # nothing left: count the rest as closed
            self.ptr[idle] = self.tend[idle]
            users, ks = np.concatenate(trig_users), np.concatenate(trig_k)
            if users.size:
                self._skip(users, ks)
                self._trigger(users, ks)
            pending = np.isfinite(self.f_acq[act].min(axis=1))
            act = act[(self.ptr[act] < self.tend[act]) | pending]
        return self._collect()

    def _events(self, g: I64) -> tuple[I64, NDArray[np.bool_], F64, NDArray[np.bool_], F64]:
        """Per user: the next worthwhile trigger, and whether an acquisition comes first."""
        nxt = self._next(g)
        has_t = nxt < self.tend[g]
        t_next = np.where(has_t, self.T.t[np.minimum(nxt, len(self.T.t) - 1)], np.inf)
        acq = self.f_acq[g]
        a_min = acq.min(axis=1)
        return nxt, has_t, a_min, (a_min <= t_next) & np.isfinite(a_min), acq

    def _acquisition_step(self, g: I64, nxt: I64, a_min: F64, acq: F64) -> None:
        # closed triggers before this acquisition were closed under the old lock
        before = self._first_at_or_after(g, a_min, nxt)
        self._skip(g, before)
        self.ptr[g] = before
        tied = np.where(acq == a_min[:, None], self.f["trig"][g], np.iinfo(np.int64).max)
        self._acquire(g, np.argmin(tied, axis=1))

    def _collect(self) -> dict[str, np.ndarray]:
        """The attempts, one per model call, in the order they were resolved."""
        if not self.rows:
            return {c: np.zeros(0, dtype=np.int64) for c in COLUMNS}
        return {c: np.concatenate([r[c] for r in self.rows]) for c in COLUMNS}

    # ------------------------------------------------------------ fast-forward

    def _refresh(self, g: I64) -> None:
        """After a lock change: the first trigger passing the time gate, and the session gate."""
        T, cfg = self.T, self.config
        ptr, stop = self.ptr[g], self.tend[g]
        if not cfg.enabled:
            self.idx_time[g] = self.open_from[g] = stop
            return
        last = self.last[g]
        if cfg.min_hours > 0:

            def time_ok(rows: I64, i: I64) -> NDArray[np.bool_]:
                hours = np.floor(np.maximum(0.0, T.t[i] - last[rows]) / 3600.0)
                return hours >= cfg.min_hours

            idx = first_true(time_ok, ptr, stop)
        else:
            idx = ptr.copy()
        self.idx_time[g] = idx
        if cfg.min_sessions > 0:
            need = self.n_le[g] + cfg.min_sessions
            count_idx = first_true(lambda rows, i: T.base[i] >= need[rows], ptr, stop)
        else:
            count_idx = ptr
        self.open_from[g] = np.maximum(idx, count_idx)

    def _first_at_or_after(self, g: I64, tau: F64, upto: I64) -> I64:
        """The first trigger index in [ptr, upto) at or after time ``tau`` (else ``upto``)."""
        t = self.T.t
        return first_true(lambda rows, i: t[i] >= tau[rows], self.ptr[g], upto)

    def _next(self, g: I64) -> I64:
        """The next trigger worth a step: the first open automatic one, or a /dream."""
        ptr, stop = self.ptr[g], self.tend[g]
        candidate = np.maximum(ptr, self.open_from[g])
        mp = self.T.manual_pos
        if mp.size:
            i = np.searchsorted(mp, ptr)
            candidate = np.minimum(
                candidate, np.where(i < mp.size, mp[np.minimum(i, mp.size - 1)], stop)
            )
        return np.minimum(candidate, stop)

    def _skip(self, g: I64, upto: I64) -> None:
        """Count the automatic triggers in [ptr, upto): all closed, too soon or too few."""
        cs, ptr = self.T.auto_cs, self.ptr[g]

        def autos_before(i: I64) -> I64:
            return i - ptr if cs is None else cs[i] - cs[ptr]

        n = autos_before(upto)
        self.counters["checks"][g] += n
        if not self.config.enabled:
            self.counters["disabled"][g] += n
            return
        soon = autos_before(np.clip(self.idx_time[g], ptr, upto))
        self.counters["too_soon"][g] += soon
        self.counters["too_few"][g] += n - soon

    # ------------------------------------------------------------ triggers

    def _trigger(self, g: I64, k: I64) -> None:
        T, cfg = self.T, self.config
        self.ptr[g] = k + 1
        manual = T.kind[k] == MANUAL
        self.counters["checks"][g[~manual]] += 1
        nw = T.nw[k]
        count = np.maximum(0, nw - (T.kind[k] == END) - self.n_le[g])
        lo = T.loff[g] + np.minimum(nw, self.n_le[g])
        e_bytes = self._existing_bytes(self.mem[g])
        target = self.cost[lo] + cfg.max_input_bytes - e_bytes + 2 * (e_bytes == 0)
        p = np.where(manual, 0, count)
        capped = np.flatnonzero(self.cost[lo + p] >= target)  # the 32 kB cap binds: search
        if capped.size:
            found = np.searchsorted(self.cost, target[capped], side="left") - lo[capped]
            p[capped] = np.clip(found, 1, p[capped])
        span = self.cost[lo + p] - self.cost[lo]
        inb = e_bytes + span - 2 * ((e_bytes == 0) & (p > 0))
        content = span - p * SESSION_COST
        self.counters["no_input"][g[~manual & (p == 0)]] += 1
        go = p > 0
        self._manual(g, k, manual, go, lo, p, inb, content)
        if go.any():
            self._call_model(g[go], k[go], lo[go], p[go], inb[go], content[go])

    def _existing_bytes(self, mem: I64) -> I64:
        return np.where(mem > 0, EXISTING_COST + np.minimum(mem, self.config.max_existing_bytes), 0)

    def _manual(
        self,
        g: I64,
        k: I64,
        manual: NDArray[np.bool_],
        go: NDArray[np.bool_],
        lo: I64,
        p: I64,
        inb: I64,
        content: I64,
    ) -> None:
        """/dream: every log still on disk (not a contiguous range) — a short loop, it is rare."""
        T = self.T
        for i in np.flatnonzero(manual):
            u = g[i]
            self.counters["manual"][u] += 1
            g0 = T.loff[u]
            avail = g0 + np.flatnonzero(~self.deleted[g0 : g0 + T.nw[k[i]]])
            if avail.size == 0:
                self.counters["manual_empty"][u] += 1
                continue
            e_bytes = int(self._existing_bytes(self.mem[u : u + 1])[0])
            sizes = np.cumsum(SESSION_COST + T.log_bytes[avail]) + e_bytes - 2 * (e_bytes == 0)
            n = int(np.searchsorted(sizes, self.config.max_input_bytes, side="left")) + 1
            n = min(n, avail.size)
            self.manual_sets[int(k[i])] = avail[:n]
            go[i], lo[i], p[i] = True, -1, n
            inb[i] = sizes[n - 1]
            content[i] = int(T.log_bytes[avail[:n]].sum())

    def _call_model(self, g: I64, k: I64, lo: I64, p: I64, inb: I64, content: I64) -> None:
        T, prm = self.T, self.params
        failed = T.u(k) < prm.model_failure_rate
        if failed.any():
            f = failed
            self._record(g[f], k[f], T.t[k[f]] + T.latency(k[f]), FAILED, sessions=p[f],
                         input_bytes=inb[f], content_bytes=content[f],
                         memory_chars=self.mem[g[f]])  # fmt: skip
        ok = ~failed
        g, k = g[ok], k[ok]
        if g.size == 0:
            return
        free = np.isinf(self.f_acq[g])
        while not free.any(axis=1).all():
            self._grow()
            free = np.isinf(self.f_acq[g])
        slot = np.argmax(free, axis=1)
        self.f_acq[g, slot] = T.t[k] + T.latency(k)
        self.f_seen[g, slot] = np.where(self.lock[g], self.last[g], NO_LOCK)
        values = {"trig": k, "lo": lo[ok], "p": p[ok], "inb": inb[ok], "content": content[ok],
                  "mem": self.mem[g]}  # fmt: skip
        for name, v in values.items():
            self.f[name][g, slot] = v

    def _grow(self) -> None:
        pad = ((0, 0), (0, self.f_acq.shape[1]))
        self.f_acq = np.pad(self.f_acq, pad, constant_values=np.inf)
        self.f_seen = np.pad(self.f_seen, pad)
        self.f = {name: np.pad(v, pad) for name, v in self.f.items()}


def simulate_trace(
    trace: Trace, config: DreamConfig, params: SimParams
) -> tuple[dict[str, np.ndarray], dict[str, I64]]:
    """Run the vectorised simulator: (attempt columns, per-user counters)."""
    engine = Engine(trace, config, params)
    return engine.run(), engine.counters
