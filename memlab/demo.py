"""The small shipped demo memory (``memlab/data/demo``) and its plan.

The plan (``files.json``) gives the logical time each file is indexed at, the
time the searches run at (``as_of``) and the searches the ``memlab demo``
command shows. ``open_demo_store`` copies the memory into a work folder and
indexes every file at its logical time, so ages are those of the story, not of
the copy (DESIGN invariant 3). The command (``memlab.cli.demo``) and the tour
notebook (``memlab.workbench.tour``) both start here.
"""

from __future__ import annotations

import json
import shutil
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from memlab.embeddings.base import EmbeddingProvider
from memlab.store.store import MemoryStore, SyncReport
from memlab.timefmt import parse_iso


@dataclass(frozen=True)
class DemoPlan:
    """Where the copied memory is, when each file is indexed, and the demo searches."""

    root: Path
    created_at: dict[str, float]  # path → logical indexing time
    as_of: float  # the time the searches run at
    searches: list[dict[str, Any]]


def demo_source() -> Path:
    return Path(str(resources.files("memlab") / "data" / "demo"))


def prepare_demo(dest: Path) -> DemoPlan:
    """Copy the demo memory into ``dest/memory`` (replacing an earlier copy); its plan."""
    src = demo_source()
    plan = json.loads((src / "files.json").read_text(encoding="utf-8"))
    root = dest / "memory"
    if root.exists():
        shutil.rmtree(root)
    shutil.copytree(src / "memory", root)
    times = {path: parse_iso(ts) for path, ts in plan["files"].items()}
    return DemoPlan(root, times, parse_iso(plan["as_of"]), list(plan["searches"]))


def open_demo_store(
    dest: Path, embedder: EmbeddingProvider | None, *, watch: bool = False
) -> tuple[MemoryStore, DemoPlan, SyncReport]:
    """Copy the demo memory into ``dest`` and index it at its logical times (a fresh
    ``dest/index.sqlite``): the open store, the plan and what indexing did."""
    plan = prepare_demo(dest)
    index_path = dest / "index.sqlite"
    for suffix in ("", "-wal", "-shm"):
        Path(f"{index_path}{suffix}").unlink(missing_ok=True)
    store = MemoryStore.open(plan.root, index_path=index_path, embedder=embedder, watch=watch)
    try:
        report = store.replay(plan.created_at)
    except BaseException:
        store.close()
        raise
    return store, plan, report
