"""Relevance targets: chunk-independent names for "what is relevant". Pure.

A target is one of

* ``path`` — a whole memory file (root-relative POSIX path);
* ``path#L12-L20`` — a 1-based inclusive line span of that file (``path#L12`` = one line);
* ``fact:<id>`` — the place where the memory text holds the marker ``<!-- fact:<id> -->``.

Targets never name chunks, so judgements survive re-chunking; they are resolved
to chunks at evaluation time (``memlab.datasets.target_chunks``).

A path may hold spaces (``notes/my notes.md#L3``): in ``qrels.tsv``, whose columns
are whitespace-separated, the target is written with whitespace and ``%``
percent-encoded (``notes/my%20notes.md#L3``; ``memlab.datasets.trec.encode_id``),
and read back decoded.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

FACT_PREFIX = "fact:"
FACT_ID = r"[A-Za-z0-9][A-Za-z0-9._-]*"
FACT_MARKER_RE = re.compile(r"<!-- fact:(" + FACT_ID + r") -->")
FACT_ID_RE = re.compile(FACT_ID)
_SPAN_RE = re.compile(r"(?P<path>.+?)(?:#L(?P<start>[0-9]+)(?:-L(?P<end>[0-9]+))?)?", re.DOTALL)


@dataclass(frozen=True)
class Target:
    """A parsed target; exactly one of ``path`` and ``fact`` is set."""

    raw: str
    path: str | None = None
    start_line: int | None = None  # 1-based, inclusive; None = the whole file
    end_line: int | None = None
    fact: str | None = None

    @property
    def kind(self) -> str:
        """ "fact", "span" or "file"."""
        if self.fact is not None:
            return "fact"
        return "span" if self.start_line is not None else "file"


def fact_marker(fact_id: str) -> str:
    """The HTML comment that anchors ``fact:<fact_id>`` in memory text."""
    if not FACT_ID_RE.fullmatch(fact_id):
        raise ValueError(f"fact id {fact_id!r} must match {FACT_ID}")
    return f"<!-- fact:{fact_id} -->"


def span_target(path: str, start_line: int, end_line: int) -> str:
    """``path#L<start>-L<end>`` (1-based, inclusive)."""
    return f"{path}#L{start_line}-L{end_line}"


def check_path(path: str) -> str | None:
    """Why ``path`` is not a valid root-relative memory path, or None if it is."""
    if "\\" in path or path.startswith("/"):
        return f"'{path}' must be a relative POSIX path (forward slashes, no leading '/')"
    parts = [p for p in path.split("/") if p not in ("", ".")]  # PurePosixPath(path).parts
    if not parts or ".." in parts or path.endswith("/"):
        return f"'{path}' must not contain '.', '..' or empty segments"
    if not path.endswith(".md"):
        return f"'{path}' is not a Markdown file (memory files end in .md)"
    return None


def parse_target(text: str) -> Target:
    """Parse a target string; ``ValueError`` says what is wrong and how to write it."""
    if not text.strip() or "\n" in text or "\r" in text or "\x00" in text:
        raise ValueError(f"target {text!r} is empty or holds a line break or NUL")
    if text.startswith(FACT_PREFIX):
        fact = text[len(FACT_PREFIX) :]
        if not FACT_ID_RE.fullmatch(fact):
            raise ValueError(f"fact target '{text}' must look like fact:<id> with <id> = {FACT_ID}")
        return Target(raw=text, fact=fact)
    match = _SPAN_RE.fullmatch(text)
    if match is None:
        raise ValueError(f"target '{text}' must be PATH, PATH#L<a>-L<b> or fact:<id>")
    path = match["path"]
    problem = check_path(path)
    if problem:
        raise ValueError(f"target '{text}': {problem}")
    if match["start"] is None:
        return Target(raw=text, path=path)
    start = int(match["start"])
    end = int(match["end"]) if match["end"] is not None else start
    if start < 1 or end < start:
        raise ValueError(f"target '{text}': line span must satisfy 1 <= start <= end")
    return Target(raw=text, path=path, start_line=start, end_line=end)
