"""Read agent, role, persona and config files from disk.

Each loader reads one file or one directory and hands the text to the pure
parsers (``frontmatter``, ``parsing``). A file that cannot be read or decoded
raises ``AgentConfigError`` naming it (with the line of a bad byte). Directory
listings are sorted by file name, so discovery is deterministic; a missing
directory is simply empty.

Every read goes through ``memlab.safefs``: regular files only (a FIFO would
hang, ``/dev/zero`` never ends), at most ``MAX_AGENT_FILE_BYTES``, and — for
files found by discovery and for persona ``instructions_file`` / role
``prompt_file`` — inside the directories they may come from: the project (the
git root above cwd, else cwd), the user directory (``$GROK_HOME``), the folder
of an explicit ``--config`` file, and directories allowed explicitly
(``--allow-dir``). A cloned repository's ``instructions_file = "/etc/passwd"``,
``../../`` escape or symbolic link out is refused with one line saying why.

``ContainedReader`` is the ``reader`` the cascade uses for persona instructions
and role prompts: there, a failure is not raised further but becomes a
``persona_error`` or a ``role_prompt_warning`` (see ``resolve``).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from memlab.agents.frontmatter import parse_agent_markdown
from memlab.agents.parsing import (
    AgentsConfig,
    parse_config_toml,
    parse_persona_toml,
    parse_role_toml,
)
from memlab.agents.types import AgentDefinition, SubagentPersona, SubagentRole
from memlab.errors import AgentConfigError
from memlab.safefs import Outside, Refused, is_inside, read_bytes

MAX_AGENT_FILE_BYTES = 1024 * 1024


def read_text(path: Path, root: Path | None = None) -> str:
    """A UTF-8 text file (regular, at most 1 MiB, inside ``root`` if given); ``OSError``
    (``safefs.Refused`` for what memlab will not read) and ``UnicodeDecodeError``
    propagate."""
    data = read_bytes(path, root=root, max_bytes=MAX_AGENT_FILE_BYTES).data
    return data.decode("utf-8").removeprefix("\ufeff")


@dataclass(frozen=True)
class ContainedReader:
    """Reads files only inside ``roots``; anything else is ``safefs.Outside``."""

    roots: tuple[Path, ...]

    def __call__(self, path: Path) -> str:
        resolved = Path(os.path.realpath(path))
        for root in self.roots:
            base = Path(os.path.realpath(root))
            if is_inside(resolved, base):
                return read_text(path, base)
        where = ", ".join(str(r) for r in self.roots) or "none"
        raise Outside(
            path,
            f"leads to {resolved}, outside the project and user directories ({where}); "
            "not read — allow its folder explicitly with --allow-dir DIR",
        )


def _read_config_file(path: Path, root: Path | None = None) -> str:
    try:
        return read_text(path, root)
    except UnicodeDecodeError as exc:
        line = exc.object[: exc.start].count(b"\n") + 1
        raise AgentConfigError(f"{path}:{line}: not valid UTF-8: {exc.reason}") from exc
    except Refused as exc:
        raise AgentConfigError(f"{path}: {exc.reason}") from None
    except OSError as exc:
        raise AgentConfigError(f"{path}: cannot read: {exc.strerror or exc}") from exc


def load_agent_file(path: Path, root: Path | None = None) -> AgentDefinition:
    return parse_agent_markdown(_read_config_file(path, root), path)


def load_role_file(path: Path, root: Path | None = None) -> SubagentRole:
    return parse_role_toml(_read_config_file(path, root), path)


def load_persona_file(path: Path, root: Path | None = None) -> SubagentPersona:
    return parse_persona_toml(_read_config_file(path, root), path)


def load_config_file(path: Path) -> AgentsConfig:
    """A TOML config with ``[roles.*]``, ``[personas.*]``, ``[agents.*]``, ``known_models``."""
    return parse_config_toml(_read_config_file(path), path)


def _files(directory: Path, suffix: str) -> list[Path]:
    if not directory.is_dir():
        return []
    return sorted(p for p in directory.iterdir() if p.suffix == suffix and p.is_file())


def load_agents_dir(directory: Path, root: Path | None = None) -> list[AgentDefinition]:
    """Every ``*.md`` agent file in ``directory``, by file name (inside ``root``)."""
    return [load_agent_file(p, root) for p in _files(directory, ".md")]


def load_roles_dir(directory: Path, root: Path | None = None) -> list[SubagentRole]:
    """Every ``*.toml`` role in ``directory`` (file stem = role name)."""
    return [load_role_file(p, root) for p in _files(directory, ".toml")]


def load_personas_dir(directory: Path, root: Path | None = None) -> list[SubagentPersona]:
    """Every ``*.toml`` persona in ``directory`` (file stem = persona name)."""
    return [load_persona_file(p, root) for p in _files(directory, ".toml")]


def allowed_roots(
    project: Path, grok_home: Path, config: Path | None, extra: Sequence[Path] = ()
) -> tuple[Path, ...]:
    """Where persona and role files may be read from, in order."""
    roots = [project, grok_home]
    if config is not None:
        roots.append(config.parent)
    return tuple(dict.fromkeys([*roots, *extra]))
