"""Compare rankers on a dataset: run, tabulate, and explain the biggest changes.

``run_compare`` runs ``memlab compare``'s pipeline (``memlab.eval.compare.orchestration``),
whose ``run_experiment`` writes ``aggregated.csv``, ``perquery.csv``,
``manifest.json`` … into ``out_dir``;
the other functions turn its ``Experiment`` into the tables the compare and
regression notebooks show. Run names are rankers (``fts``, ``hybrid``, ``mmr``,
``openclaw``, ``rrf``, ``basic-memory``) optionally on another profile:
``hybrid@grok-2026-08``. The first run is the baseline of every comparison.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import pandas as pd

from memlab.config import DEFAULT_PROFILE, MmrConfig, SearchConfig, config_hash
from memlab.eval.compare.experiment import Experiment, Scoring
from memlab.eval.compare.orchestration import compare_runs, run_comparison
from memlab.eval.measures import DEFAULT_MEASURES
from memlab.eval.replay.prepared import Prepared, PrepareOptions, prepare_dataset
from memlab.eval.runs.rankers import named_configs, run_label
from memlab.eval.stats.significance import PairwiseTable, pairwise_table
from memlab.workbench.display import Panel
from memlab.workbench.traces import query_trace

HEADLINE = ("nDCG@10", "R@5", "RR")


def benchmark_configs(
    runs: Sequence[str], profile_name: str = "grok-c0", mmr_lambda: float | None = None
) -> dict[str, SearchConfig]:
    """``{"fts": …, "hybrid@grok-2026-08": …}`` from run names.

    ``mmr_lambda`` replaces the λ of the ``mmr`` ranker (0.7 by default).
    """
    out = named_configs(runs, profile_name)
    for name, config in out.items():
        if name.partition("@")[0] == "mmr" and mmr_lambda is not None:
            out[name] = replace(config, mmr=MmrConfig(enabled=True, lambda_=float(mmr_lambda)))
    return out


def prepare_benchmark(
    dataset: str = "agent-memory", options: PrepareOptions | None = None
) -> Prepared:
    """A dataset (by name or folder) prepared as ``options`` say (notebook parameters as
    a ``PrepareOptions``; index options None: the dataset's defaults), with the Dream
    settings of its profile (``grok-c0`` unless it names one)."""
    return prepare_dataset(dataset, benchmark_options(options))


def run_compare(
    dataset: str = "agent-memory",
    runs: Sequence[str] = ("fts", "hybrid", "mmr"),
    options: PrepareOptions | None = None,
    *,
    measures: Sequence[str] = DEFAULT_MEASURES,
    test: str = "t",
    out_dir: str = "",
    mmr_lambda: float | None = None,
    client: Any = None,
) -> Experiment:
    """Evaluate ``runs`` on ``dataset`` prepared as ``options`` say (the profile of every
    run that names none, the embedder, the query categories, index options and
    ``dream``; None follows the dataset's manifest), by the compare pipeline
    ``memlab compare`` runs (``memlab.eval.compare.orchestration``). ``client``: a Dask cluster
    (``cluster()``) to replay the groups on."""
    options = benchmark_options(options)
    prepared = prepare_dataset(dataset, options)
    return run_comparison(
        prepared,
        compare_runs(runs, profile_name=str(options.profile), mmr_lambda=mmr_lambda),
        profile_name=str(options.profile),
        measures=list(measures),
        scoring=Scoring(test=test),
        out=Path(out_dir) if out_dir else None,
        client=client,
    )


def benchmark_options(options: PrepareOptions | None = None) -> PrepareOptions:
    """``options`` on the notebooks' default profile (``grok-c0``) when they name none."""
    options = options or PrepareOptions()
    return options if options.profile else replace(options, profile=DEFAULT_PROFILE)


def experiment_summary(exp: Experiment) -> Panel:
    """What was evaluated: dataset, embedder, runs and their configuration hashes."""
    m = exp.manifest
    base = next(iter(exp.runs))
    notes = [
        f"dataset {m['dataset']['name']} ({len(exp.dataset.queries)} queries, "
        f"{int(exp.table(['NumQ'])['NumQ'].iloc[0])} judged), as of {m['dataset']['as_of']}",
        f"embedder: {m['embedder']['id'] or 'none (FTS-only)'}; baseline run: {base}",
        *(f"warning: {w}" for w in exp.warnings),
    ]
    runs = pd.DataFrame(
        [
            {
                "run": name,
                "what": run_label(name, r.config),
                "config hash": config_hash(r.config),
                "vectors": r.config.vectors,
                "strategy": r.config.strategy,
                "MMR": r.config.mmr.enabled,
                "half-life": r.config.effective_half_life(),
                "min_score": r.config.min_score,
                "degraded queries": sum(r.degraded.values()),
            }
            for name, r in exp.runs.items()
        ]
    )
    return Panel("experiment", notes, [("runs", runs)])


def metric_table(exp: Experiment, measures: Sequence[str] | None = None) -> pd.DataFrame:
    """Mean of each measure per run with its 95% bootstrap CI."""
    agg = exp.aggregated
    wanted = list(measures) if measures else [m for m in agg["measure"].unique() if m != "NumQ"]
    agg = agg[agg["measure"].isin(wanted)]
    cells = agg.assign(
        cell=[
            f"{v:.3f} [{lo:.3f}, {hi:.3f}]"
            for v, lo, hi in zip(agg["value"], agg["ci_low"], agg["ci_high"], strict=True)
        ]
    )
    wide = cells.pivot(index="run", columns="measure", values="cell")
    return wide.reindex(index=list(exp.runs), columns=[m for m in wanted if m in wide.columns])


def significance_table(exp: Experiment, measures: Sequence[str] | None = None) -> pd.DataFrame:
    """Every run against the first: Δ, its CI, p, the Holm family and its size, the
    adjusted p, wins/ties/losses, the verdict and why CI and verdict may disagree."""
    table = exp.compared
    if table.empty:
        return table
    if measures:
        table = table[table["measure"].isin(measures)]
    cols = [
        "run",
        "measure",
        "base_value",
        "value",
        "delta",
        "ci_low",
        "ci_high",
        "p",
        "family",
        "family_size",
        "p_holm",
        "wins",
        "ties",
        "losses",
        "verdict",
        "note",
    ]
    return table[cols].reset_index(drop=True)


def paper_table(
    exp: Experiment, measures: Sequence[str] | None = None, *, family: str = "measure"
) -> PairwiseTable:
    """Every pair of runs tested on every measure, for papers and slides: ``.to_markdown()``,
    ``.to_latex()`` (``memlab.eval.stats.significance.pairwise_table``)."""
    wanted = list(measures or [m for m in exp.manifest["measures"] if m != "NumQ"])
    return pairwise_table(
        exp.perquery, list(exp.runs), wanted, test=exp.manifest["test"], family=family
    )


def category_table(exp: Experiment, measure: str = "nDCG@10") -> pd.DataFrame:
    """Mean of ``measure`` per query category (rows) and run (columns)."""
    cat = exp.categories
    part = cat[cat["measure"] == measure]
    wide = part.pivot(index="category", columns="run", values="mean")
    return wide.reindex(columns=list(exp.runs))


def per_query_deltas(exp: Experiment, measure: str = "nDCG@10") -> pd.DataFrame:
    """Per query: the baseline run's value and every other run's delta."""
    pq = exp.perquery[exp.perquery["measure"] == measure]
    wide = pq.pivot(index="query_id", columns="run", values="value")
    base = next(iter(exp.runs))
    out = pd.DataFrame({"base": wide[base]})
    for run in exp.runs:
        if run != base and run in wide:
            out[run] = wide[run] - wide[base]
    return out


def biggest_changes(exp: Experiment, measure: str = "nDCG@10", n: int = 10) -> pd.DataFrame:
    """The ``n`` largest per-query changes against the baseline run (wins and losses)."""
    deltas = per_query_deltas(exp, measure)
    base = next(iter(exp.runs))
    long = (
        deltas.drop(columns="base")
        .reset_index()
        .melt(id_vars="query_id", var_name="run", value_name="delta")
    )
    long = long[long["delta"].abs() > 0]
    long = long.reindex(long["delta"].abs().sort_values(ascending=False).index).head(n)
    queries = {q.query_id: q for q in exp.dataset.queries}
    long[base] = [deltas.loc[q, "base"] for q in long["query_id"]]
    long["category"] = [queries[q].category for q in long["query_id"]]
    long["text"] = [queries[q].text for q in long["query_id"]]
    long["outcome"] = ["win" if d > 0 else "loss" for d in long["delta"]]
    return long[["query_id", "category", "run", base, "delta", "outcome", "text"]].reset_index(
        drop=True
    )


def change_traces(exp: Experiment, measure: str = "nDCG@10", n: int = 2) -> Panel:
    """Traces of the ``n`` biggest changes under the baseline run and the changed run.

    Rows shown: anything returned by either run, and every judged chunk (``grade``).
    """
    base = next(iter(exp.runs))
    panel = Panel(f"the {n} biggest changes in {measure}, with their traces")
    for row in biggest_changes(exp, measure, n).itertuples(index=False):
        qid, run = str(row.query_id), str(row.run)
        panel.notes.append(
            f"{qid} ({row.category}) {run} vs {base}: Δ {row.delta:+.3f} — {row.text!r}"
        )
        for name in (base, run):
            df = query_trace(exp.prepared, qid, exp.runs[name].config, exp.runs[name].memory)
            keep = df["rank"].notna() | df["grade"].notna()
            panel.add(f"{qid} under {name}", df[keep].drop(columns=["in limit"]))
    return panel
