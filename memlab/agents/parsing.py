"""Parse role, persona and config texts (TOML or plain mappings). No I/O.

Every function takes the text and the path it came from (for messages only).
A malformed text raises ``AgentConfigError`` whose message starts with
``path:line:``: the line comes from the TOML parser for syntax errors and from a
small key scanner (``toml_key_lines``) for bad values in valid TOML, because
tomllib does not report positions of values.

Role, persona and config tables reject unknown keys with a did-you-mean: a
misspelt ``defualt_isolation`` would otherwise silently drop out of the cascade.
A persona that tries to set a capability mode gets a message saying why not.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from memlab.agents import _toml
from memlab.agents._fields import Origin, check_keys, check_table, opt_str, str_list
from memlab.agents.types import SubagentPersona, SubagentRole
from memlab.errors import AgentConfigError

ROLE_KEYS = (
    "description",
    "default_capability_mode",
    "model",
    "reasoning_effort",
    "prompt_file",
    "default_isolation",
)
PERSONA_KEYS = (
    "instructions",
    "instructions_file",
    "inputs",
    "outputs",
    "model",
    "reasoning_effort",
    "default_isolation",
)
CONFIG_KEYS = ("known_models", "roles", "personas", "agents")
AGENT_PIN_KEYS = ("model",)


@dataclass(frozen=True)
class AgentsConfig:
    """Inline configuration: roles, personas, per-agent model pins, known models.

    ``known_models`` None means no model registry: every model counts as known.
    """

    roles: Mapping[str, SubagentRole] = field(default_factory=dict)
    personas: Mapping[str, SubagentPersona] = field(default_factory=dict)
    agent_models: Mapping[str, str] = field(default_factory=dict)
    known_models: frozenset[str] | None = None
    source: Path | None = None


# ── roles, personas, config (TOML or plain mappings) ─────────────────────


def parse_role_toml(text: str, path: Path) -> SubagentRole:
    """``.grok/roles/<name>.toml``: the file stem is the role name."""
    data, origin = _load_toml(text, path, table=())
    return role_from_mapping(path.stem, data, origin, source=path, source_dir=path.parent)


def parse_persona_toml(text: str, path: Path) -> SubagentPersona:
    """``.grok/personas/<name>.toml``: the file stem is the persona name."""
    data, origin = _load_toml(text, path, table=())
    return persona_from_mapping(path.stem, data, origin, source=path, source_dir=path.parent)


def parse_config_toml(text: str, path: Path) -> AgentsConfig:
    """A config file with ``[roles.*]``, ``[personas.*]``, ``[agents.*]``, ``known_models``."""
    data, _ = _load_toml(text, path, table=())
    return config_from_mapping(data, path=path, text=text)


def role_from_mapping(
    name: str,
    data: Mapping[str, Any],
    origin: Origin,
    *,
    source: Path | None = None,
    source_dir: Path | None = None,
) -> SubagentRole:
    check_table(data, origin, f"role '{name}'")
    check_keys(data, ROLE_KEYS, origin, f"role '{name}'")
    s = {k: opt_str(data, k, origin) for k in ROLE_KEYS}
    return SubagentRole(
        name=name,
        description=s["description"],
        default_capability_mode=s["default_capability_mode"],
        model=s["model"],
        reasoning_effort=s["reasoning_effort"],
        prompt_file=s["prompt_file"],
        default_isolation=s["default_isolation"],
        source=source,
        source_dir=source_dir,
    )


def persona_from_mapping(
    name: str,
    data: Mapping[str, Any],
    origin: Origin,
    *,
    source: Path | None = None,
    source_dir: Path | None = None,
) -> SubagentPersona:
    check_table(data, origin, f"persona '{name}'")
    for key in ("capability_mode", "default_capability_mode"):
        if key in data:
            raise AgentConfigError(
                f"{origin.at(key)}: persona '{name}' cannot set '{key}': a persona has no"
                " capability mode (SPEC §8.1); set it on a role or in the spawn override"
            )
    check_keys(data, PERSONA_KEYS, origin, f"persona '{name}'")
    s = {k: opt_str(data, k, origin) for k in PERSONA_KEYS if k not in ("inputs", "outputs")}
    return SubagentPersona(
        name=name,
        instructions=s["instructions"],
        instructions_file=s["instructions_file"],
        inputs=str_list(data, "inputs", origin),
        outputs=str_list(data, "outputs", origin),
        model=s["model"],
        reasoning_effort=s["reasoning_effort"],
        default_isolation=s["default_isolation"],
        source=source,
        source_dir=source_dir,
    )


def config_from_mapping(
    data: Mapping[str, Any], *, path: Path | None = None, text: str | None = None
) -> AgentsConfig:
    """Build ``AgentsConfig``; inline personas read files relative to the config's dir."""
    top = _origin(path, text, ())
    check_keys(data, CONFIG_KEYS, top, "config")
    base = path.parent if path is not None else None
    roles = {
        name: role_from_mapping(
            name, table, _origin(path, text, ("roles", name)), source=path, source_dir=base
        )
        for name, table in _tables(data, "roles", top).items()
    }
    personas = {
        name: persona_from_mapping(
            name, table, _origin(path, text, ("personas", name)), source=path, source_dir=base
        )
        for name, table in _tables(data, "personas", top).items()
    }
    pins: dict[str, str] = {}
    for name, table in _tables(data, "agents", top).items():
        origin = _origin(path, text, ("agents", name))
        check_table(table, origin, f"agent '{name}'")
        check_keys(table, AGENT_PIN_KEYS, origin, f"agent '{name}'")
        model = opt_str(table, "model", origin)
        if model is not None:
            pins[name] = model
    known = data.get("known_models")
    if known is not None and not (
        isinstance(known, list) and all(isinstance(m, str) for m in known)
    ):
        raise AgentConfigError(f"{top.at('known_models')}: 'known_models' must be a list of names")
    return AgentsConfig(
        roles=roles,
        personas=personas,
        agent_models=pins,
        known_models=frozenset(known) if known is not None else None,
        source=path,
    )


