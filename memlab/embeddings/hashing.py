"""``hash``: an offline, deterministic embedder made of hashed n-gram features (numpy only).

Features of a text (lowercased, split like the FTS keywords), each with a
sublinear weight ``w · ln(1 + count)``:

* every word (w = 1.0) and every pair of adjacent words (w = 0.5);
* character trigrams of the words padded with ``^``/``$`` (w = 0.3) — these
  give partial credit to inflections (``config`` ~ ``configuration``) and make
  CJK text, which has no spaces, comparable.

Each feature is hashed with CRC-32 (stable across processes and machines) to
one of ``dims`` buckets with a ±1 sign; the vector is unit length.

What it captures: shared words, phrases and sub-word overlap. What it cannot:
meaning — synonyms and paraphrases with no shared surface form ("car" vs
"automobile") get no credit. Use ``minilm`` for that.
"""

from __future__ import annotations

import math
import zlib
from collections import Counter
from collections.abc import Sequence

import numpy as np

from memlab.embeddings.base import Matrix, normalize_rows
from memlab.text import tokenize

WORD, BIGRAM, TRIGRAM = 1.0, 0.5, 0.3
_CACHE_LIMIT = 500_000


def features(text: str) -> dict[str, float]:
    """Feature → weight for one text (see the module docstring)."""
    words = tokenize(text)
    grams: Counter[str] = Counter()
    for w in words:
        padded = f"^{w}$"
        grams.update(padded[i : i + 3] for i in range(len(padded) - 2))
    out: dict[str, float] = {}
    for prefix, weight, counts in (
        ("w:", WORD, Counter(words)),
        ("b:", BIGRAM, Counter(f"{a} {b}" for a, b in zip(words, words[1:], strict=False))),
        ("c:", TRIGRAM, grams),
    ):
        for feat, n in counts.items():
            out[prefix + feat] = weight * math.log1p(n)
    return out


class HashEmbedder:
    """Hashed word, word-pair and character-trigram features; unit vectors."""

    def __init__(self, dims: int = 384) -> None:
        self._dims = int(dims)
        self._buckets: dict[str, tuple[int, float]] = {}

    @property
    def id(self) -> str:
        return f"hash-{self._dims}"

    @property
    def dims(self) -> int:
        return self._dims

    def _bucket(self, feature: str) -> tuple[int, float]:
        hit = self._buckets.get(feature)
        if hit is None:
            value = zlib.crc32(feature.encode("utf-8"))
            hit = (value % self._dims, 1.0 if value & 0x80000000 else -1.0)
            if len(self._buckets) < _CACHE_LIMIT:
                self._buckets[feature] = hit
        return hit

    def embed_batch(self, texts: Sequence[str]) -> Matrix:
        out = np.zeros((len(texts), self._dims), dtype=np.float64)
        for row, text in enumerate(texts):
            feats = features(text)
            if not feats:
                continue
            buckets = [self._bucket(f) for f in feats]
            idx = np.fromiter((b for b, _ in buckets), dtype=np.int64, count=len(buckets))
            signed = np.fromiter(
                (s * w for (_, s), w in zip(buckets, feats.values(), strict=True)),
                dtype=np.float64,
                count=len(buckets),
            )
            out[row] = np.bincount(idx, weights=signed, minlength=self._dims)
        return normalize_rows(out)
