"""Each label names the counter it shows: memory-losing runs (the new MEMORY.md cut at
``max_response_chars``) and input-capped runs (the input cut at ``max_input_bytes``) are
two counters, told apart in the CLI's table, the workbench and the notebook's summary."""

from __future__ import annotations

from dataclasses import replace

import pytest

from memlab.cli import main
from memlab.config import DreamConfig
from memlab.dream.sim import simulate
from memlab.dream.sim.params import SimParams
from memlab.workbench.capacity import SUMMARY_ROWS, capacity_summary

PARAMS = SimParams(users=20, days=3, sessions_per_day=10.0, seed=2, memory_bytes=2_000)
# only the response cap binds: every answer is longer than 500 characters, inputs never cap
ONLY_RESPONSE = DreamConfig(min_hours=0, min_sessions=1, max_response_chars=500,
                            max_input_bytes=10**9)  # fmt: skip
# only the input cap binds: inputs stop at 4,000 bytes, answers are never cut
ONLY_INPUT = DreamConfig(min_hours=0, min_sessions=3, max_response_chars=10**9,
                         max_input_bytes=4_000)  # fmt: skip


def _shown(config: DreamConfig) -> tuple[dict[str, str], dict[str, object]]:
    result = simulate(PARAMS, config)
    table = capacity_summary(result)
    return dict(zip(table["quantity"], table["value"], strict=True)), result.summary()


@pytest.mark.parametrize(
    ("config", "losing", "capped"), [(ONLY_RESPONSE, True, False), (ONLY_INPUT, False, True)]
)
def test_each_label_shows_its_own_counter(config: DreamConfig, losing: bool, capped: bool) -> None:
    shown, summary = _shown(config)
    runs = summary["runs"]
    assert isinstance(runs, int) and runs > 10
    memory_losing = shown["memory-losing runs: new MEMORY.md cut at max_response_chars"]
    input_capped = shown["input-capped runs: input reached max_input_bytes, reading stopped"]
    assert memory_losing == (f"{runs:,}" if losing else "0")
    assert input_capped == (f"{runs:,}" if capped else "0")
    assert summary["truncated_runs"] == (runs if losing else 0)
    assert summary["input_capped_runs"] == (runs if capped else 0)


def test_no_label_speaks_of_the_input_for_the_response_cap() -> None:
    labels = {key: text for key, text, _ in SUMMARY_ROWS}
    assert (
        "max_response_chars" in labels["truncated_runs"] and "input" not in labels["truncated_runs"]
    )
    assert "max_input_bytes" in labels["input_capped_runs"]


def test_the_cli_table_labels_both_counters(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["dream", "simulate", "--users", "20", "--days", "3", "--sim", "sessions_per_day=10",
            "--sim", "seed=2", "--sim", "memory_bytes=2000", "--set", "min_hours=0",
            "--set", "min_sessions=3", "--set", "max_input_bytes=4000"]  # fmt: skip
    assert main(args) == 0
    lines = capsys.readouterr().out.splitlines()
    _, summary = _shown(replace(ONLY_INPUT, max_response_chars=DreamConfig().max_response_chars))
    # both counters are non-zero and differ, so a swapped label would show
    assert 0 < summary["truncated_runs"] != summary["input_capped_runs"] > 0
    capped = next(line for line in lines if "input-capped runs" in line)
    losing = next(line for line in lines if "memory-losing runs" in line)
    assert capped.split()[-2:] == [f"{summary['input_capped_runs']:,}", "runs"]
    assert losing.split()[-2:] == [f"{summary['truncated_runs']:,}", "runs"]
