"""How the planner's figures grow with the fleet: the same per-user behaviour at
several fleet sizes, each figure against N, with its fitted log–log exponent.

``scaling`` simulates each size in bounded memory (``stream.simulate_summary``: only
the summary's numbers are kept); ``exponent`` is the least-squares slope of
log(figure) against log(N). Calls, tokens, cost and the mean number of calls in
flight (calls per second × mean latency) grow linearly; the peaks grow more slowly
over a range of sizes, because a small fleet's peak is mostly chance overlap far
above its mean, and a large fleet's peak lies close to its mean.
"""

from __future__ import annotations

from collections.abc import Sequence
from concurrent.futures import Executor
from dataclasses import replace

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike

from memlab.config import DreamConfig
from memlab.dream.sim.params import SimParams
from memlab.dream.sim.stream import simulate_summary

FIGURES = (
    "calls_per_day",
    "input_tokens_per_day",
    "output_tokens_per_day",
    "cost_per_day",
    "fleet_calls_per_hour_peak",
    "concurrent_calls_mean",
    "concurrent_calls_p99",
    "concurrent_calls_max",
    "freshness_hours_p95",
)


def exponent(n: ArrayLike, y: ArrayLike) -> float | None:
    """The slope of log y against log n (least squares); None with fewer than two
    positive points."""
    x, v = np.asarray(n, dtype=float), np.asarray(y, dtype=float)
    ok = (x > 0) & (v > 0) & np.isfinite(v)
    if ok.sum() < 2 or np.unique(x[ok]).size < 2:
        return None
    return float(np.polyfit(np.log(x[ok]), np.log(v[ok]), 1)[0])


def scaling(
    params: SimParams,
    config: DreamConfig,
    sizes: Sequence[int],
    *,
    workers: int | None = None,
    executor: Executor | None = None,
) -> pd.DataFrame:
    """One row per fleet size: ``FIGURES`` of ``params`` with ``users`` set to each size."""
    rows = []
    for n in sizes:
        fleet = replace(params, users=int(n))
        s = simulate_summary(fleet, config, workers=workers, executor=executor).summary()
        rows.append({"users": int(n), **{f: s[f] for f in FIGURES}})
    return pd.DataFrame(rows)


def exponents(table: pd.DataFrame) -> dict[str, float | None]:
    """Each figure's fitted exponent against ``users``."""
    return {f: exponent(table["users"], table[f]) for f in FIGURES if f in table}
