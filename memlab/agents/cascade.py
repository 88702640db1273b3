"""The field-wise cascade ``resolve_effective_overrides`` (SPEC §8.2, §8.3). Pure.

For each field the first level that has a value decides it::

    model, reasoning_effort   override ‖ role ‖ persona ‖ None
    capability_mode           override ‖ parse(role)            (persona has none)
    isolation                 override ‖ parse(role ‖ persona) ‖ None mode

The role's isolation *string* shadows the persona's before parsing, so an
invalid role value yields the None mode even when the persona's is valid; an
invalid role capability string likewise yields None.

Failure modes — the distinction the seed insists on:

* the persona **fails closed**: not found or no instructions → ``persona_error``;
  an unreadable instructions file (or no directory to resolve it against)
  returns early with only ``persona`` and ``persona_error`` set;
* the role prompt **degrades softly**: an unreadable ``prompt_file`` only sets
  ``role_prompt_warning`` and everything else still resolves.

Only the I/O failure returns early (SPEC §8.3 names it alone); after "not found"
or "no instructions" the other fields still resolve — a persona that exists but
has no instructions still contributes its defaults — and the spawn side aborts
on the error all the same (``spawn.spawn_decision``). Instruction parts are
stripped; a file of only whitespace counts as no instructions.

Reading the persona instructions file and the role prompt file is the only
input from outside; it goes through the ``reader`` argument (``sources.read_text``
in real use, a dictionary in tests), so this module does no I/O itself.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

from memlab.agents.provenance import (
    NONE,
    OVERRIDE,
    PERSONA,
    ROLE,
    FieldProvenance,
    candidates,
)
from memlab.agents.types import (
    CAPABILITY_MODES,
    ISOLATION_MODES,
    EffectiveRuntimeConfig,
    IsolationMode,
    SpawnOverrides,
    SubagentPersona,
    SubagentRole,
    parse_capability_mode,
    parse_isolation_mode,
)
from memlab.errors import did_you_mean

TextReader = Callable[[Path], str]
"""Reads a text file; raises ``OSError`` (or ``UnicodeDecodeError``) on failure."""


@dataclass(frozen=True)
class Cascade:
    """The cascade's result, with the provenance of every field."""

    config: EffectiveRuntimeConfig
    provenance: Mapping[str, FieldProvenance]
    early_return: bool = False


@dataclass(frozen=True)
class _PersonaOutcome:
    persona: SubagentPersona | None = None
    instructions: str | None = None
    error: str | None = None
    early_return: bool = False


def find_role(
    subagent_type: str | None, persona_name: str | None, roles: Mapping[str, SubagentRole]
) -> tuple[SubagentRole | None, str | None]:
    """The role named by the subagent type, else the one named like the persona."""
    for key in (subagent_type, persona_name):
        if key is not None and key in roles:
            return roles[key], key
    return None, None


def resolve_effective_overrides(
    overrides: SpawnOverrides,
    role: SubagentRole | None,
    personas: Mapping[str, SubagentPersona],
    cwd: Path | None,
    role_name: str | None,
    *,
    reader: TextReader,
) -> EffectiveRuntimeConfig:
    """SPEC §8.2: fold override, role and persona into the runtime config."""
    return cascade(overrides, role, personas, cwd, role_name, reader=reader).config


def cascade(
    overrides: SpawnOverrides,
    role: SubagentRole | None,
    personas: Mapping[str, SubagentPersona],
    cwd: Path | None,
    role_name: str | None,
    *,
    reader: TextReader,
) -> Cascade:
    """``resolve_effective_overrides`` with the provenance of every field."""
    outcome = _resolve_persona(overrides.persona, personas, cwd, reader)
    if outcome.early_return:
        return _early_return(overrides, role, outcome)
    persona = outcome.persona
    prov = {
        "model": _first("model", overrides.model, role, persona),
        "reasoning_effort": _first("reasoning_effort", overrides.reasoning_effort, role, persona),
        "capability_mode": _capability(overrides, role),
        "isolation": _isolation(overrides, role, persona),
    }
    prompt, warning = _role_prompt(role, cwd, reader)
    config = EffectiveRuntimeConfig(
        model=_str(prov["model"].value),
        reasoning_effort=_str(prov["reasoning_effort"].value),
        capability_mode=parse_capability_mode(prov["capability_mode"].value),
        persona=overrides.persona,
        persona_instructions=outcome.instructions,
        role_prompt=prompt,
        role_prompt_warning=warning,
        role_name=role_name,
        persona_error=outcome.error,
        isolation=parse_isolation_mode(prov["isolation"].value) or IsolationMode.NONE,
    )
    prov.update(_other_fields(config))
    return Cascade(config, prov)


def _first(
    field: str, override: str | None, role: SubagentRole | None, persona: SubagentPersona | None
) -> FieldProvenance:
    considered = candidates(
        (OVERRIDE, override),
        (ROLE, getattr(role, field) if role else None),
        (PERSONA, getattr(persona, field) if persona else None),
    )
    if not considered:
        return FieldProvenance(None)
    return FieldProvenance(considered[0].raw, considered[0].level, considered)


def _capability(overrides: SpawnOverrides, role: SubagentRole | None) -> FieldProvenance:
    considered = candidates(
        (OVERRIDE, overrides.capability_mode),
        (ROLE, role.default_capability_mode if role else None),
    )
    if not considered:
        return FieldProvenance(None)
    winner = considered[0]
    value = parse_capability_mode(winner.raw)
    note = "" if value is not None else _invalid(winner.raw, CAPABILITY_MODES, "None")
    return FieldProvenance(value, winner.level, considered, note)


