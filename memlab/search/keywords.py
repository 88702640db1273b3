"""Keyword extraction and the FTS5 MATCH string (SPEC §4.1 step 2). Pure.

``extract_keywords``: lowercase → split on every character that is neither
alphanumeric nor ``_`` → keep tokens of ≥ 2 UTF-8 bytes → drop stop words →
drop all-numeric tokens → de-duplicate keeping the first occurrence.

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


def _all_numeric(token: str) -> bool:
    return all(ch.isnumeric() for ch in token)


def extract_keywords(query: str) -> list[str]:
    """Keywords of a query, in order of first occurrence (SPEC §4.1)."""
    seen: set[str] = set()
    keywords: list[str] = []
    for token in tokenize(query):
        if len(token.encode("utf-8")) < 2 or token in STOP_WORDS or _all_numeric(token):
            continue
        if token not in seen:
            seen.add(token)
            keywords.append(token)
    return keywords


def match_expression(keywords: list[str]) -> str | None:
    """The FTS5 MATCH string for ``keywords``, or None when there are none."""
    if not keywords:
        return None
    return " OR ".join('"' + k.replace('"', '""') + '"' for k in keywords)
