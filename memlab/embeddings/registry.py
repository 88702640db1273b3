"""Embedding providers by name.

Names (``memlab embedders`` lists them with whether each works here):

* ``hash`` or ``hash:DIMS`` — offline hashed n-grams (default 384 dims);
* ``minilm`` — all-MiniLM-L6-v2 on the CPU (optional extra ``memlab[minilm]``);
* ``cache:INNER`` — INNER behind a persistent vector cache
  (``$MEMLAB_CACHE_DIR/vectors.sqlite``, default ``~/.cache/memlab``);
* ``faulty:MODE[:RATE]:INNER`` — INNER with injected faults (see ``faulty``).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from memlab.embeddings import minilm
from memlab.embeddings.base import EmbeddingProvider
from memlab.embeddings.cache import CachedEmbedder, VectorCache
from memlab.embeddings.faulty import FAULT_MODES, FaultyEmbedder
from memlab.embeddings.hashing import HashEmbedder
from memlab.errors import ConfigError, EmbedderUnavailable, unknown_name


@dataclass(frozen=True)
class ProviderInfo:
    name: str
    description: str
    check: Callable[[], tuple[bool, str]]


def _always() -> tuple[bool, str]:
    return True, "ok"


PROVIDERS: dict[str, ProviderInfo] = {
    "hash": ProviderInfo("hash", "hashed word/bigram/char-trigram features, numpy only", _always),
    "minilm": ProviderInfo(
        "minilm", "all-MiniLM-L6-v2 sentence embeddings on the CPU", minilm.available
    ),
    "cache": ProviderInfo(
        "cache", "cache:INNER — persistent vectors keyed by provider + text", _always
    ),
    "faulty": ProviderInfo(
        "faulty", f"faulty:MODE[:RATE]:INNER — modes {', '.join(FAULT_MODES)}", _always
    ),
}


MAX_DIMS = 8192  # sqlite-vec's largest vector


def default_cache_path() -> Path:
    base = os.environ.get("MEMLAB_CACHE_DIR") or os.path.join(Path.home(), ".cache", "memlab")
    return Path(base) / "vectors.sqlite"


def get_embedder(spec: str) -> EmbeddingProvider:
    """Build a provider from its name (see the module docstring)."""
    head, _, rest = spec.partition(":")
    if head not in PROVIDERS:
        raise ConfigError(unknown_name("embedder", head, PROVIDERS))
    if head == "hash":
        try:
            dims = int(rest) if rest else 384
        except ValueError:
            raise ConfigError(f"hash dimension must be an integer, got '{rest}'") from None
        if not 1 <= dims <= MAX_DIMS:
            raise ConfigError(f"hash dimension must be between 1 and {MAX_DIMS}, got {dims}")
        return HashEmbedder(dims)
    if head == "minilm":
        ok, why = minilm.available()
        if not ok:
            raise EmbedderUnavailable(why)
        return minilm.MiniLMEmbedder()
    if head == "cache":
        if not rest:
            raise ConfigError("cache needs an inner provider, e.g. cache:minilm")
        return CachedEmbedder(get_embedder(rest), [VectorCache(default_cache_path())])
    mode, _, tail = rest.partition(":")
    rate = 1.0
    first, _, inner = tail.partition(":")
    try:
        rate = float(first)
    except ValueError:
        inner = tail
    if not inner:
        raise ConfigError("faulty needs MODE[:RATE]:INNER, e.g. faulty:raise:0.5:hash")
    return FaultyEmbedder(get_embedder(inner), mode, rate)


def list_embedders() -> list[dict[str, object]]:
    rows = []
    for info in PROVIDERS.values():
        ok, why = info.check()
        rows.append(
            {
                "name": info.name,
                "usable": ok,
                "description": info.description,
                "note": "" if ok else why,
            }
        )
    return rows
