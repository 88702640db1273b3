"""Prepare a dataset for evaluation: one index per memory group, built by replay.

Indexes live in a work directory (default ``$MEMLAB_CACHE_DIR/indexes``), never
in the dataset folder, keyed by everything that shapes them (dataset digest,
group, tokenizer, chunking, age rule, embedder, schema version), so they are
built once and reused. Each group's files are indexed at their logical times
(DESIGN invariant 3). Judgements on targets are resolved to the chunks of the
index (relevance survives re-chunking).

``gather_batch`` then collects every query's candidates at one (wide) limit,
read-only: no sync, no access counting (DESIGN invariants 2 and 4).
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from memlab.config import IndexConfig, SearchConfig, to_dict
from memlab.datasets import ChunkRecord, Dataset, resolve_qrels, resolve_stale_targets
from memlab.embeddings.base import EmbeddingProvider, checked_embed
from memlab.embeddings.cache import CachedEmbedder
from memlab.errors import ConfigError, EmbeddingError
from memlab.search.candidates import gather
from memlab.search.candidates_batch import CandidateBatch, QueryCandidates, build_batch
from memlab.store.schema import SCHEMA_VERSION, get_meta, set_meta
from memlab.store.store import MemoryStore

log = logging.getLogger("memlab")
BUILT_KEY = "memlab_eval_build"


def default_work_dir() -> Path:
    base = os.environ.get("MEMLAB_CACHE_DIR") or os.path.join(Path.home(), ".cache", "memlab")
    return Path(base) / "indexes"


@dataclass
class Prepared:
    """A dataset with its group indexes built and its judgements resolved to chunks."""

    dataset: Dataset
    index_config: IndexConfig
    embedder: EmbeddingProvider | None
    index_paths: dict[str, Path]
    qrels: dict[str, dict[str, int]]  # query_id -> chunk_id -> grade (0 kept)
    stale: dict[str, list[str]]  # query_id -> chunk ids holding superseded answers
    versions: dict[str, str | None]
    unresolved: list[str] = field(default_factory=list)  # judged queries with no chunk
    _batches: dict[tuple[int, bool, str], CandidateBatch] = field(default_factory=dict, repr=False)

    @property
    def embedder_id(self) -> str | None:
        return self.embedder.id if self.embedder else None

    @property
    def query_now(self) -> np.ndarray:
        return np.array([q.as_of for q in self.dataset.queries], dtype=np.float64)

    @contextmanager
    def open_group(self, group: str) -> Iterator[MemoryStore]:
        g = self.dataset.groups[group]
        store = MemoryStore.open(
            g.root,
            g.workspace,
            index_path=self.index_paths[group],
            config=self.index_config,
            embedder=self.embedder,
            scan=False,
        )
        try:
            yield store
        finally:
            store.close()


def index_key(dataset: Dataset, group: str, config: IndexConfig, embedder_id: str | None) -> str:
    blob = json.dumps(
        [dataset.digest, group, to_dict(config), embedder_id, SCHEMA_VERSION], sort_keys=True
    )
    return hashlib.sha256(blob.encode()).hexdigest()[:16]


def prepare(
    dataset: Dataset,
    *,
    embedder: EmbeddingProvider | None = None,
    index_config: IndexConfig | None = None,
    work_dir: str | Path | None = None,
    progress: bool = False,
) -> Prepared:
    """Build (or reuse) every group's index and resolve the judgements to chunks."""
    config = index_config or IndexConfig()
    root = Path(work_dir) if work_dir else default_work_dir()
    eid = embedder.id if embedder else None
    paths: dict[str, Path] = {}
    qrels: dict[str, dict[str, int]] = {}
    stale: dict[str, list[str]] = {}
    versions: dict[str, str | None] = {}
    groups = list(dataset.groups)
    for gid in _progress(groups, progress, "indexing groups"):
        key = index_key(dataset, gid, config, eid)
        paths[gid] = root / f"{_safe(dataset.name)}-{key}" / f"{_safe(gid)}.sqlite"
        chunks, versions = _build_group(dataset, gid, paths[gid], key, config, embedder)
        qrels.update(resolve_qrels(dataset, chunks, group=gid))
        stale.update(resolve_stale_targets(dataset, chunks, group=gid))
    unresolved = sorted(
        q for q, g in qrels.items() if dataset.judged(q) and not any(v > 0 for v in g.values())
    )
    if unresolved:
        log.warning(
            "%d judged queries have no relevant chunk in the index (e.g. %s)",
            len(unresolved),
            unresolved[0],
        )
    return Prepared(dataset, config, embedder, paths, qrels, stale, versions, unresolved)


