"""The Dream capacity simulator: how many Dream runs will a fleet make, and what do they cost?

``simulate(params, config)`` generates sessions for ``params.users`` users (or
replays real ones: ``load_events``), runs the same gate, lock and cleanup rules
as Dream (``sim.kernel``, proven equal to Dream's own functions by test) and
returns a ``SimResult``: one row per model call (``attempts``), one row per user
(``users``), and ``summary()`` — attempts and runs per user per day and their
spread across users, fleet runs per hour (mean, p95, peak), time between
consolidations, sessions and input bytes per consolidation, tokens and cost.
``sweep`` repeats it over a grid of Dream settings on the same sessions.

Users are independent, so the fleet is simulated in blocks of users
(``simulate_block``, a pure function: sessions, triggers, engine) on every core
(``memlab.parallel``; any ``concurrent.futures.Executor``, e.g. a Dask cluster's),
and joined in fleet order. A block computed elsewhere comes back with its integer
columns narrowed (``shipped_block``): piping int64 tables back cost more than the
block's own simulation.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Mapping, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from memlab.config import DreamConfig, with_overrides
from memlab.dream.sim.figures import KINDS, SimResult
from memlab.dream.sim.kernel import ready, simulate_trace_compiled
from memlab.dream.sim.params import SimParams
from memlab.dream.sim.planner import add_histograms, freshness_histogram
from memlab.dream.sim.sessions import Sessions, generate_sessions
from memlab.dream.sim.state import COUNTERS, OUTCOMES
from memlab.dream.sim.triggers import build_trace
from memlab.parallel import run_all, spare_cores

if TYPE_CHECKING:  # imported where a table is built: a summary needs no pandas
    import pandas as pd

BLOCK_USERS = 2_500  # users per block: the unit of the sessions' random streams, of work
PARALLEL_FROM = 200_000  # user-days from which ``simulate`` uses every core by default


@dataclass(frozen=True)
class Fleet:
    """The sessions of every user, in blocks of at most ``BLOCK_USERS`` users."""

    blocks: tuple[Sessions, ...]
    days: float

    @classmethod
    def generate(cls, params: SimParams) -> Fleet:
        firsts = range(0, params.users, BLOCK_USERS)
        blocks = [
            generate_sessions(params, lo, min(BLOCK_USERS, params.users - lo)) for lo in firsts
        ]
        return cls(tuple(blocks), params.days)

    @classmethod
    def from_sessions(cls, sessions: Sessions, days: float) -> Fleet:
        cuts = range(0, sessions.users, BLOCK_USERS)
        blocks = [sessions.take(lo, min(lo + BLOCK_USERS, sessions.users)) for lo in cuts]
        return cls(tuple(blocks), days)

    @property
    def users(self) -> int:
        return sum(b.users for b in self.blocks)

    @property
    def start(self) -> float:
        return self.blocks[0].t0 if self.blocks else 0.0


@dataclass(frozen=True)
class BlockResult:
    """What simulating one block of users leaves (plain arrays: cheap to ship)."""

    columns: dict[str, np.ndarray]  # one row per model call, by trigger (block numbers)
    counters: dict[str, np.ndarray]  # one row per user
    triggers: int
    logs: int
    freshness: np.ndarray  # logs by minutes from their session's end to their first read


def simulate_block(
    params: SimParams, config: DreamConfig, first: int, sessions: Sessions | None = None
) -> BlockResult:
    """Users ``first``… of the fleet: their sessions (generated when not given), their
    triggers and the engine. A pure function of its arguments: blocks are independent
    (the model's draws are keyed by fleet-wide user, ``sim.trace``), so they run on
    any core, in any order, and memory is bounded by one block."""
    s = sessions
    if s is None:
        s = generate_sessions(params, first, min(BLOCK_USERS, params.users - first))
    trace = build_trace(s, config, params, first)
    read = np.full(len(trace.log_t), np.inf)
    cols, count = simulate_trace_compiled(trace, config, params, consolidated=read)  # by trigger
    cols["user"] = cols["user"] + first
    count = {
        **count,
        "sessions": np.bincount(s.user, minlength=s.users),
        "subagent_ends": s.subagent_ends,
    }
    fresh = freshness_histogram(trace.log_t, read)
    return BlockResult(cols, count, trace.n_triggers, len(trace.log_t), fresh)


def _narrow(values: np.ndarray) -> np.ndarray:
    """Integers in the smallest of 8, 16, 32 bits that holds them (else as they are)."""
    if values.size == 0 or values.dtype.kind != "i":
        return values
    lo, hi = int(values.min()), int(values.max())
    for kind in (np.int8, np.int16, np.int32):
        bounds = np.iinfo(kind)
        if bounds.min <= lo and hi <= bounds.max:
            return values.astype(kind)
    return values


def shipped_block(
    params: SimParams, config: DreamConfig, first: int, sessions: Sessions | None = None
) -> BlockResult:
    """``simulate_block`` for another process: its integer columns narrowed (the same
    values, about half the bytes to pickle and pipe back; ``_result`` widens them again)."""
    block = simulate_block(params, config, first, sessions)
    return BlockResult({c: _narrow(v) for c, v in block.columns.items()}, block.counters,
                       block.triggers, block.logs, block.freshness)  # fmt: skip


def _joined(parts: list[np.ndarray]) -> np.ndarray:
    """Columns of blocks end to end; integers as int64, however narrow they came back."""
    kind = np.result_type(*parts)
    return np.concatenate(parts, dtype=np.int64 if kind.kind == "i" else kind)


def simulate(
    params: SimParams,
    config: DreamConfig,
    *,
    fleet: Fleet | None = None,
    workers: int | None = None,
    executor: Executor | None = None,
) -> SimResult:
    """Simulate ``params`` (or a given ``fleet``, e.g. replayed events) under ``config``.

    Blocks of users run on ``workers`` processes (default: the spare cores from
    ``PARALLEL_FROM`` user-days on, ``memlab.parallel.spare_cores``) or on any
    ``executor``; the result does not depend
    on where they ran. Without a ``fleet``, each block generates its own sessions, so
    the sessions of the whole fleet are never in memory at once."""
    if fleet is None:
        starts = list(range(0, params.users, BLOCK_USERS))
        pieces: list[tuple[Any, ...]] = [(params, config, first, None) for first in starts]
        users, days, start = params.users, params.days, params.start
    else:
        firsts = np.cumsum([0, *(b.users for b in fleet.blocks)])[:-1]
        pieces = [(params, config, int(f), b) for f, b in zip(firsts, fleet.blocks, strict=True)]
        users, days, start = fleet.users, fleet.days, fleet.start
    if workers is None:
        workers = spare_cores() if users * days >= PARALLEL_FROM else 1
    if workers > 1 and executor is None:
        ready()  # the compiled engine, loaded once here rather than in every worker
    results: list[BlockResult | None] = [None] * len(pieces)
    local = executor is None and workers <= 1
    work = simulate_block if local else shipped_block
    for i, block in run_all(work, pieces, workers=workers, executor=executor):
        results[i] = block
    return _result(params, config, days, start, [r for r in results if r is not None])


def _result(
    params: SimParams, config: DreamConfig, days: float, start: float, blocks: list[BlockResult]
) -> SimResult:
    """The blocks joined in fleet order (trigger numbers run on across blocks)."""
    import pandas as pd

    k0 = np.cumsum([0, *(b.triggers for b in blocks)])[:-1]
    columns: dict[str, np.ndarray] = {}
    for name in blocks[0].columns if blocks else ():
        parts = [b.columns[name] for b in blocks]
        if name == "trigger":
            parts = [p + k for p, k in zip(parts, k0, strict=True)]
        columns[name] = _joined(parts)
    # columns side by side, not consolidated into 2-D blocks (a copy of every row), and not
    # copied into the Series either (pandas copies an array by default; these are ours)
    attempts = pd.concat([pd.Series(v, name=c, copy=False) for c, v in columns.items()], axis=1)
    if attempts.empty and not len(attempts.columns):
        attempts = pd.DataFrame(columns)
    for column, names in (("outcome", OUTCOMES), ("kind", KINDS)):
        codes = attempts[column].to_numpy(dtype=np.int64)
        attempts[column] = pd.Categorical.from_codes(codes, categories=pd.Index(names))
    fields = ["sessions", "subagent_ends", *COUNTERS]
    users = pd.DataFrame({n: np.concatenate([b.counters[n] for b in blocks]) for n in fields})
    users["attempts"] = np.bincount(attempts["user"], minlength=len(users))
    done = attempts["outcome"] == "completed"
    users["runs"] = np.bincount(attempts.loc[done, "user"], minlength=len(users))
    return SimResult(
        params,
        config,
        days,
        start,
        attempts,
        users,
        sum(b.logs for b in blocks),
        int(attempts["deleted"].sum()),
        functools.reduce(add_histograms, [b.freshness for b in blocks], np.zeros(0, np.int64)),
    )


def sweep(
    params: SimParams,
    config: DreamConfig,
    grid: Mapping[str, Sequence[Any]],
    *,
    fleet: Fleet | None = None,
    progress: bool = False,
) -> pd.DataFrame:
    """One row per combination of ``grid`` (Dream keys such as ``min_hours``), same sessions."""
    import pandas as pd
    from tqdm import tqdm

    fleet = fleet if fleet is not None else Fleet.generate(params)
    keys = list(grid)
    combos = list(itertools.product(*(grid[k] for k in keys)))
    rows = []
    for values in tqdm(combos, desc="dream sweep", disable=not progress):
        cfg = with_overrides(config, dict(zip(keys, values, strict=True)))
        summary = simulate(params, cfg, fleet=fleet).summary()
        rows.append({**dict(zip(keys, values, strict=True)), **summary})
    return pd.DataFrame(rows)


def warm_worker() -> None:
    """A worker made ready to simulate (handed to ``memlab.cluster.connect``): unpickling
    the function imports this module and the simulation modules it imports, which is the
    whole warm-up."""
