"""The chapter's review questions: each cell's output, computed by the engine, is the
answer SPEC gives (§4.1, §5, §7.4, §8.1–8.3)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

import memlab.workbench as wb
from memlab.config import profile
from memlab.workbench.tour import Demo
from tests.agents.test_types import TEN_FIELDS


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Demo]:
    d = wb.open_demo(str(tmp_path_factory.mktemp("tour")), watch=False)
    yield d
    d.close()


def test_why_max_results_times_three(demo: Demo) -> None:
    panel = wb.why_three_times(demo)
    table = panel.tables()[0].set_index("list")
    assert "candidate_limit = max_results 6 × 3 = 18" in panel.notes[0]  # SPEC §4.1
    assert table.loc["full text (bm25)", "limit"] == 18 == table.loc["KNN (vectors)", "limit"]
    rows = table["rows"]
    assert 0 < rows["full text (bm25)"] <= 18 and 0 < rows["KNN (vectors)"] <= 18
    assert rows["merged (distinct chunks)"] >= max(rows.iloc[:3])
    assert rows["returned"] <= 6


def test_mmr_defaults_and_when_lambda_counts(demo: Demo) -> None:
    panel = wb.mmr_defaults(demo)
    assert "MmrConfig(): enabled=False, lambda=0.7" in panel.notes[0]  # SPEC §5, §6 table
    assert not profile("grok-c0").search.mmr.enabled
    table = panel.tables()[0]
    off = table[~table["mmr.enabled"]]["hits"]
    on = table[table["mmr.enabled"]].set_index("mmr.lambda")["hits"]
    assert off.nunique() == 1  # λ changes nothing while MMR is off
    assert on[0.7] != off.iloc[0]  # enabled, λ 0.7 reorders
    assert on[0.3] != on[0.7]


def test_two_processes_both_acquire_the_best_effort_lock() -> None:
    race = wb.lock_race()
    assert list(race["acquired"]) == [True, False, True, True]  # SPEC §7.4
    a_pid, b_pid = os.getpid(), os.getppid()
    assert race["lock body"].iloc[0] == a_pid and race["lock body"].iloc[2] == b_pid
    assert race["why"].iloc[1] == f"held by live process {a_pid}"
    assert "idempotent" in race["why"].iloc[3]


def test_the_three_fields_effective_runtime_config_lacks() -> None:
    table = wb.missing_fields().set_index("field")["in EffectiveRuntimeConfig"]
    assert list(table[table].index) == TEN_FIELDS  # SPEC §8.1, in its order
    assert list(table[~table].index) == ["temperature", "max_tokens", "tools"]


def test_who_may_set_capability_mode() -> None:
    table = wb.capability_levels().set_index("level")["decides capability_mode"]
    assert table["override"] > 0 and table["role"] > 0  # SPEC §8.2: levels 1 and 2
    assert table["persona"] == 0 and table["definition"] == 0


def test_persona_error_aborts_role_prompt_warning_continues(tmp_path: Path) -> None:
    table = wb.persona_vs_role_prompt(wb.example_agents(str(tmp_path)))
    rows: dict[str, Any] = {r["spawn"]: r for r in table.to_dict("records")}
    persona, role = rows["reviewer persona=ghostwriter"], rows["docs-writer"]
    assert persona["persona_error"] and not persona["proceeds"]  # SPEC §8.3: fails closed
    assert pd.isna(persona["capability_mode"])  # an I/O error leaves every field at default
    assert role["role_prompt_warning"] and role["proceeds"]  # soft degradation
    assert role["capability_mode"] == "read-write"  # the rest still resolves
