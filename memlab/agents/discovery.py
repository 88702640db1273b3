"""Where definitions, roles and personas come from, and which one wins (SPEC §8.1).

Agents, first match wins::

    project   .grok/agents, .claude/agents in cwd, its parent, … up to the git root
              (the nearest directory first; .grok before .claude in one directory)
    built-in  general-purpose, explore, plan
    user      $GROK_HOME/agents
    bundled   $GROK_HOME/bundled/agents

A user or bundled agent can never shadow a built-in name: the ordering ensures
it, and the shadow record says so in those words. Without
a git root above cwd only cwd itself is searched: directories above an
unrelated checkout are never read.

Roles and personas: the inline config first, then ``.grok/roles`` /
``.grok/personas`` of the same project directories (nearest first), then
``$GROK_HOME/roles`` / ``$GROK_HOME/personas``. The file stem is the name.
The spec names only the inline config and ``.grok/{roles,personas}``; the user
tier is memlab's reading of "$GROK_HOME is the user's .grok".

Every entry records where it came from and what it shadowed.
"""

from __future__ import annotations

import enum
import os
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Generic, Protocol, TypeVar

from memlab.agents.builtins import BUILTIN_AGENTS, BUILTIN_NAMES
from memlab.agents.parsing import AgentsConfig
from memlab.agents.reading import load_agents_dir, load_personas_dir, load_roles_dir
from memlab.agents.types import AgentDefinition, SubagentPersona, SubagentRole
from memlab.errors import ConfigError, unknown_name


class _Named(Protocol):
    """What discovery needs of a definition, role or persona."""

    @property
    def name(self) -> str: ...

    @property
    def source(self) -> Path | None: ...


T = TypeVar("T", bound=_Named)


CATALOG_COLUMNS = ("name", "tier", "source", "shadowed")


class Tier(str, enum.Enum):
    INLINE = "inline"
    PROJECT = "project"
    BUILTIN = "built-in"
    USER = "user"
    BUNDLED = "bundled"


@dataclass(frozen=True)
class Shadowed:
    """A same-named entry that lost, and why."""

    tier: Tier
    path: Path | None
    reason: str


@dataclass(frozen=True)
class Found(Generic[T]):
    """The winning entry for a name."""

    item: T
    tier: Tier
    path: Path | None
    shadowed: tuple[Shadowed, ...] = ()


@dataclass(frozen=True)
class Catalog(Generic[T]):
    """Named entries after precedence, plus the places searched in order."""

    kind: str
    entries: Mapping[str, Found[T]]
    searched: tuple[tuple[Tier, Path | None], ...] = ()

    def items(self) -> dict[str, T]:
        return {name: found.item for name, found in self.entries.items()}

    def get(self, name: str) -> Found[T]:
        if name not in self.entries:
            raise ConfigError(unknown_name(self.kind, name, self.entries))
        return self.entries[name]


Layer = tuple[Tier, Path | None, Iterable[T]]


def resolve_grok_home(grok_home: Path | None = None, env: Mapping[str, str] | None = None) -> Path:
    """An explicit directory, else ``$GROK_HOME``, else ``~/.grok``."""
    if grok_home is not None:
        return Path(grok_home)
    value = (os.environ if env is None else env).get("GROK_HOME")
    return Path(value) if value else Path.home() / ".grok"


def find_git_root(start: Path) -> Path | None:
    """The nearest directory at or above ``start`` holding ``.git`` (dir or file)."""
    for directory in (start, *start.parents):
        if (directory / ".git").exists():
            return directory
    return None


def project_dirs(cwd: Path) -> list[Path]:
    """cwd and its parents up to the git root, nearest first (only cwd without one)."""
    cwd = cwd.resolve()
    root = find_git_root(cwd)
    if root is None:
        return [cwd]
    dirs = [cwd]
    while dirs[-1] != root:
        dirs.append(dirs[-1].parent)
    return dirs


def project_root(cwd: Path) -> Path:
    """The project's top directory: the git root above cwd, else cwd itself."""
    return project_dirs(cwd)[-1]


def agent_search_path(cwd: Path, grok_home: Path) -> list[tuple[Tier, Path | None]]:
    """The places searched for agents, in precedence order (None = the built-ins)."""
    path: list[tuple[Tier, Path | None]] = []
    for directory in project_dirs(cwd):
        path += [(Tier.PROJECT, directory / ".grok" / "agents")]
        path += [(Tier.PROJECT, directory / ".claude" / "agents")]
    path += [(Tier.BUILTIN, None), (Tier.USER, grok_home / "agents")]
    path += [(Tier.BUNDLED, grok_home / "bundled" / "agents")]
    return path


