"""A small judging dataset built the way a team builds theirs, from the shipped demo memory.

``demo_dataset(dest)`` copies the demo memory (``memlab.demo``) into
``dest/memory`` with each file's modification time set to its time in the
story, writes the demo's searches as a queries file, then runs the real path:
``dataset_from_memory`` (dates from mtimes) and ``pool_dataset`` (fts, hybrid,
mmr with the offline ``hash`` embedder). The judging notebook opens it when no
folder is given.
"""

from __future__ import annotations

import os
from pathlib import Path

from memlab.datasets.from_memory import dataset_from_memory
from memlab.demo import prepare_demo
from memlab.judging.pool import pool_dataset

DEMO_DEPTH = 5


def demo_dataset(dest: str | Path, *, work_dir: str | Path | None = None) -> Path:
    """Build (or reuse) the demo judging dataset under ``dest``; returns its folder."""
    dest = Path(dest)
    folder = dest / "demo-judging"
    if (folder / "pool.json").is_file():
        return folder
    plan = prepare_demo(dest / "demo-source")
    for rel, at in plan.created_at.items():
        os.utime(plan.root / rel, (at, at))
    queries = dest / "demo-source" / "queries.txt"
    queries.write_text("".join(s["query"] + "\n" for s in plan.searches), encoding="utf-8")
    dataset_from_memory(plan.root, folder, queries=queries, as_of=plan.as_of, force=True)
    pool_dataset(folder, depth=DEMO_DEPTH, embedder="hash", work_dir=work_dir)
    return folder
