"""Filtering and ranking taken apart, on the small evaluation dataset (c0's filters:
the sessions are 10–29 days old at the dataset's time, so decay removes most of them)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from memlab.cli import main
from memlab.eval.compare.breakdown import age_bucket, comparison_pairs, references
from memlab.eval.compare.experiment import Experiment, run_experiment
from memlab.eval.compare.filtering import MIN_SCORES, ranking_only
from memlab.eval.compare.separation import (
    FILES,
    RANKING_ONLY,
    Separation,
    separate,
    write_separation,
)
from memlab.eval.compare.separation_view import separation_text
from memlab.eval.replay.prepared import PrepareOptions, prepare_dataset
from memlab.eval.stats.power import analytic_mde

RUNS = ["fts", "hybrid", "mmr"]


@pytest.fixture(scope="module")
def sep(eval_dataset: Path, tmp_path_factory: pytest.TempPathFactory) -> Separation:
    work = tmp_path_factory.mktemp("work")
    exp = run_experiment(
        prepare_dataset(eval_dataset, PrepareOptions(embedder="hash", work_dir=work)), RUNS
    )
    return separate(exp, n_resamples=500)


def values(exp: Experiment, measure: str) -> pd.DataFrame:
    part = exp.perquery[exp.perquery["measure"] == measure]
    return part.pivot(index="query_id", columns="run", values="value")


def test_an_unreachable_answer_is_never_returned(sep: Separation) -> None:
    reach = sep.reachability.set_index(["run", "query_id"])
    success = values(sep.end_to_end, "Success@5")
    assert (~reach["reachable"]).any() and reach["reachable"].any()  # both kinds here
    for (run, qid), row in reach.iterrows():
        if not row["reachable"] and qid in success.index:
            assert success.loc[qid, run] == 0.0
    summary = sep.summary.set_index("run")
    assert list(summary["what"]) == ["c0 FTS-only", "c0 hybrid", "c0 hybrid + MMR λ 0.7"]
    assert (summary["reachable"] == reach.groupby("run")["reachable"].sum()).all()
    assert (summary["judged"] == 4).all() and (summary["answer gone"] == 0).all()


def test_the_ranking_only_view_has_no_filters(sep: Separation) -> None:
    for name, result in sep.ranking_only.runs.items():
        assert result.config == ranking_only(sep.end_to_end.runs[name].config)
        assert result.config.effective_half_life() is None and result.config.min_score == 0
    e2e, only = values(sep.end_to_end, "Success@5"), values(sep.ranking_only, "Success@5")
    assert (only.to_numpy() >= e2e.to_numpy()).all() and (only.to_numpy() > e2e.to_numpy()).any()
    assert set(sep.perquery["view"]) == {"end to end", RANKING_ONLY}


def test_the_min_score_sweep_meets_the_run_at_its_own_threshold(sep: Separation) -> None:
    exp = sep.end_to_end
    for run in RUNS:
        part = sep.min_score[sep.min_score["run"] == run].set_index("min_score")
        assert list(part.index) == list(MIN_SCORES)
        assert np.all(np.diff(part["AbstainHits"]) <= 0)  # a higher bar, fewer false hits
        own = part.loc[exp.runs[run].config.min_score]
        agg = exp.aggregated.set_index(["run", "measure"])["value"]
        assert own["Success@5"] == pytest.approx(agg[(run, "Success@5")])
        assert own["AbstainHits"] == pytest.approx(agg[(run, "AbstainHits")])


def test_answer_age_buckets(sep: Separation) -> None:
    assert [age_bucket(d) for d in (0.5, 1.0, 1.5, 7.0, 29.0, 180.0, 400.0, None)] == [
        "≤ 1 d",
        "≤ 1 d",
        "1–7 d",
        "1–7 d",
        "7–30 d",
        "30–180 d",
        "> 180 d",
        "unknown",
    ]
    table = sep.by_age[(sep.by_age["run"] == "fts") & (sep.by_age["view"] == "end to end")]
    assert table["judged"].sum() == 4 and table["scored"].sum() == 4
    ages = sep.reachability[sep.reachability["run"] == "fts"]["answer_age_days"]
    assert sorted(table["bucket"].astype(str)) == sorted({age_bucket(a) for a in ages})


def test_rankings_changed_against_the_run_each_modifies(sep: Separation) -> None:
    assert references(RUNS) == {"hybrid": "fts", "mmr": "hybrid"}
    assert references(["fts", "mmr"]) == {}
    assert comparison_pairs(RUNS) == [("hybrid", "fts"), ("mmr", "fts"), ("mmr", "hybrid")]
    for view, exp in (("end to end", sep.end_to_end), (RANKING_ONLY, sep.ranking_only)):
        part = sep.changes[(sep.changes["view"] == view) & (sep.changes["run"] == "mmr")]
        mmr, hybrid = exp.runs["mmr"].rankings, exp.runs["hybrid"].rankings
        assert part["changed"].sum() == sum(mmr[q] != hybrid[q] for q in mmr)
        assert part["queries"].sum() == len(exp.dataset.queries)


def test_power_of_every_comparison(sep: Separation) -> None:
    table = sep.power.set_index(["view", "run", "reference"])
    assert len(table) == 6
    ndcg = values(sep.ranking_only, "nDCG@10")
    row = table.loc[(RANKING_ONLY, "mmr", "hybrid")]
    d = (ndcg["mmr"] - ndcg["hybrid"]).to_numpy()
    assert row["MDE analytic"] == pytest.approx(analytic_mde(d))
    assert row["n"] == 4 and row["tied"] == int(np.sum(d == 0))


def test_files_and_text(sep: Separation, tmp_path: Path) -> None:
    write_separation(sep, tmp_path)
    for name in FILES.values():
        assert (tmp_path / name).is_file(), name
    assert (tmp_path / "ranking-only" / "aggregated.csv").is_file()
    text = separation_text(sep)
    for head in (
        "Reachability:",
        "Ranking only:",
        "nDCG@10 by answer age",
        "nDCG@10 by category",
        "Rankings changed:",
        "Power:",
        "min_score sweep",
    ):
        assert head in text, head


def test_compare_prints_and_writes_the_separation(
    eval_dataset: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["compare", str(eval_dataset), "--runs", "fts,hybrid,mmr", "--embedder", "hash"]
    assert main([*args, "--work", str(tmp_path / "w"), "--out", str(tmp_path / "o")]) == 0
    out = capsys.readouterr().out
    assert "Reachability:" in out and "largest minimum detectable difference" in out
    assert "c0 hybrid + MMR λ 0.7" in out
    assert (tmp_path / "o" / "power.csv").is_file()
    assert main([*args, "--work", str(tmp_path / "w"), "--end-to-end-only"]) == 0
    assert "Reachability:" not in capsys.readouterr().out
