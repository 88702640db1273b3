"""The exhaustive precedence matrix (SPEC §8.2), checked against an independent oracle.

Each test enumerates every combination of level states for one field with
itertools.product, builds the inputs itself, runs the real ``resolve_spawn`` and
compares with ``expected_*`` below: the rules of the spec written out directly,
one small function per field, sharing no code with memlab. The same oracle then
checks every row of the notebook's ``cascade_matrix`` DataFrame.
"""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from memlab.agents import matrix as matrix_mod
from memlab.agents.spawn import resolve_spawn
from memlab.agents.tables import cascade_matrix
from memlab.agents.types import (
    AgentDefinition,
    CapabilityMode,
    IsolationMode,
    SpawnOverrides,
    SubagentPersona,
    SubagentRole,
)
from memlab.errors import ConfigError

UNSET = "unset"
ISO_STATES = (UNSET, "none", "worktree", "invalid")
ISO_TEXT = {"none": "none", "worktree": "worktree", "invalid": "work-tree"}


# ── the oracle: SPEC §8.2 stated directly ────────────────────────────────


def expected_model(s: dict[str, str]) -> tuple[str | None, str]:
    """fork-context → parent; else the first cascaded model if known (else fall
    through) → pin → definition → parent."""
    if s["fork_context"] == "yes":
        return ("M@parent", "parent") if s["parent"] == "set" else (None, "none")
    cascaded = [lvl for lvl in ("override", "role", "persona") if s[lvl] != UNSET]
    if cascaded and s[cascaded[0]] == "known":
        return f"known@{cascaded[0]}", cascaded[0]
    for lvl in ("pin", "definition", "parent"):
        if s[lvl] == "set":
            return f"M@{lvl}", lvl
    return None, "none"


def expected_effort(s: dict[str, str]) -> tuple[str | None, str]:
    """override ‖ role ‖ persona, then the definition's effort."""
    for lvl in ("override", "role", "persona", "definition"):
        if s[lvl] == "set":
            return f"E@{lvl}", lvl
    return None, "none"


def expected_capability(s: dict[str, str]) -> tuple[str | None, str] | None:
    """override ‖ parse(role); None means the override itself is rejected."""
    if s["override"] == "invalid":
        return None
    if s["override"] == "valid":
        return "execute", "override"
    if s["role"] == "valid":
        return "read-only", "role"
    if s["role"] == "invalid":
        return None, "role"
    return None, "none"


def expected_isolation(s: dict[str, str]) -> tuple[str, str] | None:
    """override ‖ parse(role string ‖ persona string) ‖ none; then the definition
    may upgrade none to worktree. None means the override is rejected."""
    if s["override"] == "invalid":
        return None
    level = next((lvl for lvl in ("override", "role", "persona") if s[lvl] != UNSET), "none")
    mode = s[level] if level != "none" and s[level] in ("none", "worktree") else "none"
    if mode == "none" and s["definition"] == "worktree":
        return "worktree", "definition"
    return mode, level


# ── building inputs and running the resolver ─────────────────────────────


def run(
    *,
    overrides: SpawnOverrides,
    role: SubagentRole,
    persona: SubagentPersona,
    definition: AgentDefinition,
    parent: str | None = None,
    pin: str | None = None,
    fork: bool = False,
    known: frozenset[str] | None = None,
):
    return resolve_spawn(
        "worker",
        definition=definition,
        overrides=overrides,
        roles={"worker": role},
        personas={"p": persona},
        cwd=Path("/nonexistent"),
        reader=lambda path: (_ for _ in ()).throw(FileNotFoundError(str(path))),
        parent_model=parent,
        fork_context=fork,
        agent_models={"worker": pin} if pin else {},
        known_models=known,
    )


def combos(levels: dict[str, tuple[str, ...]]):
    for values in itertools.product(*levels.values()):
        yield dict(zip(levels, values, strict=True))


def present(s: dict[str, str], levels: tuple[str, ...]) -> set[str]:
    return {lvl for lvl in levels if s[lvl] not in (UNSET, "no")}


