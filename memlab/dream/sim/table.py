"""The simulator's summary as a labelled table with units (``memlab dream simulate``).

``summarize`` gives flat numbers keyed for JSON (``--json`` prints them as they
are); this module says what each key means and in which unit, grouped by what a
capacity planner asks: how often the gates pass, how many model calls and
consolidations, how they spread over users and hours, what is left on disk and
what it costs. ``ROWS`` and ``DISTRIBUTIONS`` name every key of the summary once
(a test checks it), so a new number cannot appear unlabelled.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from memlab.dream.sim.params import SimParams

PLANNER_SECTION = "the planner's table (per day of the horizon; definitions below)"
# (section, [(key, label, unit)]): one value per row
ROWS: tuple[tuple[str, tuple[tuple[str, str, str], ...]], ...] = (
    (
        "fleet",
        (
            ("users", "users simulated", "users"),
            ("days", "horizon", "days"),
            ("sessions", "sessions started", "sessions"),
            ("subagent_ends", "sub-agent session ends (never trigger Dream)", "sessions"),
        ),
    ),
    (
        "gate checks (one per trigger)",
        (
            ("checks", "gate checks", "checks"),
            ("disabled", "Dream disabled", "checks"),
            ("too_soon", "stopped by the time gate (too soon)", "checks"),
            ("too_few", "stopped by the session gate (too few new sessions)", "checks"),
            ("no_input", "passed, but no session log to read", "checks"),
            ("manual", "/dream commands", "commands"),
            ("manual_empty", "/dream with nothing to read", "commands"),
        ),
    ),
    (
        "model calls",
        (
            ("attempts", "model calls", "calls"),
            ("runs", "completed consolidations", "runs"),
            ("failed", "failed calls (lock untouched)", "calls"),
            ("lock_busy", "lock held by a live process", "calls"),
            ("nothing", "answered NO_REPLY (nothing to keep)", "calls"),
            ("stale_input", "skipped: input overtaken by another run", "calls"),
            ("duplicates", "redundant runs (another run completed after their trigger)", "runs"),
            (
                "truncated_runs",
                "memory-losing runs: new MEMORY.md cut at max_response_chars",
                "runs",
            ),
            (
                "input_capped_runs",
                "input-capped runs: input reached max_input_bytes, reading stopped",
                "runs",
            ),
        ),
    ),
    (
        "fleet load per hour",
        (
            ("fleet_runs_per_hour_mean", "consolidations per hour, mean", "runs/h"),
            ("fleet_runs_per_hour_p95", "consolidations per hour, 95th percentile", "runs/h"),
            ("fleet_runs_per_hour_peak", "consolidations in the busiest hour", "runs/h"),
            ("fleet_calls_per_hour_peak", "model calls in the busiest hour", "calls/h"),
        ),
    ),
    (
        PLANNER_SECTION,
        (
            ("calls_per_day", "model calls per day", "calls/day"),
            ("input_tokens_per_day", "input tokens per day", "tokens/day"),
            ("output_tokens_per_day", "output tokens per day", "tokens/day"),
            ("cost_per_day", "cost per day", "currency/day"),
            ("fleet_calls_per_hour_mean", "model calls per hour, mean", "calls/h"),
            ("fleet_calls_per_hour_p95", "model calls per hour, 95th percentile", "calls/h"),
            ("concurrent_calls_mean", "concurrent model calls, mean", "calls"),
            ("concurrent_calls_p50", "concurrent model calls, median second", "calls"),
            ("concurrent_calls_p95", "concurrent model calls, 95th percentile", "calls"),
            ("concurrent_calls_p99", "concurrent model calls, 99th percentile", "calls"),
            ("concurrent_calls_max", "concurrent model calls, peak", "calls"),
            ("memory_losing_runs_per_day", "memory-losing runs per day", "runs/day"),
            ("duplicates_per_day", "redundant (duplicate) runs per day", "runs/day"),
            ("freshness_hours_p50", "freshness: session end to MEMORY.md, median", "hours"),
            ("freshness_hours_p95", "freshness: session end to MEMORY.md, p95", "hours"),
            ("freshness_hours_max", "freshness: session end to MEMORY.md, max", "hours"),
            ("logs_consolidated", "session logs read by a completed run", "logs"),
            (
                "logs_never_consolidated_share",
                "session logs never read by a completed run (stranded or waiting)",
                "share",
            ),
        ),
    ),
    (
        "session logs on disk",
        (
            ("logs", "session logs written", "logs"),
            ("logs_deleted", "deleted by consolidations", "logs"),
            ("logs_left", "left at the end (never consolidated yet)", "logs"),
        ),
    ),
    (
        "tokens and cost (prices: {prices})",
        (
            ("input_tokens", "input tokens", "tokens"),
            ("output_tokens", "output tokens", "tokens"),
            ("cost", "cost over the horizon", "currency"),
            ("cost_per_user_day", "cost per user per day", "currency"),
        ),
    ),
)

# (key prefix, label, unit): mean, p50, p90, p99 and max of a spread
DISTRIBUTIONS: tuple[tuple[str, str, str], ...] = (
    ("attempts_per_user_day", "model calls per user per day (over users)", "calls/day"),
    ("runs_per_user_day", "consolidations per user per day (over users)", "runs/day"),
    ("user_tokens_per_day", "tokens per user per day, in and out (over users)", "tokens/day"),
    ("user_cost_per_day", "cost per user per day (over users)", "currency/day"),
    ("hours_between_runs", "time between a user's consolidations", "hours"),
    ("sessions_per_run", "sessions read per consolidation", "sessions"),
    ("input_bytes_per_run", "input per consolidation", "bytes"),
)
STATS = ("mean", "p50", "p90", "p99", "max")
NOTES = (
    "concurrent model calls: calls in flight at each second of the horizon; a call lasts "
    "from its trigger to its return (lognormal latency, mean latency_secs)",
    "freshness: from a session's end to the return of the first completed consolidation "
    "that read its log (rounded up to the minute)",
)


def _row(key: str) -> tuple[str, str, str]:
    for _, rows in ROWS:
        for row in rows:
            if row[0] == key:
                return row
    raise KeyError(key)


def label(key: str) -> str:
    """The label of a summary key shown in one row (``ROWS``)."""
    return _row(key)[1]


def unit_of(key: str) -> str:
    return _row(key)[2]


def labelled_keys() -> list[str]:
    """Every summary key the table shows, in its order."""
    keys = [key for _, rows in ROWS for key, _, _ in rows]
    return keys + [f"{prefix}_{s}" for prefix, _, _ in DISTRIBUTIONS for s in STATS]


def _number(value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, int) or (isinstance(value, float) and value.is_integer()):
        return f"{int(value):,}"
    return f"{value:,.3f}" if abs(value) < 10 else f"{value:,.1f}"


def summary_table(summary: Mapping[str, Any], params: SimParams) -> str:
    """The summary as text: sections of labelled values with their units, then the
    spreads (mean and percentiles) in one table; prices as the parameters set them."""
    prices = (
        f"{params.price_input_per_mtok:g} / {params.price_output_per_mtok:g} per million "
        "input / output tokens"
    )
    label_width = max(len(label) for _, rows in ROWS for _, label, _ in rows) + 2
    lines = [
        f"Dream capacity: {_number(summary['users'])} users over {_number(summary['days'])} days"
    ]
    for section, rows in ROWS:
        lines.append(f"\n{section.format(prices=prices)}")
        for key, label, unit in rows:
            value = _number(summary.get(key)).rjust(14)
            lines.append(f"  {label:<{label_width}}{value}  {unit}")
    width = max(len(label) for _, label, _ in DISTRIBUTIONS) + 2
    head = "".join(s.rjust(11) for s in STATS)
    lines.append(f"\n{'spreads':<{width + 2}}{head}  unit")
    for prefix, label, unit in DISTRIBUTIONS:
        cells = "".join(_number(summary.get(f"{prefix}_{s}")).rjust(11) for s in STATS)
        lines.append(f"  {label:<{width}}{cells}  {unit}")
    lines.append("")
    lines += [f"* {note}" for note in NOTES]
    return "\n".join(lines)
