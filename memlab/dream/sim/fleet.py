"""The Dream capacity simulator: how many Dream runs will a fleet make, and what do they cost?

``simulate(params, config)`` generates sessions for ``params.users`` users (or
replays real ones: ``load_events``), runs the same gate, lock and cleanup rules
as Dream (``sim.engine``, proven equal to Dream's own functions by test) and
returns a ``SimResult``: one row per model call (``attempts``), one row per user
(``users``), and ``summary()`` — attempts and runs per user per day and their
spread across users, fleet runs per hour (mean, p95, peak), time between
consolidations, sessions and input bytes per consolidation, tokens and cost.
``sweep`` repeats it over a grid of Dream settings on the same sessions.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from memlab.config import DreamConfig, with_overrides
from memlab.dream.sim.engine import simulate_trace
from memlab.dream.sim.params import SimParams
from memlab.dream.sim.sessions import Sessions, generate_sessions
from memlab.dream.sim.state import COUNTERS, OUTCOMES
from memlab.dream.sim.summary import KINDS, SimResult
from memlab.dream.sim.trace import build_trace

BLOCK_USERS = 25_000  # users simulated together (bounds the memory of one pass)


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


def simulate(params: SimParams, config: DreamConfig, *, fleet: Fleet | None = None) -> SimResult:
    """Simulate ``params`` (or a given ``fleet``, e.g. replayed events) under ``config``."""
    fleet = fleet if fleet is not None else Fleet.generate(params)
    parts: list[dict[str, np.ndarray]] = []
    counters: list[dict[str, np.ndarray]] = []
    k0 = u0 = logs = 0
    for block in fleet.blocks:
        trace = build_trace(block, config, params, k0)
        cols, count = simulate_trace(trace, config, params)
        cols["user"] = cols["user"] + u0
        cols["trigger"] = cols["trigger"] + k0
        count = {
            **count,
            "sessions": np.bincount(block.user, minlength=block.users),
            "subagent_ends": block.subagent_ends,
        }
        parts.append(cols)
        counters.append(count)
        k0, u0, logs = k0 + trace.n_triggers, u0 + block.users, logs + len(trace.log_t)
    return _result(params, config, fleet, parts, counters, logs)


def _result(
    params: SimParams,
    config: DreamConfig,
    fleet: Fleet,
    parts: list[dict[str, np.ndarray]],
    counters: list[dict[str, np.ndarray]],
    logs: int,
) -> SimResult:
    columns = parts[0].keys() if parts else []
    attempts = pd.DataFrame({c: np.concatenate([p[c] for p in parts]) for c in columns})
    attempts = attempts.sort_values("trigger", kind="stable").reset_index(drop=True)
    for column, names in (("outcome", OUTCOMES), ("kind", KINDS)):
        codes = attempts[column].to_numpy(dtype=np.int64)
        attempts[column] = pd.Categorical.from_codes(codes, categories=pd.Index(names))
    fields = ["sessions", "subagent_ends", *COUNTERS]
    users = pd.DataFrame({n: np.concatenate([c[n] for c in counters]) for n in fields})
    users["attempts"] = np.bincount(attempts["user"], minlength=len(users))
    done = attempts["outcome"] == "completed"
    users["runs"] = np.bincount(attempts.loc[done, "user"], minlength=len(users))
    return SimResult(
        params,
        config,
        fleet.days,
        fleet.start,
        attempts,
        users,
        logs,
        int(attempts["deleted"].sum()),
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
