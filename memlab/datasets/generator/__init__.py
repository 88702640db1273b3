"""The shipped ``agent-memory`` dataset: a coding agent's memory over six months.

``generate_agent_memory(dest, seed)`` writes it; the same seed gives the same
bytes (a seeded ``random.Random``, sorted JSON keys, ``\\n`` line endings, no
clock). ``datasets/agent-memory`` is this function's output for
``DEFAULT_SEED``, and a test regenerates it byte for byte.

Construction: the catalogs (``catalog_*.py``) declare notes — lines of memory,
each labelled with an opaque fact id — and queries judged on those notes, so
relevance follows from construction. The builder spreads session notes over
~160 dated session logs of one workspace (versions of a changing fact in time
order, copies of a problem in distinct sessions), writes global and workspace
``MEMORY.md``, sprinkles distractor lines that repeat the keywords of the
MEMORY.md answers, and adds chatter. Two checks guard the labels: each query's
answer terms occur only in notes judged (or marked stale) for it, and no
abstention query's terms occur anywhere.
"""

from __future__ import annotations

import random
from pathlib import Path

from memlab.datasets.generator import (
    catalog_abstention,
    catalog_cjk,
    catalog_duplicates,
    catalog_evergreen,
    catalog_facts,
    catalog_updates,
)
from memlab.datasets.generator.build import build_memory, write_dataset
from memlab.datasets.generator.spec import Catalog, Generated

DEFAULT_SEED = 20260630
CATEGORIES = (
    "fact",
    "newest-wins",
    "evergreen-crowded",
    "duplicates",
    "paraphrase",
    "cjk",
    "abstention",
)


def build_catalog(rng: random.Random) -> Catalog:
    catalog = Catalog()
    for module in (
        catalog_facts,
        catalog_updates,
        catalog_evergreen,
        catalog_duplicates,
        catalog_cjk,
        catalog_abstention,
    ):
        catalog.extend(module.build(rng))
    return catalog


def generate(seed: int = DEFAULT_SEED) -> Generated:
    """Build the dataset in memory (files, queries, judgements) without writing it."""
    rng = random.Random(seed)
    return build_memory(build_catalog(rng), rng, seed)


def generate_agent_memory(
    dest: str | Path, *, seed: int = DEFAULT_SEED, force: bool = False
) -> Path:
    """Write the agent-memory dataset to ``dest``.

    ``force`` replaces a dataset already there (a ``vectors/`` folder is kept).
    """
    return write_dataset(generate(seed), Path(dest), force=force)


__all__ = ["CATEGORIES", "DEFAULT_SEED", "generate", "generate_agent_memory"]
