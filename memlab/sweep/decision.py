"""A sweep's decision: the rule applied, base beside chosen, fronts, gain, optimism, warnings.

``decide(result, rule)`` takes a finished sweep (``SweepResult``, with its engine)
and returns a ``Decision``:

* the candidates — every configuration of the table plus the base profile (the
  choice may keep it) — and the one the rule chooses on dev (``memlab.sweep.choice``);
* the Pareto fronts of quality against ``AbstainHits`` and against ``Tokens`` (dev);
* base and chosen side by side on dev and holdout: quality with its CI, the costs;
* the holdout gain over the base with its CI and paired test (``honest.paired_gain``)
  and the dev→holdout optimism over repeated splits (``honest.repeated_splits``);
* the warnings (``memlab.sweep.caveats``).

Rendering lives in ``memlab.sweep.decision_text``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np
import pandas as pd

from memlab.errors import ConfigError
from memlab.eval.measures import COST_MEASURES
from memlab.eval.stats.paired import bootstrap_ci
from memlab.sweep import caveats as checks
from memlab.sweep.choice import CONSTRAINED_COSTS, Choice, ChoiceRule, choose, pareto_front
from memlab.sweep.honest import DEFAULT_SPLITS, Gain, Resplits, paired_gain, repeated_splits
from memlab.sweep.space import SweepPoint, describe

if TYPE_CHECKING:
    from memlab.sweep.engine import Sweep
    from memlab.sweep.split import Split


class SweepResult(Protocol):
    """What a decision reads of a finished sweep (``memlab.sweep.results.SweepResult``)."""

    table: pd.DataFrame
    points: list[SweepPoint]
    measures: list[str]
    split: Split
    sweep: Sweep | None
    base_scores: dict[str, float] | None

    def point(self, key: str) -> SweepPoint: ...


BASE = "(base profile)"


@dataclass
class Decision:
    """What a sweep decided and how far to trust it (see the module docstring)."""

    rule: ChoiceRule
    rule_text: str
    candidates: pd.DataFrame  # config_hash, configuration, the axes, metric columns, base
    points: list[SweepPoint]  # one per candidate row
    base: int
    choice: Choice
    gain: Gain
    ci: dict[str, tuple[float, float]]  # "base" / "chosen": CI of the reported mean
    fronts: dict[str, list[int]]  # cost → candidate positions, by increasing cost
    resplits: Resplits | None
    warnings: list[str]
    has_holdout: bool
    split: dict[str, Any] = field(default_factory=dict)

    @property
    def chosen(self) -> int:
        return self.choice.chosen

    @property
    def keeps_base(self) -> bool:
        return self.chosen == self.base

    @property
    def point(self) -> SweepPoint:
        """The chosen configuration (its overrides of the base, its index options)."""
        return self.points[self.chosen]

    def column(self, measure: str, part: str = "dev") -> str:
        """The table column of ``measure`` on ``part`` (dev, holdout; all without one)."""
        return f"{measure}:{part}" if self.has_holdout else measure

    @property
    def report_part(self) -> str:
        return "holdout" if self.has_holdout else "all"

    @property
    def chosen_on(self) -> str:
        """Where the choice is made: "dev", or "all" queries without a holdout."""
        return "dev" if self.has_holdout else "all"

    @property
    def parts(self) -> list[str]:
        return ["dev", "holdout"] if self.has_holdout else ["all"]

    def side_by_side(self) -> pd.DataFrame:
        """Base and chosen: quality on dev and holdout (with CI) and every cost."""
        m = self.rule.measure
        rows = []
        for name, i in (("base", self.base), ("chosen", self.chosen)):
            row = self.candidates.iloc[i]
            lo, hi = self.ci[name]
            out: dict[str, Any] = {"": name, "configuration": row["configuration"]}
            for part in self.parts:
                out[f"{m} {part}"] = float(row[self.column(m, part)])
            out["95% CI"] = f"[{lo:.4f}, {hi:.4f}]"
            for cost in COST_MEASURES:
                for part in self.parts:
                    out[f"{cost} {part}"] = float(row[self.column(cost, part)])
            rows.append(out)
        return pd.DataFrame(rows)

    def side_by_side_text(self) -> pd.DataFrame:
        """``side_by_side`` turned for reading: one row per quantity, base and chosen as
        columns, numbers as text."""
        wide = self.side_by_side().set_index("")
        out = pd.DataFrame(index=wide.columns, columns=wide.index, dtype=object)
        for name in wide.index:
            for col in wide.columns:
                v = wide.loc[name, col]
                out.loc[col, name] = f"{v:.4f}" if isinstance(v, float) else str(v)
        out.index.name = ""
        return out.reset_index()

    def front_table(self, cost: str) -> pd.DataFrame:
        """The Pareto front of quality against ``cost`` on dev, by increasing cost."""
        m = self.rule.measure
        rows = []
        for i in self.fronts[cost]:
            row = self.candidates.iloc[i]
            mark = "chosen" if i == self.chosen else ("base" if i == self.base else "")
            rows.append(
                {
                    "": mark,
                    "configuration": row["configuration"],
                    f"{cost} {self.chosen_on}": float(row[self.column(cost)]),
                    f"{m} {self.chosen_on}": float(row[self.column(m)]),
                    **(
                        {f"{m} holdout": float(row[self.column(m, "holdout")])}
                        if self.has_holdout
                        else {}
                    ),
                    "meets rule": bool(self.choice.eligible[i]),
                }
            )
        return pd.DataFrame(rows)

    def to_dict(self) -> dict[str, Any]:
        base, chosen = self.candidates.iloc[self.base], self.candidates.iloc[self.chosen]
        return {
            "rule": self.rule_text,
            "objective": self.rule.objective,
            "measure": self.rule.measure,
            "caps": self.choice.caps,
            "chosen": {
                "config_hash": str(chosen["config_hash"]),
                "overrides": self.point.overrides,
                "keeps_base": self.keeps_base,
            },
            "base": {"config_hash": str(base["config_hash"])},
            "side_by_side": self.side_by_side().drop(columns=["95% CI"]).to_dict("records"),
            "ci": {k: list(v) for k, v in self.ci.items()},
            "gain": self.gain.to_dict(),
            "optimism": self.resplits.to_dict() if self.resplits is not None else None,
            "eligible": self.choice.n_eligible,
            "tied": len(self.choice.tied),
            "warnings": self.warnings,
            "split": self.split,
        }


def candidates_of(result: SweepResult) -> tuple[pd.DataFrame, list[SweepPoint], int]:
    """The table's rows plus the base profile's (unless the grid holds it), their points,
    and the base's position."""
    sweep = _engine(result)
    table = result.table.reset_index(drop=True)
    points = [result.point(str(k)) for k in table["config_hash"]]
    base_point = SweepPoint({}, sweep.base)
    keys = list(table["config_hash"].astype(str))
    if base_point.key in keys:
        base = keys.index(base_point.key)
        frame = table.copy()
    else:
        scores = result.base_scores or sweep.score(sweep.base)
        row = {"config_hash": base_point.key, **scores, "overrides": "{}"}
        frame = pd.concat([table, pd.DataFrame([row])], ignore_index=True)
        points.append(base_point)
        base = len(frame) - 1
    labels = [describe(p.overrides) for p in points]
    labels[base] = BASE if not points[base].overrides else labels[base] + " = base"
    frame.insert(1, "configuration", labels)
    frame["base"] = [i == base for i in range(len(frame))]
    return frame, points, base


