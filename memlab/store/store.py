"""``MemoryStore``: a memory root, its index, and sync-on-search.

Opening a store stat-scans the tree (files changed while nothing watched become
dirty); with ``watch=True`` a watchdog observer adds every later change. ``sync``
runs at the start of every search: when the dirty set is non-empty and this
process wins the reindex claim, each dirty path is reindexed (or deleted if it
is gone) before the query runs, then every chunk without a vector is embedded
in batches of 32 (a failed batch is skipped with a warning). As in c0, a chunk
whose batch failed waits for the next sync that runs, i.e. the next change;
the memlab option ``watcher.retry_missing_vectors`` syncs whenever vectors are
missing, so they are retried at the next search. ``build`` and ``replay``
(explicit indexing) always embed what is missing.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType

from memlab.config import IndexConfig, WatcherConfig
from memlab.embeddings.base import EmbeddingProvider, checked_embed
from memlab.errors import EmbeddingError, StoreError
from memlab.store import vectors
from memlab.store.index import Clock, FileOutcome, MemoryIndex
from memlab.store.layout import MemoryLayout
from memlab.store.sync import DirtySet, ReindexClaim, Watcher

log = logging.getLogger("memlab")
EMBED_BATCH = 32
VECTOR_COMMIT = 64 * EMBED_BATCH  # vectors per commit (a commit per embedding batch is slow)
SYNC_BATCH = 5000  # files per commit during a sync (FTS5 writes a segment at each commit)


@dataclass
class SyncReport:
    ran: bool = False  # False: nothing dirty, or the claim was lost
    claim_lost: bool = False
    outcomes: list[FileOutcome] = field(default_factory=list)
    embedded: int = 0
    embed_failures: list[str] = field(default_factory=list)

    @property
    def skipped(self) -> list[FileOutcome]:
        return [o for o in self.outcomes if o.action == "skipped"]


class MemoryStore:
    """A memory root plus the index of one of its workspaces."""

    def __init__(
        self,
        layout: MemoryLayout,
        index: MemoryIndex,
        watcher_config: WatcherConfig,
        embedder: EmbeddingProvider | None,
    ) -> None:
        self.layout = layout
        self.index = index
        self.dirty = DirtySet()
        self.claim = ReindexClaim(
            index.db,
            watcher_config.claim_stale_secs,
            reclaim_dead=watcher_config.reclaim_dead_claims,
        )
        self.embedder = embedder
        self.watcher: Watcher | None = None
        self.retry_missing_vectors = watcher_config.retry_missing_vectors
        self._vectors_pending = embedder is not None
        if embedder is not None and index.connection.vec_loaded:
            vectors.ensure_table(index, embedder.id, embedder.dims)

    @classmethod
    def open(
        cls,
        root: str | Path,
        workspace: str | None = None,
        *,
        index_path: str | Path | None = None,
        config: IndexConfig | None = None,
        watcher: WatcherConfig | None = None,
        clock: Clock | None = None,
        tokenizer: str | None = None,
        embedder: EmbeddingProvider | None = None,
        watch: bool = False,
        scan: bool = True,
    ) -> MemoryStore:
        layout = MemoryLayout.open(root, workspace)
        index = MemoryIndex.open(
            layout, index_path=index_path, config=config, clock=clock, tokenizer=tokenizer
        )
        try:
            store = cls(layout, index, watcher or WatcherConfig(), embedder)
        except BaseException:
            index.close()
            raise
        if watch and (watcher or WatcherConfig()).enabled:
            store.watcher = Watcher(layout, store.dirty)
        if scan:
            store.scan_changes()
        return store

    def __enter__(self) -> MemoryStore:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def close(self) -> None:
        if self.watcher is not None:
            self.watcher.stop()
            self.watcher = None
        self.index.close()

    @property
    def clock(self) -> Clock:
        return self.index.clock

    # ----------------------------------------------------------------- delegation

    def reindex_file(
        self, path: str | Path, source: str | None = None, now: float | None = None
    ) -> FileOutcome:
        return self.index.reindex_file(path, source, now)

    def delete_path(self, path: str | Path) -> int:
        return self.index.delete_path(path)

    # ----------------------------------------------------------------------- sync

    def scan_changes(self) -> list[str]:
        """Mark dirty every file that is new, changed or gone since it was indexed."""
        known = self.index.indexed_files()
        changed: list[str] = []
        on_disk = set(self.layout.scan())
        for rel in sorted(on_disk):
            try:
                st = self.layout.abs(rel).stat()
            except OSError:
                changed.append(rel)
                continue
            if known.get(rel) != (st.st_size, st.st_mtime_ns):
                changed.append(rel)
        gone = (set(known) | self.index.indexed_paths()) - on_disk
        changed.extend(sorted(gone))
        self.dirty.add(changed)
        return changed

    def sync(self, now: float | None = None) -> SyncReport:
        """SPEC §3: reindex dirty paths under the claim, then embed missing vectors."""
        return self._sync(now, force=self.retry_missing_vectors and self._vectors_pending)

    def _sync(self, now: float | None, *, force: bool) -> SyncReport:
        """Run a sync if something is dirty (or ``force``) and the claim is won."""
        report = SyncReport()
        if not len(self.dirty) and not force:
            return report
        if not self.claim.try_claim():
            report.claim_lost = True
            return report  # the dirty set is kept for the next search
        paths = self.dirty.swap()
        try:
            report.ran = True
            ordered = sorted(paths)
            for start in range(0, len(ordered), SYNC_BATCH):
                self._reindex_batch(ordered[start : start + SYNC_BATCH], now, report)
            self._embed_missing(report)
        except BaseException:
            self.dirty.add(paths)
            raise
        finally:
            self.claim.release()
        return report

    def _reindex_batch(self, paths: list[str], now: float | None, report: SyncReport) -> None:
        """Reindex ``paths`` in one commit; on an SQL error redo them one by one."""
        done: list[FileOutcome] = []
        try:
            with self.index.batch():
                done = self.index.reindex_files(paths, now)
        except self.index.connection.Error:
            for rel in paths:
                try:
                    report.outcomes.append(self.index.reindex_file(rel, None, now))
                except self.index.connection.Error as exc:  # retried on the next sync
                    self.dirty.add([rel])
                    log.warning("reindexing %s failed: %s", rel, exc)
            return
        report.outcomes.extend(done)

    def build(self, now: float | None = None) -> SyncReport:
        """Index everything in scope now (scan + sync, embedding every missing vector even
        when nothing changed), as ``memlab index`` does."""
        self.scan_changes()
        report = self._sync(now, force=self.embedder is not None)
        if report.claim_lost:
            raise StoreError(
                f"another process holds the reindex claim ({self.claim.holder()}); try again "
                "in a minute"
            )
        return report

    def replay(self, created_at: dict[str, float]) -> SyncReport:
        """Index files at their logical times, oldest first (for datasets and demos).

        Files in scope but not listed are indexed at the latest listed time.
        """
        report = SyncReport(ran=True)
        latest = max(created_at.values(), default=self.clock())
        paths = set(self.layout.scan()) | set(created_at)
        ordered = sorted(paths, key=lambda p: (created_at.get(p, latest), p))
        with self.index.batch():
            for rel in ordered:
                when = created_at.get(rel, latest)
                report.outcomes.append(self.index.reindex_file(rel, None, when))
        self.dirty.swap()
        self._embed_missing(report)
        return report

    def embed_missing(self) -> SyncReport:
        """Embed every chunk that has no vector yet (explicit; no claim, no reindexing)."""
        report = SyncReport(ran=True)
        self._embed_missing(report)
        return report

    def _embed_missing(self, report: SyncReport) -> None:
        if self.embedder is None or not vectors.usable(self.index):
            self._vectors_pending = False
            return
        missing = vectors.chunks_without_vectors(self.index)
        failed = False
        for group in range(0, len(missing), VECTOR_COMMIT):
            with self.index.batch():  # one commit per group of vectors, not per batch
                failed |= self._embed_rows(missing[group : group + VECTOR_COMMIT], report)
        self._vectors_pending = failed

    def _embed_rows(self, rows: list[tuple[str, str, str]], report: SyncReport) -> bool:
        """Embed and store ``rows`` (id, hash, text) in batches; True if a batch failed."""
        embedder = self.embedder
        assert embedder is not None, "_embed_missing checks for an embedder"
        failed = False
        for start in range(0, len(rows), EMBED_BATCH):
            batch = rows[start : start + EMBED_BATCH]
            try:
                matrix = checked_embed(embedder, [text for _, _, text in batch])
            except EmbeddingError as exc:
                failed = True
                report.embed_failures.append(str(exc))
                log.warning(
                    "embedding batch of %d chunks skipped (retried on the next sync): %s",
                    len(batch),
                    exc,
                )
                continue
            vectors.put_vectors(self.index, [(cid, h) for cid, h, _ in batch], matrix)
            report.embedded += len(batch)
        return failed
