"""Plots for the capacity simulator (matplotlib; each returns the Axes it drew on)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from memlab.dream.sim.figures import SimResult, hourly

if TYPE_CHECKING:
    from matplotlib.axes import Axes


def _axes(ax: Axes | None) -> Axes:
    if ax is not None:
        return ax
    import matplotlib.pyplot as plt

    return plt.subplots(figsize=(7, 4))[1]


def plot_fleet_runs_per_hour(result: SimResult, ax: Axes | None = None) -> Axes:
    """Completed consolidations per hour across the fleet, with the mean and p95."""
    done = result.attempts[result.attempts["outcome"] == "completed"]
    return plot_runs_per_hour(hourly(done["acquire"].to_numpy(), result.start, result.days), ax)


def plot_runs_per_hour(counts: np.ndarray, ax: Axes | None = None) -> Axes:
    """Fleet runs per hour (``FleetSummary.runs_per_hour``), with the mean and p95."""
    ax = _axes(ax)
    ax.plot(np.arange(len(counts)) / 24.0, counts, lw=0.8, label="runs per hour")
    ax.axhline(counts.mean(), color="k", ls="--", lw=0.8, label=f"mean {counts.mean():.1f}")
    p95 = float(np.quantile(counts, 0.95))
    ax.axhline(p95, color="r", ls=":", lw=0.8, label=f"p95 {p95:.0f}")
    ax.set_xlabel("day")
    ax.set_ylabel("Dream runs per hour (fleet)")
    ax.legend(loc="upper right")
    return ax


def plot_per_user_day(result: SimResult, column: str = "runs", ax: Axes | None = None) -> Axes:
    """Distribution across users of ``runs`` (or ``attempts``) per user per day."""
    ax = _axes(ax)
    ax.hist(result.users[column] / result.days, bins=40)
    ax.set_xlabel(f"{column} per user per day")
    ax.set_ylabel("users")
    return ax


def plot_sweep(
    df: pd.DataFrame,
    x: str,
    y: str = "runs_per_user_day_mean",
    hue: str | None = None,
    ax: Axes | None = None,
) -> Axes:
    """A sweep result: ``y`` against ``x``, one line per value of ``hue``."""
    ax = _axes(ax)
    groups = df.groupby(hue) if hue else [(None, df)]
    for key, part in groups:
        part = part.sort_values(x)
        ax.plot(part[x], part[y], marker="o", label=None if hue is None else f"{hue}={key!s}")
    ax.set_xlabel(x)
    ax.set_ylabel(y)
    if hue:
        ax.legend()
    return ax


def save(ax: Axes, path: str) -> None:
    """Write the figure holding ``ax`` as an image."""
    from matplotlib.figure import Figure

    figure = ax.get_figure(root=True)
    if not isinstance(figure, Figure):
        raise TypeError("the axes belong to no figure")
    figure.savefig(path, dpi=120, bbox_inches="tight")
