"""Judging health: Judged@k per run, the gap warning and its command, κ between judges."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from memlab.cli import main
from memlab.datasets.from_memory import dataset_from_memory
from memlab.judging.health import judging_health
from memlab.judging.pool import pool_dataset
from memlab.judging.session import JudgingSession
from tests.datasets.team_memory import write_old_sessions, write_queries, write_team_memory


def judge_all(folder: Path, grade: int = 0, qrels: Path | None = None) -> None:
    s = JudgingSession.open(folder, judge="t", qrels=qrels)
    while (item := s.current()) is not None:
        if item.candidate is None:
            s.abstain()
        else:
            s.grade(2 if grade == 2 and item.position == 1 else grade)


def test_pooled_runs_fully_judged_have_no_gap(pooled: Path) -> None:
    judge_all(pooled, grade=2)
    health = judging_health(pooled)
    assert health.runs == ("fts", "hybrid", "mmr") and health.depth == 4
    assert health.progress.judged == health.progress.total
    for cov in health.coverage:
        assert cov.unjudged == 0.0 and cov.queries > 0
    assert health.warnings == []
    assert list(health.table().columns) == [
        "run",
        "Judged@4",
        "unjudged in top 4",
        "hits",
        "judged queries",
    ]


def test_a_new_ranker_gets_the_warning_until_its_gap_is_judged(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = write_team_memory(tmp_path / "memory")
    write_old_sessions(root)
    folder = tmp_path / "dataset"
    dataset_from_memory(root, folder, queries=write_queries(tmp_path / "q.jsonl"))
    pool_dataset(folder, "fts", depth=3, embedder="hash")
    judge_all(folder)
    tuned = tmp_path / "tuned.yaml"
    tuned.write_text("half_life_days: null\nmin_score: 0.0\n")  # no decay: older logs come up
    health = judging_health(folder, f"fts,tuned={tuned}", depth=3)
    fts, new = health.coverage
    assert fts.unjudged == 0.0 and new.unjudged > 0.5
    (warning,) = health.warnings
    command = f"memlab pool {folder} --runs tuned={tuned} --depth 3 && memlab judge {folder}"
    assert warning.startswith("run 'tuned':") and warning.endswith(command)
    # compare on the pooled dataset prints the same warning
    runs = f"fts,tuned={tuned}"
    assert main(["compare", str(folder), "--runs", runs, "--embedder", "hash", "--quiet"]) == 0
    assert f"warning: {warning}" in capsys.readouterr().out.splitlines()
    # the command, as printed, pools the gap; judging it clears the warning
    for part in command.split(" && "):
        subprocess.run(
            [sys.executable, "-m", "memlab", *part.split()[1:]],
            input="0\n" * 100,
            text=True,
            check=True,
            capture_output=True,
            timeout=300,
        )
    after = judging_health(folder, f"fts,tuned={tuned}", depth=3)
    assert after.warnings == [] and after.coverage[1].unjudged == 0.0


def test_agreement_with_a_second_judge(pooled: Path, tmp_path: Path) -> None:
    judge_all(pooled, grade=2)
    judge_all(pooled, grade=0, qrels=tmp_path / "bob.tsv")
    health = judging_health(pooled, others=[tmp_path / "bob.tsv"])
    a = health.agreements["bob.tsv"]
    assert a.items == health.progress.total and a.only_first == a.only_second == 0
    assert a.kappa is not None and a.kappa <= 0  # one judge says 2 where the other says 0
    assert "agreement with bob.tsv: κ" in health.text()
