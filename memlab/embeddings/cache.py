"""``cache``: vectors keyed by provider id + content hash, stored persistently.

A ``VectorCache`` is a small SQLite file (the built-in ``sqlite3`` suffices).
``CachedEmbedder`` looks every text up in its caches first; misses fall
through to the wrapped provider and are written to the first writable cache.
Re-runs therefore need no model, and a shipped dataset carries its vectors in
a read-only cache so the default run needs no model either. Misses are embedded
and written ``SAVE_EVERY`` texts at a time, so a run interrupted while embedding
a large memory keeps the vectors computed so far.
"""

from __future__ import annotations

import hashlib
import sqlite3
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from memlab.embeddings.base import EmbeddingProvider, Matrix, WrappedProvider, checked_embed
from memlab.errors import EmbeddingError


def text_key(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


class VectorCache:
    """``vectors(provider, key, dims, vec)`` in one SQLite file."""

    def __init__(self, path: str | Path, *, read_only: bool = False) -> None:
        self.path = Path(path)
        self.read_only = read_only
        self._lock = threading.Lock()
        if read_only:
            if not self.path.exists():
                raise EmbeddingError(f"vector cache {self.path} does not exist")
            uri = f"file:{self.path}?mode=ro&immutable=1"
            self._db = sqlite3.connect(uri, uri=True, check_same_thread=False)
        else:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(str(self.path), check_same_thread=False, timeout=30)
            self._db.execute(
                "CREATE TABLE IF NOT EXISTS vectors (provider TEXT NOT NULL, key TEXT NOT NULL, "
                "dims INTEGER NOT NULL, vec BLOB NOT NULL, PRIMARY KEY (provider, key))"
            )
            self._db.commit()

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as its path and mode: reopened where it is unpickled (a worker)."""
        return (_reopen, (str(self.path), self.read_only))

    def get_many(self, provider: str, keys: Sequence[str]) -> dict[str, np.ndarray]:
        found: dict[str, np.ndarray] = {}
        with self._lock:
            for start in range(0, len(keys), 500):
                part = list(keys[start : start + 500])
                marks = ",".join("?" * len(part))
                for key, vec in self._db.execute(
                    f"SELECT key, vec FROM vectors WHERE provider = ? AND key IN ({marks})",
                    [provider, *part],
                ):
                    found[key] = np.frombuffer(vec, dtype=np.float32)
        return found

    def put_many(self, provider: str, items: Sequence[tuple[str, np.ndarray]]) -> None:
        if self.read_only:
            raise EmbeddingError(f"vector cache {self.path} is read-only")
        with self._lock:
            self._db.executemany(
                "INSERT OR REPLACE INTO vectors(provider, key, dims, vec) VALUES (?, ?, ?, ?)",
                [(provider, k, len(v), np.asarray(v, np.float32).tobytes()) for k, v in items],
            )
            self._db.commit()

    def count(self, provider: str | None = None) -> int:
        sql, args = "SELECT COUNT(*) FROM vectors", ()
        if provider is not None:
            sql, args = sql + " WHERE provider = ?", (provider,)  # type: ignore[assignment]
        with self._lock:
            return int(self._db.execute(sql, args).fetchone()[0])

    def keep_only(self, provider: str, keys: Sequence[str]) -> int:
        """Delete ``provider``'s vectors whose key is not in ``keys``; how many went."""
        if self.read_only:
            raise EmbeddingError(f"vector cache {self.path} is read-only")
        keep = set(keys)
        with self._lock:
            rows = self._db.execute("SELECT key FROM vectors WHERE provider = ?", (provider,))
            stale = [k for (k,) in rows if k not in keep]
            self._db.executemany(
                "DELETE FROM vectors WHERE provider = ? AND key = ?", [(provider, k) for k in stale]
            )
            self._db.commit()
        return len(stale)

    def vacuum(self) -> None:
        """Compact the file (after a bulk write)."""
        with self._lock:
            self._db.execute("VACUUM")

    def close(self) -> None:
        self._db.close()


SAVE_EVERY = 1024  # missing texts embedded, then written to the cache, per step


def _reopen(path: str, read_only: bool) -> VectorCache:
    return VectorCache(path, read_only=read_only)


class CachedEmbedder(WrappedProvider):
    """A provider that answers from caches first and falls through to ``inner``."""

    def __init__(self, inner: EmbeddingProvider, caches: Sequence[VectorCache]) -> None:
        super().__init__(inner)
        self.caches = list(caches)
        self.hits = 0
        self.misses = 0

    def embed_batch(self, texts: Sequence[str]) -> Matrix:
        keys = [text_key(t) for t in texts]
        found: dict[str, np.ndarray] = {}
        for cache in self.caches:
            wanted = [k for k in dict.fromkeys(keys) if k not in found]
            if wanted:
                found.update(cache.get_many(self.id, wanted))
        missing = [i for i, k in enumerate(keys) if k not in found]
        self.hits += len(texts) - len(missing)
        self.misses += len(missing)
        if missing:
            todo: dict[str, str] = {}  # key -> text, each distinct text embedded once
            for i in missing:
                todo.setdefault(keys[i], texts[i])
            writable = next((c for c in self.caches if not c.read_only), None)
            pending = list(todo.items())
            for start in range(0, len(pending), SAVE_EVERY):
                step = pending[start : start + SAVE_EVERY]
                fresh = checked_embed(self.inner, [text for _, text in step])
                new = dict(zip((key for key, _ in step), fresh, strict=True))
                found.update(new)
                if writable is not None:  # saved as it goes: an interruption keeps these
                    writable.put_many(self.id, list(new.items()))
        out = np.zeros((len(texts), self.dims), dtype=np.float32)
        for i, k in enumerate(keys):
            vec = found[k]
            if vec.shape != (self.dims,):
                raise EmbeddingError(f"cached vector for provider {self.id} has shape {vec.shape}")
            out[i] = vec
        return out
