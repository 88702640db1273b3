"""Honest selection: the holdout gain over the base, and the optimism of choosing on dev.

* ``paired_gain`` — the chosen configuration against the base on the same held-out
  queries: the mean difference, its 95% bootstrap CI, the paired t-test's p-value,
  wins / ties / losses and the minimum detectable difference (MDE) of the
  comparison. When every query ties the spread is 0 and the test's power is
  undefined: ``mde`` is None (never 0, which would read as "any difference shows").
* ``repeated_splits`` — the choice made again on other dev/holdout splits (other
  seeds, the same holdout share, stratified alike): each split's dev gain and
  holdout gain over the base. Their difference is the optimism of choosing on dev
  (the winner's dev gain is partly luck); measured over several splits instead
  of assumed from one.

Pure functions over per-query values (configurations × queries).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from memlab.arrays import BoolArray, FloatArray
from memlab.eval.stats import paired as stats
from memlab.sweep.split import split_queries

DEFAULT_SPLITS = 5


@dataclass(frozen=True)
class Gain:
    """The chosen configuration minus the base on the queries both score."""

    measure: str
    n: int  # paired queries
    base: float
    chosen: float
    diff: float
    ci: tuple[float, float]
    p: float
    wins: int
    ties: int
    losses: int
    mde: float | None  # None: undefined (every query ties, or fewer than 2 queries)

    @property
    def all_tied(self) -> bool:
        return self.n > 0 and self.ties == self.n

    def to_dict(self) -> dict[str, Any]:
        return {
            "measure": self.measure,
            "queries": self.n,
            "base": self.base,
            "chosen": self.chosen,
            "gain": self.diff,
            "ci": list(self.ci),
            "p": self.p,
            "wins": self.wins,
            "ties": self.ties,
            "losses": self.losses,
            "mde": self.mde,
        }


def paired_gain(
    measure: str,
    base: FloatArray,
    chosen: FloatArray,
    mask: BoolArray,
    *,
    n_resamples: int = 2000,
    seed: int = 0,
) -> Gain:
    """``chosen − base`` over the queries of ``mask`` that both score."""
    keep = mask & ~np.isnan(base) & ~np.isnan(chosen)
    a, b = base[keep], chosen[keep]
    d = b - a
    n = len(d)
    if n == 0:
        nan = math.nan
        return Gain(measure, 0, nan, nan, nan, (nan, nan), nan, 0, 0, 0, None)
    wtl = stats.win_tie_loss(a, b)
    mde = None
    if n >= 2 and np.ptp(d) > 0:
        from memlab.eval.stats.power import analytic_mde

        mde = analytic_mde(d)
    return Gain(
        measure,
        n,
        float(a.mean()),
        float(b.mean()),
        float(d.mean()),
        stats.bootstrap_ci(d, n_resamples, seed=seed),
        stats.paired_t(a, b),
        wtl.wins,
        wtl.ties,
        wtl.losses,
        mde,
    )


Chooser = Callable[[dict[str, FloatArray]], int]  # dev means per measure → chosen row


def part_means(values: FloatArray, mask: BoolArray) -> FloatArray:
    """Per configuration: the mean over the queries of ``mask`` it scores (NaN if none)."""
    counted = mask[None, :] & ~np.isnan(values)
    n = counted.sum(axis=1)
    total = np.where(counted, values, 0.0).sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        out: FloatArray = np.where(n > 0, total / np.maximum(n, 1), np.nan)
    return out


@dataclass(frozen=True)
class Resplits:
    """The choice made again on other splits: one row per split."""

    table: pd.DataFrame  # seed, chosen (row), dev gain, holdout gain, optimism
    measure: str

    @property
    def optimism(self) -> float:
        """Mean over the splits of (dev gain − holdout gain) of the configuration chosen."""
        return float(self.table["optimism"].mean()) if len(self.table) else math.nan

    @property
    def holdout_gain(self) -> float:
        return float(self.table["holdout gain"].mean()) if len(self.table) else math.nan

    @property
    def dev_gain(self) -> float:
        return float(self.table["dev gain"].mean()) if len(self.table) else math.nan

    def to_dict(self) -> dict[str, Any]:
        return {
            "measure": self.measure,
            "splits": len(self.table),
            "seeds": [int(s) for s in self.table["seed"]],
            "dev_gain": self.dev_gain,
            "holdout_gain": self.holdout_gain,
            "optimism": self.optimism,
            "optimism_sd": float(self.table["optimism"].std(ddof=1))
            if len(self.table) > 1
            else None,
            "same_choice": int(self.table["same choice"].sum()),
        }


def repeated_splits(
    values: dict[str, FloatArray],
    queries: Sequence[Any],
    *,
    measure: str,
    base: int,
    chooser: Chooser,
    main: int,
    share: float,
    seeds: Sequence[int],
    stratify: bool = True,
) -> Resplits:
    """Choose on each split's dev queries (``chooser`` over dev means), report the dev and
    holdout gain of the choice over the base row on ``measure``; ``main`` is the row
    chosen on the sweep's own split (to count how often the choice stays the same)."""
    ids = [q if isinstance(q, str) else q.query_id for q in queries]
    rows = []
    for seed in seeds:
        split = split_queries(queries, share, seed=seed, stratify=stratify)
        dev, held = split.mask(ids, "dev"), split.mask(ids, "holdout")
        means = {name: part_means(v, dev) for name, v in values.items()}
        pick = chooser(means)
        dev_q, held_q = means[measure], part_means(values[measure], held)
        dev_gain = float(dev_q[pick] - dev_q[base])
        held_gain = float(held_q[pick] - held_q[base])
        rows.append(
            {
                "seed": seed,
                "chosen": pick,
                "same choice": pick == main,
                "dev gain": dev_gain,
                "holdout gain": held_gain,
                "optimism": dev_gain - held_gain,
            }
        )
    columns = ["seed", "chosen", "same choice", "dev gain", "holdout gain", "optimism"]
    return Resplits(pd.DataFrame(rows, columns=columns), measure)
