"""Definition fallbacks, the model chain, provenance, and resolution against real files."""

from __future__ import annotations

from pathlib import Path

import pytest

from memlab.agents import (
    AgentDefinition,
    IsolationMode,
    SpawnOverrides,
    SubagentPersona,
    SubagentRole,
    find_role,
    load_workspace,
    resolve_agent,
    resolve_spawn,
)
from memlab.agents.provenance import LEVELS
from memlab.agents.reading import read_text
from memlab.agents.tables import provenance_table
from memlab.errors import ConfigError

from .conftest import agent_md, write


def spawn(**kwargs: object):
    args: dict[str, object] = {
        "definition": AgentDefinition("worker"),
        "overrides": SpawnOverrides(),
        "roles": {},
        "personas": {},
        "cwd": None,
        "reader": read_text,
    }
    args.update(kwargs)
    return resolve_spawn("worker", **args)  # type: ignore[arg-type]


def test_unknown_model_falls_through_to_pin_not_to_the_role() -> None:
    res = spawn(
        overrides=SpawnOverrides(model="grok-99"),
        roles={"worker": SubagentRole("worker", model="grok-4")},
        agent_models={"worker": "pinned"},
        known_models={"grok-4", "pinned"},
    )
    assert res.config.model == "pinned"
    assert res.provenance["model"].level == "pin"
    assert res.warnings == ("model 'grok-99' (from override) is not a known model; falling back",)
    assert res.decision.proceed and res.decision.warnings == res.warnings


def test_without_a_model_registry_every_model_is_known() -> None:
    res = spawn(overrides=SpawnOverrides(model="anything"), parent_model="parent")
    assert (res.config.model, res.warnings) == ("anything", ())


def test_fork_context_takes_the_parent_model_over_everything() -> None:
    res = spawn(
        overrides=SpawnOverrides(model="o"),
        definition=AgentDefinition("worker", model="d"),
        agent_models={"worker": "pin"},
        parent_model="parent",
        fork_context=True,
    )
    assert (res.config.model, res.provenance["model"].level) == ("parent", "parent")
    assert [c.level for c in res.provenance["model"].shadowed] == ["override", "pin", "definition"]


def test_definition_model_inherit_means_the_parent() -> None:
    res = spawn(definition=AgentDefinition("worker", model="inherit"), parent_model="parent")
    assert res.config.model == "parent"
    assert "inherit" in res.provenance["model"].note


def test_pin_applies_only_to_its_agent_type() -> None:
    res = spawn(agent_models={"other": "pin"}, definition=AgentDefinition("worker", model="d"))
    assert res.config.model == "d"


def test_isolation_definition_upgrades_an_explicit_none() -> None:
    res = spawn(
        overrides=SpawnOverrides(isolation=IsolationMode.NONE),
        definition=AgentDefinition("worker", isolation="worktree"),
    )
    assert res.config.isolation is IsolationMode.WORKTREE
    assert res.provenance["isolation"].level == "definition"


def test_isolation_definition_never_downgrades() -> None:
    res = spawn(
        roles={"worker": SubagentRole("worker", default_isolation="worktree")},
        definition=AgentDefinition("worker", isolation="none"),
    )
    assert res.config.isolation is IsolationMode.WORKTREE
    assert res.provenance["isolation"].level == "role"


def test_effort_from_definition_only_when_unset() -> None:
    res = spawn(definition=AgentDefinition("worker", effort="low"))
    assert (res.config.reasoning_effort, res.provenance["reasoning_effort"].level) == (
        "low",
        "definition",
    )
    res = spawn(
        definition=AgentDefinition("worker", effort="low"),
        overrides=SpawnOverrides(reasoning_effort="high"),
    )
    assert res.config.reasoning_effort == "high"


