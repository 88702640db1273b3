"""The issue's done-when, on the shipped dataset (slow: a replay of seven months of memory):
``memlab sweep agent-memory --grid decide --export DIR``, then ``memlab compare`` on the
exported ``chosen.yaml`` reproduces the chosen configuration's numbers."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest

from memlab.cli import main

pytestmark = pytest.mark.slow


def test_the_shipped_decision_grid_exports_and_compare_reproduces_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    dest, out, work = tmp_path / "chosen", tmp_path / "sweep", str(tmp_path / "w")
    argv = ["sweep", "agent-memory", "--grid", "decide", "--export", str(dest), "--out", str(out)]
    assert main([*argv, "--quiet", "--work", work, "--splits", "2"]) == 0
    text = capsys.readouterr().out
    assert text.startswith("120 configurations (120 scored, 0 resumed)")
    for part in ("rule: the best nDCG@10 on dev among the configurations with", "base vs chosen"):
        assert part in text
    assert "Pareto front: nDCG@10 against AbstainHits (dev)" in text
    decision = json.loads((out / "decision.json").read_text())
    base, chosen = decision["side_by_side"]
    for cost in ("AbstainHits", "Tokens"):  # the default rule's tolerance, on dev
        assert chosen[f"{cost} dev"] <= 1.05 * base[f"{cost} dev"] + 1e-12
    table = pd.read_csv(out / "sweep.csv").set_index("config_hash")
    row = table.loc[decision["chosen"]["config_hash"]]
    runs = f"fts,hybrid,chosen={dest / 'chosen.yaml'}"
    cmp = tmp_path / "cmp"
    argv = ["compare", "agent-memory", "--runs", runs, "--end-to-end-only", "--quiet"]
    assert main([*argv, "--work", work, "--out", str(cmp)]) == 0
    perquery = pd.read_csv(cmp / "perquery.csv")
    holdout = json.loads((dest / "split.json").read_text())["holdout"]
    for run, expected in (("chosen", row), ("hybrid", None)):
        mine = perquery[(perquery["run"] == run) & (perquery["measure"] == "nDCG@10")]
        held = mine[mine["query_id"].isin(holdout)]["value"].mean()
        if expected is not None:
            assert held == pytest.approx(expected["nDCG@10:holdout"], abs=1e-12)
            assert mine["value"].mean() == pytest.approx(expected["nDCG@10"], abs=1e-12)
        else:  # c0's hybrid is the base profile: the decision's base row
            assert held == pytest.approx(base["nDCG@10 holdout"], abs=1e-12)
