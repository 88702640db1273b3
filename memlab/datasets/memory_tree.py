"""A real memory folder as memlab sees it: its memory roots, workspaces and files.

A folder is either one memory root (SPEC §1: a global ``MEMORY.md`` and
``<slug>-<hash8>/`` workspaces holding ``MEMORY.md`` and ``sessions/*.md``) or a
folder of users' memory roots (``<user>/MEMORY.md``, ``<user>/<workspace>/…``).
``find_memories`` tells them apart (``layout="auto"``) or takes the caller's
word (``"root"`` / ``"users"``).

``memory_files`` lists the Markdown files an index of each workspace reads and
reads each one through the store's safe file reading (``read_memory_file``:
regular files only, size-capped, UTF-8, never a link that leads out of the
memory root); symbolic links to directories are never entered. Anything left
out is listed with its reason. Nothing here writes.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from memlab.config import IndexConfig
from memlab.errors import MemoryRootError
from memlab.safefs import printable_name, utf8_name
from memlab.store.layout import MEMORY_FILE, SESSIONS_DIR, MemoryLayout
from memlab.store.memory_files import FileText, read_memory_file

LAYOUTS = ("auto", "root", "users")
_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")


@dataclass(frozen=True)
class FoundMemory:
    """One memory root: ``user`` is its folder name in a users layout (None: the root)."""

    root: Path
    user: str | None
    workspaces: tuple[str, ...]


@dataclass(frozen=True)
class MemoryFile:
    rel: str  # relative to its memory root, POSIX
    text: str
    mtime_ns: int


@dataclass
class TreeFiles:
    """The readable Markdown files of one memory root and what was left out (path, why)."""

    files: list[MemoryFile] = field(default_factory=list)
    skipped: list[tuple[str, str]] = field(default_factory=list)


def safe_id(name: str) -> str:
    """``name`` as a dataset id: runs of characters other than letters, digits, ``.``,
    ``_`` and ``-`` become ``_`` (ids start with a letter or digit)."""
    cleaned = _UNSAFE.sub("_", name).strip("._-")
    return cleaned or "x"


NOT_UTF8 = "the name is not UTF-8 (index, search and Dream skip it too); rename it"
NOT_UTF8_DIR = "folder name not UTF-8: nothing in it is read (nor indexed); rename it"


def _plain_dirs(folder: Path) -> list[str]:
    return sorted(
        e.name
        for e in os.scandir(folder)
        if e.is_dir(follow_symlinks=False) and not e.name.startswith(".") and utf8_name(e.name)
    )


def _is_workspace(folder: Path) -> bool:
    return (folder / MEMORY_FILE).is_file() or (folder / SESSIONS_DIR).is_dir()


def _has_markdown(folder: Path) -> bool:
    return any(
        e.name.endswith(".md") and e.is_file(follow_symlinks=False) for e in os.scandir(folder)
    )


def _holds_workspaces(folder: Path) -> bool:
    return any(_is_workspace(folder / d) for d in _plain_dirs(folder))


def _is_memory_root(folder: Path) -> bool:
    return _has_markdown(folder) or _holds_workspaces(folder)


def find_memories(root: str | Path, layout: str = "auto") -> list[FoundMemory]:
    """The memory roots under ``root``: itself (``"root"``) or each user folder (``"users"``);
    ``"auto"`` picks: a root holds Markdown files or workspaces, a users folder holds roots."""
    path = Path(root).expanduser()
    if not path.is_dir():
        raise MemoryRootError(f"memory folder {path} does not exist or is not a directory")
    if layout not in LAYOUTS:
        raise MemoryRootError(f"layout '{layout}' is not one of {', '.join(LAYOUTS)}")
    path = path.resolve()
    if layout == "auto":
        # a user's folder holds workspaces; a workspace holds sessions (no workspaces)
        if _has_markdown(path):
            layout = "root"
        elif any(_holds_workspaces(path / d) for d in _plain_dirs(path)):
            layout = "users"
        elif _holds_workspaces(path):
            layout = "root"
        else:
            raise MemoryRootError(
                f"{path} holds no memory (no MEMORY.md, no <workspace>/sessions/ and no user "
                "folders holding them); give the memory folder (e.g. ~/.grok/memory), or pass "
                "--layout root"
            )
    if layout == "root":
        return [FoundMemory(path, None, tuple(_plain_dirs(path)))]
    users = [d for d in _plain_dirs(path) if _is_memory_root(path / d)]
    if not users:
        raise MemoryRootError(f"{path} holds no user folder with a memory in it")
    return [FoundMemory(path / u, u, tuple(_plain_dirs(path / u))) for u in users]


def _candidates(memory: FoundMemory, skipped: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """(root-relative path, workspace or "") of every ``*.md`` an index would read."""
    out = []
    for entry in sorted(os.scandir(memory.root), key=lambda e: e.name):
        if entry.name.endswith(".md") and not entry.is_dir():
            out.append((entry.name, ""))
        elif entry.is_symlink() and entry.is_dir():
            skipped.append((entry.name, "symbolic link to a directory: not followed"))
        elif entry.is_dir() and not utf8_name(entry.name):
            skipped.append((printable_name(entry.name), NOT_UTF8_DIR))
    for ws in memory.workspaces:
        for dirpath, dirnames, filenames in os.walk(memory.root / ws, followlinks=False):
            base = Path(dirpath)
            for d in dirnames:
                if (base / d).is_symlink():
                    rel = PurePosixPath(*(base / d).relative_to(memory.root).parts).as_posix()
                    skipped.append((rel, "symbolic link to a directory: not followed"))
            dirnames[:] = sorted(
                d for d in dirnames if not d.startswith(".") and not (base / d).is_symlink()
            )
            for name in sorted(filenames):
                if name.endswith(".md") and not name.startswith("."):
                    rel = PurePosixPath(*(base / name).relative_to(memory.root).parts).as_posix()
                    out.append((rel, ws))
    return out


def memory_files(memory: FoundMemory, max_bytes: int | None = None) -> TreeFiles:
    """Every Markdown file an index of one of the root's workspaces reads, read safely."""
    cap = max_bytes or IndexConfig().max_file_bytes
    found = TreeFiles()
    for rel, ws in _candidates(memory, found.skipped):
        if not utf8_name(rel):
            found.skipped.append((printable_name(rel), NOT_UTF8))
            continue
        if any(ch.isspace() for ch in rel):
            found.skipped.append((rel, "the path holds whitespace, which judgements cannot name"))
            continue
        read = read_memory_file(MemoryLayout(memory.root, ws or None), rel, cap)
        if not isinstance(read, FileText):
            found.skipped.append((rel, read.reason))
            continue
        found.files.append(MemoryFile(rel, read.text, read.mtime_ns))
    return found
