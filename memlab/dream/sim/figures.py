"""The simulator's summary: flat, JSON-ready numbers about a ``SimResult``.

Attempts and runs per user per day and their spread across users, fleet runs
and calls per hour (mean, p95, peak), time between consolidations, sessions and
input bytes per consolidation, logs left on disk, tokens and cost.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from memlab.config import DreamConfig
from memlab.dream.sim import planner
from memlab.dream.sim.params import SimParams, input_tokens, output_tokens
from memlab.dream.sim.planner import add_histograms, call_seconds
from memlab.dream.sim.state import COMPLETED, COUNTERS, FAILED, OUTCOMES

if TYPE_CHECKING:  # pandas is imported by the tables that need it, not by a summary
    import pandas as pd

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
    freshness: np.ndarray  # logs by minutes from their session's end to their first read

    def summary(self) -> dict[str, Any]:
        return summarize(self)


def _gaps_within(values: np.ndarray, group: np.ndarray) -> np.ndarray:
    """Each value minus the previous one of its group, in row order (a group's first row
    has none): pandas' ``Series.groupby(group).diff().dropna()``, without pandas."""
    if np.all(group[1:] >= group[:-1]):  # groups in order (the engine's rows): one pass
        same = group[1:] == group[:-1]
        return (values[1:] - values[:-1])[same]
    order = np.argsort(group, kind="stable")
    v, g = values[order], group[order]
    same = g[1:] == g[:-1]
    rows = order[1:][same]
    return (v[1:] - v[:-1])[same][np.argsort(rows, kind="stable")]


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


@dataclass(frozen=True)
class Tally:
    """What the summary needs of a fleet (or of a block of its users), mergeable: counts,
    per-user attempts and runs, per-hour counts, and per run the values whose spread
    is reported and the seconds each call is in flight (about 24 bytes per call and run;
    ``merge`` joins blocks in fleet order)."""

    counts: dict[str, int]  # sessions, subagent_ends, COUNTERS, OUTCOMES, duplicates, …
    attempts_per_user: np.ndarray
    runs_per_user: np.ndarray
    tokens_per_user: np.ndarray  # input and output tokens
    cost_per_user: np.ndarray
    runs_per_hour: np.ndarray
    calls_per_hour: np.ndarray
    gaps_hours: np.ndarray  # between a user's consecutive runs
    run_sessions: np.ndarray
    run_input_bytes: np.ndarray
    call_first_s: np.ndarray  # per call, the seconds it is in flight (``planner``)
    call_stop_s: np.ndarray
    freshness: np.ndarray  # logs by minutes to their first read (``planner``)

    @classmethod
    def merge(cls, parts: Sequence[Tally]) -> Tally:
        counts = {k: sum(p.counts[k] for p in parts) for k in parts[0].counts}

        def joined(name: str) -> np.ndarray:
            return np.concatenate([getattr(p, name) for p in parts])

        def summed(name: str) -> np.ndarray:
            return np.sum([getattr(p, name) for p in parts], axis=0)

        return cls(
            counts,
            joined("attempts_per_user"),
            joined("runs_per_user"),
            joined("tokens_per_user"),
            joined("cost_per_user"),
            summed("runs_per_hour"),
            summed("calls_per_hour"),
            joined("gaps_hours"),
            joined("run_sessions"),
            joined("run_input_bytes"),
            joined("call_first_s"),
            joined("call_stop_s"),
            functools.reduce(add_histograms, [p.freshness for p in parts]),
        )


def _small(values: np.ndarray) -> np.ndarray:
    """Integers in 32 bits when they fit (the same values, half the memory)."""
    v = np.asarray(values)
    if v.size and v.dtype.kind == "i" and v.min() >= -(2**31) and v.max() < 2**31:
        return v.astype(np.int32)
    return v


