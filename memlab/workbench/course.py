"""The course's exercises: ``check`` runs the engine and says right or not yet.

One exercise per outcome of the chapter (``EXERCISES``, in the chapter's order).
A notebook's answer cell is ``answer = wb.solution(NAME, solutions)`` (``None``
until the learner writes their own answer, or the answer key of
``memlab.workbench.answers`` when the notebook runs with ``solutions=True``); the
check cell is ``wb.check(NAME, answer, context)``. Every check computes the right
answer on the real engine (a search on the demo memory, Dream's gates and lock,
the agent cascade) and compares; it never reads the answer key.
"""

from __future__ import annotations

import html
from collections.abc import Callable
from dataclasses import dataclass, fields
from typing import Any

from memlab.workbench.answers import SOLUTIONS


@dataclass(frozen=True)
class CheckResult:
    """What a check says: right (with the engine's evidence) or not yet (with a hint)."""

    exercise: str
    right: bool
    text: str

    @property
    def verdict(self) -> str:
        return "right" if self.right else "not yet"

    def __repr__(self) -> str:
        return f"[{self.verdict}] {self.exercise}: {self.text}"

    def _repr_html_(self) -> str:
        color = "#176f2c" if self.right else "#8a6d00"
        return (
            f'<p><b style="color:{color}">{self.verdict}</b> — '
            f"<code>{html.escape(self.exercise)}</code>: {html.escape(self.text)}</p>"
        )


# An exercise's check: (answer, context) → (right answer as the engine computes it,
# whether the learner's answer is right, evidence shown when right).
Checker = Callable[[Any, Any], tuple[Any, bool, str]]


@dataclass(frozen=True)
class Exercise:
    name: str
    outcome: str
    notebook: str
    hint: str
    run: Checker


def _candidates(answer: Any, demo: Any) -> tuple[Any, bool, str]:
    from memlab.retrieval.pipeline import search
    from memlab.retrieval.strategies import candidate_limit

    config = demo.config({"max_results": 4})
    limit = candidate_limit(config)
    result = search(demo.store, "which Node version does CI use?", config, demo.now, trace=True)
    taken = sum(1 for r in result.trace or [] if r["fts_pos"] is not None)
    evidence = (
        f"max_results 4 × candidate_multiplier {config.candidate_multiplier} = {limit}; "
        f"the demo memory has only {taken} full-text matches for the tour's query, so "
        "the limit is not reached there"
    )
    return limit, answer == limit, evidence


def _failing_embedder(answer: Any, demo: Any) -> tuple[Any, bool, str]:
    from memlab.embeddings.registry import get_embedder
    from memlab.errors import MemlabError
    from memlab.retrieval.pipeline import search

    if not isinstance(answer, str):
        return None, False, ""
    try:
        provider = get_embedder(answer)
    except MemlabError:
        return None, False, ""
    query, working = "dev server port", demo.store.embedder
    fts_only = search(demo.store, query, demo.config({"vectors": False}), demo.now)
    try:
        demo.store.embedder = provider
        failed = search(demo.store, query, demo.config(), demo.now, record_access=False)
    finally:
        demo.store.embedder = working
    same = [h.chunk_id for h in failed.hits] == [h.chunk_id for h in fts_only.hits]
    right = failed.degraded and bool(failed.hits) and same
    evidence = (
        f"degraded={failed.degraded} ({'; '.join(failed.reasons)}); "
        f"{len(failed.hits)} hit(s), the same as full-text only"
    )
    return answer if right else None, right, evidence


def _stopping_gate(answer: Any, _: Any) -> tuple[Any, bool, str]:
    from memlab.workbench.dream_lessons import gate_scenario

    decision = gate_scenario().decision()
    return decision.kind, answer == decision.kind, decision.reason()


def _hours_after_rollback(answer: Any, _: Any) -> tuple[Any, bool, str]:
    from memlab.workbench.dream_lessons import lock_rollback

    result = lock_rollback()
    evidence = (
        f"the lock read {result.before:g} h before the run and {result.acquired:g} h while "
        f"held; the rollback restored its mtime: {result.after:g} h, so the time gate is "
        "as open as before"
    )
    return result.after, answer == result.after, evidence


def _no_capability_mode(answer: Any, _: Any) -> tuple[Any, bool, str]:
    from memlab.agents.types import (
        AgentDefinition,
        EffectiveRuntimeConfig,
        SubagentPersona,
        SubagentRole,
    )

    structures = (AgentDefinition, SubagentRole, SubagentPersona, EffectiveRuntimeConfig)
    without = [
        s.__name__ for s in structures if not any("capability_mode" in f.name for f in fields(s))
    ]
    right = len(without) == 1 and answer == without[0]
    return without, right, f"of the four, only {', '.join(without)} has no capability_mode field"


