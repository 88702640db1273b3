"""A comparison with filtering and ranking taken apart (what ``memlab compare`` prints
after its main table, and writes beside its files).

``separate(exp)`` takes an end-to-end ``Experiment`` and adds, on the same
candidates (no new replay):

* the **reachability ceiling** per run: the share of judged queries whose answer
  can pass decay and ``min_score`` at its time, and how many answers no longer
  exist then (Dream consolidated the log that held them and deleted it);
* the **ranking-only** view: every run again with decay off and ``min_score`` 0;
* measures **by answer age** and **by category** in both views, and how many
  rankings each run changes against the run it modifies;
* the **power** of each comparison: the smallest nDCG@10 difference detectable
  at 80 % power, analytic and by bootstrap;
* a **min_score sweep**: Success@5 against AbstainHits.

``write_separation`` writes it as CSV files; ``memlab.eval.compare.separation_view``
prints it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from memlab import progress
from memlab.eval.compare import breakdown
from memlab.eval.compare.experiment import Experiment, Scoring, run_experiment, write_outputs
from memlab.eval.compare.filtering import (
    MIN_SCORES,
    min_score_sweep,
    ranking_only,
    reachability_by_run,
    reachability_summary,
)
from memlab.eval.measures import NUGGET_MEASURES
from memlab.eval.runs.rankers import Run

END_TO_END, RANKING_ONLY = "end to end", "ranking only"
FILES = {
    "reachability": "reachability.csv",
    "summary": "reachability_summary.csv",
    "by_age": "by_age.csv",
    "by_category": "by_category.csv",
    "changes": "ranking_changes.csv",
    "power": "power.csv",
    "min_score": "min_score_sweep.csv",
}
RANKING_ONLY_DIR = "ranking-only"


@dataclass
class Separation:
    end_to_end: Experiment
    ranking_only: Experiment
    measure: str
    reachability: pd.DataFrame  # per run and judged query
    summary: pd.DataFrame  # per run
    by_age: pd.DataFrame
    by_category: pd.DataFrame
    changes: pd.DataFrame
    power: pd.DataFrame
    min_score: pd.DataFrame
    indexes: pd.DataFrame  # which queries were gathered from which index

    @property
    def perquery(self) -> pd.DataFrame:
        """Both views' per-query values, with a ``view`` column."""
        return _views(self.end_to_end, self.ranking_only)

    @property
    def runs(self) -> list[str]:
        return list(self.end_to_end.runs)

    def age_table(self) -> pd.DataFrame:
        """Wide: one row per answer-age bucket; the queries judged, with an answer and
        reachable under the first run, then ``measure`` per view and run."""
        t = self.by_age
        first = t[(t["run"] == self.runs[0]) & (t["view"] == END_TO_END)].set_index("bucket")
        wide = t.pivot_table(index="bucket", columns=["view", "run"], values="mean", observed=True)
        counts = first[["judged", "answer exists", "reachable"]].astype(int)
        counts.columns = pd.MultiIndex.from_tuples([("queries", c) for c in counts.columns])
        return counts.join(wide[self._columns(wide)])

    def category_table(self, measure: str | None = None) -> pd.DataFrame:
        """Wide: one row per category; the queries scored, then ``measure`` per view and
        run (a nugget measure: only the categories judged with nuggets)."""
        t = self.by_category[self.by_category["measure"] == (measure or self.measure)]
        wide = t.pivot_table(index="category", columns=["view", "run"], values="mean")
        counts = t[t["view"] == END_TO_END].groupby("category")["count"].max().rename("scored")
        counts.index.name = "category"
        wide = wide[self._columns(wide)]
        wide.insert(0, ("queries", "scored"), counts)
        return wide

    def changes_table(self) -> pd.DataFrame:
        """Wide: per category, the queries each run ranks differently from its reference."""
        t = self.changes.assign(
            pair=[
                f"{r} vs {ref}"
                for r, ref in zip(self.changes["run"], self.changes["reference"], strict=True)
            ]
        )
        wide = t.pivot_table(
            index="category", columns=["view", "pair"], values="changed", aggfunc="sum"
        )
        queries = t.groupby("category")["queries"].max().rename(("queries", ""))
        return pd.concat([queries, wide], axis=1) if len(t) else wide

    def sweep_table(self) -> pd.DataFrame:
        """Wide: one row per ``min_score``; Success@5 and AbstainHits per run."""
        t = self.min_score
        wide = t.pivot_table(index="min_score", columns="run", values=["Success@5", "AbstainHits"])
        return wide.reindex(
            columns=[(m, r) for m in ("Success@5", "AbstainHits") for r in self.runs]
        )

    def _columns(self, wide: pd.DataFrame) -> list[tuple[str, str]]:
        """The (view, run) columns of ``wide`` in view then run order."""
        return [(v, r) for v in (END_TO_END, RANKING_ONLY) for r in self.runs if (v, r) in wide]


