"""Processing the model's response (SPEC §7.3 step 3.2). Pure.

Trim; then an empty response, a NO_REPLY variant or a response without a
Markdown heading is *nothing to consolidate* (no write, no deletion); a longer
response is cut to ``max_chars`` characters. c0's heading test is the substring
``"# "`` or ``"## "`` anywhere in the text, reproduced as is (so "C# and F#"
followed by a space counts as a heading).
"""

from __future__ import annotations

from dataclasses import dataclass

NO_REPLY = "noreply"


def is_no_reply(text: str) -> bool:
    """Lowercase, keep only alphanumerics, compare with ``noreply``."""
    kept: list[str] = []
    for c in text.lower():
        if c.isalnum():
            kept.append(c)
            if len(kept) > len(NO_REPLY):
                return False  # a long answer is not a NO_REPLY: stop early
    return "".join(kept) == NO_REPLY


def has_heading(text: str) -> bool:
    """c0's test: ``"# "`` or ``"## "`` appears anywhere."""
    return "# " in text or "## " in text


@dataclass(frozen=True)
class Nothing:
    """NothingToConsolidate: ``reason`` is "empty", "no-reply" or "no-heading"."""

    reason: str


@dataclass(frozen=True)
class NewMemory:
    text: str
    truncated: bool


def process_response(raw: str, max_chars: int) -> Nothing | NewMemory:
    text = raw.strip()
    if not text:
        return Nothing("empty")
    if is_no_reply(text):
        return Nothing("no-reply")
    if not has_heading(text):
        return Nothing("no-heading")
    if len(text) > max_chars:
        return NewMemory(text[:max_chars], truncated=True)
    return NewMemory(text, truncated=False)
