"""The vector cache is written as embedding goes: an interrupted run keeps its work."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest

from memlab.embeddings import cache as cache_mod
from memlab.embeddings.base import Matrix, WrappedProvider
from memlab.embeddings.cache import CachedEmbedder, VectorCache, text_key
from memlab.embeddings.hashing import HashEmbedder
from memlab.errors import EmbeddingError


class DiesOnCall(WrappedProvider):
    """Embeds like ``inner`` until its ``die_on``-th call, which fails."""

    def __init__(self, die_on: int) -> None:
        super().__init__(HashEmbedder(dims=16))
        self.die_on = die_on
        self.calls = 0

    def embed_batch(self, texts: Sequence[str]) -> Matrix:
        self.calls += 1
        if self.calls == self.die_on:
            raise EmbeddingError("the model went away")
        return self.inner.embed_batch(texts)


def test_an_interrupted_embedding_keeps_the_finished_steps(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(cache_mod, "SAVE_EVERY", 10)
    texts = [f"note {i} about the deploy" for i in range(35)]
    store = VectorCache(tmp_path / "vectors.sqlite")
    dying = DiesOnCall(die_on=3)
    with pytest.raises(EmbeddingError):
        CachedEmbedder(dying, [store]).embed_batch(texts)
    assert store.count(dying.id) == 20  # two steps of ten were saved before the failure
    kept = store.get_many(dying.id, [text_key(t) for t in texts])
    assert set(kept) == {text_key(t) for t in texts[:20]}

    again = DiesOnCall(die_on=0)  # never dies: the rerun embeds only what is missing
    out = CachedEmbedder(again, [store]).embed_batch(texts)
    assert again.calls == 2 and store.count(again.id) == 35  # 15 texts in steps of 10, 5
    assert np.array_equal(out, HashEmbedder(dims=16).embed_batch(texts))
