"""Replaying the groups of a dataset on workers: each group is indexed and searched on
its own (one memory per group: LongMemEval's 500 questions), so groups are independent
pieces (``replay_group``, a pure function of the dataset, the group, the memory, the
limit and the embedder) that run on any ``concurrent.futures.Executor`` — a Dask
cluster's (``memlab.cluster``) — and give the same product wherever they run.

The replay cache on disk has one writer: the process that asked (``Prepared``)
saves the products as they come back. A ``VectorCache`` travels as its path and
mode and is reopened where it lands (a read-only cache must be at the same path
there: one machine, or a shared filesystem); several workers writing one SQLite
cache wait for each other (SQLite's lock), and vectors are keyed by content, so
concurrent writes of one text store the same bytes.
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator, Sequence
from concurrent.futures import Executor
from pathlib import Path
from typing import Any

from memlab.datasets import Dataset
from memlab.embeddings.base import EmbeddingProvider
from memlab.eval.replay.as_of import GroupProduct, replay_queries
from memlab.eval.replay.memory import Memory
from memlab.parallel import run_all


def replay_group(
    dataset: Dataset,
    group: str,
    memory: Memory,
    limit: int,
    embedder: EmbeddingProvider | None,
    keywords: str = "c0",
    scratch: str | Path | None = None,
    tick: Any = None,
    on_file: Any = None,
) -> GroupProduct:
    """The replay of ``group`` in a fresh working copy (under ``scratch``, default the
    temporary directory), removed afterwards."""
    work = Path(tempfile.mkdtemp(prefix="replay-", dir=scratch))
    try:
        return replay_queries(
            dataset,
            group,
            memory,
            limit=limit,
            work=work / "w",
            embedder=embedder,
            tick=tick,
            keywords=keywords,
            on_file=on_file,
        )
    finally:
        shutil.rmtree(work, ignore_errors=True)


def replay_groups(
    dataset: Any,
    groups: Sequence[str],
    memory: Memory,
    limit: int,
    embedder: EmbeddingProvider | None,
    keywords: str,
    executor: Executor,
) -> Iterator[tuple[str, GroupProduct]]:
    """``(group, product)`` as groups finish on ``executor``; ``dataset`` may be a
    reference to a copy already on the workers (a scattered Dask future)."""
    pieces = [(dataset, g, memory, limit, embedder, keywords) for g in groups]
    for i, product in run_all(replay_group, pieces, executor=executor):
        yield groups[i], product
