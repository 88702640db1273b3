"""The shipped ``agent-memory`` dataset (format v2): a developer's agent memory over seven months.

``generate(seed)`` builds it in memory; ``generate_agent_memory(dest, seed)``
writes it. The same seed gives the same bytes (a seeded ``random.Random``,
sorted JSON keys, ``\\n`` line endings, no clock); ``datasets/agent-memory`` is
the output for ``DEFAULT_SEED`` and a test regenerates it byte for byte.

Construction (see the generated README for counts): ``world`` (three
workspaces under one memory root), ``timeline`` (sessions, their flushes, the
MEMORY.md files and the user's appends), the categories (``cat_*``: each places
its labelled lines — facts — on the timeline and makes queries with their own
time), ``filler`` (the unlabelled text), ``render`` (Markdown, write by write)
and ``checks`` (the labels are right by construction and checked).
"""

from __future__ import annotations

from pathlib import Path

from memlab.datasets.generator.build import CATEGORIES, build
from memlab.datasets.generator.draft import Generated

DEFAULT_SEED = 20260731


def generate(seed: int = DEFAULT_SEED) -> Generated:
    """Build the dataset in memory (writes, facts, queries) without writing it."""
    return build(seed)


def generate_agent_memory(
    dest: str | Path, *, seed: int = DEFAULT_SEED, force: bool = False
) -> Path:
    """Write the agent-memory dataset to ``dest``.

    ``force`` replaces a dataset already there (a ``vectors/`` folder is kept).
    """
    from memlab.datasets.generator.output import write_dataset

    return write_dataset(generate(seed), Path(dest), force=force)


__all__ = ["CATEGORIES", "DEFAULT_SEED", "Generated", "generate", "generate_agent_memory"]
