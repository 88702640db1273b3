"""The embedder an evaluation uses: a dataset's shipped vectors first, then a model.

A dataset may ship ``vectors/<provider-id>.sqlite`` (a read-only ``VectorCache``
holding the vectors of every chunk text and query text). The evaluation
embedder answers from it, then from the user's cache, and only then calls the
real provider — so the default run needs no model. When the provider is not
installed, a miss raises ``EmbedderUnavailable`` (the search degrades to
FTS-only and says so).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from pathlib import Path

from memlab.datasets.model import VECTORS_DIR, Dataset
from memlab.embeddings.base import EmbeddingProvider, Matrix
from memlab.embeddings.cache import CachedEmbedder, VectorCache
from memlab.embeddings.minilm import INSTALL_HINT, MODEL_ID
from memlab.embeddings.registry import default_cache_path, get_embedder
from memlab.errors import ConfigError, EmbedderUnavailable, MemlabError

SPEC_OF_ID = {MODEL_ID: "minilm"}


def spec_for_id(provider_id: str) -> str:
    """The registry name that builds provider ``provider_id`` (``hash-384`` → ``hash:384``)."""
    if provider_id.startswith("hash-"):
        return "hash:" + provider_id[len("hash-") :]
    if provider_id in SPEC_OF_ID:
        return SPEC_OF_ID[provider_id]
    raise ConfigError(f"no registered provider has id '{provider_id}'")


class CacheOnly:
    """A provider known only by id and dimension: every call is a miss it cannot fill."""

    def __init__(self, provider_id: str, dims: int, why: str) -> None:
        self._id, self._dims, self.why = provider_id, dims, why

    @property
    def id(self) -> str:
        return self._id

    @property
    def dims(self) -> int:
        return self._dims

    def embed_batch(self, texts: Sequence[str]) -> Matrix:
        raise EmbedderUnavailable(
            f"{len(texts)} text(s) have no precomputed '{self._id}' vector; {self.why}"
        )


def shipped_vectors(dataset: Dataset) -> dict[str, tuple[Path, int]]:
    """provider id → (vector cache file, dims) for every file in the dataset's vectors/."""
    found: dict[str, tuple[Path, int]] = {}
    folder = dataset.path / VECTORS_DIR
    if not folder.is_dir():
        return found
    for path in sorted(folder.glob("*.sqlite")):
        uri = f"file:{path}?mode=ro&immutable=1"
        with sqlite3.connect(uri, uri=True) as db:
            for provider, dims in db.execute("SELECT DISTINCT provider, dims FROM vectors"):
                found[str(provider)] = (path, int(dims))
    return found


def evaluation_embedder(dataset: Dataset, spec: str | None) -> EmbeddingProvider | None:
    """The embedder for evaluating ``dataset``.

    ``spec`` None picks the provider of the dataset's shipped vectors (None if it
    ships none); otherwise a registry name (``hash``, ``minilm``, …).
    """
    shipped = shipped_vectors(dataset)
    if spec is None:
        if not shipped:
            return None
        if len(shipped) > 1:
            raise ConfigError(
                f"dataset {dataset.name} ships vectors of {', '.join(sorted(shipped))}; "
                "choose one with --embedder"
            )
        spec = spec_for_id(next(iter(shipped)))
    inner: EmbeddingProvider
    try:
        inner = get_embedder(spec)
    except EmbedderUnavailable as exc:
        pid = next((p for p in shipped if _spec_or_none(p) == spec), None)
        if pid is None:
            raise
        inner = CacheOnly(pid, shipped[pid][1], str(exc) or INSTALL_HINT)
    caches = [VectorCache(shipped[inner.id][0], read_only=True)] if inner.id in shipped else []
    caches.append(VectorCache(default_cache_path()))
    return CachedEmbedder(inner, caches)


def _spec_or_none(provider_id: str) -> str | None:
    try:
        return spec_for_id(provider_id)
    except MemlabError:
        return None
