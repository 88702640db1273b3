"""Provider registry, the persistent cache, fault injection and the real model."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from memlab.cli import main
from memlab.embeddings.cache import CachedEmbedder, VectorCache, text_key
from memlab.embeddings.faulty import FaultyEmbedder
from memlab.embeddings.hashing import HashEmbedder
from memlab.embeddings.minilm import available
from memlab.embeddings.registry import get_embedder
from memlab.errors import ConfigError, EmbedderUnavailable, EmbeddingError


class Counting(HashEmbedder):
    def __init__(self) -> None:
        super().__init__(32)
        self.texts: list[str] = []

    def embed_batch(self, texts):  # type: ignore[no-untyped-def]
        self.texts.extend(texts)
        return super().embed_batch(texts)


def test_registry_names_and_errors() -> None:
    assert get_embedder("hash").dims == 384 and get_embedder("hash:64").id == "hash-64"
    assert isinstance(get_embedder("faulty:nan:0.5:hash:16"), FaultyEmbedder)
    with pytest.raises(ConfigError, match="valid: cache, faulty, hash, minilm"):
        get_embedder("word2vec")
    with pytest.raises(ConfigError, match="unknown fault mode"):
        get_embedder("faulty:explode:hash")
    with pytest.raises(ConfigError, match="cache needs an inner provider"):
        get_embedder("cache")


def test_cache_hits_after_first_call_and_persists(tmp_path: Path) -> None:
    path = tmp_path / "v.sqlite"
    inner = Counting()
    cached = CachedEmbedder(inner, [VectorCache(path)])
    first = cached.embed_batch(["a b", "c d", "a b"])
    assert inner.texts == ["a b", "c d"]  # a repeated text is embedded once
    assert (cached.hits, cached.misses) == (0, 3)
    again = CachedEmbedder(Counting(), [VectorCache(path)])
    second = again.embed_batch(["c d", "a b"])
    assert again.inner.texts == []  # type: ignore[attr-defined]
    assert np.array_equal(second, first[[1, 0]])
    assert cached.id == inner.id and cached.dims == 32


def test_read_only_cache_falls_through_without_writing(tmp_path: Path) -> None:
    path = tmp_path / "v.sqlite"
    CachedEmbedder(Counting(), [VectorCache(path)]).embed_batch(["known"])
    ro = VectorCache(path, read_only=True)
    inner = Counting()
    out = CachedEmbedder(inner, [ro]).embed_batch(["known", "new text"])
    assert inner.texts == ["new text"] and out.shape == (2, 32)
    assert ro.count() == 1
    with pytest.raises(EmbeddingError, match="read-only"):
        ro.put_many("x", [("k", np.zeros(3, np.float32))])


def test_cache_without_model_raises_unavailable_on_miss(tmp_path: Path) -> None:
    class Missing(HashEmbedder):
        def embed_batch(self, texts):  # type: ignore[no-untyped-def]
            raise EmbedderUnavailable("install memlab[minilm]")

    cache = VectorCache(tmp_path / "v.sqlite")
    cache.put_many("hash-384", [(text_key("hit"), np.ones(384, np.float32))])
    emb = CachedEmbedder(Missing(), [cache])
    assert emb.embed_batch(["hit"]).shape == (1, 384)
    with pytest.raises(EmbeddingError, match="install memlab"):
        emb.embed_batch(["miss"])


def test_faulty_rate_is_seeded() -> None:
    a = FaultyEmbedder(HashEmbedder(8), "raise", 0.5, seed=3)
    b = FaultyEmbedder(HashEmbedder(8), "raise", 0.5, seed=3)
    pattern = []
    for emb in (a, b):
        seq = []
        for _ in range(40):
            try:
                emb.embed_batch(["x"])
                seq.append(0)
            except RuntimeError:
                seq.append(1)
        pattern.append(seq)
    assert pattern[0] == pattern[1] and 5 < sum(pattern[0]) < 35


def test_embedders_command(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["embedders", "--json"]) == 0
    rows = {r["name"]: r for r in json.loads(capsys.readouterr().out)}
    assert rows["hash"]["usable"] is True
    assert rows["minilm"]["usable"] is available()[0]
    if not rows["minilm"]["usable"]:
        assert "pip install" in rows["minilm"]["note"]


def test_index_and_search_with_embedder_cli(
    memory: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["index", str(memory), "--embedder", "hash", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["embedded"] == 4
    assert (
        main(
            [
                "search",
                str(memory),
                "refresh token",
                "--embedder",
                "hash",
                "--json",
                "--min-score",
                "0",
            ]
        )
        == 0
    )
    data = json.loads(capsys.readouterr().out)
    assert data["degraded"] is False and data["hits"]
    assert main(["search", str(memory), "refresh token", "--embedder", "hash:16"]) == 2
    assert "hash-384" in capsys.readouterr().err


@pytest.mark.minilm
@pytest.mark.skipif(not available()[0], reason=available()[1])
def test_real_model_prefers_a_paraphrase() -> None:
    emb = get_embedder("minilm")
    m = emb.embed_batch(
        [
            "How do I start the development server?",
            "Run make dev to launch the local dev server.",
            "The cat sat on the warm windowsill all afternoon.",
        ]
    )
    assert m.shape == (3, 384)
    assert float(m[0] @ m[1]) > float(m[0] @ m[2]) + 0.2
