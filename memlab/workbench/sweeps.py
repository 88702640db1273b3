"""The sweep notebook: one engine, several spaces, plots, the best configurations on holdout,
and the decision (``memlab.sweep.decision``: the rule, base vs chosen, the Pareto fronts).

Thin wrappers over ``memlab.sweep`` (candidates gathered once; every
configuration scored by the one scoring core; configurations chosen on the dev
queries and reported on the held-out ones). Each sweep can leave its table as
files (``sweep.csv`` and ``sweep.json`` in ``<out_dir>/<name>/``).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import pandas as pd

from memlab.config import profile
from memlab.eval.compare.breakdown import AGE_ORDER, age_bucket
from memlab.eval.compare.reach import reachability
from memlab.eval.replay.prepared import PrepareOptions
from memlab.sweep import (
    ChoiceRule,
    Decision,
    Sweep,
    SweepResult,
    plot_fronts,
    plot_half_life,
    plot_heatmap,
    plot_lambda,
    run_sweep,
)
from memlab.sweep.decision_text import gain_line, optimism_line
from memlab.workbench.display import Panel, Plot
from memlab.workbench.evaluation import benchmark_options, prepare_benchmark


def sweep_engine(
    dataset: str = "agent-memory",
    options: PrepareOptions | None = None,
    *,
    holdout: float = 0.3,
    seed: int = 0,
) -> Sweep:
    """Prepare ``dataset`` once as ``options`` say (notebook parameters: profile, embedder,
    index options and ``dream``; None: the dataset's defaults) and split its queries
    into dev and holdout; the base every configuration starts from is the profile's."""
    options = benchmark_options(options)
    base = profile(str(options.profile)).search
    return Sweep.from_dataset(
        prepare_benchmark(dataset, options), holdout=holdout, seed=seed, base=base
    )


def engine_summary(engine: Sweep) -> Panel:
    split = engine.split.describe()
    notes = [
        f"dataset {engine.prepared.dataset.name}: {len(engine.query_ids)} queries; "
        f"{split['dev_queries']} dev, {split['holdout_queries']} holdout "
        f"(seed {split['seed']}, stratified by category: {split['stratified']})",
        f"embedder: {engine.prepared.embedder_id or 'none (FTS-only)'}; "
        f"base: half-life {engine.base.effective_half_life()} d, min_score {engine.base.min_score}",
        f"measures: {', '.join(engine.measures)}",
    ]
    return Panel("sweep engine", notes)


def sweep(
    engine: Sweep, space: Mapping[str, Any], name: str = "", out_dir: str = ""
) -> SweepResult:
    """Score every configuration of ``space`` (dotted paths → lists of values)."""
    out = Path(out_dir) / name if out_dir and name else None
    return run_sweep(engine, dict(space), out=out, progress=False)


def best_table(result: SweepResult, measure: str = "nDCG@10", n: int = 5) -> Panel:
    """The ``n`` best configurations chosen on dev, with holdout values and CIs."""
    table = result.best(measure, n)
    if "half_life_days" in table:
        table["half_life_days"] = (
            table["half_life_days"].astype(object).where(table["half_life_days"].notna(), "off")
        )
    panel = Panel(f"best by {measure} on dev", result.summary(measure).splitlines()[:1])
    return panel.add("", table.drop(columns=["config_hash"]))


def half_life_plot(result: SweepResult, measure: str = "nDCG@10") -> Plot:
    return Plot(plot_half_life(_numeric(result.table), measure), "half-life")


def heatmap(result: SweepResult, x: str, y: str, measure: str = "nDCG@10") -> Plot:
    return Plot(plot_heatmap(_numeric(result.table), x, y, measure), f"{x} × {y}")


def lambda_plot(result: SweepResult, measure: str = "nDCG@10") -> Plot:
    return Plot(plot_lambda(result.table, measure), "lambda")


def _numeric(table: pd.DataFrame) -> pd.DataFrame:
    """Half-life None (no decay) as NaN, which the sweep plots draw as "off"."""
    out = table.copy()
    if "half_life_days" in out:
        out["half_life_days"] = pd.to_numeric(out["half_life_days"], errors="coerce")
    return out


def half_life_by_age(
    engine: Sweep,
    half_lives: Sequence[float | None] = (1.0, 3.0, 7.0, 14.0, 30.0, 90.0, None),
    measure: str = "nDCG@10",
) -> pd.DataFrame:
    """``measure`` per half-life (rows; the base's other settings) and answer-age bucket
    (columns: the time from writing the answer to the query), over every scored query.

    Each query is asked at its own time, so a half-life trades young answers (decay
    lets the newest version win) against old ones (decay pushes them under
    ``min_score``); the "all" column is the mean the sweep reports."""
    timeline = engine.prepared.judged(engine.memory)
    ages = reachability(timeline, engine.base).set_index("query_id")["answer_age_days"]
    buckets = pd.Series([age_bucket(a) for a in ages], index=ages.index)
    index = pd.Index(engine.query_ids)
    rows = []
    for half_life in half_lives:
        config = replace(engine.base, temporal_decay=True, half_life_days=half_life)
        values = pd.Series(engine.per_query(config)[measure], index=index).dropna()
        row: dict[str, Any] = {"half-life (days)": "off" if half_life is None else half_life}
        grouped = values.groupby(buckets.reindex(values.index)).mean()
        row.update({b: float(grouped[b]) for b in AGE_ORDER if b in grouped.index})
        row["all"] = float(values.mean())
        rows.append(row)
    table = pd.DataFrame(rows).set_index("half-life (days)")
    counts = buckets.reindex(values.index).value_counts()  # the scored queries
    table.columns = [c if c == "all" else f"{c} ({counts[c]})" for c in table.columns]
    return table


def chosen_vs_default(
    engine: Sweep, results: Mapping[str, SweepResult], measure: str = "nDCG@10"
) -> pd.DataFrame:
    """Each sweep's chosen configuration (the default rule: the best ``measure`` within the
    base's costs) against the base profile, on dev and holdout."""
    base = run_sweep(engine, configs=[{}], progress=False).table.iloc[0]
    rows = [
        {
            "sweep": "base profile",
            "configuration": "(unchanged)",
            "dev": float(base[f"{measure}:dev"]) if engine.split.holdout else float(base[measure]),
            "holdout": float(base[f"{measure}:holdout"]) if engine.split.holdout else math.nan,
        }
    ]
    for name, result in results.items():
        c = result.chosen(measure)
        text = ", ".join(f"{k}={v}" for k, v in c["overrides"].items())
        rows.append(
            {"sweep": name, "configuration": text, "dev": c["dev"], "holdout": c["holdout"]}
        )
    table = pd.DataFrame(rows)
    table["holdout gain"] = table["holdout"] - table["holdout"].iloc[0]
    return table


def decide(
    result: SweepResult,
    measure: str = "nDCG@10",
    objective: str = "constrained",
    tolerance: float = 0.05,
    max_abstain_hits: float | None = None,
    max_tokens: float | None = None,
    splits: int = 5,
) -> Decision:
    """The decision of a sweep under a rule (``memlab sweep``'s ``--objective`` …)."""
    rule = ChoiceRule.parse(
        objective,
        measure=measure,
        tolerance=tolerance,
        max_abstain_hits=max_abstain_hits,
        max_tokens=max_tokens,
    )
    return result.decide(rule, splits=splits)


def decision_panel(decision: Decision) -> Panel:
    """The rule, base beside chosen, the gain and its optimism, the warnings."""
    d = decision
    notes = [
        f"rule: {d.rule_text}",
        f"{d.choice.n_eligible} of {len(d.candidates)} configurations meet it; chosen: "
        f"{d.candidates.iloc[d.chosen]['configuration']}",
        gain_line(d),
    ]
    extra = optimism_line(d)
    notes += [extra] if extra else []
    notes += [f"warning: {w}" for w in d.warnings]
    return Panel("the decision", notes).add("base vs chosen", d.side_by_side_text())


def front_plot(decision: Decision) -> Plot:
    return Plot(plot_fronts(decision), "quality against costs")


def front_tables(decision: Decision) -> Panel:
    """The Pareto fronts as tables (dev; the base and the chosen marked)."""
    panel = Panel(
        "Pareto fronts", [f"{decision.rule.measure} against each cost ({decision.chosen_on})"]
    )
    for cost in decision.fronts:
        panel.add(f"against {cost}", decision.front_table(cost))
    return panel


def export_decision(
    result: SweepResult, decision: Decision, export_dir: str, profile_name: str = "grok-c0"
) -> Panel:
    """``memlab sweep --export``'s folder (nothing without ``export_dir``)."""
    if not export_dir:
        return Panel("export", ["set export_dir to write chosen.yaml and the agents' settings"])
    from memlab.export.sweep_decision import export_sweep

    done = export_sweep(result, decision, export_dir, profile_name=profile_name)
    return Panel("export", done.lines())
