"""The index's reads: the lookups search, eval and the workbench make of the index
(chunks by path, the file table, counts), none of which writes."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import NamedTuple

from memlab.store.file_table import FileState, file_state, file_states
from memlab.store.index_core import IndexCore


class IndexedChunk(NamedTuple):
    """One chunk row as the index holds it (``MemoryIndex.chunks``): a named tuple, as
    immutable as a frozen dataclass and built from the cursor's rows at a fifth of the
    cost (a replay reads back every chunk it indexed)."""

    chunk_id: str
    path: str
    start_line: int
    end_line: int
    text: str
    source: str
    created_at: float
    access_count: int
    hash: str


@dataclass
class IndexStats:
    chunks: int
    files: int
    by_source: dict[str, int] = field(default_factory=dict)


class IndexReads(IndexCore):
    """What can be read of the index (a part of ``MemoryIndex``)."""

    def indexed_files(self) -> dict[str, tuple[int, int]]:
        """path → (size, mtime_ns) as last read (indexed or skipped)."""
        return {path: state.signature for path, state in self.file_states().items()}

    def file_state(self, rel: str) -> FileState | None:
        return file_state(self.db, rel)

    def file_states(self) -> dict[str, FileState]:
        """path → what the last read of the file found (``file_table.FileState``)."""
        return file_states(self.db)

    def indexed_paths(self) -> set[str]:
        return {r[0] for r in self.db.execute("SELECT DISTINCT path FROM chunks")}

    def chunks(self, paths: Iterable[str] | None = None) -> list[IndexedChunk]:
        """Every chunk (or the chunks of ``paths``), by path and then position in the file."""
        sql = (
            "SELECT id, path, start_line, end_line, text, source, created_at, access_count, "
            "hash FROM chunks"
        )
        order = " ORDER BY path, start_line, rowid"
        if paths is None:
            rows = self.db.execute(sql + order).fetchall()
        else:
            rows = []
            wanted = sorted(set(paths))
            for start in range(0, len(wanted), 500):  # SQLite's variable limit, with room
                part = wanted[start : start + 500]
                marks = ",".join("?" * len(part))
                rows += self.db.execute(sql + f" WHERE path IN ({marks})" + order, part).fetchall()
        return list(map(IndexedChunk._make, rows))

    def stats(self) -> IndexStats:
        by_source = {
            r[0]: int(r[1])
            for r in self.db.execute("SELECT source, COUNT(*) FROM chunks GROUP BY source")
        }
        files = int(self.db.execute("SELECT COUNT(DISTINCT path) FROM chunks").fetchone()[0])
        return IndexStats(sum(by_source.values()), files, by_source)
