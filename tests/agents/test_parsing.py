"""Agent files, role/persona TOML and the config file; malformed ones name file and line."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from memlab.agents.reading import (
    load_agent_file,
    load_config_file,
    load_persona_file,
    load_role_file,
)
from memlab.errors import AgentConfigError

from .conftest import write


def error_at(path: Path, line: int, loader, *pattern: str) -> AgentConfigError:
    """Load ``path``, expect AgentConfigError starting with ``path:line:``."""
    with pytest.raises(AgentConfigError) as info:
        loader(path)
    message = str(info.value)
    assert message.startswith(f"{path}:{line}:"), message
    for p in pattern:
        assert re.search(p, message), message
    return info.value


# ── agent files ──────────────────────────────────────────────────────────


def test_agent_file_fields_body_and_extra(tmp_path: Path) -> None:
    path = write(
        tmp_path / "reviewer.md",
        "---\n"
        "description: Reviews diffs\n"
        "model: grok-4\n"
        "effort: high\n"
        "isolation: worktree\n"
        "capability_mode: read-only\n"
        "permission_mode: plan\n"
        "prompt_mode: append\n"
        "tools: Read, Grep,  Glob\n"
        "hooks:\n  pre: echo hi\n"
        "mcp_inheritance: all\n"
        "color: blue\n"
        "---\n\nYou review code.\n\nBe terse.\n",
    )
    d = load_agent_file(path)
    assert d.name == "reviewer"  # from the file stem
    assert (d.model, d.effort, d.isolation) == ("grok-4", "high", "worktree")
    assert (d.capability_mode, d.permission_mode, d.prompt_mode) == ("read-only", "plan", "append")
    assert d.tools == ("Read", "Grep", "Glob")
    assert dict(d.hooks) == {"pre": "echo hi"}
    assert d.mcp_inheritance == "all"
    assert dict(d.extra) == {"color": "blue"}
    assert d.prompt == "You review code.\n\nBe terse."
    assert d.source == path


def test_agent_name_from_front_matter_and_tools_list(tmp_path: Path) -> None:
    path = write(tmp_path / "file.md", "---\nname: other\ntools: [Read, Bash]\n---\nbody\n")
    d = load_agent_file(path)
    assert (d.name, d.tools, d.model) == ("other", ("Read", "Bash"), None)


def test_empty_front_matter_is_allowed(tmp_path: Path) -> None:
    d = load_agent_file(write(tmp_path / "x.md", "---\n---\nbody"))
    assert (d.name, d.prompt) == ("x", "body")


def test_agent_without_front_matter(tmp_path: Path) -> None:
    path = write(tmp_path / "x.md", "just a prompt\n")
    error_at(path, 1, load_agent_file, "must start with a '---'")


def test_agent_front_matter_never_closed(tmp_path: Path) -> None:
    path = write(tmp_path / "x.md", "---\nmodel: a\nbody\n")
    error_at(path, 1, load_agent_file, "never closed")


def test_agent_yaml_syntax_error_names_the_line(tmp_path: Path) -> None:
    path = write(tmp_path / "x.md", "---\nname: x\ndescription: ok\nmodel: [unclosed\n---\nbody\n")
    # line 4 holds the bad value; the parser reports where it noticed (line 4 or 5)
    with pytest.raises(AgentConfigError) as info:
        load_agent_file(path)
    match = re.match(rf"{re.escape(str(path))}:(\d+): invalid YAML", str(info.value))
    assert match and int(match.group(1)) in (4, 5), str(info.value)


def test_agent_yaml_bad_indentation_line(tmp_path: Path) -> None:
    path = write(tmp_path / "x.md", "---\nname: x\n  model: y\n---\n")
    error_at(path, 3, load_agent_file, "invalid YAML")


def test_agent_front_matter_not_a_mapping(tmp_path: Path) -> None:
    path = write(tmp_path / "x.md", "---\n- a\n- b\n---\n")
    error_at(path, 2, load_agent_file, "must be a mapping")


def test_agent_value_of_wrong_type_names_its_line(tmp_path: Path) -> None:
    path = write(tmp_path / "x.md", "---\nname: x\ndescription: d\nmodel: 4\n---\n")
    error_at(path, 4, load_agent_file, "'model' must be a string")
    path = write(tmp_path / "y.md", "---\ntools: {a: 1}\n---\n")
    error_at(path, 2, load_agent_file, "'tools' must be")
    path = write(tmp_path / "z.md", "---\nname: z\nhooks: [a]\n---\n")
    error_at(path, 3, load_agent_file, "'hooks' must be a mapping")


def test_agent_not_utf8(tmp_path: Path) -> None:
    path = write(tmp_path / "x.md", b"---\nname: x\ndescription: \xff\n---\n")
    error_at(path, 3, load_agent_file, "not valid UTF-8")


# ── roles and personas ───────────────────────────────────────────────────


def test_role_file(tmp_path: Path) -> None:
    path = write(
        tmp_path / ".grok/roles/reviewer.toml",
        'description = "Reviews"\ndefault_capability_mode = "read-only"\nmodel = "grok-4"\n'
        'reasoning_effort = "high"\nprompt_file = "reviewer.md"\ndefault_isolation = "worktree"\n',
    )
    role = load_role_file(path)
    assert role.name == "reviewer"
    assert role.default_capability_mode == "read-only"
    assert (role.model, role.reasoning_effort) == ("grok-4", "high")
    assert (role.prompt_file, role.default_isolation) == ("reviewer.md", "worktree")
    assert (role.source, role.source_dir) == (path, path.parent)


def test_role_keeps_invalid_mode_strings_for_the_cascade(tmp_path: Path) -> None:
    path = write(tmp_path / "r.toml", 'default_isolation = "sideways"\n')
    assert load_role_file(path).default_isolation == "sideways"


def test_persona_file(tmp_path: Path) -> None:
    path = write(
        tmp_path / "pirate.toml",
        'instructions = "Arr."\ninstructions_file = "pirate.md"\ninputs = ["diff"]\n'
        'outputs = "review"\nmodel = "m"\nreasoning_effort = "low"\ndefault_isolation = "none"\n',
    )
    persona = load_persona_file(path)
    assert (persona.name, persona.instructions, persona.instructions_file) == (
        "pirate",
        "Arr.",
        "pirate.md",
    )
    assert (persona.inputs, persona.outputs) == (("diff",), ("review",))
    assert (persona.model, persona.reasoning_effort, persona.default_isolation) == (
        "m",
        "low",
        "none",
    )


def test_toml_syntax_error_names_the_line(tmp_path: Path) -> None:
    path = write(tmp_path / "r.toml", 'model = "a"\nreasoning_effort = high\n')
    error_at(path, 2, load_role_file, "invalid TOML")


def test_toml_error_at_end_of_document(tmp_path: Path) -> None:
    path = write(tmp_path / "r.toml", 'model = "a"\ninputs = ["x",\n')
    with pytest.raises(AgentConfigError, match=rf"^{re.escape(str(path))}:\d+: invalid TOML"):
        load_role_file(path)


def test_unknown_role_key_names_line_and_suggests(tmp_path: Path) -> None:
    path = write(tmp_path / "r.toml", 'model = "a"\n\ndefualt_isolation = "worktree"\n')
    error_at(path, 3, load_role_file, "did you mean 'default_isolation'")


def test_role_value_of_wrong_type_names_its_line(tmp_path: Path) -> None:
    path = write(tmp_path / "r.toml", '# a role\ndescription = "d"\nmodel = 4\n')
    error_at(path, 3, load_role_file, "'model' must be a string")


def test_persona_cannot_set_a_capability_mode(tmp_path: Path) -> None:
    path = write(tmp_path / "p.toml", 'instructions = "x"\ncapability_mode = "all"\n')
    error_at(path, 2, load_persona_file, "no capability mode")


def test_persona_inputs_must_be_strings(tmp_path: Path) -> None:
    path = write(tmp_path / "p.toml", 'instructions = "x"\ninputs = [1, 2]\n')
    error_at(path, 2, load_persona_file, "'inputs' must be a string or a list")


# ── the config file ──────────────────────────────────────────────────────

CONFIG = """\
known_models = ["grok-4", "grok-3-mini"]

