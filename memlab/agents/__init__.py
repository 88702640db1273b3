"""Sub-agent configuration resolution (SPEC §8).

Which structure a field really lives in, the four-level cascade, and the
difference between a persona that fails closed and a role prompt that only
warns. Modules, pure ones first::

    types        the §8.1 structures, the two mode enums and their parsers
    resolve      the field-wise cascade ``resolve_effective_overrides`` (pure)
    spawn        definition fallbacks, the model chain, the spawn decision (pure)
    provenance   which level set each field and what it shadowed
    matrix       the cascade matrix: every field × every level state (pure)
    frontmatter  agent files; parsing: role / persona / config TOML (pure)
    sources      file reading; discovery: precedence across tiers
    workspace    discovery + resolution against real directories
    tables       DataFrames for notebooks (the only module importing pandas)
"""

from __future__ import annotations

from memlab.agents.cascade import find_role, render_persona_block, resolve_effective_overrides
from memlab.agents.discovery import Tier, discover_agents, discover_personas, discover_roles
from memlab.agents.parsing import AgentsConfig
from memlab.agents.project import AgentWorkspace, load_workspace, resolve_agent
from memlab.agents.provenance import FieldProvenance
from memlab.agents.spawn import Resolution, SpawnDecision, resolve_spawn, spawn_decision
from memlab.agents.types import (
    AgentDefinition,
    CapabilityMode,
    EffectiveRuntimeConfig,
    IsolationMode,
    SpawnOverrides,
    SubagentPersona,
    SubagentRole,
    overrides_from_assignments,
    parse_capability_mode,
    parse_isolation_mode,
)

__all__ = [
    "AgentDefinition",
    "AgentWorkspace",
    "AgentsConfig",
    "CapabilityMode",
    "EffectiveRuntimeConfig",
    "FieldProvenance",
    "IsolationMode",
    "Resolution",
    "SpawnDecision",
    "SpawnOverrides",
    "SubagentPersona",
    "SubagentRole",
    "Tier",
    "discover_agents",
    "discover_personas",
    "discover_roles",
    "find_role",
    "load_workspace",
    "overrides_from_assignments",
    "parse_capability_mode",
    "parse_isolation_mode",
    "render_persona_block",
    "resolve_agent",
    "resolve_effective_overrides",
    "resolve_spawn",
    "spawn_decision",
]
