"""Query keywords as the index reads them: ``search.keywords = "index"`` (memlab option).

c0 extracts keywords as runs of Rust's ``char::is_alphanumeric`` (Unicode Alphabetic or
Numeric) and ``_`` (``keywords.extract_keywords``), which disagrees with FTS5's
tokenizers in ways that silently return nothing:

* an accent typed in NFD form (``e`` + U+0301) is not Alphabetic, so c0 splits there:
  ``école`` becomes ``cole`` while unicode61 indexes ``ecole``;
* ``"İ".lower()`` is ``i`` + U+0307, so ``İstanbul`` becomes ``stanbul`` while
  unicode61 indexes ``istanbul``;
* viramas of Devanagari and similar scripts and Thai tone marks are not Alphabetic
  (vowel signs are: ``भाषा`` is one keyword), so c0 splits ``हिन्दी`` into ``हिन`` and
  ``दी``, searched as two unrelated keywords (unicode61 splits at every mark, vowel
  signs too, but reads a keyword the same way, as a phrase);
* the trigram tokenizer never matches a keyword shorter than 3 characters
  (``东京``, ``Go``, ``JS``).

With ``keywords = "index"`` a query is split into words at every character that
is not a letter, mark, number or ``_`` (NFC; see below for the other forms),
filtered as c0 filters (≥ 2 bytes, stop words, all-numeric, first occurrence),
and each word is read by the index's own tokenizer through a temporary FTS5
table: a word that yields several terms is searched as a phrase (as c0's
quoted ``my_function`` is). For
trigram indexes, words of 3 or more characters are matched as substrings and
shorter ones by a ``LIKE`` fallback on the chunk text (ASCII case-insensitive;
such rows rank after every FTS match, ``candidates.LIKE_RANK``); the trigram
tokenizer compares code points (and unicode61 does not compose Hangul jamo), so
each word is searched in its NFC form, as typed and in its NFD form (``école``
typed with a combining accent finds the NFC text, and NFC finds NFD text).

In both modes, a query left with no keyword at all while raw FTS5 would search
some of its terms (``c#``, ``C++``, ``Ⅻ``: shorter than 2 bytes or all numeric
under c0's rules) is marked *degraded* with the reason (``dropped_terms``).

With c0's keywords (the default) nothing changes in the results; the result is
marked *degraded* with a reason when the index would read the query differently.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field
from typing import Any

from memlab.retrieval.keywords import STOP_WORDS, extract_keywords, match_expression

TRIGRAM_MIN_CHARS = 3
# The tokenizer that reads words for each index tokenizer (porter stems at MATCH time).
_TOKENIZE = {"unicode61": "unicode61", "porter": "unicode61", "trigram": None}


@dataclass
class KeywordPlan:
    """What to search: an FTS MATCH string, LIKE substrings, and why c0 may miss."""

    match: str | None
    like: list[str] = field(default_factory=list)
    misses: list[str] = field(default_factory=list)  # reasons the search may miss


def printable_query(query: str) -> str:
    """The query with anything that cannot be UTF-8 (lone surrogates) replaced by '?'."""
    if query.isascii():
        return query
    return query.encode("utf-8", errors="replace").decode("utf-8")


def _word_char(ch: str) -> bool:
    return ch == "_" or unicodedata.category(ch)[0] in "LMN"


def query_words(query: str) -> list[str]:
    """NFC words: maximal runs of letters, marks, numbers and ``_``."""
    return _words_as_typed(unicodedata.normalize("NFC", query))


def keep_word(word: str) -> bool:
    """c0's filters: at least 2 UTF-8 bytes, not a stop word, not all-numeric."""
    low = word.lower()
    return (
        len(word.encode("utf-8")) >= 2
        and low not in STOP_WORDS
        and not all(ch.isnumeric() for ch in word)
    )


def _unique(items: list[str]) -> list[str]:
    return list(dict.fromkeys(items))


def tokenizer_terms(db: Any, clause: str, texts: list[str]) -> list[list[str]]:
    """Each text's terms as the FTS5 tokenizer ``clause`` produces them (temp tables)."""
    if not texts:
        return []
    name = "memlab_q_" + "".join(ch if ch.isalnum() else "_" for ch in clause)
    db.execute(
        f"CREATE VIRTUAL TABLE IF NOT EXISTS temp.{name} USING fts5(text, tokenize='{clause}')"
    )
    db.execute(
        f"CREATE VIRTUAL TABLE IF NOT EXISTS temp.{name}_v USING fts5vocab(temp, {name}, instance)"
    )
    db.execute(f"DELETE FROM temp.{name}")
    db.executemany(
        f"INSERT INTO temp.{name}(rowid, text) VALUES (?, ?)", list(enumerate(texts, start=1))
    )
    terms: list[list[str]] = [[] for _ in texts]
    for doc, term in db.execute(f"SELECT doc, term FROM temp.{name}_v ORDER BY doc, offset"):
        terms[int(doc) - 1].append(str(term))
    db.execute(f"DELETE FROM temp.{name}")
    return terms


