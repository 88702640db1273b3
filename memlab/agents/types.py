"""The structures of sub-agent configuration (SPEC §8.1). No I/O.

Four structures, each living at a different stage:

* ``AgentDefinition`` — the versionable contract parsed from an agent file
  (front matter + prompt body). It feeds the definition fallbacks and the model
  chain *after* the cascade.
* ``SubagentRole`` — a runtime preset found by subagent type (else by persona
  name). It can set capability mode; a persona cannot.
* ``SubagentPersona`` — a behaviour layer chosen by name. **No capability_mode.**
* ``EffectiveRuntimeConfig`` — the resolved result, with exactly ten fields and
  no temperature, max_tokens or tools.

Roles, personas and definitions keep enum-valued settings as the raw strings the
user wrote: parsing happens in the cascade, because *when* a string is parsed is
part of the semantics (a role's invalid isolation string shadows the persona's
valid one before parsing). ``SpawnOverrides`` are typed (the spawn tool's schema
validates them), so an invalid override value is rejected when it is built.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any

from memlab.errors import ConfigError, unknown_name


class CapabilityMode(str, enum.Enum):
    """What a sub-agent may do."""

    READ_ONLY = "read-only"
    READ_WRITE = "read-write"
    EXECUTE = "execute"
    ALL = "all"


class IsolationMode(str, enum.Enum):
    """Where a sub-agent works; ``NONE`` is the default mode."""

    NONE = "none"
    WORKTREE = "worktree"


CAPABILITY_MODES: tuple[str, ...] = tuple(m.value for m in CapabilityMode)
ISOLATION_MODES: tuple[str, ...] = tuple(m.value for m in IsolationMode)


def parse_capability_mode(value: object) -> CapabilityMode | None:
    """The mode spelled exactly as in SPEC §8.1, else None (never raises)."""
    if isinstance(value, CapabilityMode):
        return value
    if isinstance(value, str):
        for mode in CapabilityMode:
            if mode.value == value:
                return mode
    return None


def parse_isolation_mode(value: object) -> IsolationMode | None:
    """``"none"`` or ``"worktree"`` exactly, else None (never raises)."""
    if isinstance(value, IsolationMode):
        return value
    if isinstance(value, str):
        for mode in IsolationMode:
            if mode.value == value:
                return mode
    return None


@dataclass(frozen=True)
class AgentDefinition:
    """An agent file: front matter settings plus the prompt body.

    ``source`` is the file it was read from (None for built-ins). Keys of the front
    matter that memlab does not interpret (``color`` in Claude agent files, …)
    are kept in ``extra`` rather than rejected, so foreign agent files load.
    """

    name: str
    description: str | None = None
    prompt: str = ""
    prompt_mode: str | None = None
    tool_config: Any = None
    capability_mode: str | None = None
    permission_mode: str | None = None
    tools: tuple[str, ...] | None = None
    isolation: str | None = None
    model: str | None = None
    effort: str | None = None
    hooks: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))
    mcp_inheritance: Any = None
    extra: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))
    source: Path | None = None


@dataclass(frozen=True)
class SubagentRole:
    """A runtime preset (SPEC §8.1). ``source_dir`` anchors a relative prompt_file."""

    name: str
    description: str | None = None
    default_capability_mode: str | None = None
    model: str | None = None
    reasoning_effort: str | None = None
    prompt_file: str | None = None
    default_isolation: str | None = None
    source: Path | None = None
    source_dir: Path | None = None


@dataclass(frozen=True)
class SubagentPersona:
    """A behaviour layer (SPEC §8.1); it has no capability_mode on purpose."""

    name: str
    instructions: str | None = None
    instructions_file: str | None = None
    inputs: tuple[str, ...] = ()
    outputs: tuple[str, ...] = ()
    model: str | None = None
    reasoning_effort: str | None = None
    default_isolation: str | None = None
    source: Path | None = None
    source_dir: Path | None = None


@dataclass(frozen=True)
class EffectiveRuntimeConfig:
    """The resolved result: exactly these ten fields (SPEC §8.1)."""

    model: str | None = None
    reasoning_effort: str | None = None
    capability_mode: CapabilityMode | None = None
    persona: str | None = None
    persona_instructions: str | None = None
    role_prompt: str | None = None
    role_prompt_warning: str | None = None
    role_name: str | None = None
    persona_error: str | None = None
    isolation: IsolationMode = IsolationMode.NONE


@dataclass(frozen=True)
class SpawnOverrides:
    """Level 1 of the cascade: what the spawn call sets explicitly.

    Strings are accepted for the two enum fields and parsed here; an invalid one
    raises ``ConfigError`` (the spawn tool's schema would refuse it).
    """

    model: str | None = None
    reasoning_effort: str | None = None
    capability_mode: CapabilityMode | None = None
    persona: str | None = None
    isolation: IsolationMode | None = None

    def __post_init__(self) -> None:
        if self.capability_mode is not None:
            object.__setattr__(self, "capability_mode", require_capability(self.capability_mode))
        if self.isolation is not None:
            object.__setattr__(self, "isolation", require_isolation(self.isolation))


def require_capability(value: object) -> CapabilityMode:
    """Parse a capability mode given by the user; ``ConfigError`` if invalid."""
    mode = parse_capability_mode(value)
    if mode is None:
        raise ConfigError(unknown_name("capability_mode", str(value), CAPABILITY_MODES))
    return mode


def require_isolation(value: object) -> IsolationMode:
    """Parse an isolation mode given by the user; ``ConfigError`` if invalid."""
    mode = parse_isolation_mode(value)
    if mode is None:
        raise ConfigError(unknown_name("isolation", str(value), ISOLATION_MODES))
    return mode


OVERRIDE_FIELDS: tuple[str, ...] = (
    "model",
    "reasoning_effort",
    "capability_mode",
    "persona",
    "isolation",
)


def overrides_from_assignments(assignments: Iterable[str]) -> SpawnOverrides:
    """``["model=grok-4", "isolation=worktree"]`` → ``SpawnOverrides``.

    Unknown fields and invalid enum values raise ``ConfigError`` with a
    did-you-mean; so does setting one field twice.
    """
    values: dict[str, str] = {}
    for item in assignments:
        key, sep, value = item.partition("=")
        key = key.strip()
        if not sep or not key:
            raise ConfigError(f"expected field=value, got '{item}'")
        if key not in OVERRIDE_FIELDS:
            raise ConfigError(unknown_name("override field", key, OVERRIDE_FIELDS))
        if key in values:
            raise ConfigError(f"override field '{key}' is set twice")
        if not value.strip():
            raise ConfigError(f"override field '{key}' needs a value ({key}=VALUE)")
        values[key] = value.strip()
    capability = values.get("capability_mode")
    isolation = values.get("isolation")
    return SpawnOverrides(
        model=values.get("model"),
        reasoning_effort=values.get("reasoning_effort"),
        capability_mode=require_capability(capability) if capability is not None else None,
        persona=values.get("persona"),
        isolation=require_isolation(isolation) if isolation is not None else None,
    )