def separate(
    exp: Experiment,
    *,
    measure: str = "nDCG@10",
    min_scores: Sequence[float] = MIN_SCORES,
    n_resamples: int = 2000,
) -> Separation:
    """Filtering and ranking of ``exp`` taken apart (see the module docstring)."""
    seed = int(exp.manifest.get("seed", 0))
    progress.note(
        "filtering and ranking apart: the ranking-only view, reachability, power, "
        f"the min_score sweep ({len(min_scores)} thresholds)"
    )
    only = run_experiment(
        exp.prepared,
        {n: Run(ranking_only(r.config), r.memory) for n, r in exp.runs.items()},
        measures=exp.manifest["measures"],
        scoring=Scoring(
            unit=exp.manifest["unit"],
            test=exp.manifest["test"],
            budget=exp.manifest["token_budget"],
            seed=seed,
        ),
    )
    with progress.phase(f"reachability of {len(exp.runs)} run(s)"):
        reach = reachability_by_run(exp)
    perquery = _views(exp, only)
    runs = list(exp.runs)
    categories = {q.query_id: q.category or "" for q in exp.dataset.queries}
    pairs = breakdown.references(runs)
    changes = pd.concat(
        [
            breakdown.ranking_changes(
                {n: r.rankings for n, r in e.runs.items()}, categories, pairs, view
            )
            for e, view in ((exp, END_TO_END), (only, RANKING_ONLY))
        ],
        ignore_index=True,
    )
    nuggets = [m for m in perquery["measure"].unique() if m in NUGGET_MEASURES]
    with progress.phase("answer age and category tables"):
        summary = reachability_summary(exp, reach)
        ages = breakdown.by_age(perquery, reach, measure)
        by_category = breakdown.by_category(perquery, [measure, *nuggets])
    pairs_tested = breakdown.comparison_pairs(runs)
    with progress.phase(f"power of {len(pairs_tested)} comparison(s) ({n_resamples} resamples)"):
        power = breakdown.power_table(
            perquery, pairs_tested, measure, n_resamples=n_resamples, seed=seed
        )
    with progress.phase(f"min_score sweep ({len(min_scores)} thresholds)"):
        sweep = min_score_sweep(exp, min_scores)
    return Separation(
        exp,
        only,
        measure,
        reach,
        summary,
        ages,
        by_category,
        changes,
        power,
        sweep,
        index_table(exp),
    )


def _views(exp: Experiment, only: Experiment) -> pd.DataFrame:
    return pd.concat(
        [exp.perquery.assign(view=END_TO_END), only.perquery.assign(view=RANKING_ONLY)],
        ignore_index=True,
    )


def index_table(exp: Experiment) -> pd.DataFrame:
    """Which index each query was gathered from: one row per index and category."""
    memory = exp.prepared.memory
    count: Counter[tuple[str, str, str]] = Counter()
    for q in exp.dataset.queries:
        index = memory.for_query(q).index
        tag = next((t for t, ix in memory.by_tag if t in q.tags), "")
        count[(index.tokenizer, f"tag '{tag}'" if tag else "default", q.category or "")] += 1
    rows = [
        {"tokenizer": tok, "why": why, "category": cat, "queries": n}
        for (tok, why, cat), n in sorted(count.items())
    ]
    return pd.DataFrame(rows, columns=["tokenizer", "why", "category", "queries"])


def write_separation(sep: Separation, out: Path) -> None:
    """The tables as CSV files in ``out``; the ranking-only runs' files in
    ``out/ranking-only/``."""
    out.mkdir(parents=True, exist_ok=True)
    for attr, name in FILES.items():
        getattr(sep, attr).to_csv(out / name, index=False)
    sep.indexes.to_csv(out / "indexes.csv", index=False)
    write_outputs(sep.ranking_only, out / RANKING_ONLY_DIR)
