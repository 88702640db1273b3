"""Progress of an evaluation's replay, at file and query granularity.

A group's replay applies its file events (a write, an append, a deletion: each
reindexes one file) and gathers each query's candidates when the timeline reaches
it; both take time (a BEIR-sized corpus is thousands of files before the first
query), so the bar counts both and says which is which::

    replaying ledgerline:  41%|████      | 512/1228 [00:03<00:05, files 412/856 · queries 100/372]

Shown for a group of at least ``MIN_STEPS`` steps; tqdm is imported only then.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from memlab.datasets import Dataset

MIN_STEPS = 50


@dataclass
class ReplayProgress:
    bar: Any  # a tqdm bar
    files_total: int
    queries_total: int
    files: int = 0
    queries: int = 0

    @classmethod
    def start(cls, dataset: Dataset, gid: str) -> ReplayProgress | None:
        """A bar for replaying group ``gid``, or None for a small group."""
        asked = [q.as_of for q in dataset.queries_in(gid)]
        queries = len(asked)
        last = max(asked, default=float("-inf"))  # events after the last query stay unread
        files = sum(1 for e in dataset.groups[gid].events if e.at <= last)
        if files + queries < MIN_STEPS:
            return None
        from tqdm.auto import tqdm

        bar = tqdm(total=files + queries, desc=f"replaying {gid}", unit="step", leave=False)
        return cls(bar, files, queries)

    def file(self) -> None:
        self.files += 1
        self._step()

    def query(self) -> None:
        self.queries += 1
        self._step()

    def _step(self) -> None:
        self.bar.set_postfix_str(
            f"files {self.files}/{self.files_total} · queries {self.queries}/{self.queries_total}",
            refresh=False,
        )
        self.bar.update(1)

    def close(self) -> None:
        self.bar.close()
