"""The Dream capacity simulator: how many Dream runs will a fleet make, and what do they cost?

``simulate(params, config)`` generates sessions for ``params.users`` users (or
replays real ones: ``load_events``), runs the same gate, lock and cleanup rules
as Dream (``sim_engine``, proven equal to Dream's own functions by test) and
returns a ``SimResult``: one row per model call (``attempts``), one row per user
(``users``), and ``summary()`` — attempts and runs per user per day and their
spread across users, fleet runs per hour (mean, p95, peak), time between
consolidations, sessions and input bytes per consolidation, tokens and cost.
``sweep`` repeats it over a grid of Dream settings on the same sessions.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from memlab.config import DreamConfig, with_overrides
from memlab.dream.sim_acquire import OUTCOMES
from memlab.dream.sim_engine import COUNTERS, simulate_trace
from memlab.dream.sim_params import DAY, SimParams
from memlab.dream.sim_trace import Sessions, build_trace, generate_sessions
from memlab.errors import DatasetError

KINDS = ("session-end", "periodic", "manual")


BLOCK_USERS = 25_000  # users simulated together (bounds the memory of one pass)
GENERATE_USERS = 2_000  # users generated together (small arrays reuse their memory)


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
class SimResult:
    params: SimParams
    config: DreamConfig
    days: float
    start: float
    attempts: pd.DataFrame  # one row per model call
    users: pd.DataFrame  # one row per user
    logs: int  # session logs written
    logs_deleted: int

    def summary(self) -> dict[str, Any]:
        return summarize(self)


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
        count = {**count, "sessions": np.bincount(block.user, minlength=block.users),
                 "subagent_ends": block.subagent_ends}  # fmt: skip
        parts.append(cols)
        counters.append(count)
        k0, u0, logs = k0 + trace.n_triggers, u0 + block.users, logs + len(trace.log_t)
    return _result(params, config, fleet, parts, counters, logs)


def _result(params: SimParams, config: DreamConfig, fleet: Fleet,
            parts: list[dict[str, np.ndarray]], counters: list[dict[str, np.ndarray]],
            logs: int) -> SimResult:  # fmt: skip
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
    return SimResult(params, config, fleet.days, fleet.start, attempts, users, logs,
                     int(attempts["deleted"].sum()))  # fmt: skip


# ------------------------------------------------------------------ summary


def _dist(values: np.ndarray | pd.Series, prefix: str) -> dict[str, float | None]:
    v = np.asarray(values, dtype=float)
    if v.size == 0:
        return {f"{prefix}_{s}": None for s in ("mean", "p50", "p90", "p99", "max")}
    q = np.quantile(v, [0.5, 0.9, 0.99])
    return {f"{prefix}_mean": float(v.mean()), f"{prefix}_p50": float(q[0]),
            f"{prefix}_p90": float(q[1]), f"{prefix}_p99": float(q[2]),
            f"{prefix}_max": float(v.max())}  # fmt: skip


def hourly(times: np.ndarray, start: float, days: float) -> np.ndarray:
    """Counts per hour of the horizon (events after it are left out)."""
    hours = max(1, math.ceil(days * 24))
    slot = np.floor((np.asarray(times) - start) / 3600.0).astype(np.int64)
    slot = slot[(slot >= 0) & (slot < hours)]
    return np.bincount(slot, minlength=hours)


def tokens_and_cost(result: SimResult) -> dict[str, float]:
    a, p = result.attempts, result.params
    called = a["outcome"] != "failed"
    tin = np.ceil(a["input_bytes"].to_numpy() / p.bytes_per_token) + p.prompt_tokens
    tout = np.where(called, np.ceil(a["response_chars"].to_numpy() / p.bytes_per_token), 0)
    cost = (tin.sum() * p.price_input_per_mtok + tout.sum() * p.price_output_per_mtok) / 1e6
    per_day = result.params.users * result.days
    return {
        "input_tokens": float(tin.sum()),
        "output_tokens": float(tout.sum()),
        "cost": float(cost),
        "cost_per_user_day": float(cost / per_day) if per_day else 0.0,
    }


def summarize(result: SimResult) -> dict[str, Any]:
    """Flat, JSON-ready numbers (None where a statistic has no data)."""
    a, u, days = result.attempts, result.users, result.days
    done = a[a["outcome"] == "completed"]
    out: dict[str, Any] = {"users": len(u), "days": days, "sessions": int(u["sessions"].sum()),
                           "subagent_ends": int(u["subagent_ends"].sum())}  # fmt: skip
    for name in ("checks", "too_soon", "too_few", "disabled", "no_input", "manual", "manual_empty"):
        out[name] = int(u[name].sum())
    out["attempts"] = len(a)
    out.update({o.replace("-", "_"): int((a["outcome"] == o).sum()) for o in OUTCOMES})
    out["runs"] = out.pop("completed")
    out["duplicates"] = int(done["duplicate"].sum())
    out.update(_dist(u["attempts"] / days, "attempts_per_user_day"))
    out.update(_dist(u["runs"] / days, "runs_per_user_day"))
    per_hour = hourly(done["acquire"].to_numpy(), result.start, days)
    out.update({"fleet_runs_per_hour_mean": float(per_hour.mean()),
                "fleet_runs_per_hour_p95": float(np.quantile(per_hour, 0.95)),
                "fleet_runs_per_hour_peak": int(per_hour.max())})  # fmt: skip
    calls = hourly(a["t"].to_numpy(), result.start, days)
    out["fleet_calls_per_hour_peak"] = int(calls.max())
    gaps = done.groupby("user")["acquire"].diff().dropna().to_numpy() / 3600.0
    out.update(_dist(gaps, "hours_between_runs"))
    out.update(_dist(done["sessions"], "sessions_per_run"))
    out.update(_dist(done["input_bytes"], "input_bytes_per_run"))
    out["truncated_runs"] = int(done["truncated"].sum())
    out["logs"], out["logs_deleted"] = result.logs, result.logs_deleted
    out["logs_left"] = result.logs - result.logs_deleted
    out.update(tokens_and_cost(result))
    return out


# ------------------------------------------------------------------ replay


def _seconds(column: pd.Series, name: str) -> np.ndarray:
    """Unix seconds from numbers or ISO 8601 strings (naive times are UTC); blanks are NaN."""
    values = pd.to_numeric(column, errors="coerce").to_numpy(dtype=float, copy=True)
    is_text = np.isnan(values) & column.notna().to_numpy()
    text = column[is_text]
    if len(text):
        parsed = pd.to_datetime(text.astype(str), utc=True, errors="coerce", format="ISO8601")
        bad = text[parsed.isna()]
        if len(bad):
            rows = [f"row {i + 2}: {v!r}" for i, v in bad.head(5).items()]
            raise DatasetError(f"events: cannot read column '{name}' as times "
                               "(unix seconds or ISO 8601)", rows)  # fmt: skip
        seconds = (parsed - pd.Timestamp(0, tz="UTC")).dt.total_seconds().to_numpy()
        values[is_text] = seconds
    return values


def load_events(path: str | Path, params: SimParams) -> Fleet:
    """Sessions from a CSV (``user,start,end`` plus optional ``subagent``, ``bytes``,
    ``dream_at``; times as unix seconds or ISO 8601), and the days it spans."""
    df = pd.read_csv(path)
    missing = [c for c in ("user", "start", "end") if c not in df.columns]
    if missing:
        raise DatasetError(f"events file {path} lacks column(s) {', '.join(missing)}; "
                           "expected user,start,end[,subagent][,bytes][,dream_at]")  # fmt: skip
    start, end = _seconds(df["start"], "start"), _seconds(df["end"], "end")
    backwards = np.flatnonzero(~(end >= start))
    if backwards.size:
        raise DatasetError(f"events file {path}: a session ends before it starts",
                           [f"row {i + 2}" for i in backwards[:5]])  # fmt: skip
    t0 = float(np.floor(start.min()))
    codes, names = pd.factorize(df["user"].astype(str), sort=True)
    sub = np.zeros(len(df), dtype=bool)
    if "subagent" in df.columns:
        sub = df["subagent"].astype(str).str.lower().isin(["1", "true", "yes"]).to_numpy()
    if "bytes" in df.columns:
        size = df["bytes"].to_numpy(dtype=float)
    else:
        sigma = params.session_bytes_sigma
        rng = np.random.default_rng([params.seed, 2])
        size = rng.lognormal(np.log(params.session_bytes) - sigma**2 / 2, sigma, len(df))
    manual = np.full(len(df), np.nan)
    if "dream_at" in df.columns:
        manual = _seconds(df["dream_at"], "dream_at")
    main = np.flatnonzero(~sub)
    order = main[np.lexsort((start[main], codes[main]))]

    def to_ms(t: np.ndarray) -> np.ndarray:
        return np.rint((t - t0) * 1000.0).astype(np.int64)

    s_ms, e_ms, m = to_ms(start[order]), to_ms(end[order]), manual[order]
    m_ms = np.where(np.isfinite(m), to_ms(np.nan_to_num(m, nan=t0)), -1)
    m_ms = np.where((m_ms >= s_ms) & (m_ms < e_ms), m_ms, -1)
    users = len(names)
    sessions = Sessions(
        users, codes[order].astype(np.int64), s_ms, e_ms,
        np.maximum(1, np.rint(size[order])).astype(np.int64), m_ms,
        np.bincount(codes[sub], minlength=users).astype(np.int64), t0,
    )  # fmt: skip
    return Fleet.from_sessions(sessions, float(max((end.max() - t0) / DAY, 1 / 24)))


# ------------------------------------------------------------------ sweeps


def sweep(params: SimParams, config: DreamConfig, grid: Mapping[str, Sequence[Any]], *,
          fleet: Fleet | None = None, progress: bool = False) -> pd.DataFrame:  # fmt: skip
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
