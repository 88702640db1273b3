"""What the filters do to a comparison: decay and ``min_score`` apart from ranking.

An end-to-end number mixes two things: which answers *can* be returned at the
query's time (decay, ``min_score``, Dream having consolidated the log away) and
how well the ranker orders what can. This module takes them apart, on the
candidates an ``Experiment`` already gathered (no new replay):

* ``ranking_only`` — a configuration with decay off and ``min_score`` 0: the
  ranker alone (the same candidates, nothing filtered away);
* ``reachability_by_run`` — for every run, every judged query's best possible
  score at its time and whether it can pass the run's ``min_score``
  (``memlab.eval.compare.reach``): the ceiling no ranker can beat;
* ``min_score_sweep`` — ``Success@5`` over the judged queries against
  ``AbstainHits`` over the queries nothing answers, for a range of ``min_score``
  values: the trade-off the threshold sets.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace

import numpy as np
import pandas as pd

from memlab.config import SearchConfig
from memlab.eval.compare.experiment import Experiment
from memlab.eval.compare.reach import reachability
from memlab.eval.measures import Returned, compute, judgements_for
from memlab.eval.runs.rankers import run_label
from memlab.retrieval.ranking import rank_batch

MIN_SCORES = (0.0, 0.1, 0.2, 0.3, 0.35, 0.4, 0.5, 0.6, 0.7, 0.8)
SWEPT = ("Success@5", "AbstainHits", "Abstained")


def ranking_only(config: SearchConfig) -> SearchConfig:
    """``config`` with decay off (no half-life) and ``min_score`` 0."""
    return replace(config, temporal_decay=True, half_life_days=None, min_score=0.0)


def filters_of(config: SearchConfig) -> str:
    """The filters a configuration applies, in words: ``decay 7 d, min_score 0.35``."""
    half_life = config.effective_half_life()
    decay = "no decay" if half_life is None else f"decay {half_life:g} d"
    return f"{decay}, min_score {config.min_score:g}"


def reachability_by_run(exp: Experiment) -> pd.DataFrame:
    """Per run and judged query: the answer's age, its score ceiling and whether it is
    reachable under the run's filters at the query's time."""
    frames = []
    for name, result in exp.runs.items():
        if name not in exp.timelines:  # a run read from a file: no configuration
            continue
        table = reachability(exp.timelines[name], result.config)
        frames.append(table.assign(run=name))
    out = pd.concat(frames, ignore_index=True)
    return out[["run", *[c for c in out.columns if c != "run"]]]


def reachability_summary(exp: Experiment, reach: pd.DataFrame) -> pd.DataFrame:
    """Per run: what it is, its filters, the judged queries, how many have an answer at
    their time, and how many of those it can reach (the ceiling of its Success)."""
    rows = []
    for name, result in exp.runs.items():
        part = reach[reach["run"] == name]
        exists = int(part["chunk_id"].notna().sum())
        reachable = int(part["reachable"].sum())
        judged = len(part)
        rows.append(
            {
                "run": name,
                "what": run_label(name, result.config),
                "filters": filters_of(result.config),
                "judged": judged,
                "answer exists": exists,
                "answer gone": judged - exists,
                "reachable": reachable,
                "reachable share": reachable / judged if judged else 0.0,
            }
        )
    return pd.DataFrame(rows)


def min_score_sweep(
    exp: Experiment,
    values: Sequence[float] = MIN_SCORES,
    runs: Sequence[str] | None = None,
) -> pd.DataFrame:
    """For each run and ``min_score``: ``Success@5`` over the scored queries and
    ``AbstainHits`` / ``Abstained`` over the queries nothing answers, the rest of the
    run's configuration kept (the sweep engine's vectorised measures on the
    experiment's candidates)."""
    rows = []
    for name in runs or list(exp.timelines):
        result, timeline = exp.runs[name], exp.timelines[name]
        judgements = judgements_for(timeline.batch, timeline)
        for value in values:
            config = replace(result.config, min_score=float(value))
            ranked = rank_batch(timeline.batch, config, timeline.query_now, full_mmr=False)
            hits = Returned.from_final_rank(
                ranked.final_rank, ranked.batch.segment, ranked.batch.n_queries
            )
            measured = compute(SWEPT, hits, judgements)
            rows.append(
                {"run": name, "min_score": float(value)}
                | {
                    m: float(np.nanmean(v)) if np.isfinite(v).any() else math.nan
                    for m, v in measured.items()
                }
            )
    return pd.DataFrame(rows, columns=["run", "min_score", *SWEPT])
