"""What the notebooks show of filtering and ranking taken apart (``eval.compare.separation``).

``separate`` runs it on an experiment (and writes its CSV files beside the
experiment's when ``out_dir`` is set); the other functions turn the result into
the cells of the compare and regression notebooks: the reachability ceiling,
the two views side by side, measures by answer age and category, the rankings
each run changes, the power of each comparison and the min_score trade-off.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pandas as pd

from memlab.eval.compare.breakdown import AGE_ORDER
from memlab.eval.compare.experiment import Experiment
from memlab.eval.compare.separation import (
    END_TO_END,
    RANKING_ONLY,
    Separation,
    write_separation,
)
from memlab.eval.compare.separation import (
    separate as _separate,
)
from memlab.eval.compare.separation_view import indexes_section
from memlab.workbench.display import Panel, Plot, figure
from memlab.workbench.evaluation import significance_table
from memlab.workbench.experiment_plots import COLORS

VIEW_MEASURES = ("nDCG@10", "R@5", "Success@5", "alpha-nDCG@10", "NRAll@10", "AbstainHits")


def separate(exp: Experiment, measure: str = "nDCG@10", out_dir: str = "") -> Separation:
    """Reachability, the ranking-only view, breakdowns, power and the min_score sweep."""
    sep = _separate(exp, measure=measure)
    if out_dir:
        write_separation(sep, Path(out_dir))
    return sep


def reachability_panel(sep: Separation) -> Panel:
    """Which answers can be returned at all: per run, under its own filters."""
    s = sep.summary.iloc[0]
    notes = [
        indexes_section(sep),
        f"{s['judged']} judged queries; {s['answer gone']} have no answer left at their time "
        f"(not scored); {s['answer exists']} are scored.",
    ]
    return Panel("reachability ceiling", notes, [("", sep.summary)])


def views_table(sep: Separation, measures: Sequence[str] = VIEW_MEASURES) -> pd.DataFrame:
    """Each run's mean of ``measures`` end to end and ranking only, side by side."""
    frames = []
    for view, exp in ((END_TO_END, sep.end_to_end), (RANKING_ONLY, sep.ranking_only)):
        agg = exp.aggregated[exp.aggregated["measure"].isin(measures)]
        frames.append(agg.assign(view=view))
    both = pd.concat(frames, ignore_index=True)
    wide = both.pivot_table(index="run", columns=["measure", "view"], values="value")
    order = [(m, v) for m in measures for v in (END_TO_END, RANKING_ONLY) if (m, v) in wide]
    return wide.reindex(index=sep.runs, columns=order)


def ranking_only_significance(
    sep: Separation, measures: Sequence[str] = ("nDCG@10",)
) -> pd.DataFrame:
    """The ranking-only view's comparisons against the first run."""
    return significance_table(sep.ranking_only, list(measures))


def age_table(sep: Separation) -> pd.DataFrame:
    return sep.age_table()


def age_plot(sep: Separation) -> Plot:
    """``measure`` per answer-age bucket: end to end (solid) and ranking only (hatched)."""
    t = sep.by_age
    buckets = [b for b in AGE_ORDER if b in set(t["bucket"].astype(str))]
    fig = figure(width=9, height=4)
    ax = fig.axes[0]
    x = np.arange(len(buckets))
    bars = [(v, r) for v in (END_TO_END, RANKING_ONLY) for r in sep.runs]
    width = 0.8 / len(bars)
    for i, (view, run) in enumerate(bars):
        part = t[(t["view"] == view) & (t["run"] == run)].set_index("bucket")["mean"]
        values = [float(part.get(b, np.nan)) for b in buckets]
        ax.bar(
            x + (i - (len(bars) - 1) / 2) * width,
            values,
            width,
            color=COLORS[sep.runs.index(run) % len(COLORS)],
            hatch="//" if view == RANKING_ONLY else None,
            label=f"{run} ({'ranking only' if view == RANKING_ONLY else 'end to end'})",
        )
    ax.set_xticks(x, buckets)
    ax.set_xlabel("answer age at the query's time")
    ax.set_ylabel(sep.measure)
    ax.legend(fontsize="x-small", ncol=2)
    return Plot(fig, "by answer age")


def category_views(sep: Separation, measure: str = "") -> pd.DataFrame:
    """``measure`` (default: the separation's) per category, both views."""
    return sep.category_table(measure or None)


def changes_table(sep: Separation) -> pd.DataFrame:
    return sep.changes_table()


def power_panel(sep: Separation, limit: float = 0.03) -> Panel:
    """Per comparison: the smallest ``measure`` difference detectable at 80 % power."""
    p = sep.power
    above = p[p[["MDE analytic", "MDE bootstrap"]].max(axis=1) > limit]
    notes = [
        f"largest minimum detectable {sep.measure} difference: "
        f"{p[['MDE analytic', 'MDE bootstrap']].max().max():.3f}",
        f"comparisons above {limit}: "
        + (
            ", ".join(
                f"{r} vs {ref} ({v})"
                for r, ref, v in zip(above["run"], above["reference"], above["view"], strict=True)
            )
            or "none"
        ),
    ]
    return Panel("power of each comparison", notes, [("", p)])


def min_score_table(sep: Separation) -> pd.DataFrame:
    return sep.sweep_table()


def min_score_plot(sep: Separation) -> Plot:
    """Success@5 against AbstainHits as ``min_score`` rises; each run's own threshold
    circled."""
    t = sep.min_score
    fig = figure(width=7, height=4.5)
    ax = fig.axes[0]
    for i, run in enumerate(sep.runs):
        part = t[t["run"] == run].sort_values("min_score")
        color = COLORS[i % len(COLORS)]
        ax.plot(part["AbstainHits"], part["Success@5"], marker=".", color=color, label=run)
        own = part[part["min_score"] == sep.end_to_end.runs[run].config.min_score]
        ax.scatter(own["AbstainHits"], own["Success@5"], s=120, facecolors="none", edgecolors=color)
        if i == 0:
            for _, row in part.iterrows():
                ax.annotate(
                    f"{row['min_score']:g}",
                    (row["AbstainHits"], row["Success@5"]),
                    xytext=(3, -9),
                    textcoords="offset points",
                    fontsize="x-small",
                )
    ax.set_xlabel("AbstainHits (mean hits for the queries nothing answers)")
    ax.set_ylabel("Success@5 (scored queries)")
    ax.set_title("min_score: answers found against false hits (circle: the run's own)")
    ax.legend(fontsize="small")
    return Plot(fig, "min_score sweep")
