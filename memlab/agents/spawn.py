"""After the cascade: definition fallbacks, the model chain, the spawn decision. Pure.

``resolve_spawn`` runs what a spawn runs, in order (SPEC §8.2, §8.3):

1. find the role (by subagent type, else by persona name);
2. the cascade (``resolve.cascade``);
3. **decision**: any ``persona_error`` aborts the spawn here — the fallbacks
   below never run; a ``role_prompt_warning`` is only passed on;
4. definition fallbacks: reasoning_effort still None → ``AgentDefinition.effort``;
   isolation at the None mode and the definition says worktree → worktree
   (an upgrade only: a definition never downgrades worktree to none);
5. the model chain: fork-context → the parent's model; else the cascaded model
   if known (unknown → warning, fall through) → the per-agent pin of the config
   → ``AgentDefinition.model`` → the parent's model.

Two memlab readings (the spec is silent): ``known_models=None`` means no model
registry, so every model counts as known; a definition model of ``inherit``
(the Claude agent-file convention) falls through to the parent's model.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass, replace
from pathlib import Path

from memlab.agents.cascade import Cascade, TextReader, cascade, find_role
from memlab.agents.provenance import (
    DEFINITION,
    NONE,
    PARENT,
    PIN,
    FieldProvenance,
    candidates,
)
from memlab.agents.types import (
    AgentDefinition,
    EffectiveRuntimeConfig,
    IsolationMode,
    SpawnOverrides,
    SubagentPersona,
    SubagentRole,
    parse_isolation_mode,
)

INHERIT = "inherit"


@dataclass(frozen=True)
class SpawnDecision:
    """Abort on any persona error; go on (with warnings) otherwise."""

    proceed: bool
    error: str | None = None
    warnings: tuple[str, ...] = ()


@dataclass(frozen=True)
class Resolution:
    """Everything a spawn of ``agent_type`` resolved, and why."""

    agent_type: str
    config: EffectiveRuntimeConfig
    provenance: Mapping[str, FieldProvenance]
    decision: SpawnDecision
    warnings: tuple[str, ...] = ()
    definition: AgentDefinition | None = None
    role: SubagentRole | None = None
    persona: SubagentPersona | None = None
    fallbacks_applied: bool = False


def spawn_decision(config: EffectiveRuntimeConfig, warnings: tuple[str, ...] = ()) -> SpawnDecision:
    """SPEC §8.3: the persona fails closed, the role prompt degrades softly."""
    if config.role_prompt_warning and config.role_prompt_warning not in warnings:
        warnings = (config.role_prompt_warning, *warnings)
    if config.persona_error:
        return SpawnDecision(False, config.persona_error, warnings)
    return SpawnDecision(True, None, warnings)


def resolve_spawn(
    agent_type: str,
    *,
    definition: AgentDefinition | None,
    overrides: SpawnOverrides,
    roles: Mapping[str, SubagentRole],
    personas: Mapping[str, SubagentPersona],
    cwd: Path | None,
    reader: TextReader,
    parent_model: str | None = None,
    fork_context: bool = False,
    agent_models: Mapping[str, str] | None = None,
    known_models: Collection[str] | None = None,
) -> Resolution:
    """Resolve one spawn of ``agent_type`` end to end (see the module docstring)."""
    role, role_name = find_role(agent_type, overrides.persona, roles)
    result = cascade(overrides, role, personas, cwd, role_name, reader=reader)
    applied = not result.config.persona_error  # a persona error aborts before the fallbacks
    warnings: tuple[str, ...] = ()
    if applied:
        result, warnings = apply_definition_fallbacks(
            result,
            definition,
            agent_model_pin=(agent_models or {}).get(agent_type),
            parent_model=parent_model,
            fork_context=fork_context,
            known_models=known_models,
        )
    decision = spawn_decision(result.config, warnings)
    return Resolution(
        agent_type=agent_type,
        config=result.config,
        provenance=result.provenance,
        decision=decision,
        warnings=decision.warnings,
        definition=definition,
        role=role,
        persona=personas.get(overrides.persona) if overrides.persona else None,
        fallbacks_applied=applied,
    )


def apply_definition_fallbacks(
    result: Cascade,
    definition: AgentDefinition | None,
    *,
    agent_model_pin: str | None = None,
    parent_model: str | None = None,
    fork_context: bool = False,
    known_models: Collection[str] | None = None,
) -> tuple[Cascade, tuple[str, ...]]:
    """Steps 4 and 5 of the module docstring; returns warnings (unknown model)."""
    prov = dict(result.provenance)
    prov["reasoning_effort"] = _effort(prov["reasoning_effort"], definition)
    prov["isolation"] = _isolation(prov["isolation"], definition)
    prov["model"], warnings = _model_chain(
        prov["model"],
        definition.model if definition else None,
        pin=agent_model_pin,
        parent_model=parent_model,
        fork_context=fork_context,
        known_models=known_models,
    )
    config = replace(
        result.config,
        model=_opt_str(prov["model"].value),
        reasoning_effort=_opt_str(prov["reasoning_effort"].value),
        isolation=parse_isolation_mode(prov["isolation"].value) or IsolationMode.NONE,
    )
    return Cascade(config, prov, result.early_return), warnings


def _effort(prov: FieldProvenance, definition: AgentDefinition | None) -> FieldProvenance:
    effort = definition.effort if definition else None
    considered = prov.considered + candidates((DEFINITION, effort))
    if prov.value is None and effort is not None:
        return FieldProvenance(effort, DEFINITION, considered, "definition fallback")
    return replace(prov, considered=considered)


def _isolation(prov: FieldProvenance, definition: AgentDefinition | None) -> FieldProvenance:
    raw = definition.isolation if definition else None
    considered = prov.considered + candidates((DEFINITION, raw))
    parsed = parse_isolation_mode(raw)
    if prov.value is IsolationMode.NONE and parsed is IsolationMode.WORKTREE:
        note = "definition upgrades the None mode to worktree"
        return FieldProvenance(IsolationMode.WORKTREE, DEFINITION, considered, note)
    note = prov.note
    if raw is not None and parsed is None:
        note = "; ".join(n for n in (note, f"definition value '{raw}' is invalid, ignored") if n)
    return replace(prov, considered=considered, note=note)


def _model_chain(
    prov: FieldProvenance,
    definition_model: str | None,
    *,
    pin: str | None,
    parent_model: str | None,
    fork_context: bool,
    known_models: Collection[str] | None,
) -> tuple[FieldProvenance, tuple[str, ...]]:
    chain = (PIN, pin), (DEFINITION, definition_model), (PARENT, parent_model)
    considered = prov.considered + candidates(*chain)
    if fork_context:
        level = PARENT if parent_model is not None else NONE
        return FieldProvenance(
            parent_model, level, considered, "fork-context: the parent's model"
        ), ()
    resolved = prov.value
    if resolved is not None and (known_models is None or resolved in known_models):
        return replace(prov, considered=considered), ()
    warnings: tuple[str, ...] = ()
    notes = []
    if resolved is not None:
        warnings = (f"model '{resolved}' (from {prov.level}) is not a known model; falling back",)
        notes.append(f"{prov.level} model '{resolved}' is unknown")
    for level, value in chain:
        if level == DEFINITION and value == INHERIT:
            notes.append("the definition says 'inherit'")
            continue
        if value is not None:
            return FieldProvenance(value, level, considered, "; ".join(notes)), warnings
    return FieldProvenance(None, NONE, considered, "; ".join(notes)), warnings


def _opt_str(value: object) -> str | None:
    return value if isinstance(value, str) else None
