"""Precompute a dataset's vectors so evaluating it needs no model.

``precompute_vectors`` replays the dataset's timeline under the default
configurations (``default_memories``: the manifest's index options, Dream off
and on with the gates of c0 and of grok-2026-08) and collects every chunk text
that exists at some moment of some replay — the growing logs' prefixes, the
rewritten files, the ``MEMORY.md`` Dream writes — plus every query text, embeds
what the dataset's cache does not hold yet, and writes
``vectors/<provider-id>.sqlite`` (a ``VectorCache``). The file sits outside the
dataset digest: it is derived data.

``dream.memory_source`` changes the chunks' sources, not their texts, so one
replay per set of gates covers both sources.
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterable
from dataclasses import dataclass, replace
from pathlib import Path

from memlab.config import ChunkingConfig, profile
from memlab.datasets import Dataset, load_dataset
from memlab.datasets.model import VECTORS_DIR
from memlab.embeddings.base import checked_embed
from memlab.embeddings.cache import VectorCache, text_key
from memlab.embeddings.registry import get_embedder
from memlab.eval.replay.memory import Memory, memory_for
from memlab.eval.replay.prepared import default_work_dir
from memlab.eval.replay.working_copy import GroupReplay

DEFAULT_PROFILES = ("grok-c0", "grok-2026-08")


@dataclass(frozen=True)
class VectorReport:
    path: Path
    provider: str
    texts: int
    embedded: int


def default_memories(dataset: Dataset, chunking: ChunkingConfig | None = None) -> list[Memory]:
    """Dream off, and on with each default profile's gates (one memory source: the texts
    are the same for both), on the manifest's index options (or ``chunking``)."""
    base = memory_for(dataset, dream=False)
    if chunking is not None:
        base = replace(base, index=replace(base.index, chunking=chunking))
    out = [base]
    for name in DEFAULT_PROFILES:
        memory = replace(base, dream=replace(profile(name).dream, memory_source="dream"))
        if memory not in out:
            out.append(memory)
    return out


def replay_texts(dataset: Dataset, memories: Iterable[Memory]) -> dict[str, str]:
    """``{text_key: text}`` of every chunk at every moment of every replay."""
    texts: dict[str, str] = {}
    work = Path(tempfile.mkdtemp(prefix="texts-", dir=_ensure(default_work_dir())))
    try:
        for memory in memories:
            for group in dataset.groups.values():
                with GroupReplay(group, memory, work / "w") as replay:
                    for at in sorted({e.at for e in group.events}):
                        replay.advance(at)
                        for chunk in replay.refresh():
                            texts.setdefault(text_key(chunk.text), chunk.text)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return texts


def precompute_vectors(
    dataset_dir: str | Path,
    embedder: str = "minilm",
    *,
    chunking: ChunkingConfig | None = None,
    batch: int = 64,
    progress: bool = False,
) -> VectorReport:
    ds = load_dataset(dataset_dir)
    provider = get_embedder(embedder)
    texts = replay_texts(ds, default_memories(ds, chunking))
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
    cache.keep_only(provider.id, list(texts))  # texts the dataset no longer has go
    cache.vacuum()
    cache.close()
    return VectorReport(path, provider.id, len(texts), len(todo))


def _ensure(path: Path) -> Path:
    path.mkdir(parents=True, exist_ok=True)
    return path
