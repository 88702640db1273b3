"""Fleet summaries in bounded memory: blocks of users simulated and tallied one at a time.

``simulate`` keeps one row per model call (``SimResult.attempts``), which a fleet of
10^6 users × 90 days cannot afford (≈ 65 M rows). ``simulate_summary`` runs the
same blocks (``fleet.simulate_block``, anywhere: this process, memlab's process
pool, a Dask cluster's executor), reduces each block to its ``Tally`` where it ran
(counts, per-user attempts and runs, per-hour counts, three numbers per run, the
seconds each call is in flight and the logs' freshness histogram) and merges them
in fleet order: memory is one block per worker plus about 24 bytes per call and 32
per user. Its ``summary()`` is the same dictionary, number for
number, as ``simulate(...).summary()`` (tested).
"""

from __future__ import annotations

from concurrent.futures import Executor
from dataclasses import dataclass
from typing import Any

import numpy as np

from memlab import progress
from memlab.config import DreamConfig
from memlab.dream.sim.figures import Tally, summarize_tally, tally
from memlab.dream.sim.fleet import BLOCK_USERS, PARALLEL_FROM, Fleet, simulate_block
from memlab.dream.sim.kernel import ready
from memlab.dream.sim.params import SimParams
from memlab.dream.sim.sessions import Sessions
from memlab.parallel import run_all, spare_cores

BYTES_PER_RUN = 48  # a run's tallied numbers (its call's seconds in flight too), and a copy
BYTES_PER_USER = 32  # calls, runs, tokens and cost per user


@dataclass(frozen=True)
class FleetSummary:
    params: SimParams
    config: DreamConfig
    days: float
    start: float
    tally: Tally

    def summary(self) -> dict[str, Any]:
        return summarize_tally(self.tally, self.params, self.days)

    @property
    def runs_per_hour(self) -> np.ndarray:
        return self.tally.runs_per_hour


def tally_block(
    params: SimParams,
    config: DreamConfig,
    first: int,
    sessions: Sessions | None,
    start: float,
    days: float,
) -> Tally:
    """``simulate_block`` reduced to its ``Tally`` where it ran (only that ships back)."""
    block = simulate_block(params, config, first, sessions)
    columns = {**block.columns, "user": block.columns["user"] - first}
    cap = config.max_input_bytes
    return tally(columns, block.counters, params, start, days, block.logs, cap, block.freshness)


def simulate_summary(
    params: SimParams,
    config: DreamConfig,
    *,
    fleet: Fleet | None = None,
    workers: int | None = None,
    executor: Executor | None = None,
) -> FleetSummary:
    """The summary of ``simulate(params, config, fleet=...)`` without its tables: blocks
    run on ``workers`` processes (default as ``simulate``) or on ``executor``."""
    if fleet is None:
        users, days, start = params.users, params.days, params.start
        firsts = list(range(0, params.users, BLOCK_USERS))
        given: list[Sessions | None] = [None] * len(firsts)
    else:
        users, days, start = fleet.users, fleet.days, fleet.start
        firsts = [int(f) for f in np.cumsum([0, *(b.users for b in fleet.blocks)])[:-1]]
        given = list(fleet.blocks)
    pieces = [(params, config, f, s, start, days) for f, s in zip(firsts, given, strict=True)]
    if workers is None:
        workers = spare_cores() if users * days >= PARALLEL_FROM else 1
    if workers > 1 and executor is None:
        ready()  # the compiled engine, loaded once here rather than in every worker
    parts: list[Tally | None] = [None] * len(pieces)
    what = f"simulating {users:,} users over {days:g} days"
    with progress.phase(what, len(pieces), "block") as bar:
        for i, part in run_all(tally_block, pieces, workers=workers, executor=executor):
            parts[i] = part
            bar.advance()
    merged = Tally.merge([p for p in parts if p is not None])
    return FleetSummary(params, config, days, start, merged)


def memory_needed(params: SimParams, config: DreamConfig, workers: int, per_session: int) -> int:
    """Bytes ``simulate_summary`` needs at most: a block per worker and the tallies."""
    per_user = params.days * params.sessions_per_day
    blocks = min(workers, -(-params.users // BLOCK_USERS))
    block = min(params.users, BLOCK_USERS) * per_user * per_session
    runs = params.users * per_user / max(1, config.min_sessions)
    manual = params.users * per_user * params.manual_share  # /dream skips the gates
    if config.min_hours > 0:
        runs = min(runs, params.users * params.days * 24.0 / config.min_hours + params.users)
    runs += manual
    return int(blocks * block + runs * BYTES_PER_RUN + params.users * BYTES_PER_USER)
