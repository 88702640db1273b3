"""Where a comparison's numbers come from: by answer age, by category, which rankings
changed, and how small a difference it could detect.

Pure table functions over an experiment's long ``perquery`` frame (run,
query_id, category, measure, value), tagged with a ``view`` (``end to end`` or
``ranking only``), and the per-run reachability table (answer ages):

* ``by_age`` — a measure's mean per answer-age bucket (``AGE_BUCKETS``: the
  time from the answer's writing to the query), with how many queries in the
  bucket have an answer and how many can reach it;
* ``by_category`` — a measure's mean per query category and run;
* ``ranking_changes`` — per category, how many queries a run ranks differently
  from the run it modifies (``mmr`` from ``hybrid``, a peer merge from
  ``hybrid``, ``hybrid`` from ``fts``; ``reference_of``);
* ``power_table`` — per comparison (every run against the first, and against the
  run it modifies), the smallest paired difference detectable at 80 % power
  (``memlab.eval.stats.power``).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

from memlab.eval.runs.rankers import RANKERS
from memlab.eval.stats import power as pw

# (upper bound in days, label): an answer age falls in the first bucket it fits
AGE_BUCKETS = ((1.0, "≤ 1 d"), (7.0, "1–7 d"), (30.0, "7–30 d"), (180.0, "30–180 d"))
OLDER, UNKNOWN = "> 180 d", "unknown"
AGE_ORDER = (*(label for _, label in AGE_BUCKETS), OLDER, UNKNOWN)


# the run each named ranker modifies (ranker@profile: the same ranker on that profile)
def reference_of(ranker: str) -> str | None:
    """The run a named ranker modifies: ``hybrid`` adds vectors to ``fts``; ``mmr`` and
    every other merge strategy's run change ``hybrid``."""
    if ranker == "hybrid":
        return "fts"
    return "hybrid" if ranker in RANKERS and ranker != "fts" else None


def age_bucket(days: float | None) -> str:
    """The bucket of an answer age in days (``unknown`` when there is none)."""
    if days is None or (isinstance(days, float) and math.isnan(days)):
        return UNKNOWN
    return next((label for upper, label in AGE_BUCKETS if days <= upper), OLDER)


def by_age(perquery: pd.DataFrame, reach: pd.DataFrame, measure: str = "nDCG@10") -> pd.DataFrame:
    """Per view, run and answer-age bucket: the queries judged, with an answer at their
    time, reachable under the run's filters, scored, and the mean of ``measure``."""
    ages = reach.assign(bucket=[age_bucket(a) for a in reach["answer_age_days"]])
    counts = ages.groupby(["run", "bucket"]).agg(
        judged=("query_id", "size"),
        exists=("chunk_id", lambda c: int(c.notna().sum())),
        reachable=("reachable", "sum"),
    )
    part = perquery[perquery["measure"] == measure].merge(
        ages[["run", "query_id", "bucket"]], on=["run", "query_id"]
    )
    means = part.groupby(["view", "run", "bucket"])["value"].agg(["mean", "count"]).reset_index()
    out = means.merge(counts.reset_index(), on=["run", "bucket"], how="left")
    out = out.rename(columns={"count": "scored", "exists": "answer exists"})
    out["measure"] = measure
    out["bucket"] = pd.Categorical(out["bucket"], AGE_ORDER, ordered=True)
    out = out.sort_values(["view", "run", "bucket"], kind="stable").reset_index(drop=True)
    cols = ["view", "run", "bucket", "judged", "answer exists", "reachable", "scored"]
    return out[[*cols, "measure", "mean"]]


def by_category(perquery: pd.DataFrame, measures: Sequence[str]) -> pd.DataFrame:
    """Per view, category, measure and run: the mean and the number of queries."""
    part = perquery[perquery["measure"].isin(measures)]
    table = part.groupby(["view", "category", "measure", "run"], sort=False)["value"]
    return table.agg(["mean", "count"]).reset_index()


def references(runs: Sequence[str]) -> dict[str, str]:
    """``{run: the run it modifies}`` for the runs whose reference is in the comparison."""
    out = {}
    for name in runs:
        ranker, at, profile = name.partition("@")
        ref = reference_of(ranker)
        if ref is not None and ref + at + profile in runs:
            out[name] = ref + at + profile
    return out


def ranking_changes(
    rankings: Mapping[str, Mapping[str, Sequence[str]]],
    categories: Mapping[str, str],
    pairs: Mapping[str, str],
    view: str,
) -> pd.DataFrame:
    """Per (run, reference) pair and category: queries whose returned ranking differs."""
    rows = []
    for run, ref in pairs.items():
        changed: dict[str, list[int]] = {}
        for qid, category in categories.items():
            a, b = list(rankings[ref].get(qid, [])), list(rankings[run].get(qid, []))
            changed.setdefault(category, []).append(int(a != b))
        for category, flags in sorted(changed.items()):
            rows.append(
                {
                    "view": view,
                    "run": run,
                    "reference": ref,
                    "category": category,
                    "queries": len(flags),
                    "changed": sum(flags),
                }
            )
    return pd.DataFrame(
        rows, columns=["view", "run", "reference", "category", "queries", "changed"]
    )


def comparison_pairs(runs: Sequence[str]) -> list[tuple[str, str]]:
    """Every run against the first, then each run against the run it modifies (when that
    is not the first): ``[(run, reference), …]``."""
    baseline = runs[0]
    pairs = [(run, baseline) for run in runs[1:]]
    pairs += [(run, ref) for run, ref in references(runs).items() if ref != baseline]
    return pairs


POWER_COLUMNS = [
    "view",
    "run",
    "reference",
    "measure",
    "n",
    "delta",
    "sd of differences",
    "tied",
    "MDE analytic",
    "MDE bootstrap",
    "bootstrap power at analytic MDE",
]


def power_table(
    perquery: pd.DataFrame,
    pairs: Sequence[tuple[str, str]],
    measure: str = "nDCG@10",
    *,
    n_resamples: int = 2000,
    seed: int = 0,
) -> pd.DataFrame:
    """Per view and (run, reference) pair: the paired differences of ``measure``, their
    spread, the minimum detectable difference at 80 % power (α 0.05; analytic and by
    bootstrap) and the bootstrap power at the analytic minimum."""
    rows: list[dict[str, object]] = []
    part = perquery[perquery["measure"] == measure]
    for view, frame in part.groupby("view", sort=False):
        wide = frame.pivot_table(index="query_id", columns="run", values="value")
        for run, ref in pairs:
            if run not in wide or ref not in wide:
                continue
            pair = wide[[ref, run]].dropna()
            d = (pair[run] - pair[ref]).to_numpy()
            mde = pw.analytic_mde(d)
            rows.append(
                {
                    "view": view,
                    "run": run,
                    "reference": ref,
                    "measure": measure,
                    "n": len(d),
                    "delta": float(d.mean()) if len(d) else math.nan,
                    "sd of differences": float(np.std(d, ddof=1)) if len(d) > 1 else math.nan,
                    "tied": int(np.sum(np.abs(d) <= 1e-9)),
                    "MDE analytic": mde,
                    "MDE bootstrap": pw.bootstrap_mde(d, n_resamples=n_resamples, seed=seed),
                    "bootstrap power at analytic MDE": pw.bootstrap_power(
                        d, mde, n_resamples=n_resamples, seed=seed
                    ),
                }
            )
    return pd.DataFrame(rows, columns=POWER_COLUMNS)