def tally(
    attempts: Mapping[str, np.ndarray],
    users: Mapping[str, np.ndarray],
    params: SimParams,
    start: float,
    days: float,
    logs: int,
    input_cap: float,
    freshness: np.ndarray,
) -> Tally:
    """The ``Tally`` of model calls ``attempts`` (columns; ``outcome`` as codes, ``user``
    numbered from 0 within ``users``) and per-user counters ``users``; ``input_cap`` is
    ``max_input_bytes`` (a run whose input reached it is input-capped); ``freshness`` the
    histogram of the logs' minutes to their first read (``planner.freshness_histogram``)."""
    outcome = np.asarray(attempts["outcome"])
    user = np.asarray(attempts["user"])
    n_users = len(users["sessions"])
    done = outcome == COMPLETED
    acquire = np.asarray(attempts["acquire"])[done]
    gaps = _gaps_within(acquire, user[done]) / 3600.0
    called = outcome != FAILED
    tin = input_tokens(np.asarray(attempts["input_bytes"]), params)
    tout = np.where(called, output_tokens(np.asarray(attempts["response_chars"]), params), 0)
    counts = {
        "sessions": int(users["sessions"].sum()),
        "subagent_ends": int(users["subagent_ends"].sum()),
        **{name: int(users[name].sum()) for name in COUNTERS},
        **{name: int((outcome == code).sum()) for code, name in enumerate(OUTCOMES)},
        "duplicates": int(np.asarray(attempts["duplicate"])[done].sum()),
        "truncated_runs": int(np.asarray(attempts["truncated"])[done].sum()),
        "input_capped_runs": int((np.asarray(attempts["input_bytes"])[done] >= input_cap).sum()),
        "logs": int(logs),
        "logs_deleted": int(np.asarray(attempts["deleted"]).sum()),
        "input_tokens": int(tin.sum()),
        "output_tokens": int(tout.sum()),
    }
    first_s, stop_s = call_seconds(attempts["t"], attempts["acquire"], start)
    per_mtok = (tin * params.price_input_per_mtok + tout * params.price_output_per_mtok) / 1e6
    return Tally(
        counts,
        np.bincount(user, minlength=n_users),
        np.bincount(user[done], minlength=n_users),
        np.bincount(user, weights=tin + tout, minlength=n_users).astype(np.int64),
        np.bincount(user, weights=per_mtok, minlength=n_users),
        hourly(acquire, start, days),
        hourly(np.asarray(attempts["t"]), start, days),
        gaps,
        _small(np.asarray(attempts["sessions"])[done]),
        _small(np.asarray(attempts["input_bytes"])[done]),
        _small(first_s),
        _small(stop_s),
        np.asarray(freshness, dtype=np.int64),
    )


def tally_of(result: SimResult) -> Tally:
    a = result.attempts
    columns = {c: a[c].to_numpy() for c in a.columns if c not in ("outcome", "kind")}
    columns["outcome"] = a["outcome"].cat.codes.to_numpy()
    users = {c: result.users[c].to_numpy() for c in result.users.columns}
    cap = result.config.max_input_bytes
    return tally(
        columns, users, result.params, result.start, result.days, result.logs, cap,
        result.freshness,
    )  # fmt: skip


def tokens_and_cost(t: Tally, params: SimParams, days: float) -> dict[str, float]:
    tin, tout = t.counts["input_tokens"], t.counts["output_tokens"]
    cost = (tin * params.price_input_per_mtok + tout * params.price_output_per_mtok) / 1e6
    per_day = params.users * days
    return {
        "input_tokens": float(tin),
        "output_tokens": float(tout),
        "cost": float(cost),
        "cost_per_user_day": float(cost / per_day) if per_day else 0.0,
    }


def summarize(result: SimResult) -> dict[str, Any]:
    """Flat, JSON-ready numbers (None where a statistic has no data)."""
    return summarize_tally(tally_of(result), result.params, result.days)


