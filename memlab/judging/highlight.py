"""The query's terms in a candidate's text: where they are, as HTML or terminal text.

The terms are the query's keywords as search extracts them (``extract_keywords``,
SPEC §4.1) and a text token matches when it equals one (``token_spans`` splits
the text the same way), so the judge sees the words the FTS side matched on.
"""

from __future__ import annotations

import html

from memlab.retrieval.keywords import extract_keywords
from memlab.text import token_spans

ANSI_ON, ANSI_OFF = "\x1b[1;33m", "\x1b[0m"


def term_spans(text: str, query: str) -> list[tuple[int, int]]:
    """(start, end) of every token of ``text`` that is one of the query's keywords."""
    terms = set(extract_keywords(query))
    return [(start, end) for start, end, token in token_spans(text) if token in terms]


def _pieces(text: str, spans: list[tuple[int, int]]) -> list[tuple[str, bool]]:
    out, at = [], 0
    for start, end in spans:
        out += [(text[at:start], False), (text[start:end], True)]
        at = end
    out.append((text[at:], False))
    return [(piece, marked) for piece, marked in out if piece]


def highlight_html(text: str, query: str) -> str:
    """``text`` HTML-escaped, the query's terms in ``<mark>``."""
    return "".join(
        f"<mark>{html.escape(p)}</mark>" if marked else html.escape(p)
        for p, marked in _pieces(text, term_spans(text, query))
    )


def highlight_ansi(text: str, query: str) -> str:
    """``text`` with the query's terms in bold yellow (for a terminal)."""
    return "".join(
        f"{ANSI_ON}{p}{ANSI_OFF}" if marked else p
        for p, marked in _pieces(text, term_spans(text, query))
    )
