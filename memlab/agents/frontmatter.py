"""Parse an agent file (``.grok/agents/*.md``, ``.claude/agents/*.md``). No I/O.

The format: a ``---`` line, a YAML mapping, a ``---`` line, then the prompt
body. Keys memlab does not interpret (``color`` in Claude agent files, …) are
kept in ``AgentDefinition.extra`` rather than rejected, so foreign agent files
load. Errors name the file and the line (from the YAML parser's marks; the
front matter starts on line 2 of the file).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from types import MappingProxyType
from typing import Any

import yaml

from memlab.agents._fields import Origin, opt_str
from memlab.agents.types import AgentDefinition
from memlab.errors import AgentConfigError

_AGENT_STR_KEYS = (
    "name",
    "description",
    "prompt_mode",
    "capability_mode",
    "permission_mode",
    "isolation",
    "model",
    "effort",
)
_AGENT_OTHER_KEYS = ("tools", "tool_config", "hooks", "mcp_inheritance")


def parse_agent_markdown(text: str, path: Path) -> AgentDefinition:
    """An agent file: ``---`` / YAML mapping / ``---`` / prompt body."""
    lines = text.lstrip("\ufeff").splitlines()
    if not lines or lines[0].rstrip() != "---":
        raise AgentConfigError(f"{path}:1: an agent file must start with a '---' front matter line")
    end = next((i for i in range(1, len(lines)) if lines[i].rstrip() == "---"), None)
    if end is None:
        raise AgentConfigError(f"{path}:1: front matter opened on line 1 is never closed by '---'")
    data, key_lines = _load_front_matter("\n".join(lines[1:end]), path)
    origin = Origin(path, line=2, key_lines=key_lines)
    values = {k: opt_str(data, k, origin) for k in _AGENT_STR_KEYS}
    hooks = data.get("hooks")
    if hooks is not None and not isinstance(hooks, Mapping):
        raise AgentConfigError(f"{origin.at('hooks')}: 'hooks' must be a mapping")
    extra = {k: v for k, v in data.items() if k not in _AGENT_STR_KEYS + _AGENT_OTHER_KEYS}
    return AgentDefinition(
        name=values["name"] or path.stem,
        description=values["description"],
        prompt="\n".join(lines[end + 1 :]).strip(),
        prompt_mode=values["prompt_mode"],
        tool_config=data.get("tool_config"),
        capability_mode=values["capability_mode"],
        permission_mode=values["permission_mode"],
        tools=_tools(data.get("tools"), origin),
        isolation=values["isolation"],
        model=values["model"],
        effort=values["effort"],
        hooks=MappingProxyType(dict(hooks or {})),
        mcp_inheritance=data.get("mcp_inheritance"),
        extra=MappingProxyType(extra),
        source=path,
    )


def _load_front_matter(yaml_text: str, path: Path) -> tuple[dict[str, Any], dict[str, int]]:
    """The front matter mapping and the file line of each top-level key."""
    try:
        node = yaml.compose(yaml_text, Loader=yaml.SafeLoader)
        data = yaml.safe_load(yaml_text)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 2 if mark is not None else 2  # +1 for 1-based, +1 for '---'
        raise AgentConfigError(f"{path}:{line}: invalid YAML front matter: {exc.problem}") from exc
    except yaml.YAMLError as exc:
        raise AgentConfigError(f"{path}:2: invalid YAML front matter: {exc}") from exc
    except RecursionError:
        message = f"{path}:2: YAML front matter nested too deeply; flatten it"
        raise AgentConfigError(message) from None
    if data is None:
        return {}, {}
    if not isinstance(data, dict) or not isinstance(node, yaml.MappingNode):
        raise AgentConfigError(f"{path}:2: front matter must be a mapping of keys to values")
    key_lines = {str(k.value): k.start_mark.line + 2 for k, _ in node.value}
    return {str(k): v for k, v in data.items()}, key_lines


def _tools(value: Any, origin: Origin) -> tuple[str, ...] | None:
    """A YAML list of names, or a comma-separated string (the Claude form)."""
    if value is None:
        return None
    if isinstance(value, str):
        return tuple(t.strip() for t in value.split(",") if t.strip())
    if isinstance(value, list) and all(isinstance(t, str) for t in value):
        return tuple(value)
    raise AgentConfigError(f"{origin.at('tools')}: 'tools' must be a list of names or a string")
