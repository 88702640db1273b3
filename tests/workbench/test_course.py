"""The course's checks on the engine: right on the answer key, not yet (with a hint)
on a blank and on a wrong answer. The notebooks that hold them run in
``tests/report/test_course_run.py``."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import memlab.workbench as wb
from memlab.agents.types import EffectiveRuntimeConfig, SubagentPersona
from memlab.config import profile
from memlab.errors import ConfigError
from memlab.workbench.answers import SOLUTIONS
from memlab.workbench.course import EXERCISES

WRONG: dict[str, Any] = {
    "candidates": 6,
    "failing_embedder": "hash",  # works: the search is not degraded
    "stopping_gate": "too-soon",
    "hours_after_rollback": 0,
    "no_capability_mode": "EffectiveRuntimeConfig",
    "cascade_capability_mode": "read-only",
    "proceeds": {"persona_error": True, "role_prompt_warning": True},
}


@pytest.fixture(scope="module")
def contexts(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    demo = wb.open_demo(str(tmp_path_factory.mktemp("tour")), watch=False)
    ws = wb.example_agents(str(tmp_path_factory.mktemp("agents")))
    yield {"tour": demo, "agent_config": ws, "dream_capacity": None}
    demo.close()


def test_seven_outcomes_in_three_notebooks() -> None:
    assert len(EXERCISES) == 7 == len(SOLUTIONS) == len(WRONG)
    assert [e.name for e in EXERCISES] == list(SOLUTIONS)
    assert {e.notebook for e in EXERCISES} == {"tour", "dream_capacity", "agent_config"}
    nb_text = {
        name: (Path(__file__).resolve().parents[2] / "notebooks" / f"{name}.ipynb").read_text()
        for name in ("tour", "dream_capacity", "agent_config")
    }
    for e in EXERCISES:  # an answer cell and a check cell in its notebook
        assert f'wb.solution(\\"{e.name}\\", solutions)' in nb_text[e.notebook], e.name
        assert f'wb.check(\\"{e.name}\\", {e.name}' in nb_text[e.notebook], e.name


@pytest.mark.parametrize("exercise", EXERCISES, ids=lambda e: e.name)
def test_a_check_is_right_only_on_the_right_answer(exercise: Any, contexts: Any) -> None:
    context = contexts[exercise.notebook]
    right = wb.check(exercise.name, wb.solution(exercise.name, True), context)
    assert right.right and right.verdict == "right" and "Hint" not in right.text
    blank = wb.check(exercise.name, wb.solution(exercise.name, False), context)
    assert not blank.right and blank.text.startswith("no answer yet. Hint: ")
    wrong = wb.check(exercise.name, WRONG[exercise.name], context)
    assert not wrong.right and "is not it. Hint: " in wrong.text
    assert "not yet" in wrong._repr_html_() and "right" in right._repr_html_()


def test_the_checks_compute_their_answers_on_the_engine(contexts: Any) -> None:
    """What each check compares with, from the engine and SPEC (not the answer key)."""
    from memlab.workbench.course import BY_NAME

    def truth(name: str) -> Any:
        ex = BY_NAME[name]
        return ex.run(SOLUTIONS[name], contexts[ex.notebook])[0]

    c0 = profile("grok-c0")
    assert truth("candidates") == 4 * c0.search.candidate_multiplier == 12
    assert truth("failing_embedder") == "faulty:raise:hash"
    assert truth("stopping_gate") == "too-few-sessions"  # time gate open: 6 h ≥ 4 h
    assert wb.gate_scenario().decision().reason().startswith("1 session log")
    assert c0.dream.min_hours == 4 and c0.dream.min_sessions == 3
    rolled = wb.lock_rollback(30.0)
    assert (
        (rolled.before, rolled.acquired, rolled.after)
        == (30, 0, 30)
        == (30, 0, truth("hours_after_rollback"))
    )
    assert truth("no_capability_mode") == [SubagentPersona.__name__]
    assert "capability_mode" in EffectiveRuntimeConfig.__dataclass_fields__
    assert truth("cascade_capability_mode") == "execute"
    assert truth("proceeds") == {"persona_error": False, "role_prompt_warning": True}


def test_an_unknown_exercise_is_one_line() -> None:
    with pytest.raises(ConfigError, match="did you mean 'candidates'"):
        wb.check("candidate", 12)


def test_the_docs_describe_the_course() -> None:
    from tests.test_teaching import claim

    page = "notebooks.md"
    claim("`notebooks/` holds eight parameterised notebooks", page)
    claim("the seven outcomes of the course chapter memlab comes from, one exercise each", page)
    claim("`--param solutions=true` fills in the answer key", page)
    from memlab.report.notebooks import available

    assert len(available()) == 8 and "tour_zh" in available()
