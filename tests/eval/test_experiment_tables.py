"""``run_experiment`` builds its pandas tables when first read: the CLI prints from plain
records (``aggregated_records``, ``compared_records``), which must say what the tables
say, and the tables must be what the pandas functions compute from ``perquery``."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pandas as pd
import pytest

from memlab.config import SearchConfig
from memlab.eval.compare.experiment import Experiment, Scoring, run_experiment
from memlab.eval.compare.per_query import (
    AGENT_MEASURES,
    PERQUERY_COLUMNS,
    aggregate,
    aggregate_records,
    compare,
    per_category,
)
from memlab.eval.replay.prepared import PrepareOptions, prepare_dataset
from memlab.eval.stats.paired import bootstrap_ci

BASE = SearchConfig(half_life_days=None, min_score=0.0)


@pytest.fixture(scope="module")
def experiments(eval_dataset: Path, tmp_path_factory: pytest.TempPathFactory) -> list[Experiment]:
    prepared = prepare_dataset(
        eval_dataset, PrepareOptions(work_dir=tmp_path_factory.mktemp("work"))
    )
    one = run_experiment(prepared, {"fts": BASE})
    three = run_experiment(prepared, ["fts", "mmr", "hybrid"], base=BASE, scoring=Scoring(seed=3))
    return [one, three]


def reference_aggregate(perquery: pd.DataFrame, seed: int = 0) -> pd.DataFrame:
    """``aggregate`` as pandas computes it (groupby mean, NumQ by nunique)."""
    out = []
    for (run, measure), part in perquery.groupby(["run", "measure"], sort=False):
        lo, hi = bootstrap_ci(part["value"].to_numpy(), 2000, seed=seed)
        n = len(part)
        out.append([run, measure, part["value"].mean(), lo, hi, n])
    ir = perquery[~perquery["measure"].isin(AGENT_MEASURES)]
    for run, part in ir.groupby("run", sort=False):
        n = part["query_id"].nunique()
        out.append([run, "NumQ", float(n), float(n), float(n), n])
    return pd.DataFrame(out, columns=["run", "measure", "value", "ci_low", "ci_high", "n"])


def as_json(records: object) -> str:
    return json.dumps(records, sort_keys=True)


def test_the_records_are_the_tables(experiments: list[Experiment]) -> None:
    for exp in experiments:
        assert as_json(exp.aggregated_records()) == as_json(exp.aggregated.to_dict("records"))
        assert as_json(exp.compared_records()) == as_json(exp.compared.to_dict("records"))
    one, three = experiments
    assert one.compared.empty and one.compared_records() == []
    assert {r["run"] for r in three.compared_records()} == {"mmr", "hybrid"}


def test_the_tables_are_the_pandas_functions_of_perquery(experiments: list[Experiment]) -> None:
    for exp in experiments:
        pq = exp.perquery
        assert list(pq.columns) == PERQUERY_COLUMNS
        assert list(pq["run"].unique()) == list(exp.runs)
        assert list(pq.itertuples(index=False, name=None)) == exp.rows
        pd.testing.assert_frame_equal(exp.aggregated, aggregate(pq, seed=exp.seed))
        pd.testing.assert_frame_equal(exp.aggregated, reference_aggregate(pq, seed=exp.seed))
        expected = compare(pq, next(iter(exp.runs)), seed=exp.seed)
        pd.testing.assert_frame_equal(exp.compared, expected)
        pd.testing.assert_frame_equal(exp.categories, per_category(pq))


def test_aggregate_records_leave_missing_values_out_as_pandas_does(
    experiments: list[Experiment],
) -> None:
    rows = list(experiments[1].rows)
    rows[0] = (*rows[0][:4], float("nan"))  # a measure that could not be taken
    rows[1] = (*rows[1][:4], float("nan"))
    rows.append((rows[0][0], "q-none", "", "nDCG@10", float("nan")))
    rows.append((rows[0][0], float("nan"), "", "R@5", 0.5))  # type: ignore[arg-type]
    rows.append((float("nan"), "q1", "", "R@5", 0.5))  # type: ignore[arg-type]
    rows.append((rows[0][0], "q1", "", "only-nan", float("nan")))
    frame = pd.DataFrame(rows, columns=PERQUERY_COLUMNS)
    expected = reference_aggregate(frame)
    got = pd.DataFrame(aggregate_records(rows), columns=list(expected.columns))
    pd.testing.assert_frame_equal(got, expected)
    assert math.isnan(got.loc[got["measure"] == "only-nan", "value"].item())


def test_one_run_is_not_compared_without_a_known_test(eval_dataset: Path, tmp_path: Path) -> None:
    from memlab.errors import ConfigError

    prepared = prepare_dataset(eval_dataset, PrepareOptions(work_dir=tmp_path))
    with pytest.raises(ConfigError, match="test"):
        run_experiment(prepared, {"fts": BASE}, scoring=Scoring(test="z"))
