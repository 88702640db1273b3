"""The embedding provider interface: one method, ``embed_batch``.

A provider has an ``id`` (recorded in the index, so vectors of different
models are never mixed), a dimension ``dims``, and ``embed_batch(texts)``
returning an ``(n, dims)`` float32 array of unit vectors. ``checked_embed``
wraps a call and turns every way a provider can misbehave (an exception, a
timeout, the wrong shape, NaN, nothing) into an ``EmbeddingError``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, runtime_checkable

import numpy as np
import numpy.typing as npt

from memlab.errors import EmbeddingError

Matrix = npt.NDArray[np.float32]


@runtime_checkable
class EmbeddingProvider(Protocol):
    @property
    def id(self) -> str: ...

    @property
    def dims(self) -> int: ...

    def embed_batch(self, texts: Sequence[str]) -> Matrix: ...


class WrappedProvider:
    """Base of providers that wrap another one and keep its identity (id and dims),
    so vectors they return are interchangeable with the inner provider's."""

    def __init__(self, inner: EmbeddingProvider) -> None:
        self.inner = inner

    @property
    def id(self) -> str:
        return self.inner.id

    @property
    def dims(self) -> int:
        return self.inner.dims


def normalize_rows(matrix: npt.NDArray[np.floating]) -> Matrix:
    """Scale each row to unit L2 norm (zero rows stay zero)."""
    m = np.asarray(matrix, dtype=np.float32)
    norms = np.linalg.norm(m, axis=1, keepdims=True)
    return np.divide(m, norms, out=np.zeros_like(m), where=norms > 0)


def checked_embed(provider: EmbeddingProvider, texts: Sequence[str]) -> Matrix:
    """Call ``provider.embed_batch`` and validate what comes back."""
    try:
        out = provider.embed_batch(list(texts))
    except EmbeddingError:
        raise
    except Exception as exc:
        raise EmbeddingError(
            f"embedder '{provider.id}' failed: {type(exc).__name__}: {exc}"
        ) from exc
    if out is None:
        raise EmbeddingError(f"embedder '{provider.id}' returned nothing")
    arr = np.asarray(out, dtype=np.float32)
    if arr.ndim != 2 or arr.shape[0] != len(texts):
        raise EmbeddingError(
            f"embedder '{provider.id}' returned shape {arr.shape} for {len(texts)} texts"
        )
    if arr.shape[1] != provider.dims:
        raise EmbeddingError(
            f"embedder '{provider.id}' returned {arr.shape[1]}-dimensional vectors, "
            f"expected {provider.dims}"
        )
    if not np.all(np.isfinite(arr)):
        raise EmbeddingError(f"embedder '{provider.id}' returned NaN or infinite values")
    return arr
