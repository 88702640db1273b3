"""A prepared dataset: the memory every query sees at its own time, replayed once.

``prepare`` (or ``prepare_dataset`` by names, ``PrepareOptions``) returns a ``Prepared``: the
dataset, the ``Memory`` it is evaluated on (index options and Dream on the
timeline; defaults from the manifest) and the embedder. Its ``timeline(limit)``
replays each group once in a working copy under the cache directory (never in
the dataset folder, DESIGN invariants 3, 4 and 9) and returns every query's
candidates at ``limit`` plus its judgements resolved at its time
(``memlab.eval.replay.as_of``). Runs whose memory differs (Dream settings, index
options) get their own timeline; runs that share a memory share one replay.

What the replay produces is cached on disk per group (``memlab.eval.replay.products``),
so notebooks and the report reuse it; a replay that degraded (missing vectors,
a failed query embedding) is not cached. ``run_experiment`` and ``run_sweep``
both take a ``Prepared``.
"""

from __future__ import annotations

import logging
import os
import shutil
import tempfile
from collections.abc import Iterator, Sequence
from concurrent.futures import Executor
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np

from memlab import progress
from memlab.config import DreamConfig, IndexConfig
from memlab.datasets import Dataset, Query, load_dataset
from memlab.embeddings.base import EmbeddingProvider, checked_embed
from memlab.embeddings.cache import CachedEmbedder
from memlab.errors import EmbeddingError
from memlab.eval.replay.as_of import GroupProduct, Timeline
from memlab.eval.replay.embedders import evaluation_embedder
from memlab.eval.replay.judged import RelevantChunk
from memlab.eval.replay.memory import Memory, memory_for
from memlab.eval.replay.products import load_product, product_key, product_path, save_product
from memlab.eval.replay.replay_progress import ReplayProgress
from memlab.eval.replay.spread import replay_group, replay_groups
from memlab.eval.replay.working_copy import GroupReplay
from memlab.retrieval.candidates_batch import CandidateBatch
from memlab.store.store import MemoryStore

log = logging.getLogger("memlab")
DEFAULT_LIMIT = 18  # c0's candidate limit (6 results × 3)


def default_work_dir() -> Path:
    base = os.environ.get("MEMLAB_CACHE_DIR") or os.path.join(Path.home(), ".cache", "memlab")
    return Path(base) / "replays"