def summarize_tally(t: Tally, params: SimParams, days: float) -> dict[str, Any]:
    """The summary of a fleet from its ``Tally`` (the same numbers as ``summarize``)."""
    c = t.counts
    out: dict[str, Any] = {
        "users": len(t.attempts_per_user),
        "days": days,
        "sessions": c["sessions"],
        "subagent_ends": c["subagent_ends"],
    }
    for name in COUNTERS:
        out[name] = c[name]
    out["attempts"] = sum(c[o] for o in OUTCOMES)
    out.update({o.replace("-", "_"): c[o] for o in OUTCOMES})
    out["runs"] = out.pop("completed")
    out["duplicates"] = c["duplicates"]
    out.update(_dist(t.attempts_per_user / days, "attempts_per_user_day"))
    out.update(_dist(t.runs_per_user / days, "runs_per_user_day"))
    out.update(_dist(t.tokens_per_user / days, "user_tokens_per_day"))
    out.update(_dist(t.cost_per_user / days, "user_cost_per_day"))
    per_hour = t.runs_per_hour
    out.update(
        {
            "fleet_runs_per_hour_mean": float(per_hour.mean()),
            "fleet_runs_per_hour_p95": float(np.quantile(per_hour, 0.95)),
            "fleet_runs_per_hour_peak": int(per_hour.max()),
        }
    )
    out["fleet_calls_per_hour_peak"] = int(t.calls_per_hour.max())
    out.update(_dist(t.gaps_hours, "hours_between_runs"))
    out.update(_dist(t.run_sessions, "sessions_per_run"))
    out.update(_dist(t.run_input_bytes, "input_bytes_per_run"))
    out["truncated_runs"] = c["truncated_runs"]
    out["input_capped_runs"] = c["input_capped_runs"]
    out["logs"], out["logs_deleted"] = c["logs"], c["logs_deleted"]
    out["logs_left"] = c["logs"] - c["logs_deleted"]
    out.update(tokens_and_cost(t, params, days))
    out.update(planner_table(t, out, days))
    return out


def planner_table(t: Tally, s: Mapping[str, Any], days: float) -> dict[str, Any]:
    """What a planner sizes a model quota and a budget by: per day, per hour, concurrent
    calls and freshness (``planner`` defines the call duration model and the quantiles)."""
    per_hour = t.calls_per_hour
    seconds = planner.horizon_seconds(days)
    levels = planner.flight_levels(t.call_first_s, t.call_stop_s, seconds)
    in_flight_seconds = int(levels @ np.arange(len(levels)))  # call-seconds, exact
    fresh = t.freshness
    read = int(fresh.sum())
    logs = t.counts["logs"]

    def hours(minutes: int | None) -> float | None:
        return None if minutes is None else minutes / 60.0

    return {
        "calls_per_day": s["attempts"] / days,
        "input_tokens_per_day": s["input_tokens"] / days,
        "output_tokens_per_day": s["output_tokens"] / days,
        "cost_per_day": s["cost"] / days,
        "memory_losing_runs_per_day": s["truncated_runs"] / days,
        "duplicates_per_day": s["duplicates"] / days,
        "fleet_calls_per_hour_mean": float(per_hour.mean()),
        "fleet_calls_per_hour_p95": planner.hist_quantile(np.bincount(per_hour), 0.95),
        "concurrent_calls_mean": float(np.float64(in_flight_seconds) / seconds),
        "concurrent_calls_p50": planner.hist_quantile(levels, 0.5),
        "concurrent_calls_p95": planner.hist_quantile(levels, 0.95),
        "concurrent_calls_p99": planner.hist_quantile(levels, 0.99),
        "concurrent_calls_max": planner.hist_max(levels),
        "freshness_hours_p50": hours(planner.hist_quantile(fresh, 0.5)),
        "freshness_hours_p95": hours(planner.hist_quantile(fresh, 0.95)),
        "freshness_hours_max": hours(planner.hist_max(fresh)),
        "logs_consolidated": read,
        "logs_never_consolidated_share": (logs - read) / logs if logs else None,
    }