def _load_toml(text: str, path: Path, table: tuple[str, ...]) -> tuple[dict[str, Any], Origin]:
    try:
        data = _toml.loads(text)
    except _toml.TomlSyntaxError as exc:
        raise AgentConfigError(f"{path}:{exc.line or 1}: invalid TOML: {exc}") from exc
    return data, _origin(path, text, table)


def _origin(path: Path | None, text: str | None, table: tuple[str, ...]) -> Origin:
    label = "inline config" + (f" [{'.'.join(table)}]" if table else "")
    if path is None or text is None:
        return Origin(path, label=label)
    header, key_lines = toml_key_lines(text, table)
    return Origin(path, line=header, key_lines=key_lines, label=label)


def _tables(data: Mapping[str, Any], key: str, origin: Origin) -> dict[str, Any]:
    tables = data.get(key, {})
    if not isinstance(tables, Mapping):
        raise AgentConfigError(f"{origin.at(key)}: '{key}' must be a table of named tables")
    return dict(tables)


# ── where is a key in a TOML text? ───────────────────────────────────────

_HEADER = re.compile(r"^\s*\[\s*([^\[\]]+?)\s*\]\s*(#.*)?$")
_KEY = re.compile(r"""^\s*(?:"([^"]*)"|'([^']*)'|([A-Za-z0-9_-]+))\s*=""")
_DOT = re.compile(r"""\.(?=(?:[^"']*["'][^"']*["'])*[^"']*$)""")


def toml_key_lines(text: str, table: tuple[str, ...]) -> tuple[int, dict[str, int]]:
    """Line of the ``[table]`` header (1 for the top level) and of each key in it.

    A best-effort scanner for error messages: it does not parse multi-line
    strings, so a key-like line inside one may be reported; the first wins.
    """
    current: tuple[str, ...] = ()
    header = 1
    keys: dict[str, int] = {}
    for number, line in enumerate(text.splitlines(), start=1):
        match = _HEADER.match(line)
        if match:
            current = tuple(p.strip().strip("\"'") for p in _DOT.split(match.group(1)))
            if current == table:
                header = number
            continue
        key = _KEY.match(line)
        if key and current == table:
            keys.setdefault(next(g for g in key.groups() if g is not None), number)
    return header, keys
