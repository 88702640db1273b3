"""The content-free filter (SPEC §4.3 step 1). Pure.

A chunk is content-free when, after removing ``<!-- … -->`` comments (an
unterminated ``<!--`` is not a comment: it and the rest of the text stay),
every non-blank line is an ATX heading (block quotes count as content); or when
its source is evergreen, its trimmed text is under 500 bytes and it contains a
Dream scaffold marker.
"""

from __future__ import annotations

import re

from memlab.sources import is_evergreen
from memlab.store.chunker import heading_level

SCAFFOLD_MARKERS = (
    "Auto-populated by dream consolidation",
    "Add project-specific knowledge here",
    "Add any cross-project preferences here",
)
_COMMENT = re.compile(r"<!--.*?-->", re.DOTALL)


def strip_comments(text: str) -> str:
    """Remove HTML comments; an unterminated ``<!--`` and what follows it stay (SPEC §4.3.1)."""
    return _COMMENT.sub("", text)


def is_scaffold(text: str) -> bool:
    """A short text holding a Dream/memory scaffold marker."""
    trimmed = text.strip()
    return len(trimmed.encode("utf-8")) < 500 and any(m in trimmed for m in SCAFFOLD_MARKERS)


def is_content_free(text: str, source: str) -> bool:
    """True if the chunk carries no content worth returning (SPEC §4.3 step 1).

    The lines are read one at a time up to the first line of content (usually the
    second: a chunk starts with its heading), not split all at once."""
    body = strip_comments(text) if "<!--" in text else text
    start, size = 0, len(body)
    while start <= size:
        end = body.find("\n", start)
        if end < 0:
            end = size
        line = body[start:end]
        if line.strip() and not heading_level(line):  # a line of content
            return is_evergreen(source) and is_scaffold(text)
        start = end + 1
    return True
