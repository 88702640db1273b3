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

SCAFFOLD_MARKERS = (
    "Auto-populated by dream consolidation",
    "Add project-specific knowledge here",
    "Add any cross-project preferences here",
)
_COMMENT = re.compile(r"<!--.*?-->", re.DOTALL)
# A line (MULTILINE: ``^`` after each "\n") that is no heading (``[^\S\n]`` is ``\s`` within
# the line) and holds a character that is not whitespace.
_CONTENT_LINE = re.compile(r"^(?![^\S\n]*#+(?:[ \t]|$))[^\n]*?\S", re.MULTILINE)


def strip_comments(text: str) -> str:
    """Remove HTML comments; an unterminated ``<!--`` and what follows it stay (SPEC §4.3.1)."""
    return _COMMENT.sub("", text)


def is_scaffold(text: str) -> bool:
    """A short text holding a Dream/memory scaffold marker."""
    trimmed = text.strip()
    return len(trimmed.encode("utf-8")) < 500 and any(m in trimmed for m in SCAFFOLD_MARKERS)


def is_content_free(text: str, source: str) -> bool:
    """True if the chunk carries no content worth returning (SPEC §4.3 step 1).

    ``_CONTENT_LINE`` finds the first line of content (usually the second: a chunk
    starts with its heading) in one search instead of splitting the chunk into lines:
    a line that is not blank (``str.strip``'s whitespace is ``\\s``'s) and is not an ATX
    heading (``memlab.store.chunker.heading_level``'s pattern, within one line)."""
    body = strip_comments(text) if "<!--" in text else text
    if _CONTENT_LINE.search(body) is None:
        return True
    return is_evergreen(source) and is_scaffold(text)