def _engine(result: SweepResult) -> Sweep:
    if result.sweep is None:
        raise ConfigError("a decision needs the sweep engine (run the sweep again)")
    return result.sweep


def decide(
    result: SweepResult,
    rule: ChoiceRule | None = None,
    *,
    splits: int = DEFAULT_SPLITS,
    n_resamples: int = 2000,
    seed: int = 0,
) -> Decision:
    """The decision of ``result`` under ``rule`` (default: the constrained rule on the
    sweep's first measure); ``splits`` other dev/holdout splits measure the optimism
    (0: not measured)."""
    sweep = _engine(result)
    rule = rule or ChoiceRule(result.measures[0])
    frame, points, base = candidates_of(result)
    has_holdout = bool(result.split.holdout)

    def column(m: str) -> str:
        return f"{m}:dev" if has_holdout else m

    choice = choose(frame, rule, base, column)
    base_costs = {c: float(frame.iloc[base][column(c)]) for c in rule.capped}
    part = "holdout" if has_holdout else "all"
    mask = result.split.mask(sweep.query_ids, part)
    base_values = sweep.per_query(sweep.base)[rule.measure]
    chosen_point = points[choice.chosen]
    chosen_values = sweep.engine_of(chosen_point).per_query(chosen_point.config)[rule.measure]
    gain = paired_gain(rule.measure, base_values, chosen_values, mask, n_resamples=n_resamples)
    ci = {
        name: bootstrap_ci(v[mask & ~np.isnan(v)], n_resamples, seed=seed)
        for name, v in (("base", base_values), ("chosen", chosen_values))
    }
    quality = frame[column(rule.measure)].to_numpy(dtype=float)
    fronts = {
        cost: pareto_front(
            quality, frame[column(cost)].to_numpy(dtype=float), (choice.chosen, base)
        )
        for cost in CONSTRAINED_COSTS
    }
    resplits = None
    if has_holdout and splits > 0:
        resplits = _resplits(result, rule, points, base, choice.chosen, splits)
    decision = Decision(
        rule=rule,
        rule_text=rule.describe(base_costs, "dev" if has_holdout else "all queries"),
        candidates=frame,
        points=points,
        base=base,
        choice=choice,
        gain=gain,
        ci=ci,
        fronts=fronts,
        resplits=resplits,
        warnings=[],
        has_holdout=has_holdout,
        split=result.split.describe(),
    )
    decision.warnings = _warnings(decision, result)
    return decision