MODEL_LEVELS = {
    "override": (UNSET, "known", "unknown"),
    "role": (UNSET, "known", "unknown"),
    "persona": (UNSET, "known", "unknown"),
    "pin": (UNSET, "set"),
    "definition": (UNSET, "set"),
    "parent": (UNSET, "set"),
    "fork_context": ("no", "yes"),
}


@pytest.mark.parametrize("s", list(combos(MODEL_LEVELS)), ids=str)
def test_model_every_combination(s: dict[str, str]) -> None:
    def m(level: str) -> str | None:
        state = s[level]
        if state == UNSET:
            return None
        return f"{state}@{level}" if state in ("known", "unknown") else f"M@{level}"

    res = run(
        overrides=SpawnOverrides(model=m("override"), persona="p"),
        role=SubagentRole("worker", model=m("role")),
        persona=SubagentPersona("p", instructions="x", model=m("persona")),
        definition=AgentDefinition("worker", model=m("definition")),
        parent=m("parent"),
        pin=m("pin"),
        fork=s["fork_context"] == "yes",
        known=frozenset({"known@override", "known@role", "known@persona"}),
    )
    value, level = expected_model(s)
    prov = res.provenance["model"]
    assert (res.config.model, prov.level) == (value, level)
    levels = ("override", "role", "persona", "pin", "definition", "parent")
    assert {c.level for c in prov.considered} == present(s, levels)
    cascaded = [lvl for lvl in ("override", "role", "persona") if s[lvl] != UNSET]
    unknown_first = bool(cascaded) and s[cascaded[0]] == "unknown" and s["fork_context"] == "no"
    assert bool(res.warnings) == unknown_first
    assert res.decision.proceed


EFFORT_LEVELS = {lvl: (UNSET, "set") for lvl in ("override", "role", "persona", "definition")}


@pytest.mark.parametrize("s", list(combos(EFFORT_LEVELS)), ids=str)
def test_reasoning_effort_every_combination(s: dict[str, str]) -> None:
    def e(level: str) -> str | None:
        return f"E@{level}" if s[level] == "set" else None

    res = run(
        overrides=SpawnOverrides(reasoning_effort=e("override"), persona="p"),
        role=SubagentRole("worker", reasoning_effort=e("role")),
        persona=SubagentPersona("p", instructions="x", reasoning_effort=e("persona")),
        definition=AgentDefinition("worker", effort=e("definition")),
    )
    prov = res.provenance["reasoning_effort"]
    assert (res.config.reasoning_effort, prov.level) == expected_effort(s)
    assert {c.level for c in prov.considered} == present(s, tuple(EFFORT_LEVELS))


CAP_LEVELS = {"override": (UNSET, "valid", "invalid"), "role": (UNSET, "valid", "invalid")}


@pytest.mark.parametrize("s", list(combos(CAP_LEVELS)), ids=str)
def test_capability_mode_every_combination(s: dict[str, str]) -> None:
    override = {"valid": "execute", "invalid": "exec", UNSET: None}[s["override"]]
    role_raw = {"valid": "read-only", "invalid": "readonly", UNSET: None}[s["role"]]
    expected = expected_capability(s)
    if expected is None:
        with pytest.raises(ConfigError, match="capability_mode"):
            SpawnOverrides(capability_mode=override)  # type: ignore[arg-type]
        return
    res = run(
        overrides=SpawnOverrides(capability_mode=override, persona="p"),  # type: ignore[arg-type]
        role=SubagentRole("worker", default_capability_mode=role_raw),
        persona=SubagentPersona("p", instructions="x"),
        definition=AgentDefinition("worker", capability_mode="all"),
    )
    value = res.config.capability_mode
    assert (value.value if value else None, res.provenance["capability_mode"].level) == expected


ISO_LEVELS = {lvl: ISO_STATES for lvl in ("override", "role", "persona", "definition")}


@pytest.mark.parametrize("s", list(combos(ISO_LEVELS)), ids=str)
def test_isolation_every_combination(s: dict[str, str]) -> None:
    def i(level: str) -> str | None:
        return ISO_TEXT.get(s[level])

    expected = expected_isolation(s)
    if expected is None:
        with pytest.raises(ConfigError, match="isolation"):
            SpawnOverrides(isolation=i("override"))  # type: ignore[arg-type]
        return
    res = run(
        overrides=SpawnOverrides(isolation=i("override"), persona="p"),  # type: ignore[arg-type]
        role=SubagentRole("worker", default_isolation=i("role")),
        persona=SubagentPersona("p", instructions="x", default_isolation=i("persona")),
        definition=AgentDefinition("worker", isolation=i("definition")),
    )
    prov = res.provenance["isolation"]
    assert (res.config.isolation.value, prov.level) == expected
    assert {c.level for c in prov.considered} == present(s, tuple(ISO_LEVELS))


