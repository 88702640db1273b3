"""The cascade matrix: every field × every combination of level states. Pure.

For each cascaded field, each level that can speak to it takes one of a few
states — ``unset``, a valid value, or an ``invalid`` one where the field is
validated — and the real ``resolve_spawn`` is run on every combination.
``matrix_rows`` returns the rows as dictionaries; ``tables.cascade_matrix``
makes the DataFrame the agent-config notebook shows.

States per field (a level absent from a field's entry cannot set it)::

    model             override, role, persona: unset | known | unknown
                      pin, definition, parent: unset | set;  fork_context: no | yes
    reasoning_effort  override, role, persona, definition: unset | set
    capability_mode   override, role: unset | valid | invalid   (a persona has none)
    isolation         override, role, persona, definition: unset | none | worktree | invalid

"invalid" means a value the field's parser rejects: an unknown model (the
model chain validates only the cascaded model), a misspelt mode. An invalid
*override* mode is rejected when the spawn is built (value ``<rejected>``).
Reasoning effort is never validated, so it has no invalid state. The role and
persona always exist (the persona with instructions): only the one field varies.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable
from pathlib import Path

from memlab.agents.provenance import display
from memlab.agents.spawn import resolve_spawn
from memlab.agents.types import (
    AgentDefinition,
    SpawnOverrides,
    SubagentPersona,
    SubagentRole,
    require_capability,
    require_isolation,
)
from memlab.errors import ConfigError, unknown_name

MATRIX_COLUMNS = (
    "override",
    "role",
    "persona",
    "pin",
    "definition",
    "parent",
    "fork_context",
)
_KNOWN3 = ("unset", "known", "unknown")
_SET2 = ("unset", "set")
_ISO4 = ("unset", "none", "worktree", "invalid")
MATRIX_STATES: dict[str, dict[str, tuple[str, ...]]] = {
    "model": {
        "override": _KNOWN3,
        "role": _KNOWN3,
        "persona": _KNOWN3,
        "pin": _SET2,
        "definition": _SET2,
        "parent": _SET2,
        "fork_context": ("no", "yes"),
    },
    "reasoning_effort": {"override": _SET2, "role": _SET2, "persona": _SET2, "definition": _SET2},
    "capability_mode": {
        "override": ("unset", "valid", "invalid"),
        "role": ("unset", "valid", "invalid"),
    },
    "isolation": {"override": _ISO4, "role": _ISO4, "persona": _ISO4, "definition": _ISO4},
}
REJECTED = "<rejected>"
_VALID_CAPABILITY = {"override": "execute", "role": "read-only"}


def raw_value(field: str, level: str, state: str) -> str | None:
    """The concrete value a level writes for ``state`` (None when unset)."""
    if state in ("unset", "no"):
        return None
    if field == "model":
        return f"{state}-{level}" if state in ("known", "unknown") else f"model-{level}"
    if field == "capability_mode":
        return _VALID_CAPABILITY[level] if state == "valid" else "bogus"
    if field == "isolation":
        return "sideways" if state == "invalid" else state
    return f"effort-{level}"


def known_models() -> frozenset[str]:
    """The model registry of the matrix: every ``known-*`` cascade model."""
    return frozenset(f"known-{level}" for level in ("override", "role", "persona"))


def matrix_rows(field: str) -> list[dict[str, str]]:
    """One row per combination of states for ``field`` (see the module docstring)."""
    if field not in MATRIX_STATES:
        raise ConfigError(unknown_name("cascade field", field, MATRIX_STATES))
    levels = MATRIX_STATES[field]
    rows = []
    for combo in itertools.product(*levels.values()):
        states = dict(zip(levels, combo, strict=True))
        value, level = run_combination(field, states)
        row = {"field": field, **{c: states.get(c, "") for c in MATRIX_COLUMNS}}
        rows.append({**row, "value": value, "level": level})
    return rows


def run_combination(field: str, states: dict[str, str]) -> tuple[str, str]:
    """Resolve one combination; returns the displayed value and the deciding level."""
    raw = {level: raw_value(field, level, s) for level, s in states.items()}
    try:
        overrides = _overrides(field, raw.get("override"))
    except ConfigError:
        return REJECTED, "override"
    role = _role(field, raw.get("role"))
    persona = _persona(field, raw.get("persona"))
    definition = _definition(field, raw.get("definition"))
    result = resolve_spawn(
        "t",
        definition=definition,
        overrides=overrides,
        roles={"t": role},
        personas={"p": persona},
        cwd=Path("."),
        reader=_no_files,
        parent_model=raw.get("parent"),
        fork_context=states.get("fork_context") == "yes",
        agent_models={"t": pin} if (pin := raw.get("pin")) else {},
        known_models=known_models(),
    )
    prov = result.provenance[field]
    return display(prov.value), prov.level


def _overrides(field: str, value: str | None) -> SpawnOverrides:
    if field == "model":
        return SpawnOverrides(model=value, persona="p")
    if field == "reasoning_effort":
        return SpawnOverrides(reasoning_effort=value, persona="p")
    if field == "capability_mode":
        cap = require_capability(value) if value is not None else None
        return SpawnOverrides(capability_mode=cap, persona="p")
    iso = require_isolation(value) if value is not None else None
    return SpawnOverrides(isolation=iso, persona="p")


def _role(field: str, value: str | None) -> SubagentRole:
    if field == "model":
        return SubagentRole("t", model=value)
    if field == "reasoning_effort":
        return SubagentRole("t", reasoning_effort=value)
    if field == "capability_mode":
        return SubagentRole("t", default_capability_mode=value)
    return SubagentRole("t", default_isolation=value)


def _persona(field: str, value: str | None) -> SubagentPersona:
    if field == "model":
        return SubagentPersona("p", instructions="Be brief.", model=value)
    if field == "reasoning_effort":
        return SubagentPersona("p", instructions="Be brief.", reasoning_effort=value)
    if field == "isolation":
        return SubagentPersona("p", instructions="Be brief.", default_isolation=value)
    return SubagentPersona("p", instructions="Be brief.")  # no capability mode on a persona


def _definition(field: str, value: str | None) -> AgentDefinition:
    if field == "model":
        return AgentDefinition("t", model=value)
    if field == "reasoning_effort":
        return AgentDefinition("t", effort=value)
    if field == "isolation":
        return AgentDefinition("t", isolation=value)
    return AgentDefinition("t")


def _no_files(path: Path) -> str:
    raise FileNotFoundError(2, "the matrix reads no files", str(path))


def all_matrix_rows(fields: Iterable[str] | None = None) -> list[dict[str, str]]:
    """``matrix_rows`` for several fields (default: all four cascaded fields)."""
    return [row for f in (fields or MATRIX_STATES) for row in matrix_rows(f)]
