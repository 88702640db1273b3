"""``hash``: an offline, deterministic embedder made of hashed n-gram features (numpy only).

Features of a text (lowercased, split like the FTS keywords):

* every word (weight 1.0) and every pair of adjacent words (0.5);
* character trigrams of each word padded with ``^``/``$`` (0.3 each, scaled by
  the number of trigrams so long words do not dominate) — these give partial
  credit to inflections (``config`` ~ ``configuration``) and make CJK text,
  which has no spaces, comparable.

Each feature is hashed (BLAKE2b, stable across processes and machines) to one
of ``dims`` buckets with a ±1 sign; counts are log-scaled; the vector is unit
length.

What it captures: shared words, phrases and sub-word overlap. What it cannot:
meaning — synonyms and paraphrases with no shared surface form ("car" vs
"automobile") get no credit. Use ``minilm`` for that.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from functools import lru_cache

import numpy as np

from memlab.embeddings.base import Matrix, normalize_rows
from memlab.search.keywords import tokenize


@lru_cache(maxsize=200_000)
def _bucket(feature: str, dims: int) -> tuple[int, float]:
    digest = hashlib.blake2b(feature.encode("utf-8"), digest_size=8).digest()
    value = int.from_bytes(digest, "little")
    return value % dims, (1.0 if (value >> 63) & 1 else -1.0)


def features(text: str) -> dict[str, float]:
    words = tokenize(text)
    feats: dict[str, float] = {}
    for w in words:
        feats["w:" + w] = feats.get("w:" + w, 0.0) + 1.0
        padded = f"^{w}$"
        grams = [padded[i : i + 3] for i in range(max(len(padded) - 2, 1))]
        share = 0.3 * 3.0 / max(len(grams), 3)
        for g in grams:
            feats["c:" + g] = feats.get("c:" + g, 0.0) + share
    for a, b in zip(words, words[1:], strict=False):
        key = f"b:{a} {b}"
        feats[key] = feats.get(key, 0.0) + 0.5
    return feats


class HashEmbedder:
    """Hashed word, word-pair and character-trigram features; unit vectors."""

    def __init__(self, dims: int = 384) -> None:
        self._dims = int(dims)

    @property
    def id(self) -> str:
        return f"hash-{self._dims}"

    @property
    def dims(self) -> int:
        return self._dims

    def embed_batch(self, texts: Sequence[str]) -> Matrix:
        out = np.zeros((len(texts), self._dims), dtype=np.float32)
        for row, text in enumerate(texts):
            for feat, count in features(text).items():
                bucket, sign = _bucket(feat, self._dims)
                out[row, bucket] += sign * np.log1p(count)
        return normalize_rows(out)