def discover_agents(
    cwd: Path, grok_home: Path | None = None, env: Mapping[str, str] | None = None
) -> Catalog[AgentDefinition]:
    """Every agent visible from ``cwd``, after precedence (module docstring)."""
    home = resolve_grok_home(grok_home, env)
    searched = agent_search_path(cwd, home)
    root = {Tier.PROJECT: project_root(cwd), Tier.USER: home, Tier.BUNDLED: home}
    layers: list[Layer[AgentDefinition]] = [
        (tier, d, BUILTIN_AGENTS if d is None else load_agents_dir(d, root[tier]))
        for tier, d in searched
    ]
    return Catalog("agent type", _collect(layers, _protect_builtins), tuple(searched))


def discover_roles(
    cwd: Path,
    grok_home: Path | None = None,
    config: AgentsConfig | None = None,
    env: Mapping[str, str] | None = None,
) -> Catalog[SubagentRole]:
    """Inline roles, then ``.grok/roles`` (nearest first), then ``$GROK_HOME/roles``."""
    inline = list((config.roles if config else {}).values())
    return _discover_named("role", "roles", cwd, grok_home, env, inline, load_roles_dir, config)


def discover_personas(
    cwd: Path,
    grok_home: Path | None = None,
    config: AgentsConfig | None = None,
    env: Mapping[str, str] | None = None,
) -> Catalog[SubagentPersona]:
    """Inline personas, then ``.grok/personas`` (nearest first), then ``$GROK_HOME/personas``."""
    inline = list((config.personas if config else {}).values())
    return _discover_named(
        "persona", "personas", cwd, grok_home, env, inline, load_personas_dir, config
    )


def _discover_named(
    kind: str,
    subdir: str,
    cwd: Path,
    grok_home: Path | None,
    env: Mapping[str, str] | None,
    inline: list[T],
    load: Callable[[Path, Path], list[T]],
    config: AgentsConfig | None,
) -> Catalog[T]:
    home = resolve_grok_home(grok_home, env)
    searched: list[tuple[Tier, Path | None]] = [(Tier.INLINE, config.source if config else None)]
    searched += [(Tier.PROJECT, d / ".grok" / subdir) for d in project_dirs(cwd)]
    searched += [(Tier.USER, home / subdir)]
    root = {Tier.PROJECT: project_root(cwd), Tier.USER: home}
    layers: list[Layer[T]] = [(Tier.INLINE, searched[0][1], inline)]
    layers += [(tier, d, load(d, root[tier])) for tier, d in searched[1:] if d is not None]
    return Catalog(kind, _collect(layers, lambda tier, name: None), tuple(searched))


def _protect_builtins(tier: Tier, name: str) -> str | None:
    if tier in (Tier.USER, Tier.BUNDLED) and name in BUILTIN_NAMES:
        return f"a {tier.value} agent cannot shadow the built-in '{name}'"
    return None


def _collect(
    layers: Iterable[Layer[T]], protect: Callable[[Tier, str], str | None]
) -> dict[str, Found[T]]:
    """First wins; every loser is recorded on the winner with the reason."""
    found: dict[str, Found[T]] = {}
    for tier, _, items in layers:
        for item in items:
            path = item.source
            winner = found.get(item.name)
            if winner is None:
                found[item.name] = Found(item, tier, path)
                continue
            reason = protect(tier, item.name) or _lost_to(winner)
            shadow = Shadowed(tier, path, reason)
            found[item.name] = Found(
                winner.item, winner.tier, winner.path, (*winner.shadowed, shadow)
            )
    return found


def _lost_to(winner: Found[T]) -> str:
    where = f" ({winner.path})" if winner.path is not None else ""
    return f"shadowed by the {winner.tier.value} definition{where}"


def catalog_rows(catalog: Catalog[Any]) -> list[dict[str, str]]:
    """One row per winning entry: name, tier, source, what it shadowed and why."""
    return [
        {
            "name": name,
            "tier": found.tier.value,
            "source": str(found.path) if found.path is not None else "(built-in)",
            "shadowed": "; ".join(
                f"{s.tier.value} {s.path or '(built-in)'}: {s.reason}" for s in found.shadowed
            ),
        }
        for name, found in sorted(catalog.entries.items())
    ]