def _phrases(db: Any, clause: str, words: list[str]) -> list[str]:
    """Each word as the tokenizer reads it (several terms: a phrase), c0's filters applied."""
    read = (" ".join(t) for t in tokenizer_terms(db, clause, words) if t)
    return _unique([p for p in read if keep_word(p)])


def plan_keywords(db: Any, tokenizer: str, query: str, mode: str) -> KeywordPlan:
    """The keywords of ``query`` for an index built with ``tokenizer``; a query left with
    nothing to search that raw FTS5 would still search is marked (``dropped_terms``)."""
    if mode == "c0":
        keywords = extract_keywords(query)
        plan = KeywordPlan(
            match_expression(keywords), misses=c0_misses(db, tokenizer, query, keywords)
        )
    else:
        plan = _index_plan(db, tokenizer, query)
    if plan.match is None and not plan.like:
        plan.misses += dropped_terms(db, tokenizer, query)
    return plan


def _index_plan(db: Any, tokenizer: str, query: str) -> KeywordPlan:
    """Words as typed, NFC and NFD: the text may be stored in either form, and neither
    trigram nor unicode61 (Hangul jamo, scripts it does not fold) normalises."""
    clause = _TOKENIZE.get(tokenizer)
    forms = [unicodedata.normalize("NFC", query), query, unicodedata.normalize("NFD", query)]
    words = _unique([w for q in forms for w in _words_as_typed(q) if keep_word(w)])
    if clause is None:  # trigram: substrings; short words by LIKE
        long = [w for w in words if len(w) >= TRIGRAM_MIN_CHARS]
        short = [w for w in words if len(w) < TRIGRAM_MIN_CHARS]
        return KeywordPlan(match_expression(long), like=short)
    return KeywordPlan(match_expression(_phrases(db, clause, words)))


def dropped_terms(db: Any, tokenizer: str, query: str) -> list[str]:
    """Why a query with no keyword left may still miss what the index holds: raw FTS5
    would search terms c0's rules drop (shorter than 2 bytes, all numeric: ``c#``,
    ``C++``, ``Ⅻ``, ``2024``) and finds them. Stop words are dropped on purpose and not
    reported."""
    if tokenizer == "trigram":  # a quoted MATCH: substrings of 3 or more characters
        pieces = [p for p in query.split() if len(p) >= TRIGRAM_MIN_CHARS]
    else:
        pieces = tokenizer_terms(db, "unicode61", [query])[0] if query.strip() else []
    terms = _unique([p for p in pieces if p.lower() not in STOP_WORDS])
    if not terms or not _raw_match(db, query):
        return []
    return [
        f"no keywords survive extraction ({', '.join(terms)}: shorter than 2 bytes or all "
        "numeric), so nothing was searched by text; raw FTS5 finds the query in the index"
    ]


def _raw_match(db: Any, query: str) -> bool:
    """Does raw FTS5 find ``query`` (one quoted string) in the index? (False if it
    cannot read it.)"""
    quoted = '"' + query.replace('"', '""') + '"'
    try:
        row = db.execute(
            "SELECT 1 FROM chunks_fts WHERE chunks_fts MATCH ? LIMIT 1", (quoted,)
        ).fetchone()
    except Exception:  # a string raw FTS5 rejects matches nothing
        return False
    return row is not None


def _words_as_typed(query: str) -> list[str]:
    """``query_words`` without normalising: runs of letters, marks, numbers and ``_``."""
    words: list[str] = []
    current: list[str] = []
    for ch in query:
        if _word_char(ch):
            current.append(ch)
        elif current:
            words.append("".join(current))
            current = []
    if current:
        words.append("".join(current))
    return words


def c0_misses(db: Any, tokenizer: str, query: str, keywords: list[str] | None = None) -> list[str]:
    """Why c0's keywords may miss what the index holds (empty: they read alike);
    ``keywords``: the query's ``extract_keywords``, when already known."""
    keywords = extract_keywords(query) if keywords is None else keywords
    if tokenizer == "trigram":
        short = [k for k in keywords if len(k) < TRIGRAM_MIN_CHARS]
        if not short:
            return []
        return [
            f"the trigram tokenizer never matches keywords shorter than {TRIGRAM_MIN_CHARS} "
            f"characters ({', '.join(short)}); search.keywords='index' matches them by LIKE"
        ]
    if query.isascii():
        return []  # ASCII: c0 and unicode61 split and fold alike
    clause = _TOKENIZE.get(tokenizer, "unicode61") or "unicode61"
    words = _unique([w for w in query_words(query) if keep_word(w)])
    wanted = _phrases(db, clause, words)
    searched = set(_phrases(db, clause, keywords))
    missed = [w for w in wanted if w not in searched]
    if not missed:
        return []
    return [
        f"c0's keywords ({', '.join(keywords) or 'none'}) do not search "
        f"{', '.join(missed)} as the index's tokenizer reads the query (NFD accents, "
        "Turkish İ, or marks of scripts such as Devanagari); search.keywords='index' does"
    ]
