"""The Dream capacity notebook: how often Dream fires across a fleet, and what it costs.

Thin wrappers over ``memlab.dream.sim`` (sessions generated per user,
then the same gate, lock and cleanup rules as Dream itself), its plots and its
gate sweep, plus the closed-form expectation of ``memlab.dream.sim.theory`` to
check the simulator against.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pandas as pd

from memlab.config import DreamConfig, profile
from memlab.dream.sim import Fleet, SimResult, simulate, sweep
from memlab.dream.sim.decide import cheapest_fresh_gates, choice_text
from memlab.dream.sim.params import SimParams
from memlab.dream.sim.plot import plot_fleet_runs_per_hour, plot_per_user_day, plot_sweep
from memlab.dream.sim.table import (
    DISTRIBUTIONS,
    NOTES,
    PLANNER_SECTION,
    ROWS,
    STATS,
    label,
    unit_of,
)
from memlab.dream.sim.theory import expected_hours_between_runs, expected_sessions_per_run
from memlab.workbench.display import Panel, Plot, figure

# the summary keys shown, in order; their labels are the CLI table's (``sim.table.label``)
SUMMARY_KEYS = (
    "sessions",
    "too_soon",
    "too_few",
    "runs",
    "runs_per_user_day_mean",
    "runs_per_user_day_p90",
    "runs_per_user_day_max",
    "fleet_runs_per_hour_mean",
    "fleet_runs_per_hour_p95",
    "fleet_runs_per_hour_peak",
    "hours_between_runs_p50",
    "sessions_per_run_mean",
    "truncated_runs",
    "input_capped_runs",
    "input_tokens",
    "output_tokens",
    "cost",
    "cost_per_user_day",
)


def summary_label(key: str) -> tuple[str, str]:
    """A summary key's label and unit, as the CLI's table shows them (a spread: its
    label and the statistic)."""
    for prefix, text, unit in DISTRIBUTIONS:
        stat = key.removeprefix(f"{prefix}_")
        if stat != key and stat in STATS:
            return f"{text}: {stat}", unit
    return label(key), unit_of(key)


SUMMARY_ROWS = tuple((key, *summary_label(key)) for key in SUMMARY_KEYS)


def fleet_params(
    users: int = 1000,
    days: float = 14.0,
    sessions_per_day: float = 6.0,
    seed: int = 0,
    price_input: float = 3.0,
    price_output: float = 15.0,
) -> SimParams:
    """Simulation parameters (the rest at the simulator's defaults)."""
    return SimParams(
        users=users,
        days=days,
        sessions_per_day=sessions_per_day,
        seed=seed,
        price_input_per_mtok=price_input,
        price_output_per_mtok=price_output,
    )


def dream_config(profile_name: str = "grok-c0") -> DreamConfig:
    return profile(profile_name).dream


def run_fleet(params: SimParams, profile_name: str = "grok-c0") -> SimResult:
    """Simulate the fleet under the profile's Dream settings."""
    return simulate(params, dream_config(profile_name))


def capacity_summary(result: SimResult) -> pd.DataFrame:
    """The numbers capacity planning needs, one per row."""
    s = result.summary()
    cfg = result.config
    rows = [
        {
            "quantity": "Dream gates",
            "value": f"min_hours {cfg.min_hours:g}, min_sessions "
            f"{cfg.min_sessions}, periodic check {cfg.periodic_interval() or 'none'}",
            "unit": "",
        },
        {"quantity": "fleet", "value": f"{s['users']} users × {s['days']:g} days", "unit": ""},
    ]
    rows += [
        {"quantity": text, "value": _fmt(s.get(key)), "unit": unit}
        for key, text, unit in SUMMARY_ROWS
    ]
    return pd.DataFrame(rows)


PLANNER_KEYS = tuple(key for key, _, _ in dict(ROWS)[PLANNER_SECTION])


def planner_table(result: SimResult) -> Panel:
    """The planner's table: model calls, tokens and cost per day, calls per hour,
    concurrent calls, memory-losing and duplicate runs, freshness — with the call
    duration model and the definitions (``sim.planner``) as notes."""
    s = result.summary()
    p = result.params
    rows = [
        {"quantity": label(key), "value": _fmt(s.get(key)), "unit": unit_of(key)}
        for key in PLANNER_KEYS
    ]
    latency = (
        f"model latency: lognormal, mean {p.latency_secs:g} s, sigma {p.latency_sigma:g} "
        f"(SimParams.latency_secs / latency_sigma)"
    )
    return Panel("the planner's table", [latency, *NOTES], [("", pd.DataFrame(rows))])


def _fmt(value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:,.3f}" if abs(value) < 1000 else f"{value:,.0f}"
    return f"{value:,}"


def runs_per_hour_plot(result: SimResult) -> Plot:
    fig = figure(width=9, height=3.5)
    plot_fleet_runs_per_hour(result, ax=fig.axes[0])
    return Plot(fig, "fleet runs per hour")


def per_user_plot(result: SimResult) -> Plot:
    fig = figure(width=7, height=3.5)
    plot_per_user_day(result, "runs", ax=fig.axes[0])
    return Plot(fig, "runs per user per day")


def theory_check(result: SimResult, users_alike: SimParams | None = None) -> Panel:
    """The simulated mean gap between runs against the closed form (Poisson, alike users).

    The closed form assumes every user has the same session rate and zero latency;
    the check re-simulates with ``rate_shape=None`` (users alike) to compare like
    with like.
    """
    p = users_alike or SimParams(
        users=min(result.params.users, 500),
        days=result.params.days,
        sessions_per_day=result.params.sessions_per_day,
        seed=result.params.seed,
        rate_shape=None,
        latency_secs=0.0,
    )
    alike = simulate(p, result.config).summary()
    rate = p.sessions_per_day / 24.0
    cfg = result.config
    table = pd.DataFrame(
        [
            {
                "quantity": "hours between runs",
                "closed form": expected_hours_between_runs(rate, cfg.min_hours, cfg.min_sessions),
                "simulated (users alike)": alike["hours_between_runs_mean"],
                "simulated (fleet)": result.summary()["hours_between_runs_mean"],
            },
            {
                "quantity": "sessions per run",
                "closed form": expected_sessions_per_run(rate, cfg.min_hours, cfg.min_sessions),
                "simulated (users alike)": alike["sessions_per_run_mean"],
                "simulated (fleet)": result.summary()["sessions_per_run_mean"],
            },
        ]
    )
    note = (
        "the closed form reads every new session; the simulation stops reading at "
        f"max_input_bytes ({alike['input_capped_runs']:,} of {alike['runs']:,} runs of the "
        "users alike), so sessions per run can differ"
    )
    return Panel("simulator against the closed form", [note], [("", table)])


def gate_sweep(
    params: SimParams,
    profile_name: str = "grok-c0",
    min_hours: Sequence[float] = (1.0, 4.0, 24.0),
    min_sessions: Sequence[int] = (1, 3, 5),
) -> pd.DataFrame:
    """Every combination of the two gates, on the same generated sessions."""
    grid: dict[str, Sequence[Any]] = {
        "min_hours": list(min_hours),
        "min_sessions": list(min_sessions),
    }
    fleet = Fleet.generate(params)
    return sweep(params, dream_config(profile_name), grid, fleet=fleet)


def gate_sweep_table(table: pd.DataFrame) -> pd.DataFrame:
    cols = [
        "min_hours",
        "min_sessions",
        "runs_per_user_day_mean",
        "runs_per_user_day_p90",
        "fleet_runs_per_hour_peak",
        "sessions_per_run_mean",
        "cost_per_user_day",
        "calls_per_day",
        "input_tokens_per_day",
        "output_tokens_per_day",
        "cost_per_day",
        "concurrent_calls_p99",
        "concurrent_calls_max",
        "freshness_hours_p50",
        "freshness_hours_p95",
        "logs_never_consolidated_share",
    ]
    return table[cols]


def fresh_gates(table: pd.DataFrame, max_hours: float) -> Panel:
    """The cheapest gates whose p95 freshness stays within ``max_hours``, and the Pareto
    front of cost per day against p95 freshness (``sim.decide``)."""
    choice = cheapest_fresh_gates(table, max_hours)
    cols = [c for c in ("min_hours", "min_sessions", "check_interval_secs") if c in table]
    cols += ["cost_per_day", "calls_per_day", "concurrent_calls_max", "freshness_hours_p95"]
    answer = choice_text(choice, cols[: len(cols) - 4], len(table))
    front = choice.front[cols].reset_index(drop=True)
    return Panel("gates: cost against freshness", [answer], [("Pareto front", front)])


def fleet_scaling(
    params: SimParams, profile_name: str = "grok-c0", sizes: Sequence[int] = (100, 1000, 10000)
) -> Panel:
    """The planner's figures at each fleet size (the same per-user behaviour), their
    fitted log–log exponents and the plot (``sim.scaling``)."""
    from memlab.dream.sim.scaling import exponents, scaling

    table = scaling(params, dream_config(profile_name), sizes)
    slopes = exponents(table)
    fits = pd.DataFrame([{"figure": k, "exponent in N": v} for k, v in slopes.items()])
    fig = figure(width=7, height=4)
    ax = fig.axes[0]
    shown = ("calls_per_day", "fleet_calls_per_hour_peak", "concurrent_calls_mean",
             "concurrent_calls_max")  # fmt: skip
    for name in shown:
        ax.plot(table["users"], table[name], marker="o", label=f"{name} (N^{slopes[name]:.2f})"
                if slopes[name] is not None else name)  # fmt: skip
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("users in the fleet (N)")
    ax.legend(loc="upper left")
    note = (
        "exponent: the least-squares slope of log(figure) against log(N); 1 is linear. "
        "The mean number of calls in flight grows with the calls; the peaks grow more "
        "slowly, a small fleet's peak being mostly chance overlap far above its mean."
    )
    items: list[tuple[str, Any]] = [("by fleet size", table), ("fitted exponents", fits)]
    items.append(("", Plot(fig, "the planner's figures against N")))
    return Panel("scaling with the fleet", [note], items)


def gate_sweep_plot(table: pd.DataFrame, y: str = "runs_per_user_day_mean") -> Plot:
    fig = figure(width=7, height=4)
    ax = plot_sweep(table, "min_hours", y, hue="min_sessions", ax=fig.axes[0])
    ax.set_xscale("log")
    return Plot(fig, f"{y} by gate")


def profiles_side_by_side(
    params: SimParams, profiles: Sequence[str] = ("grok-c0", "grok-2026-08")
) -> pd.DataFrame:
    """The same sessions under each profile's Dream settings."""
    fleet = Fleet.generate(params)
    columns = {}
    for name in profiles:
        s = simulate(params, dream_config(name), fleet=fleet).summary()
        columns[name] = [_fmt(s.get(key)) for key, _, _ in SUMMARY_ROWS]
    index = [f"{text} ({unit})" for _, text, unit in SUMMARY_ROWS]
    return pd.DataFrame(columns, index=index)


def save_capacity(result: SimResult, table: pd.DataFrame, out_dir: str = "") -> str:
    """Write summary.json, gate_sweep.csv and manifest.json beside the executed notebook."""
    from dataclasses import asdict

    from memlab import __version__
    from memlab.config import to_dict
    from memlab.eval.compare.manifest import write_json

    if not out_dir:
        return "out_dir is empty: nothing written"
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    write_json(out / "summary.json", {k: v for k, v in result.summary().items() if not _nan(v)})
    table.to_csv(out / "gate_sweep.csv", index=False)
    manifest = {
        "notebook": "dream_capacity",
        "memlab_version": __version__,
        "params": asdict(result.params),
        "dream": to_dict(result.config),
    }
    write_json(out / "manifest.json", manifest)
    return f"wrote summary.json, gate_sweep.csv and manifest.json to {out}"


def _nan(value: Any) -> bool:
    return isinstance(value, float) and math.isnan(value)
