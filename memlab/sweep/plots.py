"""Plots of a sweep's table (matplotlib; each function returns its ``Figure``).

* ``plot_half_life`` — a measure against the half-life, one line per source-weight
  mix (no decay, a missing half-life, is drawn as a dotted level);
* ``plot_heatmap`` — a measure over two swept paths;
* ``plot_lambda`` — MMR's λ against a measure and redundancy (two y axes), with
  MMR off as dashed reference levels;
* ``plot_fronts`` — a decision's quality against its costs, the Pareto fronts and
  the choice.

Axes that are not plotted are aggregated: ``agg="max"`` shows the best
configuration at each point (for ``plot_lambda``: the redundancy *of* that best
configuration), ``agg="mean"`` the average. Figures are built without pyplot,
so nothing global changes and notebooks show each figure once.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from memlab.errors import ConfigError

if TYPE_CHECKING:
    from memlab.sweep.decision import Decision

AGGS = ("max", "mean")


def _need(table: pd.DataFrame, columns: Sequence[str]) -> None:
    missing = [c for c in columns if c not in table.columns]
    if missing:
        raise ConfigError(
            f"the sweep table has no column {missing[0]!r}; sweep that path or measure "
            f"(columns: {', '.join(map(str, table.columns))})"
        )


def _check_agg(agg: str) -> None:
    if agg not in AGGS:
        raise ConfigError(f"agg must be one of {AGGS}, got {agg!r}")


def _label(value: object) -> str:
    if value is None or (isinstance(value, float) and not np.isfinite(value)):
        return "off"
    return f"{value:g}" if isinstance(value, float) else str(value)


def _mix_name(columns: Sequence[str], values: Sequence[object]) -> str:
    pairs = zip(columns, values, strict=True)
    return ", ".join(f"{c.removeprefix('source_weights.')}={_label(v)}" for c, v in pairs) or "all"


def plot_half_life(
    table: pd.DataFrame,
    measure: str = "nDCG@10",
    *,
    mix: Sequence[str] | None = None,
    agg: str = "max",
) -> Figure:
    """``measure`` against ``half_life_days``, one line per source-weight mix.

    ``mix`` lists the columns that define a mix (default: every ``source_weights.*``).
    """
    _check_agg(agg)
    _need(table, ["half_life_days", measure])
    if mix is None:
        mix = [str(c) for c in table.columns if str(c).startswith("source_weights.")]
    mix = list(mix)
    _need(table, mix)
    fig = Figure(figsize=(7, 4.2))
    ax = fig.subplots()
    groups = table.groupby(mix, dropna=False, sort=True) if mix else [((), table)]
    for i, (key, part) in enumerate(groups):
        values = key if isinstance(key, tuple) else (key,)
        name = _mix_name(mix, values)
        colour = f"C{i % 10}"
        hl = pd.to_numeric(part["half_life_days"], errors="coerce")
        decayed = part[hl.notna()].groupby(hl[hl.notna()])[measure].agg(agg)
        ax.plot(decayed.index, decayed.to_numpy(), marker="o", color=colour, label=name)
        if hl.isna().any():
            level = part[hl.isna()][measure].agg(agg)
            ax.axhline(level, color=colour, linestyle=":", label=f"{name} (no decay)")
    if (pd.to_numeric(table["half_life_days"], errors="coerce") > 0).any():
        ax.set_xscale("log")
    ax.set_xlabel("half-life (days)")
    ax.set_ylabel(measure)
    ax.set_title(f"{measure} vs half-life ({agg} over other settings)")
    ax.grid(alpha=0.3)
    ax.legend(fontsize="small", title="source weights" if mix else None)
    fig.tight_layout()
    return fig


def plot_heatmap(
    table: pd.DataFrame,
    x: str,
    y: str,
    measure: str = "nDCG@10",
    *,
    agg: str = "max",
    annotate: bool = True,
) -> Figure:
    """``measure`` over two swept paths ``x`` and ``y`` (other paths aggregated)."""
    _check_agg(agg)
    _need(table, [x, y, measure])
    data = table[[x, y, measure]].copy()
    for c in (x, y):  # a missing value (no decay) sorts last, shown as "off"
        numeric = pd.api.types.is_numeric_dtype(data[c])
        data[c] = data[c].fillna(np.inf if numeric else "off")
    grid = data.pivot_table(index=y, columns=x, values=measure, aggfunc=agg)
    fig = Figure(figsize=(1.2 + 0.9 * grid.shape[1], 1.2 + 0.6 * grid.shape[0]))
    ax = fig.subplots()
    image = ax.imshow(grid.to_numpy(dtype=float), aspect="auto", cmap="viridis", origin="lower")
    ax.set_xticks(range(grid.shape[1]), [_label(v) for v in grid.columns])
    ax.set_yticks(range(grid.shape[0]), [_label(v) for v in grid.index])
    ax.set_xlabel(x)
    ax.set_ylabel(y)
    if annotate:
        for (r, c), v in np.ndenumerate(grid.to_numpy(dtype=float)):
            if np.isfinite(v):
                ax.text(c, r, f"{v:.3f}", ha="center", va="center", fontsize=8, color="w")
    fig.colorbar(image, ax=ax, label=measure)
    ax.set_title(f"{measure} ({agg} over other settings)")
    fig.tight_layout()
    return fig


def plot_lambda(
    table: pd.DataFrame,
    measure: str = "nDCG@10",
    redundancy: str = "Redundancy",
    *,
    agg: str = "max",
) -> Figure:
    """MMR's λ against ``measure`` (left axis) and ``redundancy`` (right axis)."""
    _check_agg(agg)
    _need(table, ["mmr.lambda", measure, redundancy])
    on = (
        table["mmr.enabled"].astype(bool)
        if "mmr.enabled" in table
        else pd.Series(True, table.index)
    )
    with_mmr, without = table[on], table[~on]
    lam = pd.to_numeric(with_mmr["mmr.lambda"])
    if agg == "max":
        best = with_mmr.loc[with_mmr.groupby(lam)[measure].idxmax().dropna()]
        curve = best.set_index(pd.to_numeric(best["mmr.lambda"]))[[measure, redundancy]]
    else:
        curve = with_mmr.groupby(lam)[[measure, redundancy]].mean()
    fig = Figure(figsize=(7, 4.6))
    ax = fig.subplots()
    right = ax.twinx()
    ax.plot(curve.index, curve[measure].to_numpy(), marker="o", color="C0", label=measure)
    right.plot(curve.index, curve[redundancy].to_numpy(), marker="s", color="C3", label=redundancy)
    if len(without):
        ref = (
            without.loc[without[measure].idxmax()]
            if agg == "max"
            else without.mean(numeric_only=True)
        )
        ax.axhline(ref[measure], color="C0", linestyle="--", label=f"{measure}, MMR off")
        right.axhline(ref[redundancy], color="C3", linestyle="--", label=f"{redundancy}, MMR off")
    ax.set_xlabel("MMR λ (1 = relevance only)")
    ax.set_ylabel(measure, color="C0")
    right.set_ylabel(redundancy, color="C3")
    handles = ax.get_legend_handles_labels()
    extra = right.get_legend_handles_labels()
    fig.legend(
        handles[0] + extra[0], handles[1] + extra[1], fontsize="small", loc="lower center", ncol=2
    )
    ax.set_title(f"λ against {measure} and {redundancy} ({agg} over other settings)")
    ax.grid(alpha=0.3)
    fig.tight_layout(rect=(0, 0.1, 1, 1))
    return fig


