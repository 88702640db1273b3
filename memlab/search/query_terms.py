"""Query keywords as the index reads them: ``search.keywords = "index"`` (memlab option).

c0 extracts keywords with Python's ``\\w`` (``keywords.extract_keywords``), which
disagrees with FTS5's tokenizers in ways that silently return nothing:

* an accent typed in NFD form (``e`` + U+0301) is a separator for ``\\w``, so
  ``école`` becomes ``cole`` while unicode61 indexes ``ecole``;
* ``"İ".lower()`` is ``i`` + U+0307, so ``İstanbul`` becomes ``stanbul`` while
  unicode61 indexes ``istanbul``;
* vowel signs and viramas of Devanagari and similar scripts are separators for
  ``\\w`` (and for unicode61 too): ``हिन्दी`` becomes the single letters ``ह न द``,
  searched as three unrelated keywords;
* the trigram tokenizer never matches a keyword shorter than 3 characters
  (``东京``, ``Go``, ``JS``).

With ``keywords = "index"`` a query is split into words at every character that
is not a letter, mark, number or ``_`` (NFC first), filtered as c0 filters (≥ 2
bytes, stop words, all-numeric, first occurrence), and each word is read by the
index's own tokenizer through a temporary FTS5 table: a word that yields
several terms is searched as a phrase (as c0's quoted ``my_function`` is). For
trigram indexes, words of 3 or more characters are matched as substrings and
shorter ones by a ``LIKE`` fallback on the chunk text (ASCII case-insensitive;
such rows rank after every FTS match, ``candidates.LIKE_RANK``).

With c0's keywords (the default) nothing changes in the results; the result is
marked *degraded* with a reason when the index would read the query differently.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field
from typing import Any

from memlab.search.keywords import STOP_WORDS, extract_keywords, match_expression

TRIGRAM_MIN_CHARS = 3
# The tokenizer that reads words for each index tokenizer (porter stems at MATCH time).
_TOKENIZE = {"unicode61": "unicode61", "porter": "unicode61", "trigram": None}


@dataclass
class KeywordPlan:
    """What to search: an FTS MATCH string, LIKE substrings, and why c0 may miss."""

    match: str | None
    like: list[str] = field(default_factory=list)
    misses: list[str] = field(default_factory=list)  # reasons (c0 keywords only)


def printable_query(query: str) -> str:
    """The query with anything that cannot be UTF-8 (lone surrogates) replaced by '?'."""
    if query.isascii():
        return query
    return query.encode("utf-8", errors="replace").decode("utf-8")


def _word_char(ch: str) -> bool:
    return ch == "_" or unicodedata.category(ch)[0] in "LMN"


def query_words(query: str) -> list[str]:
    """NFC words: maximal runs of letters, marks, numbers and ``_``."""
    words: list[str] = []
    current: list[str] = []
    for ch in unicodedata.normalize("NFC", query):
        if _word_char(ch):
            current.append(ch)
        elif current:
            words.append("".join(current))
            current = []
    if current:
        words.append("".join(current))
    return words


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
    """The keywords of ``query`` for an index built with ``tokenizer``."""
    if mode == "c0":
        keywords = extract_keywords(query)
        misses = c0_misses(db, tokenizer, query, keywords)
        return KeywordPlan(match_expression(keywords), misses=misses)
    words = _unique([w for w in query_words(query) if keep_word(w)])
    clause = _TOKENIZE.get(tokenizer)
    if clause is None:  # trigram: substrings; short words by LIKE
        long = [w for w in words if len(w) >= TRIGRAM_MIN_CHARS]
        short = [w for w in words if len(w) < TRIGRAM_MIN_CHARS]
        return KeywordPlan(match_expression(long), like=short)
    return KeywordPlan(match_expression(_phrases(db, clause, words)))


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
        return []  # ASCII: \w and unicode61 split and fold alike
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