def _cascade_capability_mode(answer: Any, ws: Any) -> tuple[Any, bool, str]:
    from memlab.agents.project import resolve_agent
    from memlab.agents.types import overrides_from_assignments

    spawn = overrides_from_assignments(["capability_mode=execute", "persona=terse"])
    res = resolve_agent(ws, "reviewer", spawn, parent_model="grok-4")
    mode = getattr(res.config.capability_mode, "value", res.config.capability_mode)
    level = res.provenance["capability_mode"].level
    return mode, answer == mode, f"resolved capability_mode={mode}, decided by {level}"


def _proceeds(answer: Any, ws: Any) -> tuple[Any, bool, str]:
    from memlab.workbench.agents import failure_modes

    table = failure_modes(ws)
    persona = table[table["persona_error"].notna()]
    role = table[table["role_prompt_warning"].notna()]
    truth = {
        "persona_error": bool(persona["proceeds"].any()),
        "role_prompt_warning": bool(role["proceeds"].all()),
    }
    evidence = (
        f"{len(persona)} spawn(s) with a persona_error: all abort; {len(role)} with a "
        "role_prompt_warning: it proceeds"
    )
    return truth, answer == truth, evidence


EXERCISES: tuple[Exercise, ...] = (
    Exercise(
        "candidates",
        "retell the retrieval pipeline in its real order",
        "tour",
        "the full-text stage takes max_results × candidate_multiplier rows (the tour's "
        "scoring table says how many for 6); predict it for 4",
        _candidates,
    ),
    Exercise(
        "failing_embedder",
        "say what happens when the embedding fails and when MMR is off",
        "tour",
        "give the name of an embedding provider that always fails: 'faulty:MODE:INNER' "
        "(`memlab embedders` lists the modes); section 5 uses one",
        _failing_embedder,
    ),
    Exercise(
        "stopping_gate",
        "name Dream's three gates and its default triggers",
        "dream_capacity",
        "the gates run cheapest first: config, time (min_hours), sessions (min_sessions); "
        "answer with the decision's kind, e.g. 'too-soon'",
        _stopping_gate,
    ),
    Exercise(
        "hours_after_rollback",
        "explain DreamLock, idempotence and rollback on a failed write",
        "dream_capacity",
        "taking the lock sets its mtime to now; what does rollback restore? Answer in hours",
        _hours_after_rollback,
    ),
    Exercise(
        "no_capability_mode",
        "tell the four configuration structures apart",
        "agent_config",
        "one of AgentDefinition, SubagentRole, SubagentPersona, EffectiveRuntimeConfig is a "
        "behaviour layer only; answer with its class name",
        _no_capability_mode,
    ),
    Exercise(
        "cascade_capability_mode",
        "decide the cascade per field, with the definition fallback",
        "agent_config",
        "level 1 is the spawn's override, level 2 the role, level 3 the persona; answer "
        "with the mode's spelling, e.g. 'read-only'",
        _cascade_capability_mode,
    ),
    Exercise(
        "proceeds",
        "tell the persona's fail-closed from the role prompt's soft degradation",
        "agent_config",
        "answer {'persona_error': True/False, 'role_prompt_warning': True/False}: does the "
        "spawn proceed in each case?",
        _proceeds,
    ),
)
BY_NAME = {e.name: e for e in EXERCISES}


def exercise(name: str) -> Exercise:
    from memlab.errors import ConfigError, unknown_name

    if name not in BY_NAME:
        raise ConfigError(unknown_name("exercise", name, list(BY_NAME)))
    return BY_NAME[name]


def solution(name: str, solutions: bool = False) -> Any:
    """The answer key's value for ``name`` when ``solutions`` is true, else ``None``."""
    exercise(name)
    return SOLUTIONS[name] if solutions else None


def check(name: str, answer: Any, context: Any = None) -> CheckResult:
    """Run exercise ``name``'s check on the engine: right (with the evidence) or not yet
    (with a hint). ``context`` is what the check searches or resolves in: the tour's
    demo memory or the agent notebook's example project."""
    ex = exercise(name)
    if answer is None:
        return CheckResult(name, False, f"no answer yet. Hint: {ex.hint}")
    _, right, evidence = ex.run(answer, context)
    if right:
        return CheckResult(name, True, evidence)
    return CheckResult(name, False, f"{answer!r} is not it. Hint: {ex.hint}")
