"""The built-in agents: general-purpose, explore, plan (SPEC §8.1).

The spec names them but not their contents; these definitions are memlab's
stand-ins. They set no model and no effort (the model chain ends at the parent's
model) and no isolation. Explore and plan only read.
"""

from __future__ import annotations

from memlab.agents.types import AgentDefinition

BUILTIN_AGENTS: tuple[AgentDefinition, ...] = (
    AgentDefinition(
        name="general-purpose",
        description="General-purpose agent for multi-step research and code changes.",
        prompt="You are a general-purpose sub-agent. Complete the task you are given.",
        capability_mode="all",
    ),
    AgentDefinition(
        name="explore",
        description="Fast read-only agent for searching and reading the codebase.",
        prompt="You are an exploration sub-agent. Find and report; do not modify files.",
        capability_mode="read-only",
    ),
    AgentDefinition(
        name="plan",
        description="Read-only agent that designs an implementation plan.",
        prompt="You are a planning sub-agent. Produce a step-by-step plan; do not modify files.",
        capability_mode="read-only",
    ),
)

BUILTIN_NAMES: frozenset[str] = frozenset(a.name for a in BUILTIN_AGENTS)
