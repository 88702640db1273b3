"""Which level set each field of the resolved configuration, and what it shadowed.

Levels, highest first in the cascade (SPEC §8.2), then the fallbacks that run
after it::

    override    the spawn call
    role        the SubagentRole found by type (else by persona name)
    persona     the SubagentPersona named by the override
    pin         the per-agent model pin of the config   (model chain only)
    definition  the AgentDefinition                      (fallbacks only)
    parent      the parent session's model              (model chain only)
    none        nothing set the field: it keeps its default

``FieldProvenance.considered`` lists every level that had a value for the field,
in precedence order; ``shadowed`` is all of them but the winner. A level can win
with a value that differs from what it wrote (an invalid role isolation string
wins and yields the None mode); ``note`` says why.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Protocol

from memlab.agents.types import EffectiveRuntimeConfig

OVERRIDE = "override"
ROLE = "role"
PERSONA = "persona"
PIN = "pin"
DEFINITION = "definition"
PARENT = "parent"
NONE = "none"

LEVELS: tuple[str, ...] = (OVERRIDE, ROLE, PERSONA, PIN, DEFINITION, PARENT, NONE)
PROVENANCE_COLUMNS = ("field", "value", "level", "raw", "shadowed", "note")
CONFIG_FIELDS: tuple[str, ...] = tuple(f.name for f in fields(EffectiveRuntimeConfig))


@dataclass(frozen=True)
class Candidate:
    """A value one level offered for a field, as written there."""

    level: str
    raw: object


@dataclass(frozen=True)
class FieldProvenance:
    """How one field got its value."""

    value: object
    level: str = NONE
    considered: tuple[Candidate, ...] = ()
    note: str = ""

    @property
    def raw(self) -> object:
        """What the winning level wrote (None when no level set the field)."""
        return next((c.raw for c in self.considered if c.level == self.level), None)

    @property
    def shadowed(self) -> tuple[Candidate, ...]:
        """Every level that had a value but did not decide the field."""
        return tuple(c for c in self.considered if c.level != self.level)


def candidates(*pairs: tuple[str, object]) -> tuple[Candidate, ...]:
    """The ``(level, raw)`` pairs whose raw value is set, in the order given."""
    return tuple(Candidate(level, raw) for level, raw in pairs if raw is not None)


def display(value: object) -> str:
    """A value as the CLI and tables show it (enum values by their spelling)."""
    if value is None:
        return "-"
    enum_value = getattr(value, "value", None)
    return str(enum_value) if isinstance(enum_value, str) else str(value)


class HasProvenance(Protocol):
    """A ``Resolution`` or a ``Cascade``."""

    @property
    def provenance(self) -> Mapping[str, FieldProvenance]: ...


def provenance_rows(resolved: HasProvenance) -> list[dict[str, str]]:
    """One row per field of ``EffectiveRuntimeConfig``, in declaration order."""
    rows = []
    for name in CONFIG_FIELDS:
        prov = resolved.provenance[name]
        shadowed = "; ".join(f"{c.level}={display(c.raw)}" for c in prov.shadowed)
        rows.append(
            {
                "field": name,
                "value": display(prov.value),
                "level": prov.level,
                "raw": display(prov.raw),
                "shadowed": shadowed,
                "note": prov.note,
            }
        )
    return rows
