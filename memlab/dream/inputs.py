"""The Dream input (SPEC §7.3 step 1).

The existing ``MEMORY.md`` (if non-empty and not a scaffold) is capped at
``max_existing_bytes`` on a character boundary and prefixed with the
"Existing Memory" header. Then session logs are appended in stem order; blank
or unreadable ones are skipped; reading **stops after the first session that
brings the buffer to ≥ ``max_input_bytes``** — later sessions are neither read
nor (later) deleted. ``assemble_input`` is pure apart from the ``read``
callback, which it calls only for sessions it actually consumes.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from memlab.search.content import is_scaffold

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


def session_reader(sessions_dir: Path) -> Callable[[str], str | None]:
    """Read ``<sessions_dir>/<stem>.md``; None if it is missing, unreadable or not UTF-8."""

    def read(stem: str) -> str | None:
        try:
            return (sessions_dir / f"{stem}.md").read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            return None

    return read


def read_existing(path: Path) -> str | None:
    """The current MEMORY.md, or None if missing or unreadable."""
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None
