"""Sweep fixtures: the shipped dataset (its MiniLM vectors, no model) and a tiny one."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from memlab.datasets import Dataset, load_dataset
from memlab.embeddings.cache import CachedEmbedder, VectorCache
from memlab.eval.replay.embedders import CacheOnly, shipped_vectors
from memlab.eval.replay.prepared import Prepared, prepare
from memlab.retrieval.strategies import STRATEGIES
from tests.eval.conftest import write_eval_dataset

AGENT_MEMORY = Path(__file__).resolve().parents[2] / "datasets" / "agent-memory"


@pytest.fixture(autouse=True)
def _isolated_cache(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Keep index and vector caches out of the user's home (numba's cache is left alone)."""
    monkeypatch.setenv("MEMLAB_CACHE_DIR", str(tmp_path_factory.getbasetemp() / "memlab-cache"))
    monkeypatch.setenv(
        "NUMBA_CACHE_DIR",
        os.environ.get("NUMBA_CACHE_DIR", str(Path.home() / ".cache" / "memlab" / "numba")),
    )


def shipped_embedder(ds: Dataset) -> CachedEmbedder:
    """The dataset's shipped vectors alone (no model import: every text is precomputed)."""
    ((pid, (path, dims)),) = shipped_vectors(ds).items()
    return CachedEmbedder(
        CacheOnly(pid, dims, "test: shipped vectors only"), [VectorCache(path, read_only=True)]
    )


@pytest.fixture(scope="session")
def agent_memory(tmp_path_factory: pytest.TempPathFactory) -> Prepared:
    ds = load_dataset(AGENT_MEMORY)
    return prepare(ds, embedder=shipped_embedder(ds), work_dir=tmp_path_factory.mktemp("work"))


@pytest.fixture(scope="session")
def evalmini(tmp_path_factory: pytest.TempPathFactory) -> Prepared:
    from memlab.embeddings.hashing import HashEmbedder

    path = write_eval_dataset(tmp_path_factory.mktemp("ds") / "evalmini")
    return prepare(
        load_dataset(path), embedder=HashEmbedder(), work_dir=tmp_path_factory.mktemp("w")
    )


@pytest.fixture(scope="session")
def evalmini_path(evalmini: Prepared) -> Path:
    return evalmini.dataset.path


def _pick(rng: np.random.Generator, values: list[Any]) -> Any:
    return values[int(rng.integers(len(values)))]


def draw_overrides(rng: np.random.Generator) -> dict[str, Any]:
    """A random point over every axis a sweep varies (and a few more)."""
    return {
        "half_life_days": _pick(rng, [None, 0.5, 3.0, 7.0, 30.0, round(rng.uniform(1, 120), 3)]),
        "temporal_decay": bool(rng.random() < 0.85),
        "source_weights.session": _pick(rng, [1.0, 0.5, round(rng.uniform(0, 2), 3)]),
        "source_weights.global": _pick(rng, [1.0, round(rng.uniform(0, 2), 3)]),
        "source_weights.workspace": _pick(rng, [1.0, round(rng.uniform(0, 2), 3)]),
        "mmr.enabled": bool(rng.random() < 0.5),
        "mmr.lambda": _pick(rng, [0.0, 0.3, 0.5, 0.7, 1.0, round(rng.random(), 4)]),
        "vector_weight": _pick(rng, [0.7, round(rng.uniform(0, 1), 3)]),
        "text_weight": _pick(rng, [0.3, round(rng.uniform(0, 1), 3)]),
        "min_score": _pick(rng, [0.0, 0.1, 0.35, 0.5, round(rng.uniform(0, 0.8), 3)]),
        "max_results": int(rng.integers(1, 21)),
        "strategy": _pick(rng, sorted(STRATEGIES)),
        "vectors": bool(rng.random() < 0.8),
        "evergreen_supplement": bool(rng.random() < 0.8),
        "candidate_multiplier": int(rng.integers(1, 5)),
    }
