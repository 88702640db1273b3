"""``memlab dream simulate`` prints a labelled table with units; ``--json`` is unchanged."""

from __future__ import annotations

import json

import pytest

from memlab.cli import main
from memlab.config import DreamConfig
from memlab.dream.sim import simulate
from memlab.dream.sim.params import SimParams
from memlab.dream.sim.table import DISTRIBUTIONS, ROWS, labelled_keys, summary_table


@pytest.fixture(scope="module")
def summary() -> dict[str, object]:
    return simulate(SimParams(users=30, days=4), DreamConfig()).summary()


def test_every_number_of_the_summary_has_a_label_and_a_unit(summary: dict[str, object]) -> None:
    keys = labelled_keys()
    assert len(keys) == len(set(keys)) and set(keys) == set(summary)
    assert all(unit for _, rows in ROWS for _, _, unit in rows)
    assert all(unit for _, _, unit in DISTRIBUTIONS)


def test_the_table_shows_values_with_their_units(summary: dict[str, object]) -> None:
    text = summary_table(summary, SimParams(users=30, days=4))
    lines = text.splitlines()
    assert lines[0] == "Dream capacity: 30 users over 4 days"
    checks = next(line for line in lines if line.strip().split()[-1:] == ["checks"])
    assert checks.split()[-2:] == [f"{summary['checks']:,}", "checks"]
    assert "prices: 3 / 15 per million input / output tokens" in text
    spread = next(line for line in lines if "time between a user's consolidations" in line)
    assert spread.endswith("hours") and len(spread.split()) == 5 + 5 + 1


def test_the_command_prints_the_table_and_json_as_before(
    capsys: pytest.CaptureFixture[str], summary: dict[str, object]
) -> None:
    assert main(["dream", "simulate", "--users", "30", "--days", "4"]) == 0
    text = capsys.readouterr().out
    assert "model calls per user per day (over users)" in text and "calls/day" in text
    assert main(["dream", "simulate", "--users", "30", "--days", "4", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert list(data) == list(summary) and data["runs"] == summary["runs"]
