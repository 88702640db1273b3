"""Keyword extraction and the FTS5 MATCH string (SPEC §4.1 step 2). Pure.

``extract_keywords``: lowercase → split on every character that is neither
alphanumeric (Rust's ``char::is_alphanumeric``, ``memlab.text.tokenize``) nor ``_`` →
keep tokens of ≥ 2 UTF-8 bytes → drop stop words → drop all-numeric tokens →
de-duplicate keeping the first occurrence.

``match_expression`` joins the keywords with `` OR ``, each one double-quoted
so that no query text can reach FTS5's syntax: a keyword holds only
alphanumerics and ``_`` anyway, but quoting also neutralises FTS5 barewords
such as ``NEAR``/``AND`` in any case. Any query text is therefore safe.
"""

from __future__ import annotations

from memlab.text import tokenize

STOP_WORDS: frozenset[str] = frozenset(
    """
    a an the this that these those i me my we our you your he she it they him
    her its them us is are was were be been being have has had do does did will
    would could should can may might in on at to for of with by from about into
    through during before after above below and or but if then because as while
    when where what which who how why thing things stuff something anything
    everything one some any all each every both few more yesterday today tomorrow
    earlier later recently now just already still yet please help find show get
    tell give make not no yes also too very really here there so up out like
    than other only
    """.split()
)


KEYWORD = "keyword"


def token_outcomes(query: str) -> list[tuple[str, str]]:
    """Every token of the query and what extraction does with it: ``"keyword"`` or
    the reason it is dropped (SPEC §4.1 step 2, in the order the rules apply)."""
    seen: set[str] = set()
    out = []
    for token in tokenize(query):
        if len(token.encode("utf-8")) < 2:
            why = "dropped: shorter than 2 bytes"
        elif token in STOP_WORDS:
            why = "dropped: stop word"
        elif all(ch.isnumeric() for ch in token):
            why = "dropped: all digits"
        elif token in seen:
            why = "dropped: duplicate"
        else:
            why = KEYWORD
            seen.add(token)
        out.append((token, why))
    return out


def extract_keywords(query: str) -> list[str]:
    """Keywords of a query, in order of first occurrence (SPEC §4.1)."""
    return [token for token, why in token_outcomes(query) if why == KEYWORD]


def match_expression(keywords: list[str]) -> str | None:
    """The FTS5 MATCH string for ``keywords``, or None when there are none."""
    if not keywords:
        return None
    return " OR ".join('"' + k.replace('"', '""') + '"' for k in keywords)
