"""The tour's small memory: the shipped demo, indexed at its logical times, watched live.

``open_demo`` copies ``memlab/data/demo`` into a work folder, opens a store with
a file watcher (sync-on-search is real: watchdog events feed the dirty set) and
replays every file at the time the demo plan gives it, so ages are those of the
story, not of the copy (DESIGN invariant 3). Searches run "as of" the plan's
time.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from memlab.config import SearchConfig, profile, with_overrides
from memlab.demo import DemoPlan, open_demo_store
from memlab.embeddings.registry import get_embedder
from memlab.retrieval.content import is_content_free
from memlab.scratch import scratch_dir
from memlab.sources import is_evergreen
from memlab.store.index import IndexedChunk
from memlab.store.store import MemoryStore
from memlab.timefmt import DAY, format_iso
from memlab.workbench.display import Panel


@dataclass
class Demo:
    """The demo memory, its watched store and the time the searches run at."""

    root: Path
    work: Path
    store: MemoryStore
    now: float
    plan: DemoPlan
    base: SearchConfig
    embedder: str

    def config(self, overrides: Mapping[str, Any] | None = None) -> SearchConfig:
        """The base configuration with dotted-path overrides (``{"mmr.enabled": True}``)."""
        return with_overrides(self.base, dict(overrides)) if overrides else self.base

    def close(self) -> None:
        self.store.close()

    def _repr_html_(self) -> str:
        stats = self.store.index.stats()
        notes = [
            f"memory root: {self.root}",
            f"{stats.chunks} chunks indexed at their logical times; searches run as of "
            f"{format_iso(self.now)}; embedder: {self.embedder or 'none (FTS-only)'}; "
            f"watcher: {'on' if self.store.watcher else 'off'}",
        ]
        return Panel("The demo memory", notes, [("", memory_files(self))])._repr_html_()


def open_demo(
    work_dir: str = "",
    embedder: str = "hash",
    profile_name: str = "grok-c0",
    watch: bool = True,
) -> Demo:
    """Copy the demo memory to ``work_dir`` (default: a new temp folder, removed when the
    kernel exits) and index it."""
    dest = Path(work_dir) if work_dir else scratch_dir("memlab-tour-")
    dest.mkdir(parents=True, exist_ok=True)
    base = profile(profile_name).search
    provider = get_embedder(embedder) if embedder else None
    store, plan, _ = open_demo_store(dest, provider, watch=watch)
    return Demo(plan.root, dest, store, plan.as_of, plan, base, embedder)


def memory_files(demo: Demo) -> pd.DataFrame:
    """One row per indexed file: source, evergreen or not, when indexed, age, chunks."""
    files: dict[str, list[IndexedChunk]] = {}
    for chunk in demo.store.index.chunks():
        files.setdefault(chunk.path, []).append(chunk)
    rows = []
    for path, chunks in sorted(files.items()):
        created = min(c.created_at for c in chunks)
        rows.append(
            {
                "path": path,
                "source": chunks[0].source,
                "evergreen": is_evergreen(chunks[0].source),
                "indexed at": format_iso(created),
                "age (days)": round((demo.now - created) / DAY, 1),
                "chunks": len(chunks),
            }
        )
    return pd.DataFrame(rows)


def chunk_table(demo: Demo) -> pd.DataFrame:
    """Every chunk: id, lines, size in bytes, whether the content-free filter drops it."""
    return pd.DataFrame(
        [
            {
                "chunk": c.chunk_id,
                "source": c.source,
                "lines": f"{c.start_line}-{c.end_line}",
                "bytes": len(c.text.encode("utf-8")),
                "content-free": is_content_free(c.text, c.source),
                "text": " ".join(c.text.split())[:70],
            }
            for c in demo.store.index.chunks()
        ]
    )


def save_tour(demo: Demo, out_dir: str = "") -> str:
    """Write the demo's files and chunks tables and a manifest beside the executed notebook."""
    from memlab import __version__
    from memlab.config import config_hash, to_dict
    from memlab.eval.compare.manifest import write_json

    if not out_dir:
        return "out_dir is empty: nothing written"
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    memory_files(demo).to_csv(out / "memory_files.csv", index=False)
    chunk_table(demo).to_csv(out / "chunks.csv", index=False)
    manifest = {
        "notebook": "tour",
        "memlab_version": __version__,
        "as_of": format_iso(demo.now),
        "embedder": demo.embedder or None,
        "config": to_dict(demo.base),
        "config_hash": config_hash(demo.base),
        "versions": demo.store.index.connection.versions(),
    }
    write_json(out / "manifest.json", manifest)
    return f"wrote memory_files.csv, chunks.csv and manifest.json to {out}"


def close_demo(demo: Demo) -> str:
    """Stop the watcher and close the index."""
    demo.close()
    return f"closed the demo store at {demo.work}"