def _resplits(
    result: SweepResult,
    rule: ChoiceRule,
    points: Sequence[SweepPoint],
    base: int,
    chosen: int,
    splits: int,
) -> Resplits:
    """The choice repeated on ``splits`` other seeds of the same split."""
    sweep = _engine(result)
    needed = list(dict.fromkeys([rule.measure, *rule.measures]))
    values = {m: np.full((len(points), len(sweep.query_ids)), np.nan) for m in needed}
    groups: dict[int, tuple[Sweep, list[int]]] = {}
    for i, p in enumerate(points):
        engine = sweep.engine_of(p)
        groups.setdefault(id(engine), (engine, []))[1].append(i)
    for engine, rows in groups.values():
        scored = engine.per_query_many([points[i].config for i in rows])
        for m in needed:
            values[m][rows] = scored[m]

    def chooser(means: dict[str, np.ndarray]) -> int:
        return choose(pd.DataFrame(means), rule, base, lambda m: m).chosen

    main = result.split
    seeds = [main.seed + k for k in range(1, splits + 1)]
    return repeated_splits(
        values,
        sweep.prepared.dataset.queries,
        measure=rule.measure,
        base=base,
        chooser=chooser,
        main=chosen,
        share=main.share,
        seeds=seeds,
        stratify=main.stratified,
    )


def _warnings(d: Decision, result: SweepResult) -> list[str]:
    out: list[str | None] = [checks.small_holdout(d.gain.n, d.has_holdout)]
    out.extend(checks.uncapped(d.choice.caps))
    what = "utility" if d.rule.utility else d.rule.measure
    top = float(d.choice.score[d.chosen])
    where = "dev" if d.has_holdout else "all queries"
    out.append(checks.tied_top(len(d.choice.tied), top, what, d.keeps_base, where))
    if not d.keeps_base:
        axes: dict[str, list[Any]] = {}
        for p in result.points:
            for k, v in p.overrides.items():
                axes.setdefault(k, []).append(v)
        out.extend(checks.grid_edges(d.point.overrides, axes))
    out.append(checks.all_tied(d.gain, d.keeps_base))
    out.append(checks.gain_unclear(d.gain, d.keeps_base))
    if d.has_holdout:
        base, chosen = d.candidates.iloc[d.base], d.candidates.iloc[d.chosen]
        held = {c: float(chosen[f"{c}:holdout"]) for c in d.choice.caps}
        held_base = {c: float(base[f"{c}:holdout"]) for c in d.choice.caps}
        explicit = {
            "AbstainHits": d.rule.max_abstain_hits is not None,
            "Tokens": d.rule.max_tokens is not None,
        }
        out.extend(checks.holdout_costs(d.choice.caps, held_base, held, d.rule.tolerance, explicit))
    return [w for w in out if w]
