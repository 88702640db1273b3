"""What a sweep returns: the tidy table, the best configurations with CIs, the choice.

``SweepResult.table`` has one row per configuration: ``config_hash``, one column
per swept configuration path (``half_life_days``, ``mmr.lambda``, …; a missing
half-life means no decay), the metric columns — ``<measure>`` over all scored
queries and, with a holdout, ``<measure>:dev`` and ``<measure>:holdout`` — and
``overrides`` (the point as JSON). The configuration is chosen on dev and
reported on holdout; ``gap`` = dev − holdout.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from memlab.errors import ConfigError
from memlab.eval.measures import COST_MEASURES
from memlab.eval.stats.paired import bootstrap_ci
from memlab.sweep.space import SweepPoint, describe
from memlab.sweep.split import Split

if TYPE_CHECKING:
    from memlab.sweep.choice import ChoiceRule
    from memlab.sweep.decision import Decision
    from memlab.sweep.engine import Sweep


@dataclass
class SweepResult:
    """The table of a sweep plus what is needed to look closer at its rows."""

    table: pd.DataFrame
    points: list[SweepPoint]
    axes: list[str]
    measures: list[str]
    split: Split
    sweep: Sweep | None = None
    out: Path | None = None
    evaluated: int = 0  # configurations scored in this call
    resumed: int = 0  # configurations read back from the results file
    interrupted: bool = False
    seconds: float = 0.0
    total: int = 0  # configurations asked for (more than the table holds if interrupted)
    base_scores: dict[str, float] | None = None  # the base profile's metric columns
    _by_key: dict[str, SweepPoint] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        self._by_key = {p.key: p for p in self.points}

    def point(self, key: str) -> SweepPoint:
        try:
            return self._by_key[key]
        except KeyError:
            raise ConfigError(f"configuration {key} is not part of this sweep") from None

    def selection_column(self, measure: str | None = None) -> str:
        """The column a configuration is chosen by: ``<measure>:dev`` with a holdout."""
        m = measure or self.measures[0]
        if m not in self.measures:
            raise ConfigError(f"measure '{m}' was not computed; this sweep has {self.measures}")
        return f"{m}:dev" if self.split.holdout else m

    def best(
        self,
        measure: str | None = None,
        n: int = 5,
        *,
        ci: bool = True,
        n_resamples: int = 2000,
        seed: int = 0,
    ) -> pd.DataFrame:
        """The ``n`` best configurations by ``measure`` on dev (ties: sweep order).

        Columns: rank, config_hash, the swept paths, ``dev``, ``holdout``, ``gap``
        (dev − holdout), the costs on dev (``AbstainHits``, ``Tokens``, ``Hits``) and a
        95% bootstrap CI (``ci_low``, ``ci_high``) of the reported value — holdout if
        there is one, else all queries. This ranks by quality alone; the choice
        (``chosen``, ``decide``) also weighs the costs.
        """
        m = measure or self.measures[0]
        col = self.selection_column(m)
        top = self.table.dropna(subset=[col])
        top = top.sort_values(col, ascending=False, kind="stable").head(n)
        out = top[["config_hash", *self.axes]].copy()
        out.insert(0, "rank", np.arange(1, len(out) + 1))
        has_holdout = bool(self.split.holdout)
        out["dev"] = top[col].to_numpy()
        out["holdout"] = top[f"{m}:holdout"].to_numpy() if has_holdout else np.nan
        out["gap"] = out["dev"] - out["holdout"]
        for cost in COST_MEASURES:  # what each configuration costs, on dev
            if cost in self.measures:
                out[cost] = top[f"{cost}:dev" if has_holdout else cost].to_numpy()
        lows, highs = [], []
        for key in out["config_hash"]:
            lo, hi = self._ci(key, m, n_resamples, seed) if ci else (np.nan, np.nan)
            lows.append(lo)
            highs.append(hi)
        out["ci_low"], out["ci_high"] = lows, highs
        return out.reset_index(drop=True)

    def _ci(self, key: str, measure: str, n_resamples: int, seed: int) -> tuple[float, float]:
        if self.sweep is None:
            return (np.nan, np.nan)
        point = self.point(key)
        values = self.sweep.engine_of(point).per_query(point.config)[measure]
        part = "holdout" if self.split.holdout else "all"
        mask = self.split.mask(self.sweep.query_ids, part) & ~np.isnan(values)
        return bootstrap_ci(values[mask], n_resamples, seed=seed)

    def decide(self, rule: ChoiceRule | None = None, **kw: Any) -> Decision:
        """The decision under ``rule`` (default: the constrained rule on the first
        measure): ``memlab.sweep.decision.decide``."""
        from memlab.sweep.decision import decide

        return decide(self, rule, **kw)

    def chosen(self, measure: str | None = None, rule: ChoiceRule | None = None) -> dict[str, Any]:
        """The configuration ``rule`` chooses on dev (default: the best ``measure`` within
        the base's costs, ``ChoiceRule``) and how it does on holdout."""
        from memlab.sweep.choice import ChoiceRule

        if self.table.empty:
            raise ConfigError("no configuration has a score to choose by")
        m = measure or (rule.measure if rule else self.measures[0])
        d = self.decide(rule or ChoiceRule(m), splits=0)
        row, m = d.candidates.iloc[d.chosen], d.rule.measure
        dev = float(row[d.column(m)])
        held = float(row[f"{m}:holdout"]) if self.split.holdout else np.nan
        return {
            "measure": m,
            "rule": d.rule_text,
            "config_hash": d.point.key,
            "overrides": d.point.overrides,
            "config": d.point.config,
            "dev": dev,
            "holdout": held,
            "gap": dev - held,
            "ci": d.ci["chosen"],
        }

    def long(self, keys: list[str] | None = None) -> pd.DataFrame:
        """Per-query long form for the given configurations (default: all of them)."""
        if self.sweep is None:
            raise ConfigError("per-query values need the sweep engine (run the sweep again)")
        chosen = [self.point(k) for k in keys] if keys is not None else self.points
        return self.sweep.long(chosen)

    def summary(self, measure: str | None = None) -> str:
        """A few lines for a terminal: counts, time and the chosen configuration."""
        lines = [
            f"{len(self.table)} configurations ({self.evaluated} scored, {self.resumed} resumed)"
            f" in {self.seconds:.1f} s" + (" — interrupted" if self.interrupted else "")
        ]
        if self.table.empty:
            return lines[0]
        c = self.chosen(measure)
        where = "dev" if self.split.holdout else "all queries"
        lines.append(f"chosen by {c['measure']} on {where}: {describe(c['overrides'])}")
        if self.split.holdout:
            lines.append(
                f"  dev {c['dev']:.4f}  holdout {c['holdout']:.4f} "
                f"[{c['ci'][0]:.4f}, {c['ci'][1]:.4f}]  gap {c['gap']:+.4f}"
            )
        else:
            lines.append(f"  {c['dev']:.4f} [{c['ci'][0]:.4f}, {c['ci'][1]:.4f}]")
        return "\n".join(lines)


def best(result: SweepResult, measure: str | None = None, n: int = 5, **kw: Any) -> pd.DataFrame:
    """``result.best(measure, n)``: the best configurations with bootstrap CIs."""
    return result.best(measure, n, **kw)


def overrides_column(point: SweepPoint) -> str:
    return json.dumps(point.overrides, sort_keys=True)
