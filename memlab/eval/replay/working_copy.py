"""Replaying one memory group's timeline, event by event, in a working copy.

``GroupReplay`` materialises the group's files in a working directory (never
in the dataset folder), applies each event at its logical time — the file is
written, appended or removed, its mtime set to the event's time, and the index
reindexes it with ``now`` = that time (SPEC §2.2: positional chunk ids keep
source and created_at) — and, when the memory has Dream on, runs the real
Dream at every session end: the gates of ``memlab.dream.gates`` on the files'
mtimes and the lock's mtime, then ``memlab.dream.run`` with the offline
deterministic consolidator (input assembly, lock, response processing, write,
cleanup after the 300 s grace, index update with ``dream.memory_source``).

Without Dream nothing but the index reads the working copy, so the files are
kept in memory and indexed from there (the same bytes, checks and text as read
back from disk; ``materialise`` writes them out for a caller that wants them):
writing thousands of small files costs more than indexing them. The index, too,
is then an in-memory SQLite database (the same rows, ranks and results as an
index file, without writing one): a replay needs memory for its group's files
and their index, which the work directory is removed with anyway.

Every session is its own process in c0, so the lock holds the PID of a
finished process (``memlab.dream.lock.MAX_PID``: no process can have it); its mtime is the
logical time. Nothing here reads the wall clock.

``advance(t)`` applies every event with ``at <= t``; ``refresh`` reads back the
chunks of the paths that changed (``chunks`` is the memory at that moment) and
embeds the new ones, so vec0 KNN sees exactly what ``search()`` would.
"""

from __future__ import annotations

import logging
import math
import os
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from types import TracebackType
from typing import TYPE_CHECKING

from memlab.datasets import Event, MemoryGroup
from memlab.datasets.target_chunks import ChunkIndex
from memlab.datasets.untrusted import MAX_MEMORY_FILE_BYTES
from memlab.embeddings.base import EmbeddingProvider, checked_embed
from memlab.errors import EmbeddingError
from memlab.eval.replay.memory import Memory
from memlab.read_memo import MEMORY_FILES
from memlab.retrieval.vector_batch import VectorMatrix
from memlab.safefs import Refused, RootedReader
from memlab.store import vectors
from memlab.store.index import IndexedChunk
from memlab.store.layout import INDEX_FILE, LOCK_FILE, MEMORY_FILE, SESSIONS_DIR
from memlab.store.memory_files import FileText, Skip, decode_memory_bytes
from memlab.store.store import MemoryStore

if TYPE_CHECKING:  # memlab.dream is imported when a replay runs Dream, not before
    from memlab.dream.lock import DreamLock

log = logging.getLogger("memlab")


@dataclass(frozen=True)
class DreamRecord:
    """One Dream attempt at a session end of the replay."""

    group: str
    at: float
    session: str  # the triggering log's stem
    status: str  # DreamStatus value
    detail: str
    processed: tuple[str, ...] = ()
    deleted: tuple[str, ...] = ()


def logical_mtime_ns(at: float) -> int:
    """The mtime (ns) of a file replayed at logical time ``at`` — what ``os.utime`` sets
    for ``at`` seconds (the fraction floored to whole nanoseconds)."""
    seconds = math.floor(at)
    return seconds * 1_000_000_000 + math.floor((at - seconds) * 1e9)