def test_role_found_by_type_else_by_persona_name() -> None:
    roles = {"worker": SubagentRole("worker"), "pirate": SubagentRole("pirate")}
    assert find_role("worker", "pirate", roles)[1] == "worker"
    assert find_role("other", "pirate", roles)[1] == "pirate"
    assert find_role("other", None, roles) == (None, None)
    res = spawn(
        overrides=SpawnOverrides(persona="pirate"),
        roles={"pirate": SubagentRole("pirate", model="role-model")},
        personas={"pirate": SubagentPersona("pirate", instructions="Arr.")},
    )
    assert (res.config.role_name, res.config.model) == ("pirate", "role-model")


def test_provenance_table_lists_every_field_with_level_and_shadowed() -> None:
    res = spawn(
        overrides=SpawnOverrides(model="o", persona="p"),
        roles={"worker": SubagentRole("worker", model="r", reasoning_effort="high")},
        personas={"p": SubagentPersona("p", instructions="x", model="pm", reasoning_effort="low")},
        parent_model="parent",
    )
    df = provenance_table(res)
    assert list(df.columns) == ["field", "value", "level", "raw", "shadowed", "note"]
    assert len(df) == 10
    assert set(df["level"]) <= set(LEVELS)
    rows = df.set_index("field")
    assert rows.loc["model", "value"] == "o"
    assert rows.loc["model", "level"] == "override"
    assert rows.loc["model", "shadowed"] == "role=r; persona=pm; parent=parent"
    assert rows.loc["reasoning_effort", "level"] == "role"
    assert rows.loc["reasoning_effort", "shadowed"] == "persona=low"
    assert rows.loc["persona", "level"] == "override"
    assert rows.loc["persona_instructions", "level"] == "persona"
    assert rows.loc["role_name", "level"] == "role"
    assert rows.loc["capability_mode", "level"] == "none"


def test_provenance_of_early_return_keeps_what_was_shadowed(tmp_path: Path) -> None:
    res = spawn(
        overrides=SpawnOverrides(model="o", persona="p"),
        personas={"p": SubagentPersona("p", instructions_file="x.md", source_dir=tmp_path)},
    )
    rows = provenance_table(res).set_index("field")
    assert rows.loc["model", "value"] == "-"
    assert rows.loc["model", "level"] == "none"
    assert rows.loc["model", "shadowed"] == "override=o"
    assert "early return" in rows.loc["model", "note"]
    assert rows.loc["persona_error", "level"] == "persona"


# ── against real directories ─────────────────────────────────────────────


def test_resolve_agent_end_to_end(repo: Path, home: Path) -> None:
    write(
        repo / ".grok/agents/reviewer.md", agent_md("reviewer", effort="low", isolation="worktree")
    )
    write(repo / ".grok/roles/reviewer.toml", 'model = "grok-4"\nprompt_file = "review.md"\n')
    write(repo / ".grok/roles/review.md", "Check the diff.\n")
    write(repo / ".grok/personas/pirate.toml", 'instructions_file = "pirate.md"\n')
    write(repo / ".grok/personas/pirate.md", "Arr.\n")
    ws = load_workspace(cwd=repo, grok_home=home)
    res = resolve_agent(ws, "reviewer", SpawnOverrides(persona="pirate"), parent_model="p")
    c = res.config
    assert (c.model, c.reasoning_effort, c.isolation) == ("grok-4", "low", IsolationMode.WORKTREE)
    assert (c.role_prompt, c.persona_instructions, c.role_name) == (
        "Check the diff.",
        "Arr.",
        "reviewer",
    )
    assert res.decision.proceed


def test_resolve_agent_with_inline_config_mapping(repo: Path, home: Path) -> None:
    ws = load_workspace(
        cwd=repo,
        grok_home=home,
        config={"personas": {"p": {"instructions": "Hi."}}, "agents": {"plan": {"model": "m"}}},
    )
    res = resolve_agent(ws, "plan", SpawnOverrides(persona="p"))
    assert (res.config.model, res.config.persona_instructions) == ("m", "Hi.")


def test_resolve_agent_unknown_type(repo: Path, home: Path) -> None:
    ws = load_workspace(cwd=repo, grok_home=home)
    with pytest.raises(ConfigError, match="did you mean 'general-purpose'"):
        resolve_agent(ws, "general-purpos")
