"""Markdown chunker (SPEC §2.1). Pure: text in, chunks out.

Sizes are UTF-8 **bytes**; the overlap is in **characters** — the difference
shows with CJK text, where one character is three bytes.

The ``[Context: …]`` prefix of a nested section is capped at
``CONTEXT_MAX_BYTES`` (1 KiB; c0 has no cap): deeper ancestors are kept, outer
ones beyond the cap are shown as ``…`` and one heading never takes more than a
quarter of it. Ordinary prefixes are far shorter and unchanged; without the cap
a file of n nested headings produced O(n²) bytes of chunk text.

Line numbers are reported 1-based and inclusive (c0 counts from 0); they only
locate a chunk in its file and never affect ranking. Overlap text carried over
from the previous chunk is not counted in a chunk's line span.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass

# An ATX heading: optional leading whitespace, one or more '#', then a space or end of line.
_HEADING = re.compile(r"^\s*(#+)(?:[ \t]|$)")


@dataclass(frozen=True)
class Chunk:
    start_line: int  # 1-based, inclusive
    end_line: int  # 1-based, inclusive
    text: str

    @property
    def hash(self) -> str:
        return content_hash(self.text)


def content_hash(text: str) -> str:
    """Hex digest of a chunk's text. memlab uses SHA-256 (c0 uses BLAKE3)."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def content_hashes(chunks: list[Chunk]) -> list[str]:
    """``content_hash`` of every chunk's text (without a call per chunk)."""
    sha256 = hashlib.sha256
    return [sha256(c.text.encode("utf-8")).hexdigest() for c in chunks]


def heading_level(line: str) -> int:
    """The ATX heading level of ``line`` (1…), or 0 if it is not a heading."""
    m = _HEADING.match(line)
    return len(m.group(1)) if m else 0


def _nbytes(text: str) -> int:
    return len(text) if text.isascii() else len(text.encode("utf-8"))


CONTEXT_MAX_BYTES = 1024
_ELLIPSIS = "…"


def _cut(text: str, max_bytes: int) -> str:
    if _nbytes(text) <= max_bytes:
        return text
    head = text.encode("utf-8")[: max_bytes - _nbytes(_ELLIPSIS)].decode("utf-8", "ignore")
    return head + _ELLIPSIS


def context_prefix(ancestors: list[str], max_bytes: int = CONTEXT_MAX_BYTES) -> str:
    """``"[Context: a > b]\n\n"`` for a section's ancestor headings (SPEC §2.1), capped."""
    if not ancestors:
        return ""
    full = " > ".join(ancestors)
    if _nbytes(full) <= max_bytes:
        return f"[Context: {full}]\n\n"
    kept: list[str] = []
    size = _nbytes(_ELLIPSIS + " > ")
    for title in reversed(ancestors):
        title = _cut(title, max_bytes // 4)
        extra = _nbytes(title) + (3 if kept else 0)
        if size + extra > max_bytes:
            break
        kept.append(title)
        size += extra
    return f"[Context: {_ELLIPSIS} > " + " > ".join(reversed(kept)) + "]\n\n"


@dataclass
class _Section:
    stack: list[str]  # heading titles (without '#') from the root to this section's heading
    first_line: int  # 1-based line number of the first line
    lines: list[str]


def _sections(lines: list[str]) -> list[_Section]:
    """Split at every ATX heading; keep the heading stack of each section."""
    match = _HEADING.match
    found = [(i, m) for i, line in enumerate(lines) if "#" in line and (m := match(line))]
    heads = [i for i, _ in found]
    sections: list[_Section] = []
    if lines and (not heads or heads[0] > 0):  # the lines before the first heading
        sections.append(_Section([], 1, lines[: heads[0] if heads else len(lines)]))
    stack: list[tuple[int, str]] = []
    stops = [*heads[1:], len(lines)] if heads else []
    for (start, m), stop in zip(found, stops, strict=True):
        level = len(m.group(1))  # heading_level of the line
        while stack and stack[-1][0] >= level:
            stack.pop()
        stack.append((level, lines[start].strip().lstrip("#").strip()))
        sections.append(_Section([h for _, h in stack], start + 1, lines[start:stop]))
    return sections


def _split_section(section: _Section, max_bytes: int, overlap: int) -> list[Chunk]:
    """Split one oversized section by paragraphs, carrying ``overlap`` characters."""
    chunks: list[Chunk] = []
    acc = ""
    acc_start = section.first_line
    lines_since_split = 0

    def flush(end_line: int) -> str:
        text = acc.strip()
        if text:
            chunks.append(Chunk(acc_start, end_line, text))
        return text[-overlap:] if overlap > 0 else ""

    for offset, line in enumerate(section.lines):
        number = section.first_line + offset
        if not line.strip() and acc.strip() and _nbytes(acc) + _nbytes(line) > max_bytes:
            tail = flush(number - 1)
            acc, acc_start, lines_since_split = (tail + "\n" if tail else ""), number, 0
            continue
        if lines_since_split > 0 and _nbytes(acc) + _nbytes(line) + 1 > max_bytes:
            # Adding this line would overflow: split at the previous newline.
            tail = flush(number - 1)
            acc, acc_start, lines_since_split = (tail + "\n" if tail else ""), number, 0
        acc += line + "\n"
        lines_since_split += 1
    flush(section.first_line + len(section.lines) - 1)
    return chunks


def chunk_markdown(text: str, max_bytes: int = 1600, overlap_chars: int = 320) -> list[Chunk]:
    """Chunk Markdown per SPEC §2.1 (c0 defaults: 1600 bytes, 320 characters)."""
    if not text:
        return []
    lines = text.split("\n")
    if text.endswith("\n"):
        lines.pop()
    if _nbytes(text) <= max_bytes:
        return [Chunk(1, max(len(lines), 1), text)]
    chunks: list[Chunk] = []
    prefixes: dict[tuple[str, ...], str] = {}  # sections share their ancestors
    for section in _sections(lines):
        ancestors = tuple(section.stack[:-1])
        prefix = prefixes.get(ancestors)
        if prefix is None:
            prefix = prefixes[ancestors] = context_prefix(list(ancestors))
        body = "\n".join(section.lines)
        size = len(body) if body.isascii() else len(body.encode("utf-8"))  # _nbytes
        if size <= max_bytes:  # the common case: the section is one chunk
            if body and not body.isspace():
                last = section.first_line + len(section.lines) - 1
                chunks.append(Chunk(section.first_line, last, prefix + body))
            continue
        for part in _split_section(section, max_bytes, overlap_chars):
            if not part.text.strip():
                continue
            chunks.append(Chunk(part.start_line, part.end_line, prefix + part.text))
    return chunks
