"""Text helpers shared by search, embeddings, evaluation and the workbench. Pure.

* ``tokenize`` — lowercase, then split on every character that is neither
  alphanumeric nor ``_``, where alphanumeric is Rust's ``char::is_alphanumeric``
  (Unicode Alphabetic or Numeric, ``memlab.unicode_alnum``). This is c0's tokeniser
  (SPEC §4.1 step 2, §5). Alphabetic includes the vowel signs of Devanagari,
  Bengali, Tamil …, Thai vowels and Arabic vowel points, so ``भाषा`` stays one word;
  viramas, Thai tone marks and combining accents are not Alphabetic, so c0 splits
  there: ``हिन्दी`` → ``हिन``, ``दी``; ``école`` typed in NFD → ``e``, ``cole``.
  (Python's ``\\w``, ``str.isalnum``, would also split at every vowel sign.)
* ``token_spans`` — where ``tokenize``'s tokens are in the text (for highlighting);
* ``snippet_tokens`` — the MMR token set of a snippet (SPEC §5).
* ``jaccard`` / ``jaccard_matrix`` — SPEC §5's Jaccard similarity (both empty → 1,
  one empty → 0, else |A∩B| / |A∪B|), one pair or every pair of many sets.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from memlab.arrays import FloatArray, IntArray
from memlab.unicode_alnum import words_pattern


def tokenize(text: str) -> list[str]:
    """Lowercase and split on every character that is not alphanumeric (Rust's
    ``char::is_alphanumeric``, as c0) and not ``_``."""
    low = text.lower()
    return words_pattern(low).findall(low)


def token_spans(text: str) -> list[tuple[int, int, str]]:
    """(start, end, lowercase token) of every token of ``text``, as ``tokenize`` splits it."""
    return [(m.start(), m.end(), m.group().lower()) for m in words_pattern(text).finditer(text)]


def snippet_tokens(text: str) -> frozenset[str]:
    """MMR tokens of a snippet (SPEC §5): lowercase, split, no empties, as a set."""
    return frozenset(tokenize(text))


def jaccard(a: frozenset[str], b: frozenset[str]) -> float:
    """Both empty → 1; one empty → 0; else |A∩B| / |A∪B|."""
    if not a and not b:
        return 1.0
    if not a or not b:
        return 0.0
    common = len(a & b)  # |A∪B| = |A| + |B| − |A∩B|: the same integer, no union built
    return common / (len(a) + len(b) - common)


def jaccard_matrix(token_sets: Sequence[frozenset[str]]) -> FloatArray:
    """Pairwise ``jaccard`` of many token sets (vectorised; equal entry for entry)."""
    vocab: dict[str, int] = {}
    ids = [np.array([vocab.setdefault(t, len(vocab)) for t in s], int) for s in token_sets]
    return jaccard_of_ids(ids, len(vocab))


def jaccard_of_ids(ids: Sequence[IntArray], width: int) -> FloatArray:
    """Pairwise Jaccard of sets given as arrays of distinct token ids < ``width``.

    One sparse incidence product gives every intersection as an exact integer count,
    so each entry equals ``jaccard(a, b)`` bit for bit (both empty → 1; one empty → 0).
    """
    from scipy.sparse import csr_matrix

    n = len(ids)
    sizes = np.array([len(i) for i in ids], dtype=np.float64)
    indptr = np.r_[0, np.cumsum(sizes)].astype(np.int64)
    columns = np.concatenate(ids).astype(np.int64) if n else np.zeros(0, np.int64)
    incidence = csr_matrix((np.ones(len(columns)), columns, indptr), shape=(n, max(width, 1)))
    inter = (incidence @ incidence.T).toarray()
    union = sizes[:, None] + sizes[None, :] - inter
    with np.errstate(invalid="ignore", divide="ignore"):
        out: FloatArray = np.where(union > 0, inter / union, 1.0)
    np.fill_diagonal(out, 1.0)
    return out
