"""Plots of an experiment: metrics with CIs, per category, per-query deltas, vs a baseline."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from memlab.eval.compare.experiment import Experiment
from memlab.report.baseline import FAIL, CheckResult
from memlab.workbench.display import Plot, figure
from memlab.workbench.evaluation import HEADLINE, category_table, per_query_deltas

COLORS = ("#4c72b0", "#dd8452", "#55a868", "#c44e52", "#8172b2", "#937860", "#da8bc3", "#8c8c8c")


def metric_plot(exp: Experiment, measures: Sequence[str] = HEADLINE) -> Plot:
    """Grouped bars: each measure, one bar per run, with 95% bootstrap CI whiskers."""
    agg = exp.aggregated.set_index(["run", "measure"])
    wanted = [m for m in measures if m in set(exp.aggregated["measure"])]
    runs = list(exp.runs)
    fig = figure(width=max(6.0, 1.6 * len(wanted) * max(1, len(runs)) / 2), height=4)
    ax = fig.axes[0]
    x = np.arange(len(wanted))
    width = 0.8 / len(runs)
    for i, run in enumerate(runs):
        rows = [agg.loc[(run, m)] for m in wanted]
        values = np.array([r["value"] for r in rows])
        err = np.array(
            [[r["value"] - r["ci_low"] for r in rows], [r["ci_high"] - r["value"] for r in rows]]
        )
        ax.bar(
            x + (i - (len(runs) - 1) / 2) * width,
            values,
            width,
            yerr=err,
            capsize=3,
            label=run,
            color=COLORS[i % len(COLORS)],
        )
    ax.set_xticks(x, wanted)
    ax.set_ylabel("mean over judged queries")
    ax.set_title(f"{exp.dataset.name}: runs with 95% CIs")
    ax.legend(fontsize="small")
    return Plot(fig, "metrics")


def category_plot(exp: Experiment, measure: str = "nDCG@10") -> Plot:
    """``measure`` per query category, one bar per run."""
    table = category_table(exp, measure).dropna(how="all")
    fig = figure(width=9, height=4)
    ax = fig.axes[0]
    x = np.arange(len(table))
    width = 0.8 / max(1, len(table.columns))
    for i, run in enumerate(table.columns):
        offset = (i - (len(table.columns) - 1) / 2) * width
        ax.bar(x + offset, table[run].fillna(0.0), width, label=run, color=COLORS[i % len(COLORS)])
    ax.set_xticks(x, list(table.index), rotation=20, ha="right")
    ax.set_ylabel(measure)
    ax.set_title(f"{measure} per category")
    ax.legend(fontsize="small")
    return Plot(fig, "categories")


def delta_plot(exp: Experiment, measure: str = "nDCG@10") -> Plot:
    """Per-query change against the baseline run, sorted: wins above 0, losses below."""
    deltas = per_query_deltas(exp, measure).drop(columns="base")
    fig = figure(width=8, height=3.5)
    ax = fig.axes[0]
    for i, run in enumerate(deltas.columns):
        values = np.sort(deltas[run].dropna().to_numpy())[::-1]
        wins, losses = int((values > 0).sum()), int((values < 0).sum())
        ax.plot(
            values,
            label=f"{run}: {wins} wins, {losses} losses",
            color=COLORS[(i + 1) % len(COLORS)],
        )
    ax.axhline(0, color="k", lw=0.8)
    ax.set_xlabel("queries, sorted by change")
    ax.set_ylabel(f"Δ {measure} vs {next(iter(exp.runs))}")
    ax.legend(fontsize="small")
    return Plot(fig, "per-query deltas")


def baseline_plot(check: Any, measures: Sequence[str] = HEADLINE) -> Plot:
    """Each run's change from the baseline per measure, with the tolerance band.

    ``check`` is a ``CheckResult`` or the notebook's ``BaselineCheck`` panel.
    """
    result: CheckResult | None = getattr(check, "check", check)
    checks = result.checks if result is not None else []
    items = [c for c in checks if c.measure in measures and c.delta is not None]
    fig = figure(width=9, height=max(2.5, 0.3 * len(items) + 1.2))
    ax = fig.axes[0]
    if not items:
        ax.text(0.5, 0.5, "no metrics to compare with a baseline", ha="center", va="center")
        ax.set_axis_off()
        return Plot(fig, "baseline")
    y = np.arange(len(items))[::-1]
    deltas = [c.delta or 0.0 for c in items]
    colors = ["#c44e52" if c.status == FAIL else "#55a868" for c in items]
    ax.barh(y, deltas, color=colors)
    for yi, c in zip(y, items, strict=True):
        ax.plot([-c.tolerance, c.tolerance], [yi, yi], color="k", lw=6, alpha=0.15)
    ax.set_yticks(y, [f"{c.run} {c.measure}" for c in items])
    ax.axvline(0, color="k", lw=0.8)
    span = max([abs(d) for d in deltas] + [c.tolerance for c in items] + [1e-3]) * 1.3
    ax.set_xlim(-span, span)
    ax.set_xlabel("change from the baseline (grey: tolerance; red: [FAIL])")
    return Plot(fig, "baseline")
