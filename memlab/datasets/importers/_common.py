"""Shared helpers of the importers: names, hashes, rendering conversations as Markdown."""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from tqdm import tqdm

from memlab.errors import DatasetError
from memlab.store.records import escape_body_line
from memlab.timefmt import parse_iso


@dataclass(frozen=True)
class ImportOptions:
    """Options of ``memlab dataset import``; each importer reads the ones it knows."""

    name: str | None = None
    description: str | None = None
    licence: str | None = None
    origin: str | None = None
    as_of: str | None = None  # ISO 8601; default depends on the importer
    limit: int | None = None  # import only the first N questions / conversations
    split: str = "test"  # beir: which qrels/<split>.tsv
    future_sessions: str = "clamp"  # longmemeval: sessions dated after the question
    force: bool = False  # overwrite an existing dataset in DEST


@dataclass
class ImportResult:
    dest: Path
    counts: dict[str, int] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)  # repairs and skipped items, for the user

    def summary(self) -> str:
        lines = [f"wrote {self.dest}"]
        lines += [f"  {k}: {v}" for k, v in self.counts.items()]
        if self.notes:
            lines.append(f"  notes ({len(self.notes)}):")
            lines += [f"    {n}" for n in self.notes]
        return "\n".join(lines)


T = TypeVar("T")


def progress(items: Sequence[T], what: str, unit: str) -> Iterator[T]:
    """A progress bar on a terminal (none when output is not a TTY, e.g. in CI)."""
    it: Iterable[T] = tqdm(items, desc=f"import {what}", unit=unit, disable=None, leave=False)
    yield from it


def hash8(text: str) -> str:
    """First 8 hex digits of the SHA-256 of ``text`` (stable short ids for file names)."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:8]


def file_sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def slugify(text: str, max_len: int = 40) -> str:
    """Lowercase ASCII words joined by '-' (at most ``max_len`` characters), or 'x'."""
    slug = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")
    return slug[:max_len].rstrip("-") or "x"


def safe_id(text: str) -> str:
    """A group/query id: characters outside [A-Za-z0-9._:-] become '-'."""
    cleaned = re.sub(r"[^A-Za-z0-9._:-]+", "-", text).strip("-")
    if not cleaned or not cleaned[0].isalnum():
        cleaned = "x" + cleaned
    return cleaned


def load_json(path: Path, what: str) -> Any:
    """Parse a JSON file; DatasetError says which file and where it breaks."""
    if not path.is_file():
        raise DatasetError(f"{what} file {path} not found")
    try:
        return json.loads(path.read_bytes().decode("utf-8"))
    except UnicodeDecodeError:
        raise DatasetError(f"{path} is not UTF-8") from None
    except json.JSONDecodeError as exc:
        raise DatasetError(f"{path}:{exc.lineno}: not valid JSON ({exc.msg})") from None
    except RecursionError:
        raise DatasetError(f"{path}: JSON nested too deeply; flatten it") from None


def option_as_of(options: ImportOptions, default: float) -> float:
    if options.as_of is None:
        return default
    try:
        return parse_iso(options.as_of)
    except ValueError as exc:
        raise DatasetError(f"--as-of: {exc}") from None


@dataclass(frozen=True)
class Rendered:
    text: str
    spans: list[tuple[int, int]]  # per turn: 1-based inclusive (first, last) line


def render_conversation(title: str, turns: Sequence[tuple[str, str]]) -> Rendered:
    """A session log: a ``#`` title, then one block per turn, a blank line between.

    Each block is the speaker on its own line in bold (``**user**``: a label line of
    ``memlab.store.records``), then the turn's text; the block's line span is the
    turn's target and its record. Text is kept as written (CRLF normalised,
    surrounding blank lines dropped), except that a text line that would read as a
    speaker line gets one leading space (``body_lines``).
    """
    lines = [f"# {title}"]
    spans: list[tuple[int, int]] = []
    for role, content in turns:
        lines.append("")
        first = len(lines) + 1
        lines.append(f"**{speaker_label(role)}**")
        lines.extend(body_lines(content) or ["(empty)"])
        spans.append((first, len(lines)))
    return Rendered("\n".join(lines) + "\n", spans)


def speaker_label(role: str) -> str:
    """A speaker's name as a label line can hold it (no ``*``, no surrounding space)."""
    return " ".join(role.replace("*", " ").split()) or "unknown"


def body_lines(text: str) -> list[str]:
    """A text's lines (CRLF normalised, trailing spaces and surrounding blank lines
    dropped; none if it is blank), none of them readable as a speaker line."""
    body = text.replace("\r\n", "\n").replace("\r", "\n").strip("\n")
    if not body.strip():
        return []
    return [escape_body_line(ln.rstrip()) for ln in body.split("\n")]
