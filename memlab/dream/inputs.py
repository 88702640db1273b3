"""The Dream input (SPEC §7.3 step 1).

The existing ``MEMORY.md`` (if non-empty and not a scaffold) is capped at
``max_existing_bytes`` on a character boundary and prefixed with the
"Existing Memory" header. Then session logs are appended in stem order; blank
or unreadable ones are skipped; reading **stops after the first session that
brings the buffer to ≥ ``max_input_bytes``** — later sessions are neither read
nor (later) deleted. ``assemble_input`` is pure apart from the ``read``
callback, which it calls only for sessions it actually consumes.

Files are read through ``memlab.safefs`` inside the workspace: a session log or
``MEMORY.md`` that is a symbolic link out of it, a FIFO or a device, or larger
than ``MAX_FILE_BYTES`` is skipped with a warning (never read into MEMORY.md).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from memlab.retrieval.content import is_scaffold
from memlab.safefs import FileBytes, read_bytes

log = logging.getLogger("memlab")
MAX_FILE_BYTES = 10 * 1024 * 1024  # a session log or MEMORY.md larger than this is not read

EXISTING_HEADER = "--- Existing Memory (merge with new sessions) ---\n\n"
SESSION_SEPARATOR = "\n\n"


def session_header(stem: str) -> str:
    return f"--- Session: {stem} ---\n\n"


def nbytes(text: str) -> int:
    return len(text.encode("utf-8"))


def truncate_bytes(text: str, max_bytes: int) -> str:
    """The longest prefix of ``text`` of at most ``max_bytes`` UTF-8 bytes (whole characters)."""
    data = text.encode("utf-8")
    if len(data) <= max_bytes:
        return text
    return data[:max_bytes].decode("utf-8", errors="ignore")


def has_existing_memory(text: str | None) -> bool:
    return bool(text and text.strip()) and not is_scaffold(text or "")


@dataclass(frozen=True)
class DreamInput:
    text: str
    processed: tuple[str, ...]  # stems read into the input, in order
    existing_bytes: int  # bytes of the existing-memory block (header included)

    @property
    def nbytes(self) -> int:
        return nbytes(self.text)


def assemble_input(
    existing: str | None,
    stems: Iterable[str],
    read: Callable[[str], str | None],
    *,
    max_existing_bytes: int,
    max_input_bytes: int,
) -> DreamInput:
    parts: list[str] = []
    size = 0
    if existing is not None and has_existing_memory(existing):
        block = EXISTING_HEADER + truncate_bytes(existing, max_existing_bytes)
        parts.append(block)
        size = nbytes(block)
    existing_bytes = size
    processed: list[str] = []
    for stem in stems:
        content = read(stem)
        if content is None or not content.strip():
            continue
        piece = (SESSION_SEPARATOR if size else "") + session_header(stem) + content
        parts.append(piece)
        size += nbytes(piece)
        processed.append(stem)
        if size >= max_input_bytes:
            break
    return DreamInput("".join(parts), tuple(processed), existing_bytes)


class SessionReader:
    """Reads ``<sessions_dir>/<stem>.md`` inside ``root`` (``memlab.safefs``: resolved
    containment, regular files only, the opened inode checked, a size cap); None if it
    is missing, refused, unreadable or not UTF-8. ``seen`` keeps the signature
    (size, mtime_ns) of every log read, so cleanup can keep a log changed since."""

    def __init__(self, sessions_dir: Path, root: Path | None = None) -> None:
        self.sessions_dir = sessions_dir
        self.root = root
        self.seen: dict[str, tuple[int, int]] = {}

    def __call__(self, stem: str) -> str | None:
        path = self.sessions_dir / f"{stem}.md"
        got = _read(path, self.root)
        if got is None:
            return None
        self.seen[stem] = (got.size, got.mtime_ns)
        return _decode(path, got.data)


def session_reader(sessions_dir: Path, root: Path | None = None) -> SessionReader:
    return SessionReader(sessions_dir, root)


def read_existing(path: Path, root: Path | None = None) -> str | None:
    """The current MEMORY.md, or None if missing, refused or unreadable."""
    got = _read(path, root)
    return None if got is None else _decode(path, got.data)


def _read(path: Path, root: Path | None) -> FileBytes | None:
    try:
        return read_bytes(path, root=root, max_bytes=MAX_FILE_BYTES)
    except FileNotFoundError:
        return None
    except OSError as exc:
        log.warning("dream: not reading %s: %s", path, getattr(exc, "reason", None) or exc)
        return None


def _decode(path: Path, data: bytes) -> str | None:
    try:
        return data.decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError:
        log.warning("dream: not reading %s: not valid UTF-8", path)
        return None
