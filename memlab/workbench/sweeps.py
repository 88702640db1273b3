"""The sweep notebook: one engine, several spaces, plots and the best configurations on holdout.

Thin wrappers over ``memlab.sweep`` (candidates gathered once; every
configuration scored by the one scoring core; configurations chosen on the dev
queries and reported on the held-out ones). Each sweep can leave its table as
files (``sweep.csv`` and ``sweep.json`` in ``<out_dir>/<name>/``).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pandas as pd

from memlab.config import profile
from memlab.sweep import Sweep, SweepResult, plot_half_life, plot_heatmap, plot_lambda, run_sweep
from memlab.workbench.display import Panel, Plot
from memlab.workbench.evaluation import prepare_benchmark


def sweep_engine(
    dataset: str = "agent-memory",
    embedder: str = "",
    profile_name: str = "grok-c0",
    holdout: float = 0.3,
    seed: int = 0,
    tokenizer: str | None = None,
    chunk_bytes: int | None = None,
    chunk_overlap: int | None = None,
    dream: bool | None = None,
    chunking: str | None = None,
    roles: str | None = None,
) -> Sweep:
    """Prepare ``dataset`` once and split its queries into dev and holdout (index options
    and ``dream`` None: the dataset's defaults)."""
    prepared = prepare_benchmark(
        dataset,
        profile_name,
        embedder,
        (),
        tokenizer,
        chunk_bytes,
        chunk_overlap,
        dream,
        chunking,
        roles,
    )
    return Sweep.from_dataset(
        prepared, holdout=holdout, seed=seed, base=profile(profile_name).search
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


def chosen_vs_default(
    engine: Sweep, results: Mapping[str, SweepResult], measure: str = "nDCG@10"
) -> pd.DataFrame:
    """Each sweep's chosen configuration against the base profile, on dev and holdout."""
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
