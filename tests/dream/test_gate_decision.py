"""The cheapest gates whose p95 freshness stays under H hours, on a fleet computed by hand."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest

from memlab.config import DreamConfig
from memlab.dream.sim import load_events, sweep
from memlab.dream.sim.decide import cheapest_fresh_gates, cost_freshness_front
from memlab.dream.sim.params import SimParams

T = 1_767_571_200


@pytest.fixture(scope="module")
def table(tmp_path_factory: pytest.TempPathFactory) -> pd.DataFrame:
    """Two users, five instant 400-byte sessions each, an hour apart (the second user 30 s
    later); no time gate, a 60 s model call; min_sessions 1, 2 or 3."""
    rows = ["user,start,end,bytes"]
    for user, shift in (("a", 0), ("b", 30)):
        rows += [f"{user},{T + shift + h * 3600},{T + shift + h * 3600},400" for h in range(5)]
    path = tmp_path_factory.mktemp("events") / "events.csv"
    path.write_text("\n".join(rows) + "\n")
    params = SimParams(latency_secs=60.0, latency_sigma=0.0)
    fleet = load_events(path, params)
    return sweep(params, DreamConfig(min_hours=0), {"min_sessions": [1, 2, 3]}, fleet=fleet)


# By hand, per user (a log is newer than the lock only if written after the last call
# returned; the triggering session's own log is never read by its own run):
# * min_sessions 1: runs at 1 h (reads the 0 h log) and 3 h (the 2 h log): 2 calls, each
#   log read 61 min after its session's end → p95 61 min;
# * min_sessions 2: one run at 2 h reading the 0 h and 1 h logs: 121 and 61 min → p95 121;
# * min_sessions 3: one run at 3 h reading the 0, 1 and 2 h logs: 181, 121, 61 → p95 181.
# Cost: 2 and 3 make one call each, 3 reading one more log (more input and output): 2 is
# cheaper than 3; 1 reads the same two logs as 2 in two calls, each with the instructions
# (and the second with the memory): 2 is cheaper than 1.
P95_MINUTES = {1: 61, 2: 121, 3: 181}


def test_the_sweep_has_the_hand_computed_freshness_and_cost_order(table: pd.DataFrame) -> None:
    t = table.set_index("min_sessions")
    for gate, minutes in P95_MINUTES.items():
        assert t.loc[gate, "freshness_hours_p95"] == pytest.approx(minutes / 60), gate
    assert t.loc[2, "cost_per_day"] < t.loc[1, "cost_per_day"]
    assert t.loc[2, "cost_per_day"] < t.loc[3, "cost_per_day"]
    assert t["calls_per_day"].tolist() == pytest.approx(
        [4 / t["days"].iloc[0], 2 / t["days"].iloc[0], 2 / t["days"].iloc[0]]
    )


@pytest.mark.parametrize(
    ("max_hours", "gate", "eligible"),
    [(0.5, None, 0), (1.5, 1, 1), (2.5, 2, 2), (3.0, 2, 2), (4.0, 2, 3)],
)
def test_the_cheapest_gates_within_the_freshness_bound(
    table: pd.DataFrame, max_hours: float, gate: int | None, eligible: int
) -> None:
    choice = cheapest_fresh_gates(table, max_hours)
    assert choice.eligible == eligible
    assert (None if choice.chosen is None else int(choice.chosen["min_sessions"])) == gate


def test_the_front_of_cost_against_freshness(table: pd.DataFrame) -> None:
    # 3 is both dearer and staler than 2: off the front; 2 is the cheapest, 1 the freshest
    assert cost_freshness_front(table)["min_sessions"].tolist() == [2, 1]


def test_the_cli_answers_the_question(
    table: pd.DataFrame, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from memlab.cli import main

    rows = ["user,start,end,bytes"]
    for user, shift in (("a", 0), ("b", 30)):
        rows += [f"{user},{T + shift + h * 3600},{T + shift + h * 3600},400" for h in range(5)]
    path = tmp_path / "events.csv"
    path.write_text("\n".join(rows) + "\n")
    args = ["dream", "simulate", "--events", str(path), "--set", "min_hours=0",
            "--sim", "latency_secs=60", "--sim", "latency_sigma=0",
            "--sweep", "min_sessions=1,2,3", "--max-freshness-hours", "2.5"]  # fmt: skip
    assert main(args) == 0
    text = capsys.readouterr().out
    assert "cheapest with p95 freshness within 2.5 h: min_sessions 2 —" in text
    assert "(2 of 3 settings qualify)" in text
    assert main([*args, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["chosen"]["min_sessions"] == 2 and data["eligible"] == 2
    assert [r["min_sessions"] for r in data["front"]] == [2, 1]
    assert len(data["sweep"]) == 3