@dataclass
class Prepared:
    """A dataset ready to evaluate: its memory, its embedder, its replays (cached)."""

    dataset: Dataset
    memory: Memory
    embedder: EmbeddingProvider | None
    work_dir: Path
    progress: bool = False
    warnings: list[str] = field(default_factory=list)
    # where groups are replayed: this process, or an Executor (``use_cluster``)
    executor: Executor | None = field(default=None, repr=False)
    _dataset_ref: Any = field(default=None, repr=False)
    _timelines: dict[tuple[Memory, bool, str], Timeline] = field(default_factory=dict, repr=False)

    @property
    def index_config(self) -> IndexConfig:
        return self.memory.index

    @property
    def embedder_id(self) -> str | None:
        return self.embedder.id if self.embedder else None

    @property
    def query_now(self) -> np.ndarray:
        return np.array([q.as_of for q in self.dataset.queries], dtype=np.float64)

    def timeline(
        self,
        limit: int = DEFAULT_LIMIT,
        *,
        vectors: bool = True,
        memory: Memory | None = None,
        keywords: str = "c0",
    ) -> Timeline:
        """Every query's candidates at ``limit`` (or wider) and judgements at its time;
        ``keywords``: how queries are read (``search.keywords``, it shapes the candidates)."""
        memory = memory or self.memory
        use_vectors = vectors and self.embedder is not None
        have = self._timelines.get((memory, use_vectors, keywords))
        if have is not None and have.limit >= limit:
            return have  # a wider batch serves any smaller limit (prefix property)
        if use_vectors:
            self._warm_query_vectors()
        parts = memory.split(self.dataset.queries)  # one replay per index (per-tag options)
        products = []
        for part, queries in parts.items():
            ds = self.dataset if len(parts) == 1 else _only(self.dataset, queries)
            products.append(self._products(ds, part, limit, use_vectors, keywords))
        timeline = Timeline.join(self.dataset, memory, limit, use_vectors, *products)
        self._timelines[(memory, use_vectors, keywords)] = timeline
        self._warn(timeline)
        return timeline

    def batch(
        self, limit: int = DEFAULT_LIMIT, *, vectors: bool = True, memory: Memory | None = None
    ) -> CandidateBatch:
        return self.timeline(limit, vectors=vectors, memory=memory).batch

    def judged(self, memory: Memory | None = None) -> Timeline:
        """A timeline of ``memory`` (any limit: judgements do not depend on it)."""
        memory = memory or self.memory
        for (mem, _, _), timeline in self._timelines.items():
            if mem == memory:
                return timeline
        return self.timeline(memory=memory)

    @property
    def qrels(self) -> dict[str, dict[str, int]]:
        return self.judged().qrels

    @property
    def stale(self) -> dict[str, list[str]]:
        return self.judged().stale

    @property
    def nuggets(self) -> dict[str, dict[str, frozenset[int]]]:
        return self.judged().nuggets

    @property
    def relevant(self) -> dict[str, tuple[RelevantChunk, ...]]:
        return self.judged().relevant

    @property
    def unresolved(self) -> list[str]:
        return self.judged().unresolved

    @property
    def versions(self) -> dict[str, str | None]:
        return self.judged().versions

    @contextmanager
    def store_at(
        self, group: str, at: float, memory: Memory | None = None
    ) -> Iterator[MemoryStore]:
        """The group's memory as it stands at ``at``, replayed separately (read-only use);
        on the default index of ``memory`` (``store_for`` picks a query's own index)."""
        work = Path(tempfile.mkdtemp(prefix="at-", dir=_ensure(self.work_dir)))
        g = self.dataset.groups[group]
        plain = replace(memory or self.memory, by_tag=())
        try:
            with GroupReplay(g, plain, work / "w", self.embedder) as replay:
                replay.advance(at)
                replay.refresh()
                replay.materialise()
                yield replay.store
        finally:  # also when the caller's block fails
            shutil.rmtree(work, ignore_errors=True)

    def store_for(
        self, query: Query, memory: Memory | None = None
    ) -> AbstractContextManager[MemoryStore]:
        """The memory ``query`` searches at its time, on its own index (per-tag options)."""
        return self.store_at(query.group, query.as_of, (memory or self.memory).for_query(query))

    def use_cluster(self, client: Any) -> Prepared:
        """Replay groups on the workers of a Dask ``client`` (``memlab.cluster``): the
        dataset is shipped once per worker; the products are the same as here."""
        from memlab.cluster import executor, scatter

        self.executor = executor(client)
        self._dataset_ref = scatter(client, self.dataset)
        return self

    # ------------------------------------------------------------------ internals

    def _products(
        self, ds: Dataset, memory: Memory, limit: int, use_vectors: bool, keywords: str
    ) -> dict[str, GroupProduct]:
        """Every group's product on one index (cached, or replayed here or on the
        executor), in dataset order, for the queries of ``ds`` (the dataset or the part
        of it evaluated on that index)."""
        gids = [gid for gid in ds.groups if ds.queries_in(gid)]
        embedder = self.embedder if use_vectors else None
        found: dict[str, GroupProduct] = {}
        paths: dict[str, Path] = {}
        what = f"candidates of {len(ds.queries)} queries ({memory.index.tokenizer})"
        with progress.phase(what, len(gids), "group") as bar:
            bar.describe("cached replays")
            for gid in gids:
                key = product_key(ds, gid, memory, self.embedder_id, use_vectors, limit, keywords)
                paths[gid] = product_path(self.work_dir, ds, gid, key)
                cached = load_product(paths[gid])
                if cached is not None:
                    found[gid] = cached
                    bar.advance(detail=f"{gid} cached")
            todo = [gid for gid in gids if gid not in found]
            if todo:
                bar.describe(f"replaying {len(todo)} group(s)")
            if self.executor is not None and len(todo) > 1:
                whole = ds is self.dataset and self._dataset_ref is not None
                data = self._dataset_ref if whole else ds
                replayed = replay_groups(
                    data, todo, memory, limit, embedder, keywords, self.executor
                )
            else:
                replayed = (
                    (g, self._replay_here(ds, g, memory, limit, embedder, keywords)) for g in todo
                )
            for gid, product in replayed:
                if product.complete:  # a degraded replay is redone next time
                    save_product(paths[gid], product)
                found[gid] = product
                bar.advance(detail=f"{gid} replayed")
        return {gid: found[gid] for gid in gids}

    def _replay_here(
        self,
        ds: Dataset,
        gid: str,
        memory: Memory,
        limit: int,
        embedder: EmbeddingProvider | None,
        keywords: str,
    ) -> GroupProduct:
        """One group replayed in this process, with progress when asked."""
        bar = ReplayProgress.start(ds, gid) if self.progress else None  # ds: this index's part
        try:
            return replay_group(
                ds,
                gid,
                memory,
                limit,
                embedder,
                keywords,
                self.work_dir,
                tick=bar.query if bar else None,
                on_file=bar.file if bar else None,
            )
        finally:
            if bar:
                bar.close()

    def _warm_query_vectors(self) -> None:
        """Embed all query texts in one call so per-query lookups hit the cache."""
        if not isinstance(self.embedder, CachedEmbedder):
            return
        try:
            checked_embed(self.embedder, [q.text for q in self.dataset.queries])
        except EmbeddingError as exc:
            self._note(f"query vectors unavailable ({exc}); those searches will be FTS-only")

    def _warn(self, timeline: Timeline) -> None:
        if timeline.missing_vectors:
            self._note(
                f"{timeline.missing_vectors} chunk text(s) of the replay have no precomputed "
                f"'{self.embedder_id}' vector and no model can embed them; those chunks are "
                "never vector candidates (run `memlab dataset vectors DIR`)"
            )
        if timeline.unresolved:
            self._note(
                f"{len(timeline.unresolved)} judged queries have no relevant chunk at their "
                f"time (e.g. {timeline.unresolved[0]})"
            )

    def _note(self, message: str) -> None:
        if message not in self.warnings:
            self.warnings.append(message)
            log.warning(message)


