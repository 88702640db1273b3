"""The simulator's summary: flat, JSON-ready numbers about a ``SimResult``.

Attempts and runs per user per day and their spread across users, fleet runs
and calls per hour (mean, p95, peak), time between consolidations, sessions and
input bytes per consolidation, logs left on disk, tokens and cost.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from memlab.config import DreamConfig
from memlab.dream.sim.params import SimParams, input_tokens, output_tokens
from memlab.dream.sim.state import COUNTERS, OUTCOMES

KINDS = ("session-end", "periodic", "manual")  # trigger kinds, by code (END, TICK, MANUAL)


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


def _dist(values: np.ndarray | pd.Series, prefix: str) -> dict[str, float | None]:
    v = np.asarray(values, dtype=float)
    if v.size == 0:
        return {f"{prefix}_{s}": None for s in ("mean", "p50", "p90", "p99", "max")}
    q = np.quantile(v, [0.5, 0.9, 0.99])
    return {
        f"{prefix}_mean": float(v.mean()),
        f"{prefix}_p50": float(q[0]),
        f"{prefix}_p90": float(q[1]),
        f"{prefix}_p99": float(q[2]),
        f"{prefix}_max": float(v.max()),
    }


def hourly(times: np.ndarray, start: float, days: float) -> np.ndarray:
    """Counts per hour of the horizon (events after it are left out)."""
    hours = max(1, math.ceil(days * 24))
    slot = np.floor((np.asarray(times) - start) / 3600.0).astype(np.int64)
    slot = slot[(slot >= 0) & (slot < hours)]
    return np.bincount(slot, minlength=hours)


def tokens_and_cost(result: SimResult) -> dict[str, float]:
    a, p = result.attempts, result.params
    called = a["outcome"] != "failed"
    tin = input_tokens(a["input_bytes"].to_numpy(), p)
    tout = np.where(called, output_tokens(a["response_chars"].to_numpy(), p), 0)
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
    out: dict[str, Any] = {
        "users": len(u),
        "days": days,
        "sessions": int(u["sessions"].sum()),
        "subagent_ends": int(u["subagent_ends"].sum()),
    }
    for name in COUNTERS:
        out[name] = int(u[name].sum())
    out["attempts"] = len(a)
    out.update({o.replace("-", "_"): int((a["outcome"] == o).sum()) for o in OUTCOMES})
    out["runs"] = out.pop("completed")
    out["duplicates"] = int(done["duplicate"].sum())
    out.update(_dist(u["attempts"] / days, "attempts_per_user_day"))
    out.update(_dist(u["runs"] / days, "runs_per_user_day"))
    per_hour = hourly(done["acquire"].to_numpy(), result.start, days)
    out.update(
        {
            "fleet_runs_per_hour_mean": float(per_hour.mean()),
            "fleet_runs_per_hour_p95": float(np.quantile(per_hour, 0.95)),
            "fleet_runs_per_hour_peak": int(per_hour.max()),
        }
    )
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
