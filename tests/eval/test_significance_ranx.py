"""The paper table against ranx's ``compare`` (its paired Student's t-test, no correction)
on the shipped dataset: the same pairs are significant (slow: a full comparison)."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from memlab.config import SearchConfig
from memlab.eval.compare.experiment import run_experiment
from memlab.eval.measures.ranx_backend import _ranx
from memlab.eval.replay.prepared import Prepared
from memlab.eval.runs.rankers import ranker_configs
from memlab.eval.runs.trec_out import run_files
from memlab.eval.stats.significance import pairwise_table
from tests.sweep.conftest import agent_memory

__all__ = ["agent_memory"]
MEASURES = {"nDCG@10": "ndcg@10", "R@5": "recall@5", "RR": "mrr"}


@pytest.mark.slow
def test_marks_agree_with_ranx_compare(agent_memory: Prepared, tmp_path: Path) -> None:
    names = ["fts", "hybrid", "rrf"]
    exp = run_experiment(agent_memory, ranker_configs(names, SearchConfig()), out=tmp_path)
    ranx = _ranx()
    qrels = ranx.Qrels.from_file(str(run_files(tmp_path / "runs", "fts", "chunk")[1]), kind="trec")
    runs = []
    for name in names:
        run = ranx.Run.from_file(str(run_files(tmp_path / "runs", name, "chunk")[0]), kind="trec")
        run.name = name
        runs.append(run)
    report = ranx.compare(
        qrels, runs, list(MEASURES.values()), stat_test="student", max_p=0.05,
        make_comparable=True,
    )  # fmt: skip
    ours = pairwise_table(exp.perquery, names, list(MEASURES), family="none")
    checked = 0
    for (a, b), (measure, metric) in itertools.product(
        itertools.permutations(names, 2), MEASURES.items()
    ):
        theirs = report.comparisons[a, b][metric]["significant"] and (
            report.results[a][metric] > report.results[b][metric]
        )
        assert (ours.letter(b) in ours.beats[(a, measure)]) == theirs, (a, b, measure)
        checked += theirs
    assert checked >= 3  # some pairs do differ
