"""Memory root layout and ``classify_source`` (SPEC §1).

::

    <root>/MEMORY.md                                  global      (evergreen)
    <root>/<workspace>/MEMORY.md                      workspace   (evergreen)
    <root>/<workspace>/sessions/YYYY-MM-DD-<slug>-<sid8>.md   session (decays)
    <root>/<workspace>/index.sqlite                   the workspace's index
    <root>/<workspace>/.dream-lock                    Dream lock

The index of a workspace covers the ``*.md`` files directly in the root (global
memory) and every ``*.md`` file under the workspace directory; other top-level
directories are other workspaces and are not indexed. Paths are stored
relative to the root, in POSIX form, so an index and its chunk ids do not
depend on where the memory lives. Symbolic links are never followed out of
the root.
"""

from __future__ import annotations

import os
import posixpath
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from memlab.errors import MemoryRootError
from memlab.safefs import utf8_name
from memlab.sources import GLOBAL, SESSION, WORKSPACE, is_evergreen
from memlab.timefmt import format_iso

MEMORY_FILE = "MEMORY.md"
SESSIONS_DIR = "sessions"
INDEX_FILE = "index.sqlite"
LOCK_FILE = ".dream-lock"
# What an agent writes between a session log and content appended to it later (SPEC §1).
FLUSH_SEPARATOR = "\n\n---\n\n<!-- flush {time} UTC -->\n\n"

__all__ = ["FLUSH_SEPARATOR", "MemoryLayout", "flush_separator", "is_evergreen"]


def flush_separator(seconds: float) -> str:
    """``FLUSH_SEPARATOR`` for an append at unix time ``seconds`` (``HH:MM:SS`` UTC)."""
    return FLUSH_SEPARATOR.format(time=format_iso(int(seconds))[11:19])


def session_file_name(date: str, slug: str, session_id: str) -> str:
    """``YYYY-MM-DD-<slug>-<sid8>.md`` (sid8 = first 8 characters of the session id)."""
    return f"{date}-{slug}-{session_id[:8]}.md"