# ── the isolation shadowing rule, on its own and on arbitrary strings ────


def test_invalid_role_isolation_shadows_valid_persona_isolation() -> None:
    res = run(
        overrides=SpawnOverrides(persona="p"),
        role=SubagentRole("worker", default_isolation="worktrees"),
        persona=SubagentPersona("p", instructions="x", default_isolation="worktree"),
        definition=AgentDefinition("worker"),
    )
    assert res.config.isolation is IsolationMode.NONE
    prov = res.provenance["isolation"]
    assert prov.level == "role"
    assert [(c.level, c.raw) for c in prov.shadowed] == [("persona", "worktree")]
    assert "did you mean 'worktree'" in prov.note


@given(
    role=st.one_of(st.none(), st.text(max_size=12)),
    persona=st.one_of(st.none(), st.text(max_size=12)),
)
def test_isolation_is_parse_of_role_string_else_persona_string(
    role: str | None, persona: str | None
) -> None:
    res = run(
        overrides=SpawnOverrides(persona="p"),
        role=SubagentRole("worker", default_isolation=role),
        persona=SubagentPersona("p", instructions="x", default_isolation=persona),
        definition=AgentDefinition("worker"),
    )
    chosen = role if role is not None else persona
    expected = "worktree" if chosen == "worktree" else "none"
    assert res.config.isolation.value == expected


def test_persona_has_no_capability_level() -> None:
    """Even a persona object smuggling a capability attribute is not consulted."""
    assert "capability_mode" not in SubagentPersona.__dataclass_fields__
    assert "default_capability_mode" not in SubagentPersona.__dataclass_fields__
    res = run(
        overrides=SpawnOverrides(persona="p"),
        role=SubagentRole("worker"),
        persona=SubagentPersona("p", instructions="x"),
        definition=AgentDefinition("worker", capability_mode="read-only"),
    )
    assert res.config.capability_mode is None
    assert CapabilityMode("read-only") is CapabilityMode.READ_ONLY


# ── the notebook's matrix agrees with the oracle, row for row ───────────


def _expected_matrix_row(row: dict[str, str]) -> tuple[str, str]:
    field = row["field"]
    s = {k: v for k, v in row.items() if k in matrix_mod.MATRIX_COLUMNS and v != ""}

    def shown(value: str | None) -> str:
        return "-" if value is None else value

    if field == "model":
        value, level = expected_model(s)
        concrete = (
            None
            if value is None
            else matrix_mod.raw_value(
                "model", level, s[level] if level in ("override", "role", "persona") else "set"
            )
        )
        return shown(concrete), level
    if field == "reasoning_effort":
        value, level = expected_effort(s)
        return shown(None if value is None else matrix_mod.raw_value(field, level, "set")), level
    expect = expected_capability(s) if field == "capability_mode" else expected_isolation(s)
    if expect is None:
        return matrix_mod.REJECTED, "override"
    value, level = expect
    if field == "capability_mode" and value is not None:
        value = matrix_mod.raw_value(field, level, "valid")
    return shown(value), level


def test_cascade_matrix_matches_the_oracle() -> None:
    df = cascade_matrix()
    assert df.groupby("field").size().to_dict() == {
        "model": 3 * 3 * 3 * 2 * 2 * 2 * 2,
        "reasoning_effort": 2**4,
        "capability_mode": 3 * 3,
        "isolation": 4**4,
    }
    mismatches = []
    for row in df.to_dict("records"):
        if (row["value"], row["level"]) != _expected_matrix_row(row):
            mismatches.append(row)
    assert mismatches == []


def test_cascade_matrix_rejects_unknown_field() -> None:
    with pytest.raises(ConfigError, match="did you mean 'isolation'"):
        cascade_matrix(["isolaton"])
