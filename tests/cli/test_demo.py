"""``memlab demo``: every case shows what its heading says, in the order it says it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from memlab.cli.demo import DemoCase, case_problems, demo_cases


@pytest.fixture(scope="module")
def cases(tmp_path_factory: pytest.TempPathFactory) -> list[DemoCase]:
    return demo_cases(tmp_path_factory.mktemp("demo"))


def test_every_case_matches_its_heading(cases: list[DemoCase]) -> None:
    assert len(cases) == 5
    assert all(case.plan.get("expect") for case in cases)
    assert [p for case in cases for p in case_problems(case)] == []


def test_a_heading_that_lies_is_caught(cases: list[DemoCase]) -> None:
    decay, evergreen, mmr, empty, degraded = cases
    wrong = DemoCase({**decay.plan, "expect": {"first": "ci-setup-a1b2c3d4.md:0"}}, decay.results)
    assert case_problems(wrong)
    decay_on_twice = DemoCase(decay.plan, [decay.results[0], decay.results[0]])
    assert [p for p in case_problems(decay_on_twice) if "with decay off" in p]
    best = DemoCase(
        {**decay.plan, "expect": {"fts_first": "node-upgrade-d4e5f6a7.md:0"}}, decay.results
    )
    assert case_problems(best)
    stale_age = DemoCase(
        {**evergreen.plan, "expect": {"ages": {"MEMORY.md:0": 12.0}}}, evergreen.results
    )
    assert len(case_problems(stale_age)) == 2  # neither the trace nor the heading says 12.0
    no_change = DemoCase(mmr.plan, [mmr.results[0], mmr.results[0]])
    assert any("MMR changes nothing" in p for p in case_problems(no_change))
    assert case_problems(DemoCase(empty.plan, degraded.results))


def test_the_demo_prints_headings_before_their_searches_and_a_legend(tmp_path: Path) -> None:
    out = subprocess.run(
        [sys.executable, "-m", "memlab", "demo", "--out", str(tmp_path)],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    headings = [line for line in out.splitlines() if line.startswith("== ")]
    assert len(headings) == 5 and "-- with MMR (λ 0.5):" in out
    assert out.index("== decay decides") < out.index("-- with decay off (half_life_days null):")
    assert out.index("== a degraded search") < out.index("[DEGRADED: ")
    legend = out[out.index("\ncolumns:") :]
    for heading in ("age", "decay", "srcw", "boost", "kept", "mmr", "∅"):
        assert f"\n  {heading} " in legend
