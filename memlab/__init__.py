"""memlab: a faithful engine of an AI coding agent's memory, and a workbench to evaluate it.

The public API (everything else is reachable through its module)::

    from memlab import MemoryStore, search, SearchConfig, profile
    store = MemoryStore.open("~/.grok/memory", workspace="proj-1234abcd")
    result = search(store, "which node version does CI use", profile("grok-c0"), trace=True)

    from memlab import load_dataset, run_experiment
    exp = run_experiment("datasets/agent-memory", ["fts", "hybrid", "mmr"])

Names are imported lazily, so ``import memlab`` stays cheap.
"""

from __future__ import annotations

import importlib
import os
from typing import Any

__version__ = "0.1.0"

# OpenBLAS's worker threads busy-wait for 2^28 cycles (~0.1 s) after they start and after
# every product before they sleep: ~0.1 s of CPU per process that imports numpy, however
# little BLAS it does (measured: ``import numpy`` then sleeping 1 s costs 0.19 s of CPU on
# 2 cores, 0.08 s with 2^16). 2^16 cycles keeps a sweep's products as fast (wall) and cheaper
# (CPU); a user's own setting wins, and numpy imported before memlab keeps its own.
os.environ.setdefault("OPENBLAS_THREAD_TIMEOUT", "16")

_EXPORTS = {
    "MemoryStore": "memlab.store.store",
    "SearchConfig": "memlab.config",
    "MemlabConfig": "memlab.config",
    "profile": "memlab.config",
    "get_embedder": "memlab.embeddings.registry",
    "load_dataset": "memlab.datasets",
    "run_experiment": "memlab.eval.compare.experiment",
    "MemlabError": "memlab.errors",
    "search": "memlab.retrieval.pipeline",
}

__all__ = ["__version__", *_EXPORTS]


def __getattr__(name: str) -> Any:
    if name in _EXPORTS:
        value = getattr(importlib.import_module(_EXPORTS[name]), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'memlab' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(__all__)
