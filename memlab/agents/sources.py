"""Read agent, role, persona and config files from disk.

Each loader reads one file or one directory and hands the text to the pure
parsers (``frontmatter``, ``parsing``). A file that cannot be read or decoded
raises ``AgentConfigError`` naming it (with the line of a bad byte). Directory
listings are sorted by file name, so discovery is deterministic; a missing
directory is simply empty.

``read_text`` is also the ``reader`` the cascade uses for persona instructions
and role prompts: there, a failure is not raised further but becomes a
``persona_error`` or a ``role_prompt_warning`` (see ``resolve``).
"""

from __future__ import annotations

from pathlib import Path

from memlab.agents.frontmatter import parse_agent_markdown
from memlab.agents.parsing import (
    AgentsConfig,
    parse_config_toml,
    parse_persona_toml,
    parse_role_toml,
)
from memlab.agents.types import AgentDefinition, SubagentPersona, SubagentRole
from memlab.errors import AgentConfigError


def read_text(path: Path) -> str:
    """A UTF-8 text file; ``OSError`` / ``UnicodeDecodeError`` propagate."""
    return path.read_text(encoding="utf-8")


def _read_config_file(path: Path) -> str:
    try:
        return read_text(path)
    except UnicodeDecodeError as exc:
        line = exc.object[: exc.start].count(b"\n") + 1
        raise AgentConfigError(f"{path}:{line}: not valid UTF-8: {exc.reason}") from exc
    except OSError as exc:
        raise AgentConfigError(f"{path}: cannot read: {exc.strerror or exc}") from exc


def load_agent_file(path: Path) -> AgentDefinition:
    return parse_agent_markdown(_read_config_file(path), path)


def load_role_file(path: Path) -> SubagentRole:
    return parse_role_toml(_read_config_file(path), path)


def load_persona_file(path: Path) -> SubagentPersona:
    return parse_persona_toml(_read_config_file(path), path)


def load_config_file(path: Path) -> AgentsConfig:
    """A TOML config with ``[roles.*]``, ``[personas.*]``, ``[agents.*]``, ``known_models``."""
    return parse_config_toml(_read_config_file(path), path)


def _files(directory: Path, suffix: str) -> list[Path]:
    if not directory.is_dir():
        return []
    return sorted(p for p in directory.iterdir() if p.suffix == suffix and p.is_file())


def load_agents_dir(directory: Path) -> list[AgentDefinition]:
    """Every ``*.md`` agent file in ``directory``, by file name."""
    return [load_agent_file(p) for p in _files(directory, ".md")]


def load_roles_dir(directory: Path) -> list[SubagentRole]:
    """Every ``*.toml`` role in ``directory`` (file stem = role name)."""
    return [load_role_file(p) for p in _files(directory, ".toml")]


def load_personas_dir(directory: Path) -> list[SubagentPersona]:
    """Every ``*.toml`` persona in ``directory`` (file stem = persona name)."""
    return [load_persona_file(p) for p in _files(directory, ".toml")]