def plot_fronts(decision: Decision) -> Figure:
    """Quality against each capped cost (dev), one panel per cost: every configuration
    (those meeting the rule darker), the Pareto front as a line, the rule's cap as a
    dashed line, the base (square) and the chosen configuration (star)."""
    from memlab.sweep.choice import CONSTRAINED_COSTS

    d = decision
    frame, m = d.candidates, d.rule.measure
    quality = frame[d.column(m)].to_numpy(dtype=float)
    fig = Figure(figsize=(11, 4.4))
    axes = fig.subplots(1, len(CONSTRAINED_COSTS), sharey=True)
    for ax, cost in zip(np.atleast_1d(axes), CONSTRAINED_COSTS, strict=True):
        x = frame[d.column(cost)].to_numpy(dtype=float)
        ok = d.choice.eligible
        ax.scatter(x[~ok], quality[~ok], s=14, color="0.75", label="breaks the rule")
        ax.scatter(x[ok], quality[ok], s=14, color="C0", label="meets the rule")
        front = d.fronts[cost]
        ax.plot(x[front], quality[front], color="C1", drawstyle="steps-post", label="Pareto front")
        cap = d.choice.caps.get(cost)
        if cap is not None and np.isfinite(cap):
            ax.axvline(cap, color="C3", linestyle="--", label=f"cap {cap:.3g}")
        ax.scatter(x[d.base], quality[d.base], marker="s", s=60, color="k", label="base", zorder=3)
        ax.scatter(
            x[d.chosen], quality[d.chosen], marker="*", s=180, color="C3", label="chosen", zorder=4
        )
        ax.set_xlabel(f"{cost} ({d.chosen_on}, lower is cheaper)")
        ax.grid(alpha=0.3)
    first = np.atleast_1d(axes)[0]
    first.set_ylabel(f"{m} ({d.chosen_on})")
    first.legend(fontsize="small", loc="lower right")
    fig.suptitle(f"{m} against its costs: every configuration, the front and the choice")
    fig.tight_layout()
    return fig
