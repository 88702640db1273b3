"""Judging fixtures: datasets made from the team memory with the real path
(``dataset_from_memory``, ``pool_dataset``)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from memlab.datasets.from_memory import dataset_from_memory
from memlab.judging.pool import pool_dataset
from tests.datasets.conftest import team_memory
from tests.datasets.team_memory import write_queries, write_team_memory
from tests.sweep.conftest import _isolated_cache

__all__ = ["_isolated_cache", "team_memory"]


@pytest.fixture(scope="session")
def pooled_source(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The team memory made into a dataset and pooled (fts, hybrid, mmr; depth 4)."""
    base = tmp_path_factory.mktemp("team")
    root = write_team_memory(base / "memory")
    dest = base / "dataset"
    dataset_from_memory(root, dest, queries=write_queries(base / "queries.jsonl"))
    with pytest.MonkeyPatch.context() as mp:  # no cache in the user's home
        mp.setenv("MEMLAB_CACHE_DIR", str(tmp_path_factory.getbasetemp() / "memlab-cache"))
        pool_dataset(dest, depth=4, embedder="hash")
    return dest


@pytest.fixture
def pooled(pooled_source: Path, tmp_path: Path) -> Path:
    """A fresh copy of the pooled dataset (tests judge it)."""
    return Path(shutil.copytree(pooled_source, tmp_path / "dataset"))
