"""Precompute a dataset's vectors so evaluating it needs no model.

``precompute_vectors`` chunks every group with the default chunking (the same
texts the engine indexes), adds every query text, embeds what the dataset's
cache does not hold yet, and writes ``vectors/<provider-id>.sqlite`` (a
``VectorCache``). The file sits outside the dataset digest: it is derived data.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from memlab.config import ChunkingConfig
from memlab.datasets import chunk_group, load_dataset
from memlab.datasets.model import VECTORS_DIR
from memlab.embeddings.base import checked_embed
from memlab.embeddings.cache import VectorCache, text_key
from memlab.embeddings.registry import get_embedder


@dataclass(frozen=True)
class VectorReport:
    path: Path
    provider: str
    texts: int
    embedded: int


def precompute_vectors(
    dataset_dir: str | Path,
    embedder: str = "minilm",
    *,
    chunking: ChunkingConfig | None = None,
    batch: int = 64,
    progress: bool = False,
) -> VectorReport:
    ds = load_dataset(dataset_dir)
    chunking = chunking or ChunkingConfig()
    provider = get_embedder(embedder)
    texts: dict[str, str] = {}
    for group in ds.groups.values():
        for chunk in chunk_group(
            group, max_bytes=chunking.max_bytes, overlap_chars=chunking.overlap_chars
        ):
            texts.setdefault(text_key(chunk.text), chunk.text)
    for q in ds.queries:
        texts.setdefault(text_key(q.text), q.text)
    path = ds.path / VECTORS_DIR / f"{provider.id}.sqlite"
    cache = VectorCache(path)
    have = set(cache.get_many(provider.id, list(texts)))
    todo = [k for k in sorted(texts) if k not in have]
    steps = range(0, len(todo), batch)
    if progress:
        from tqdm.auto import tqdm

        steps = tqdm(steps, desc=f"embedding with {provider.id}")  # type: ignore[assignment]
    for start in steps:
        keys = todo[start : start + batch]
        matrix = checked_embed(provider, [texts[k] for k in keys])
        cache.put_many(provider.id, list(zip(keys, matrix, strict=True)))
    cache.vacuum()
    cache.close()
    return VectorReport(path, provider.id, len(texts), len(todo))
