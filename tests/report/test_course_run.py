"""The course path runs through papermill in the ``memlab`` kernel, twice per notebook:
with the answer cells blank (every check says "not yet" with a hint and the notebook
still completes) and with ``solutions=True`` (every check says "right")."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import nbformat
import pytest

from memlab.report.execute import run_notebook
from memlab.report.shipped_paths import notebook_dir
from memlab.workbench.course import EXERCISES

pytestmark = pytest.mark.slow

SMALL: dict[str, dict[str, Any]] = {
    "tour": {},  # the dataset is set to the tiny one below
    "dream_capacity": {
        "users": 20,
        "days": 2.0,
        "min_hours_grid": [4.0],
        "min_sessions_grid": [3],
    },
    "agent_config": {},
}


def check_outputs(executed: Path) -> list[str]:
    """The text of every ``wb.check`` cell's output, in notebook order."""
    nb = nbformat.read(executed, as_version=4)
    found = []
    for cell in nb.cells:
        for out in cell.get("outputs", []):
            assert out.get("output_type") != "error", out
        if cell.cell_type == "code" and cell.source.startswith("wb.check("):
            found.append(json.dumps([o.get("data", {}) for o in cell.outputs]))
    return found


@pytest.fixture(scope="module")
def runs(tiny_dataset: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[Any, list[str]]:
    out = tmp_path_factory.mktemp("course")
    checks: dict[Any, list[str]] = {}
    for name, params in SMALL.items():
        if name == "tour":
            params = {"dataset": str(tiny_dataset)}
        for solutions in (False, True):
            executed = out / f"{name}-{solutions}.ipynb"
            failure = run_notebook(
                notebook_dir() / f"{name}.ipynb",
                executed,
                {**params, "solutions": solutions},
                progress=False,
            )
            assert failure is None, failure
            checks[name, solutions] = check_outputs(executed)
            checks[name, "text"] = [executed.read_text(encoding="utf-8")]
    zh = out / "tour_zh.ipynb"
    failure = run_notebook(
        notebook_dir() / "tour_zh.ipynb",
        zh,
        {"dataset": str(tiny_dataset), "solutions": True},
        progress=False,
    )
    assert failure is None, failure
    checks["tour_zh", True] = check_outputs(zh)
    for lang, path in (("en", out / "tour-True.ipynb"), ("zh", zh)):
        checks["computed", lang] = computed_outputs(path)
    return checks


# Cells whose outputs are computed numbers that do not depend on a temp folder.
COMPUTED = (
    "tour-08",
    "tour-10",
    "tour-decay",
    "tour-14",
    "tour-16",
    "tour-18",
    "tour-21",
    "tour-25",
    "tour-review-limit",
    "tour-review-mmr",
)


def computed_outputs(executed: Path) -> list[str]:
    nb = nbformat.read(executed, as_version=4)
    by_id = {c.id: c for c in nb.cells}
    return [json.dumps([o.get("data", {}) for o in by_id[i].outputs]) for i in COMPUTED]


def test_blank_answers_say_not_yet_with_a_hint(runs: dict[Any, list[str]]) -> None:
    for name in SMALL:
        expected = [e.name for e in EXERCISES if e.notebook == name]
        blank = runs[name, False]
        assert len(blank) == len(expected) >= 2, name
        for text, exercise in zip(blank, expected, strict=True):
            assert "[not yet] " + exercise + ": no answer yet. Hint: " in text


def test_the_solutions_pass_every_check(runs: dict[Any, list[str]]) -> None:
    total = 0
    for name in SMALL:
        expected = [e.name for e in EXERCISES if e.notebook == name]
        for text, exercise in zip(runs[name, True], expected, strict=True):
            assert f"[right] {exercise}: " in text and "not yet" not in text
            total += 1
    assert total == len(EXERCISES) == 7


def test_the_review_questions_are_answered_in_the_notebooks(runs: dict[Any, list[str]]) -> None:
    """Their answers are checked against SPEC in tests/workbench/test_review.py."""
    assert "candidate_limit = max_results 6 × 3 = 18" in runs["tour", "text"][0]
    assert "MmrConfig(): enabled=False, lambda=0.7" in runs["tour", "text"][0]
    assert "both believe they hold the lock" in runs["dream_capacity", "text"][0]
    agents = runs["agent_config", "text"][0]
    assert "max_tokens" in agents and "decides capability_mode" in agents


def test_the_chinese_edition_shows_the_same_numbers(runs: dict[Any, list[str]]) -> None:
    english, chinese = runs["computed", "en"], runs["computed", "zh"]
    assert all(len(text) > 20 for text in english)  # every one of those cells showed something
    assert chinese == english
    assert runs["tour_zh", True] == runs["tour", True]  # the same checks say right
