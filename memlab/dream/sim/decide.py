"""The planner's decision over a gate sweep: the cheapest gates that keep memory fresh.

``sweep`` gives one row per gate setting with its cost per day and its freshness
(``freshness_hours_p95``: 95 % of consolidated logs were in ``MEMORY.md`` within that
many hours of their session's end). ``cheapest_fresh_gates`` answers "the cheapest
settings whose p95 freshness stays under H hours"; ``cost_freshness_front`` is the
Pareto front of cost against freshness (no other setting is both cheaper and
fresher). Pure functions of the sweep table.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from memlab.sweep.choice import pareto_front

COST = "cost_per_day"
FRESHNESS = "freshness_hours_p95"


@dataclass(frozen=True)
class GateChoice:
    max_hours: float
    chosen: pd.Series | None  # the sweep's row, or None when no setting is fresh enough
    eligible: int  # settings whose freshness stays within max_hours
    front: pd.DataFrame  # cost against freshness, by increasing cost


def cost_freshness_front(
    table: pd.DataFrame, cost: str = COST, freshness: str = FRESHNESS
) -> pd.DataFrame:
    """The settings no other beats on both cost and freshness, by increasing cost (rows
    without a freshness, where nothing was consolidated, are left out)."""
    fresh = pd.to_numeric(table[freshness], errors="coerce").to_numpy(dtype=float)
    rows = pareto_front(-fresh, table[cost].to_numpy(dtype=float))
    return table.iloc[rows]


def cheapest_fresh_gates(
    table: pd.DataFrame, max_hours: float, cost: str = COST, freshness: str = FRESHNESS
) -> GateChoice:
    """The cheapest row whose ``freshness`` is at most ``max_hours`` (ties on cost: the
    fresher, then the first); ``chosen`` is None when no row qualifies."""
    fresh = pd.to_numeric(table[freshness], errors="coerce").to_numpy(dtype=float)
    ok = np.flatnonzero(fresh <= max_hours)  # NaN (no freshness) never qualifies
    front = cost_freshness_front(table, cost, freshness)
    if ok.size == 0:
        return GateChoice(max_hours, None, 0, front)
    costs = table[cost].to_numpy(dtype=float)[ok]
    best = ok[np.lexsort((ok, fresh[ok], costs))[0]]
    return GateChoice(max_hours, table.iloc[best], int(ok.size), front)


def choice_text(choice: GateChoice, keys: list[str], rows: int) -> str:
    """The answer in one line: the chosen settings (``keys``), their cost, calls and p95
    freshness, and how many of the sweep's ``rows`` settings qualify."""
    h = f"{choice.max_hours:g} h"
    if choice.chosen is None:
        return f"no gate setting of the sweep keeps p95 freshness within {h}"
    row = choice.chosen
    gates = ", ".join(f"{k} {_value(row[k])}" for k in keys)
    return (
        f"cheapest with p95 freshness within {h}: {gates} — {row[COST]:,.2f} per day, "
        f"{row['calls_per_day']:,.0f} calls per day, p95 freshness {row[FRESHNESS]:.1f} h "
        f"({choice.eligible} of {rows} settings qualify)"
    )


def _value(v: object) -> object:
    """A swept value as given (a whole float, as pandas widens a row, as an integer)."""
    return int(v) if isinstance(v, float) and v.is_integer() else v