def _build_group(
    dataset: Dataset,
    gid: str,
    path: Path,
    key: str,
    config: IndexConfig,
    embedder: EmbeddingProvider | None,
) -> tuple[list[ChunkRecord], dict[str, str | None]]:
    g = dataset.groups[gid]
    with MemoryStore.open(
        g.root,
        g.workspace,
        index_path=path,
        config=config,
        embedder=embedder,
        scan=False,
        tokenizer=config.tokenizer,
    ) as store:
        if get_meta(store.index.db, BUILT_KEY) != key:
            store.replay(dict(g.created_at))
            set_meta(store.index.db, BUILT_KEY, key)
        elif embedder is not None:
            store.embed_missing()  # any chunk whose vector is still missing
        rows = store.index.db.execute(
            "SELECT id, path, start_line, end_line, text, source, created_at FROM chunks"
        )
        chunks = [ChunkRecord(*r) for r in rows]
        return chunks, store.index.connection.versions()


def keyword_mode(configs: Iterable[SearchConfig]) -> str:
    """The ``keywords`` setting all ``configs`` share (it shapes the candidates)."""
    modes = sorted({c.keywords for c in configs}) or ["c0"]
    if len(modes) > 1:
        raise ConfigError(
            f"these configurations read query keywords differently ({', '.join(modes)}); "
            "candidates are gathered once, so evaluate each keywords= setting separately"
        )
    return modes[0]


def gather_batch(
    prepared: Prepared,
    limit: int,
    *,
    vectors: bool = True,
    progress: bool = False,
    keywords: str = "c0",
) -> CandidateBatch:
    """Every query's candidates at ``limit`` (cached per limit), in dataset query order."""
    use_vectors = vectors and prepared.embedder is not None
    key = (limit, use_vectors, keywords)
    if key in prepared._batches:
        return prepared._batches[key]
    wider = [
        b
        for (lim, v, kw), b in prepared._batches.items()
        if v == use_vectors and kw == keywords and lim >= limit
    ]
    if wider:
        return wider[0]  # a wider batch serves any smaller limit (prefix property)
    ds = prepared.dataset
    if use_vectors:
        _warm_query_vectors(prepared)
    by_id: dict[str, QueryCandidates] = {}
    for gid in _progress(list(ds.groups), progress, "gathering candidates"):
        queries = ds.queries_in(gid)
        if not queries:
            continue
        with prepared.open_group(gid) as store:
            for q in queries:
                by_id[q.query_id] = gather(
                    store.index,
                    q.text,
                    limit,
                    embedder=prepared.embedder if use_vectors else None,
                    use_vectors=use_vectors,
                    query_id=q.query_id,
                    keywords=keywords,
                )
    batch = build_batch([by_id[q.query_id] for q in ds.queries])
    prepared._batches[key] = batch
    return batch


def _warm_query_vectors(prepared: Prepared) -> None:
    """Embed all query texts in one call so per-query lookups hit the cache."""
    emb = prepared.embedder
    if not isinstance(emb, CachedEmbedder):
        return
    try:
        checked_embed(emb, [q.text for q in prepared.dataset.queries])
    except EmbeddingError as exc:
        log.warning("query vectors unavailable (%s); those searches will be FTS-only", exc)


def _safe(name: str) -> str:
    return "".join(c if c.isalnum() or c in "-_." else "_" for c in name)[:80]


def _progress(items: list[str], show: bool, desc: str) -> Iterable[str]:
    if not show or len(items) < 2:
        return items
    from tqdm.auto import tqdm

    return tqdm(items, desc=desc, leave=False)
