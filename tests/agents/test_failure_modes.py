"""SPEC §8.3: the persona fails closed, the role prompt degrades softly."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from memlab.agents import (
    EffectiveRuntimeConfig,
    IsolationMode,
    SpawnOverrides,
    SubagentPersona,
    SubagentRole,
    render_persona_block,
    resolve_effective_overrides,
    spawn_decision,
)
from memlab.agents.reading import read_text
from memlab.agents.spawn import resolve_spawn
from memlab.agents.types import AgentDefinition, CapabilityMode

from .conftest import write

ROLE = SubagentRole(
    "reviewer",
    default_capability_mode="read-only",
    model="grok-4",
    reasoning_effort="high",
    default_isolation="worktree",
)


def resolve(
    personas: dict[str, SubagentPersona],
    persona: str | None,
    cwd: Path | None,
    role: SubagentRole | None = ROLE,
) -> EffectiveRuntimeConfig:
    return resolve_effective_overrides(
        SpawnOverrides(persona=persona),
        role,
        personas,
        cwd,
        "reviewer" if role else None,
        reader=read_text,
    )


# ── persona: fails closed ────────────────────────────────────────────────


def test_persona_not_found(tmp_path: Path) -> None:
    personas = {"pirate": SubagentPersona("pirate", instructions="Arr.")}
    config = resolve(personas, "pirat", tmp_path)
    assert config.persona == "pirat"
    assert config.persona_error is not None
    assert "persona 'pirat' not found" in config.persona_error
    assert "did you mean 'pirate'" in config.persona_error
    # not an I/O error: the rest of the cascade still resolved (the spawn aborts anyway)
    assert (config.model, config.capability_mode) == ("grok-4", CapabilityMode.READ_ONLY)
    decision = spawn_decision(config)
    assert (decision.proceed, decision.error) == (False, config.persona_error)


def test_persona_not_found_when_none_are_defined(tmp_path: Path) -> None:
    config = resolve({}, "ghost", tmp_path)
    assert config.persona_error == "persona 'ghost' not found; known personas: none are defined"


@pytest.mark.parametrize("inline", [None, "", "   \n  "])
def test_persona_without_instructions(tmp_path: Path, inline: str | None) -> None:
    config = resolve({"mute": SubagentPersona("mute", instructions=inline)}, "mute", tmp_path)
    assert config.persona_error == "persona 'mute' has no instructions"
    assert config.persona_instructions is None
    assert not spawn_decision(config).proceed


def test_persona_whose_file_is_empty_has_no_instructions(tmp_path: Path) -> None:
    write(tmp_path / "empty.md", "\n\n")
    persona = SubagentPersona("mute", instructions_file="empty.md", source_dir=tmp_path)
    config = resolve({"mute": persona}, "mute", tmp_path)
    assert config.persona_error == "persona 'mute' has no instructions"


def test_unreadable_persona_file_returns_early_with_defaults(tmp_path: Path) -> None:
    persona = SubagentPersona(
        "pirate",
        instructions="Arr.",
        instructions_file="missing.md",
        model="m",
        default_isolation="worktree",
        source_dir=tmp_path,
    )
    config = resolve({"pirate": persona}, "pirate", tmp_path)
    assert config.persona_error is not None
    assert str(tmp_path / "missing.md") in config.persona_error
    assert "cannot read instructions_file" in config.persona_error
    # only the persona name and the error: every other field at its default
    assert config == EffectiveRuntimeConfig(persona="pirate", persona_error=config.persona_error)
    assert config.isolation is IsolationMode.NONE


def test_persona_file_that_is_a_directory(tmp_path: Path) -> None:
    (tmp_path / "dir.md").mkdir()
    persona = SubagentPersona("p", instructions_file="dir.md", source_dir=tmp_path)
    config = resolve({"p": persona}, "p", tmp_path)
    assert config == EffectiveRuntimeConfig(persona="p", persona_error=config.persona_error)
    assert config.persona_error


def test_persona_file_not_utf8(tmp_path: Path) -> None:
    write(tmp_path / "bad.md", b"\xff\xfe\x00")
    persona = SubagentPersona("p", instructions_file="bad.md", source_dir=tmp_path)
    config = resolve({"p": persona}, "p", tmp_path)
    assert config == EffectiveRuntimeConfig(persona="p", persona_error=config.persona_error)


def test_persona_relative_file_without_any_base_dir() -> None:
    persona = SubagentPersona("p", instructions="x", instructions_file="p.md")
    config = resolve({"p": persona}, "p", None)
    assert config.persona_error is not None
    assert "no base directory" in config.persona_error
    assert config == EffectiveRuntimeConfig(persona="p", persona_error=config.persona_error)


def test_persona_absolute_file_needs_no_base_dir(tmp_path: Path) -> None:
    path = write(tmp_path / "abs.md", "From the file.\n")
    persona = SubagentPersona("p", instructions_file=str(path))
    config = resolve({"p": persona}, "p", None)
    assert (config.persona_error, config.persona_instructions) == (None, "From the file.")


def test_persona_instructions_inline_then_file_joined_by_blank_line(tmp_path: Path) -> None:
    source = tmp_path / ".grok" / "personas"
    write(source / "pirate.md", "\nUse nautical terms.\n")
    write(tmp_path / "pirate.md", "WRONG: cwd copy\n")
    persona = SubagentPersona(
        "pirate",
        instructions="  Speak like a pirate.\n",
        instructions_file="pirate.md",
        source_dir=source,
    )
    config = resolve({"pirate": persona}, "pirate", tmp_path)
    assert config.persona_instructions == "Speak like a pirate.\n\nUse nautical terms."
    assert render_persona_block(config) == (
        "<persona>\nSpeak like a pirate.\n\nUse nautical terms.\n</persona>"
    )
    assert spawn_decision(config).proceed


def test_persona_file_relative_to_cwd_without_source_dir(tmp_path: Path) -> None:
    write(tmp_path / "p.md", "From cwd.")
    config = resolve({"p": SubagentPersona("p", instructions_file="p.md")}, "p", tmp_path)
    assert config.persona_instructions == "From cwd."


def test_no_persona_no_block(tmp_path: Path) -> None:
    config = resolve({}, None, tmp_path)
    assert (config.persona, config.persona_error, render_persona_block(config)) == (None,) * 3


# ── role prompt: degrades softly ─────────────────────────────────────────


def test_unreadable_role_prompt_only_warns(tmp_path: Path) -> None:
    role = dataclasses.replace(ROLE, prompt_file="gone.md", source_dir=tmp_path)
    personas = {"pirate": SubagentPersona("pirate", instructions="Arr.")}
    config = resolve(personas, "pirate", tmp_path, role=role)
    assert config.role_prompt is None
    assert config.role_prompt_warning is not None
    assert str(tmp_path / "gone.md") in config.role_prompt_warning
    # everything else still resolves
    assert config.model == "grok-4"
    assert config.reasoning_effort == "high"
    assert config.capability_mode is CapabilityMode.READ_ONLY
    assert config.isolation is IsolationMode.WORKTREE
    assert (config.persona_instructions, config.role_name) == ("Arr.", "reviewer")
    decision = spawn_decision(config)
    assert decision.proceed
    assert decision.warnings == (config.role_prompt_warning,)


def test_role_prompt_is_read_relative_to_the_role_source_dir(tmp_path: Path) -> None:
    write(tmp_path / "roles" / "review.md", "Review carefully.\n")
    role = SubagentRole("reviewer", prompt_file="review.md", source_dir=tmp_path / "roles")
    config = resolve({}, None, tmp_path, role=role)
    assert (config.role_prompt, config.role_prompt_warning) == ("Review carefully.", None)


def test_role_prompt_without_base_dir_warns() -> None:
    config = resolve({}, None, None, role=SubagentRole("reviewer", prompt_file="r.md"))
    assert config.role_prompt_warning is not None
    assert "no base directory" in config.role_prompt_warning


def test_spawn_aborts_before_fallbacks_on_persona_error(tmp_path: Path) -> None:
    res = resolve_spawn(
        "worker",
        definition=AgentDefinition("worker", effort="low", model="def-model"),
        overrides=SpawnOverrides(persona="nobody"),
        roles={},
        personas={},
        cwd=tmp_path,
        reader=read_text,
        parent_model="parent-model",
    )
    assert not res.decision.proceed
    assert not res.fallbacks_applied
    assert (res.config.model, res.config.reasoning_effort) == (None, None)


def test_role_warning_and_persona_error_together_still_abort(tmp_path: Path) -> None:
    role = SubagentRole("reviewer", prompt_file="gone.md", source_dir=tmp_path)
    config = resolve({}, "nobody", tmp_path, role=role)
    decision = spawn_decision(config)
    assert not decision.proceed
    assert decision.warnings == (config.role_prompt_warning,)
