"""The §8.1 structures: exact field sets, mode parsers, spawn overrides."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given
from hypothesis import strategies as st

from memlab.agents import (
    CapabilityMode,
    EffectiveRuntimeConfig,
    IsolationMode,
    SpawnOverrides,
    SubagentPersona,
    SubagentRole,
    overrides_from_assignments,
    parse_capability_mode,
    parse_isolation_mode,
)
from memlab.errors import ConfigError

TEN_FIELDS = [
    "model",
    "reasoning_effort",
    "capability_mode",
    "persona",
    "persona_instructions",
    "role_prompt",
    "role_prompt_warning",
    "role_name",
    "persona_error",
    "isolation",
]


def test_effective_runtime_config_has_exactly_the_ten_fields() -> None:
    names = [f.name for f in dataclasses.fields(EffectiveRuntimeConfig)]
    assert names == TEN_FIELDS
    for absent in ("temperature", "max_tokens", "tools"):
        assert absent not in names


def test_effective_runtime_config_defaults() -> None:
    config = EffectiveRuntimeConfig()
    assert config.isolation is IsolationMode.NONE
    assert all(getattr(config, n) is None for n in TEN_FIELDS if n != "isolation")


def test_role_and_persona_fields_follow_the_spec() -> None:
    role = {f.name for f in dataclasses.fields(SubagentRole)} - {"name", "source", "source_dir"}
    assert role == {
        "description",
        "default_capability_mode",
        "model",
        "reasoning_effort",
        "prompt_file",
        "default_isolation",
    }
    persona = {f.name for f in dataclasses.fields(SubagentPersona)}
    persona -= {"name", "source", "source_dir"}
    assert persona == {
        "instructions",
        "instructions_file",
        "inputs",
        "outputs",
        "model",
        "reasoning_effort",
        "default_isolation",
    }


@pytest.mark.parametrize(
    ("text", "mode"),
    [
        ("read-only", CapabilityMode.READ_ONLY),
        ("read-write", CapabilityMode.READ_WRITE),
        ("execute", CapabilityMode.EXECUTE),
        ("all", CapabilityMode.ALL),
    ],
)
def test_parse_capability_mode_valid(text: str, mode: CapabilityMode) -> None:
    assert parse_capability_mode(text) is mode


@pytest.mark.parametrize("text", ["Read-Only", "read_only", "readonly", " all", "", "none"])
def test_parse_capability_mode_invalid_is_none(text: str) -> None:
    assert parse_capability_mode(text) is None


def test_parse_isolation_mode() -> None:
    assert parse_isolation_mode("none") is IsolationMode.NONE
    assert parse_isolation_mode("worktree") is IsolationMode.WORKTREE
    for bad in ("Worktree", "work-tree", "", None, 1):
        assert parse_isolation_mode(bad) is None


@given(st.text(max_size=20))
def test_parsers_never_raise_and_accept_only_exact_spellings(text: str) -> None:
    cap = parse_capability_mode(text)
    iso = parse_isolation_mode(text)
    assert (cap is not None) == (text in {"read-only", "read-write", "execute", "all"})
    assert (iso is not None) == (text in {"none", "worktree"})


def test_spawn_overrides_parse_strings_and_reject_invalid() -> None:
    ov = SpawnOverrides(capability_mode="execute", isolation="worktree")  # type: ignore[arg-type]
    assert ov.capability_mode is CapabilityMode.EXECUTE
    assert ov.isolation is IsolationMode.WORKTREE
    with pytest.raises(ConfigError, match="did you mean 'read-only'"):
        SpawnOverrides(capability_mode="read-onyl")  # type: ignore[arg-type]
    with pytest.raises(ConfigError, match="valid: none, worktree"):
        SpawnOverrides(isolation="sandbox")  # type: ignore[arg-type]


def test_overrides_from_assignments() -> None:
    ov = overrides_from_assignments(
        ["model=grok-4", "reasoning_effort = high", "capability_mode=read-write", "persona=p"]
    )
    assert ov == SpawnOverrides(
        model="grok-4",
        reasoning_effort="high",
        capability_mode=CapabilityMode.READ_WRITE,
        persona="p",
    )


@pytest.mark.parametrize(
    ("items", "message"),
    [
        (["modle=x"], "unknown override field 'modle'; did you mean 'model'?"),
        (["temperature=0.2"], "unknown override field 'temperature'"),
        (["model"], "expected field=value"),
        (["model=a", "model=b"], "set twice"),
        (["model="], "needs a value"),
        (["isolation=tree"], "unknown isolation 'tree'"),
    ],
)
def test_overrides_from_assignments_errors(items: list[str], message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        overrides_from_assignments(items)