def prepare(
    dataset: Dataset,
    *,
    embedder: EmbeddingProvider | None = None,
    index_config: IndexConfig | None = None,
    memory: Memory | None = None,
    work_dir: str | Path | None = None,
    progress: bool = False,
) -> Prepared:
    """A ``Prepared`` for ``dataset`` with this embedder (None: FTS-only) and memory
    (default: the manifest's index options and Dream setting; ``index_config``
    replaces the index options)."""
    memory = memory or memory_for(dataset, index=index_config)
    work = Path(work_dir) if work_dir else default_work_dir()
    return Prepared(dataset, memory, embedder, work, progress)


@dataclass(frozen=True)
class PrepareOptions:
    """How a dataset is prepared, by names (None / empty: the dataset's defaults).

    ``embedder``: None = its shipped vectors; ``level``: the judgement level;
    ``categories`` / ``exclude_tags``: which queries are kept; the index options
    (``chunking``: the mode, ``roles``: the indexed roles); ``dream`` None = the
    manifest's timeline.dream; ``dream_config``: the replay's Dream settings, else
    ``profile``'s (else the default profile's). Empty strings count as None
    (notebook parameters)."""

    embedder: str | None = None
    level: str | None = None
    categories: tuple[str, ...] = ()
    exclude_tags: tuple[str, ...] = ()
    tokenizer: str | None = None
    chunk_bytes: int | None = None
    chunk_overlap: int | None = None
    chunking: str | None = None
    roles: str | tuple[str, ...] | None = None
    dream: bool | None = None
    dream_config: DreamConfig | None = None
    profile: str | None = None
    work_dir: str | Path | None = None
    progress: bool = False

    def __post_init__(self) -> None:
        for name in ("embedder", "level", "tokenizer", "chunking", "roles", "profile"):
            if getattr(self, name) == "":
                object.__setattr__(self, name, None)
        object.__setattr__(self, "categories", tuple(self.categories))
        object.__setattr__(self, "exclude_tags", tuple(self.exclude_tags))

    def index_options(self) -> dict[str, Any]:
        """The index options, by name (None: the dataset's)."""
        return {
            "tokenizer": self.tokenizer,
            "chunk_bytes": self.chunk_bytes,
            "chunk_overlap": self.chunk_overlap,
            "chunking": self.chunking,
            "roles": self.roles,
        }

    def replay_dream(self) -> DreamConfig | None:
        """The Dream settings of the replay: ``dream_config``, else ``profile``'s."""
        if self.dream_config is not None or self.profile is None:
            return self.dream_config
        from memlab.config import profile

        return profile(self.profile).dream

    def select(self, dataset: Dataset) -> Dataset:
        """``dataset`` with only the queries these options keep."""
        if self.categories:
            dataset = dataset.select(categories=list(self.categories))
        if self.exclude_tags:
            dataset = dataset.select(exclude_tags=set(self.exclude_tags))
        return dataset

    def load(self, dataset: str | Path | Dataset) -> Dataset:
        """The dataset (a folder or a shipped name) at ``level``, with the queries kept."""
        if isinstance(dataset, Dataset):
            ds = dataset.with_level(self.level) if self.level is not None else dataset
        else:
            ds = load_dataset(dataset, self.level)
        return self.select(ds)


def prepare_dataset(
    dataset: str | Path | Dataset | Prepared, options: PrepareOptions | None = None
) -> Prepared:
    """Load (a folder) and prepare a dataset as ``options`` say (``PrepareOptions``; None:
    every default). A ``Prepared`` is returned as it is."""
    if isinstance(dataset, Prepared):
        return dataset
    options = options or PrepareOptions()
    ds = options.load(dataset)
    memory = memory_for(
        ds, **options.index_options(), dream=options.dream, dream_config=options.replay_dream()
    )
    return prepare(
        ds,
        embedder=evaluation_embedder(ds, options.embedder),
        memory=memory,
        work_dir=options.work_dir,
        progress=options.progress,
    )


def gather_batch(
    prepared: Prepared, limit: int, *, vectors: bool = True, progress: bool = False
) -> CandidateBatch:
    """Every query's candidates at ``limit`` (cached), in dataset query order, each at its time."""
    return prepared.batch(limit, vectors=vectors)


def _only(dataset: Dataset, queries: Sequence[Query]) -> Dataset:
    ids = {q.query_id for q in queries}
    return dataset.select(where=lambda q: q.query_id in ids)


def _ensure(path: Path) -> Path:
    path.mkdir(parents=True, exist_ok=True)
    return path