def _isolation(
    overrides: SpawnOverrides, role: SubagentRole | None, persona: SubagentPersona | None
) -> FieldProvenance:
    considered = candidates(
        (OVERRIDE, overrides.isolation),
        (ROLE, role.default_isolation if role else None),
        (PERSONA, persona.default_isolation if persona else None),
    )
    if not considered:
        return FieldProvenance(IsolationMode.NONE, NONE, (), "default: the None mode")
    winner = considered[0]  # the role string shadows the persona string before parsing
    value = parse_isolation_mode(winner.raw)
    if value is None:
        note = _invalid(winner.raw, ISOLATION_MODES, "the None mode")
        if any(c.level == PERSONA for c in considered[1:]):
            note += "; it shadows the persona's value all the same"
        return FieldProvenance(IsolationMode.NONE, winner.level, considered, note)
    return FieldProvenance(value, winner.level, considered)


def _invalid(raw: object, valid: tuple[str, ...], result: str) -> str:
    hint = did_you_mean(str(raw), valid).strip()
    suffix = f" ({hint})" if hint else ""
    return f"'{raw}' is not one of {', '.join(valid)} → {result}{suffix}"


def _resolve_persona(
    name: str | None, personas: Mapping[str, SubagentPersona], cwd: Path | None, reader: TextReader
) -> _PersonaOutcome:
    if name is None:
        return _PersonaOutcome()
    persona = personas.get(name)
    if persona is None:
        known = ", ".join(sorted(personas)) or "none are defined"
        hint = did_you_mean(name, personas)
        return _PersonaOutcome(error=f"persona '{name}' not found;{hint} known personas: {known}")
    parts = [persona.instructions.strip()] if persona.instructions else []
    if persona.instructions_file:
        file_text, error = _read_relative(
            persona.instructions_file, persona.source_dir, cwd, reader
        )
        if error is not None:
            message = f"persona '{name}': cannot read instructions_file: {error}"
            return _PersonaOutcome(persona, error=message, early_return=True)
        parts.append((file_text or "").strip())
    instructions = "\n\n".join(p for p in parts if p)
    if not instructions:
        return _PersonaOutcome(persona, error=f"persona '{name}' has no instructions")
    return _PersonaOutcome(persona, instructions=instructions)


def _role_prompt(
    role: SubagentRole | None, cwd: Path | None, reader: TextReader
) -> tuple[str | None, str | None]:
    if role is None or not role.prompt_file:
        return None, None
    text, error = _read_relative(role.prompt_file, role.source_dir, cwd, reader)
    if error is not None:
        warning = f"role '{role.name}': cannot read prompt_file: {error}; continuing without it"
        return None, warning
    return (text or "").strip() or None, None


def _read_relative(
    name: str, source_dir: Path | None, cwd: Path | None, reader: TextReader
) -> tuple[str | None, str | None]:
    """Read ``name`` relative to the source dir, else cwd: ``(text, None)`` or ``(None, error)``."""
    path = Path(name)
    if not path.is_absolute():
        base = source_dir if source_dir is not None else cwd
        if base is None:
            return (
                None,
                f"'{name}' is relative and there is no base directory (no source dir, no cwd)",
            )
        path = base / path
    try:
        return reader(path), None
    except (OSError, UnicodeDecodeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        return None, f"{path}: {reason}"


def _early_return(
    overrides: SpawnOverrides, role: SubagentRole | None, outcome: _PersonaOutcome
) -> Cascade:
    """Persona file I/O error: only persona and persona_error are set (SPEC §8.3)."""
    config = EffectiveRuntimeConfig(persona=overrides.persona, persona_error=outcome.error)
    note = "persona instructions file unreadable: early return, field left at its default"
    cascaded = {
        "model": _first("model", overrides.model, role, outcome.persona),
        "reasoning_effort": _first(
            "reasoning_effort", overrides.reasoning_effort, role, outcome.persona
        ),
        "capability_mode": _capability(overrides, role),
        "isolation": _isolation(overrides, role, outcome.persona),
    }
    prov = {
        name: FieldProvenance(getattr(config, name), NONE, p.considered, note)
        for name, p in cascaded.items()
    }
    prov.update(_other_fields(config))
    return Cascade(config, prov, early_return=True)


def _other_fields(config: EffectiveRuntimeConfig) -> dict[str, FieldProvenance]:
    """Provenance of the six fields that are not cascaded but set by one level each."""

    def one(value: object, level: str, note: str = "") -> FieldProvenance:
        if value is None:
            return FieldProvenance(None)
        return FieldProvenance(value, level, candidates((level, value)), note)

    return {
        "persona": one(config.persona, OVERRIDE),
        "persona_instructions": one(config.persona_instructions, PERSONA),
        "role_prompt": one(config.role_prompt, ROLE),
        "role_prompt_warning": one(config.role_prompt_warning, ROLE),
        "role_name": one(config.role_name, ROLE),
        "persona_error": one(config.persona_error, PERSONA, "the spawn aborts"),
    }


def _str(value: object) -> str | None:
    return value if isinstance(value, str) else None


def render_persona_block(config: EffectiveRuntimeConfig) -> str | None:
    """The ``<persona>`` block that goes into the sub-agent's prompt, if any."""
    if not config.persona_instructions:
        return None
    return f"<persona>\n{config.persona_instructions}\n</persona>"