class GroupReplay:
    """One group's memory, replayed in ``work`` (created fresh, removed on close)."""

    def __init__(
        self,
        group: MemoryGroup,
        memory: Memory,
        work: Path,
        embedder: EmbeddingProvider | None = None,
    ) -> None:
        self.group = group
        self.memory = memory
        self.work = work
        if work.exists():
            shutil.rmtree(work)
        root = work / "root"
        (root / group.workspace if group.workspace else root).mkdir(parents=True)
        # an index file only when Dream runs (as _dream_lock); else in memory, like the files
        dreams = memory.dream is not None and bool(group.workspace)
        self.store = MemoryStore.open(
            root,
            group.workspace,
            index_path=work / INDEX_FILE if dreams else ":memory:",
            config=memory.index,
            tokenizer=memory.index.tokenizer,
            embedder=embedder,
            scan=False,
        )
        self.embedder = (
            embedder if embedder is not None and vectors.usable(self.store.index) else None
        )
        # the chunk vectors in memory, for every query of a moment at once (evaluation)
        self.vectors = VectorMatrix(self.store.index) if self.embedder is not None else None
        self.layout = self.store.layout
        self.by_path: dict[str, list[IndexedChunk]] = {}
        self._chunks: ChunkIndex | None = None
        self.contents: dict[str, bytes] = {}  # the files, when they are not written out
        self._readers: dict[Path, RootedReader] = {}  # dataset folder -> its reader
        self.mtimes: dict[str, int] = {}
        self.touched: set[str] = set()
        self.dreams: list[DreamRecord] = []
        self.missing_vectors: list[str] = []  # chunk texts that could not be embedded
        self.applied = 0
        self.on_event: Callable[[], None] | None = None  # called after each event (progress)
        self._next = 0
        self._lock = self._dream_lock()

    def _dream_lock(self) -> DreamLock | None:
        ws = self.layout.workspace_dir
        if self.memory.dream is None or ws is None:
            return None
        from memlab.dream.lock import MAX_PID, DreamLock

        return DreamLock(ws / LOCK_FILE, self.memory.dream.stale_lock_secs, pid=MAX_PID)

    def __enter__(self) -> GroupReplay:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def close(self, keep: bool = False) -> None:
        self.store.close()
        for reader in self._readers.values():
            reader.close()
        if not keep:
            shutil.rmtree(self.work, ignore_errors=True)

    # ------------------------------------------------------------------ the timeline

    @property
    def done(self) -> bool:
        return self._next >= len(self.group.events)

    def advance(self, until: float) -> None:
        """Apply every event with ``at <= until`` (and the Dream runs they trigger)."""
        events = self.group.events
        if self._next >= len(events) or events[self._next].at > until:
            return
        with self.store.index.batch():
            while self._next < len(events) and events[self._next].at <= until:
                if self._lock is None:  # no Dream: files in memory, indexed in bulk
                    before = self.applied
                    self._apply_in_memory(until)
                    if self.on_event is not None:
                        for _ in range(self.applied - before):
                            self.on_event()
                    continue
                event = events[self._next]
                self._next += 1
                self._apply_on_disk(event)
                self.touched.add(event.path)
                self.applied += 1
                if event.end:
                    self._dream(event)
                if self.on_event is not None:
                    self.on_event()

    def _apply_on_disk(self, event: Event) -> None:
        path = self.layout.abs(event.path)
        if event.action == "delete":
            path.unlink(missing_ok=True)
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            with open(path, "ab" if event.action == "append" else "wb") as fh:
                fh.write(self._event_bytes(event))
            ns = logical_mtime_ns(event.at)
            os.utime(path, ns=(ns, ns))
        self.store.index.reindex_file(event.path, None, event.at)

    def _apply_in_memory(self, until: float) -> None:
        """The events up to ``until`` (or up to a second change of one path) without the
        files: nothing but the index reads the working copy when Dream is off, so the
        contents are kept here and indexed as read from disk (``decode_memory_bytes``:
        the same checks and text), many files in one ``reindex_contents``."""
        events = self.group.events
        items: list[tuple[str, FileText | Skip, float]] = []
        seen: set[str] = set()
        while self._next < len(events) and events[self._next].at <= until:
            event = events[self._next]
            if event.path in seen:
                break
            seen.add(event.path)
            self._next += 1
            items.append((event.path, self._content(event), event.at))
            self.touched.add(event.path)
            self.applied += 1
        self.store.index.reindex_contents(items)

    def _event_bytes(self, event: Event) -> bytes:
        """``event.data()`` with the dataset folder and its directories resolved once per
        replay, not once per file (the same checks: ``memlab.safefs.RootedReader``; a refused
        file is read again by ``event.data()``, which raises the dataset's error)."""
        if event.source is None or event.within is None:
            return event.data()
        reader = self._readers.get(event.within)
        if reader is None:
            reader = self._readers[event.within] = RootedReader(event.within, MEMORY_FILES)
        try:
            data = reader.read(event.source, MAX_MEMORY_FILE_BYTES).data
        except Refused:
            return event.data()
        return data if event.nbytes is None else data[: event.nbytes]

    def _content(self, event: Event) -> FileText | Skip:
        """The file after ``event``, as ``read_memory_file`` would read it."""
        if event.action == "delete":
            self.contents.pop(event.path, None)
            return Skip("file no longer exists", gone=True)
        data = self._event_bytes(event)
        if event.action == "append":
            data = self.contents.get(event.path, b"") + data
        self.contents[event.path] = data
        self.mtimes[event.path] = logical_mtime_ns(event.at)
        signature = (len(data), self.mtimes[event.path])
        limit = self.store.index.config.max_file_bytes
        if len(data) > limit:  # as memlab.safefs.read_bytes refuses it
            reason = f"file is {len(data)} bytes, over the {limit}-byte limit"
            return Skip(reason, signature=signature)
        return decode_memory_bytes(data, *signature, signature=signature)

    def materialise(self) -> None:
        """Write the files kept in memory into the working copy (for a caller that reads
        the memory from disk, e.g. a search that syncs)."""
        for rel, data in self.contents.items():
            path = self.layout.abs(rel)
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
            ns = self.mtimes[rel]
            os.utime(path, ns=(ns, ns))

    def _dream(self, event: Event) -> None:
        """SPEC §7.2: a (non-sub-agent) session ends → the gates, and maybe one run."""
        ws = self.layout.workspace_dir
        assert ws is not None and self._lock is not None and self.memory.dream is not None
        from memlab.dream.gates import Trigger
        from memlab.dream.new_memory import writer_for
        from memlab.dream.offline import OfflineConsolidator
        from memlab.dream.run import DreamStatus, run_dream

        stem = PurePosixPath(event.path).stem
        write = writer_for(self.memory.dream)

        def writer(path: Path, text: str) -> None:  # c0's write, stamped with logical time
            write(path, text)
            os.utime(path, (event.at, event.at))

        outcome = run_dream(
            ws,
            OfflineConsolidator(),
            now=event.at,
            config=self.memory.dream,
            trigger=Trigger.SESSION_END,
            current_session=stem[-8:],
            index=self.store,
            writer=writer,
            lock=self._lock,
        )
        if outcome.status is DreamStatus.COMPLETED:
            self.touched.add(f"{self.group.workspace}/{MEMORY_FILE}")
            self.touched.update(
                f"{self.group.workspace}/{SESSIONS_DIR}/{s}.md" for s in outcome.deleted
            )
        self.dreams.append(
            DreamRecord(
                self.group.id,
                event.at,
                stem,
                outcome.status.value,
                outcome.detail,
                outcome.processed,
                outcome.deleted,
            )
        )

    # ------------------------------------------------------------------ the memory now

    def refresh(self) -> list[IndexedChunk]:
        """Read back the chunks of the paths changed since the last call; embed the new
        ones. Returns the chunks that are new or whose text changed."""
        changed: list[IndexedChunk] = []
        if not self.touched:
            return changed
        current: list[IndexedChunk] = []
        before = {c.chunk_id for rel in self.touched for c in self.by_path.get(rel, ())}
        self._chunks = None
        read: dict[str, list[IndexedChunk]] = {}
        for chunk in self.store.index.chunks(self.touched):  # one read for every path
            read.setdefault(chunk.path, []).append(chunk)
        for rel in sorted(self.touched):
            old = {c.chunk_id: c.hash for c in self.by_path.get(rel, ())}
            rows = read.get(rel, [])
            if rows:
                self.by_path[rel] = rows
            else:
                self.by_path.pop(rel, None)
            changed += [c for c in rows if old.get(c.chunk_id) != c.hash]
            current += rows
        self.touched.clear()
        if self.embedder is not None:  # every chunk of a touched path that has no vector
            have = vectors.with_vectors(self.store.index, [c.chunk_id for c in current])
            self._embed([c for c in current if c.chunk_id not in have])
        if self.vectors is not None:
            now = [c.chunk_id for c in current]
            self.vectors.update(now, before - set(now))
        return changed

    def chunks(self) -> ChunkIndex:
        """Every chunk of the memory as of the last ``refresh``, by path, indexed for
        resolving targets (rebuilt only after a refresh that read something back)."""
        if self._chunks is None:
            every = [c for rel in sorted(self.by_path) for c in self.by_path[rel]]
            self._chunks = ChunkIndex(every)
        return self._chunks

    def _embed(self, chunks: list[IndexedChunk]) -> None:
        if self.embedder is None or not chunks:
            return
        try:
            matrix = checked_embed(self.embedder, [c.text for c in chunks])
            done = chunks
        except EmbeddingError:
            done, rows = [], []
            for c in chunks:  # find which texts have no vector (a cache-only embedder)
                try:
                    rows.append(checked_embed(self.embedder, [c.text])[0])
                    done.append(c)
                except EmbeddingError:
                    self.missing_vectors.append(c.text)
            if not done:
                return
            import numpy as np

            matrix = np.stack(rows)
        vectors.put_vectors(self.store.index, [(c.chunk_id, c.hash) for c in done], matrix)
