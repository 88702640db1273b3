"""What the Dream capacity notebook teaches, computed with the functions its cells call.

Each test quotes the notebook's text (``says``) and checks it on the default fleet's
per-user behaviour (fewer users or days where the claim does not depend on them)."""

from __future__ import annotations

import pytest

import memlab.workbench as wb
from memlab.dream.sim.scaling import exponents
from tests.workbench.test_notebook_claims import says


def test_the_peaks_grow_more_slowly_than_the_calls() -> None:
    says(
        "dream_capacity",
        "Calls, tokens and cost grow in proportion to N, and so does the mean number of "
        "calls in flight; the peaks grow more slowly",
    )
    params = wb.fleet_params(days=7.0)
    panel = wb.fleet_scaling(params, "grok-c0", [100, 1000, 10000])
    table, fitted = panel.tables()
    fits = dict(zip(fitted["figure"], fitted["exponent in N"], strict=True))
    assert fits == pytest.approx(exponents(table))
    for figure in ("calls_per_day", "input_tokens_per_day", "output_tokens_per_day",
                   "cost_per_day", "concurrent_calls_mean"):  # fmt: skip
        assert fits[figure] == pytest.approx(1.0, abs=0.05), figure
    for peak in ("fleet_calls_per_hour_peak", "concurrent_calls_p99", "concurrent_calls_max"):
        assert fits[peak] is not None and fits[peak] < fits["calls_per_day"] - 0.05, peak
    says("dream_capacity", "a small fleet's peak is mostly chance overlap far above its mean")
    ratio = (table["concurrent_calls_max"] / table["concurrent_calls_mean"]).tolist()
    assert ratio[0] > 3 * ratio[-1] and ratio == sorted(ratio, reverse=True)


def test_tighter_gates_make_fewer_calls_and_fewer_calls_staler_memory() -> None:
    says(
        "dream_capacity",
        "Tightening either gate makes fewer calls, and across the settings fewer calls "
        "come with staler memory",
    )
    params = wb.fleet_params(users=300, days=14.0)
    table = wb.gate_sweep(params, "grok-c0", [1.0, 4.0, 12.0, 24.0], [1, 3, 5, 10])
    for key, other in (("min_hours", "min_sessions"), ("min_sessions", "min_hours")):
        for value, rows in table.groupby(other):
            calls = rows.sort_values(key)["calls_per_day"]
            assert calls.is_monotonic_decreasing, (key, value)
    rank = table[["calls_per_day", "freshness_hours_p95"]].rank()
    assert rank.corr().iloc[0, 1] < -0.7  # Spearman: fewer calls, a later p95


def test_every_setting_off_the_front_is_beaten_by_one_on_it() -> None:
    says(
        "dream_capacity",
        "every setting off the front costs at least as much as one on it and is no fresher",
    )
    params = wb.fleet_params(users=300, days=14.0)
    table = wb.gate_sweep(params, "grok-c0", [1.0, 4.0, 12.0, 24.0], [1, 3, 5, 10])
    front = wb.fresh_gates(table, 24.0).tables()[0]
    keys = ["min_hours", "min_sessions"]
    on = set(map(tuple, front[keys].to_numpy().tolist()))
    assert 1 < len(on) < len(table)
    for _, row in table.iterrows():
        if (row["min_hours"], row["min_sessions"]) in on:
            continue
        assert any(
            f["cost_per_day"] <= row["cost_per_day"]
            and f["freshness_hours_p95"] <= row["freshness_hours_p95"]
            for _, f in front.iterrows()
        )
