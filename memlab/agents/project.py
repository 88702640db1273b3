"""Everything visible from one directory, and resolving a spawn against it.

``load_workspace`` does the discovery (file reads); ``resolve_agent`` hands the
result to the pure ``spawn.resolve_spawn`` with the real file reader. This is the
entry point for notebooks and the CLI::

    ws = load_workspace(cwd=".", config="agents.toml")
    res = resolve_agent(ws, "explore", SpawnOverrides(persona="reviewer"))
    res.decision.proceed, provenance_table(res)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from memlab.agents.cascade import TextReader
from memlab.agents.discovery import (
    Catalog,
    discover_agents,
    discover_personas,
    discover_roles,
    project_root,
    resolve_grok_home,
)
from memlab.agents.parsing import AgentsConfig, config_from_mapping
from memlab.agents.reading import ContainedReader, allowed_roots, load_config_file
from memlab.agents.spawn import Resolution, resolve_spawn
from memlab.agents.types import AgentDefinition, SpawnOverrides, SubagentPersona, SubagentRole


@dataclass(frozen=True)
class AgentWorkspace:
    """Agents, roles and personas visible from ``cwd``, after precedence."""

    cwd: Path
    grok_home: Path
    config: AgentsConfig
    agents: Catalog[AgentDefinition]
    roles: Catalog[SubagentRole]
    personas: Catalog[SubagentPersona]
    # Where persona instructions_file / role prompt_file may be read from.
    allowed: tuple[Path, ...] = ()

    @property
    def reader(self) -> TextReader:
        return ContainedReader(self.allowed)


def load_workspace(
    cwd: Path | str | None = None,
    grok_home: Path | str | None = None,
    config: AgentsConfig | Mapping[str, object] | Path | str | None = None,
    env: Mapping[str, str] | None = None,
    allow_dirs: Sequence[Path | str] = (),
) -> AgentWorkspace:
    """Discover from ``cwd`` (default: the current directory).

    ``config`` is an ``AgentsConfig``, a plain mapping of the same shape, or the
    path of a TOML file; ``grok_home`` defaults to ``$GROK_HOME`` or ``~/.grok``.
    Persona and role files are read only inside the project, the user directory,
    the config file's folder and ``allow_dirs`` (``sources`` module docstring).
    """
    here = Path(cwd if cwd is not None else Path.cwd()).resolve()
    home = resolve_grok_home(Path(grok_home) if grok_home is not None else None, env)
    inline = _config(config)
    config_path = Path(config) if isinstance(config, (str, Path)) else None
    return AgentWorkspace(
        cwd=here,
        grok_home=home,
        config=inline,
        agents=discover_agents(here, home),
        roles=discover_roles(here, home, inline),
        personas=discover_personas(here, home, inline),
        allowed=allowed_roots(project_root(here), home, config_path, [Path(d) for d in allow_dirs]),
    )


def _config(config: AgentsConfig | Mapping[str, object] | Path | str | None) -> AgentsConfig:
    if config is None:
        return AgentsConfig()
    if isinstance(config, AgentsConfig):
        return config
    if isinstance(config, (str, Path)):
        return load_config_file(Path(config))
    return config_from_mapping(config)


def resolve_agent(
    workspace: AgentWorkspace,
    agent_type: str,
    overrides: SpawnOverrides | None = None,
    *,
    parent_model: str | None = None,
    fork_context: bool = False,
    reader: TextReader | None = None,
) -> Resolution:
    """Resolve one spawn; an unknown agent type raises ``ConfigError`` (did-you-mean).

    ``reader`` None reads persona and role files with ``workspace.reader`` (contained)."""
    found = workspace.agents.get(agent_type)
    return resolve_spawn(
        agent_type,
        definition=found.item,
        overrides=overrides or SpawnOverrides(),
        roles=workspace.roles.items(),
        personas=workspace.personas.items(),
        cwd=workspace.cwd,
        reader=reader or workspace.reader,
        parent_model=parent_model,
        fork_context=fork_context,
        agent_models=workspace.config.agent_models,
        known_models=workspace.config.known_models,
    )