@dataclass(frozen=True)
class MemoryLayout:
    """A memory root and (optionally) the workspace whose index we work with."""

    root: Path
    workspace: str | None = None

    @classmethod
    def open(cls, root: str | Path, workspace: str | None = None) -> MemoryLayout:
        """Resolve ``root``; pick the only workspace when none is named.

        A named workspace must be the plain name of a real directory directly inside
        the root: not absolute, not ``.``/``..``/empty, no separator, not hidden, not
        a symbolic link (the index and the Dream lock are written there)."""
        path = Path(root).expanduser()
        if not path.is_dir():
            raise MemoryRootError(f"memory root {path} does not exist or is not a directory")
        path = path.resolve()
        if workspace is None:
            found = workspaces(path)
            if len(found) > 1:
                raise MemoryRootError(
                    f"{path} holds several workspaces ({', '.join(found)}); "
                    "choose one with --workspace NAME"
                )
            workspace = found[0] if found else None
        else:
            check_workspace(path, workspace)
        return cls(path, workspace)

    @property
    def workspace_dir(self) -> Path | None:
        return self.root / self.workspace if self.workspace else None

    @property
    def home(self) -> Path:
        """Where the index and the Dream lock live: the workspace dir, else the root."""
        return self.workspace_dir or self.root

    @property
    def default_index_path(self) -> Path:
        return self.home / INDEX_FILE

    def rel(self, path: str | Path) -> str:
        """POSIX path relative to the root (accepts absolute or root-relative paths)."""
        if isinstance(path, str) and not path.startswith("/") and "\\" not in path:
            norm = posixpath.normpath(path)
            if not norm.startswith(".."):
                return norm  # fast path: already root-relative
        p = Path(path)
        if p.is_absolute():
            try:
                p = p.relative_to(self.root)
            except ValueError:
                raise MemoryRootError(f"{path} is outside the memory root {self.root}") from None
        return PurePosixPath(*p.parts).as_posix()

    def abs(self, rel: str) -> Path:
        return self.root / Path(*PurePosixPath(rel).parts)

    def in_scope(self, rel: str) -> bool:
        """Is this root-relative path a Markdown file of this index?

        Not: paths through ``..`` or hidden directories (Dream's backups live in one),
        and names that are not valid UTF-8 (they are reported, never indexed)."""
        parts = PurePosixPath(rel).parts
        if not parts or not parts[-1].endswith(".md") or ".." in parts or not utf8_name(rel):
            return False
        if any(p.startswith(".") for p in parts[:-1]):
            return False
        if len(parts) == 1:
            return True
        return self.workspace is not None and parts[0] == self.workspace

    def classify_source(self, path: str | Path) -> str:
        """SPEC §1: workspace MEMORY.md → workspace; other files of the workspace →
        session; elsewhere under the root → global; outside the root → session."""
        if isinstance(path, str) and not path.startswith("/"):
            parts = posixpath.normpath(path).split("/")
            if parts[0] != "..":
                if self.workspace is not None and parts[0] == self.workspace and len(parts) > 1:
                    return WORKSPACE if parts[-1] == MEMORY_FILE else SESSION
                return GLOBAL
        p = Path(path)
        absolute = p if p.is_absolute() else self.abs(str(path))
        ws = self.workspace_dir
        if ws is not None and _is_under(absolute, ws):
            return WORKSPACE if absolute.name == MEMORY_FILE else SESSION
        if _is_under(absolute, self.root):
            return GLOBAL
        return SESSION

    def scan(self) -> list[str]:
        """Root-relative paths of every in-scope ``*.md`` file (symlinked dirs not entered)."""
        return self.scan_all()[0]

    def scan_all(self) -> tuple[list[str], list[str]]:
        """(in-scope paths, paths of ``*.md`` files whose names are not valid UTF-8).

        The second list holds the names as Python decoded them (surrogate escapes);
        they are never indexed, only reported (``safefs.printable_name``)."""
        found = [e.name for e in os.scandir(self.root) if e.name.endswith(".md")]
        ws = self.workspace_dir
        if ws is not None and ws.is_dir():
            for dirpath, dirnames, filenames in os.walk(ws, followlinks=False):
                dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
                here = self.rel(Path(dirpath))  # below the root: never "."
                found += [f"{here}/{name}" for name in filenames if name.endswith(".md")]
        good = sorted(p for p in found if self.in_scope(p))
        bad = sorted(p for p in found if not utf8_name(p))
        return good, bad

    def resolves_inside(self, rel: str) -> bool:
        """False for a symlink (or path through one) that leads out of the root."""
        try:
            target = self.abs(rel).resolve(strict=True)
        except (OSError, RuntimeError):
            return True  # missing: the caller will see it as deleted
        return _is_under(target, self.root)


def _is_under(path: Path, parent: Path) -> bool:
    try:
        path.relative_to(parent)
    except ValueError:
        return False
    return True


def check_workspace(root: Path, name: str) -> None:
    """``MemoryRootError`` unless ``name`` is a plain, real directory directly in ``root``."""
    existing = ", ".join(workspaces(root)) or "none"
    hint = f"give the plain name of a directory inside {root} (existing: {existing})"
    bad = (
        not name
        or name in (".", "..")
        or "/" in name
        or "\\" in name
        or "\x00" in name
        or name.startswith(".")
        or not utf8_name(name)
    )
    if bad:
        raise MemoryRootError(f"workspace {name!r} is not a plain directory name; {hint}")
    path = root / name
    if path.is_symlink():
        raise MemoryRootError(f"workspace {name!r} is a symbolic link, not followed; {hint}")
    if not path.is_dir():
        raise MemoryRootError(f"workspace {name!r} not found under {root}; {hint}")


def workspaces(root: Path) -> list[str]:
    """Top-level directories of a memory root (each is a workspace)."""
    return sorted(
        e.name
        for e in os.scandir(root)
        if e.is_dir(follow_symlinks=False) and not e.name.startswith(".")
    )