[roles.reviewer]
model = "grok-4"
default_isolation = "worktree"

[personas.pirate]
instructions = "Speak like a pirate."

[agents.explore]
model = "grok-3-mini"
"""


def test_config_file(tmp_path: Path) -> None:
    path = write(tmp_path / "cfg" / "agents.toml", CONFIG)
    config = load_config_file(path)
    assert config.known_models == frozenset({"grok-4", "grok-3-mini"})
    assert config.roles["reviewer"].default_isolation == "worktree"
    assert config.roles["reviewer"].source_dir == path.parent
    assert config.personas["pirate"].source_dir == path.parent
    assert dict(config.agent_models) == {"explore": "grok-3-mini"}


def test_config_bad_key_in_a_table_names_its_line(tmp_path: Path) -> None:
    text = CONFIG.replace(
        '[personas.pirate]\ninstructions = "Speak like a pirate."\n',
        '[personas.pirate]\ninstructions = "x"\nmodle = "m"\n',
    )
    path = write(tmp_path / "agents.toml", text)
    error_at(path, 9, load_config_file, r"persona 'pirate'.*did you mean 'model'")


def test_config_unknown_top_level_key(tmp_path: Path) -> None:
    path = write(tmp_path / "agents.toml", 'known_models = []\n\n[persona.x]\ninstructions = "y"\n')
    error_at(path, 1, load_config_file, "did you mean 'personas'")


def test_config_agent_pin_accepts_only_model(tmp_path: Path) -> None:
    path = write(tmp_path / "agents.toml", '[agents.explore]\nmodel = "a"\neffort = "high"\n')
    error_at(path, 3, load_config_file, "unknown key 'effort'")


def test_config_known_models_must_be_a_list(tmp_path: Path) -> None:
    path = write(tmp_path / "agents.toml", '\nknown_models = "grok-4"\n')
    error_at(path, 2, load_config_file, "must be a list")


def test_missing_config_file(tmp_path: Path) -> None:
    path = tmp_path / "nope.toml"
    with pytest.raises(AgentConfigError, match=rf"{re.escape(str(path))}: cannot read"):
        load_config_file(path)
