"""``MemoryStore``: a memory root, its index, and sync-on-search.

Opening a store stat-scans the tree (files changed while nothing watched become
dirty); with ``watch=True`` a watchdog observer adds every later change. ``sync``
runs at the start of every search: when the dirty set is non-empty and this
process wins the reindex claim, each dirty path is reindexed (or deleted if it
is gone) before the query runs, then every chunk without a vector is embedded
in batches of 32 (a failed batch is skipped with a warning). As in c0, a chunk
whose batch failed waits for the next sync that runs, i.e. the next change;
the memlab option ``watcher.retry_missing_vectors`` syncs whenever vectors are
missing, so they are retried at the next search. Every sync with an embedder
counts the chunks still without a vector (one query), so that a killed sync's
missing vectors are found by any later process: a hybrid search is *degraded*
with the reason while any remain (``SyncReport.vector_reason``). ``build`` and
``replay`` (explicit indexing) always embed what is missing.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType

from memlab.config import IndexConfig, WatcherConfig
from memlab.embeddings.base import EmbeddingProvider, checked_embed
from memlab.errors import EmbeddingError, StoreError
from memlab.safefs import printable_name
from memlab.store import vectors
from memlab.store.index import Clock, FileOutcome, MemoryIndex
from memlab.store.layout import MemoryLayout
from memlab.store.memory_files import file_signature
from memlab.store.sync import DirtySet, ReindexClaim, Watcher, pid_alive

log = logging.getLogger("memlab")
EMBED_BATCH = 32
VECTOR_COMMIT = 64 * EMBED_BATCH  # vectors per commit (a commit per embedding batch is slow)
SYNC_BATCH = 5000  # files per commit during a sync (FTS5 writes a segment at each commit)
# The racy-timestamp margin: a file whose mtime is within this of (or after) its last
# read is read again at the next scan. Generous, for coarse file-system clocks.
RACY_NS = 2_000_000_000


@dataclass
class SyncReport:
    ran: bool = False  # False: nothing dirty, or the claim was lost
    claim_lost: bool = False
    outcomes: list[FileOutcome] = field(default_factory=list)
    embedded: int = 0
    embed_failures: list[str] = field(default_factory=list)
    pending: int = 0  # dirty paths left for later when the claim was lost
    holder: str = ""  # the claim's value ("<pid>:<unix secs>") when it was lost
    missing_vectors: int = 0  # chunks still without a vector after the sync (embedder set)

    def vector_reason(self) -> str | None:
        """Why a hybrid search after this sync scores some chunks by text alone, or None."""
        if not self.missing_vectors:
            return None
        return (
            f"missing vectors: {self.missing_vectors} chunk(s) have no vector (an interrupted "
            "sync or a failed embedding batch) and are scored by text alone; `memlab index` "
            "embeds them, or watcher.retry_missing_vectors at the next search"
        )

    def stale_reason(self) -> str | None:
        """Why a search after this sync may answer from a stale index, or None."""
        if not (self.claim_lost and self.pending):
            return None
        pid_text = self.holder.partition(":")[0]
        files = f"{self.pending} changed file(s) are not searched yet"
        if pid_text.isdigit() and not pid_alive(int(pid_text)):
            return (
                f"stale index: the reindex claim is held by process {pid_text}, which is not "
                f"running (it crashed?); {files} until the claim expires (60 s) — "
                "watcher.reclaim_dead_claims takes it at once"
            )
        return f"stale index: process {pid_text or '?'} holds the reindex claim; {files}"

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
        self._missing_count: tuple[tuple[int, int], int] | None = None  # (stamp, count)
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
        created_at_rule: str | None = None,
    ) -> MemoryStore:
        layout = MemoryLayout.open(root, workspace)
        index = MemoryIndex.open(
            layout,
            index_path=index_path,
            config=config,
            clock=clock,
            tokenizer=tokenizer,
            created_at_rule=created_at_rule,
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
        """Mark dirty every file that is new, changed or gone since it was last read.

        A file is read again when its size or mtime changed, or when its mtime is
        not older than its last read by ``RACY_NS`` (the racy-timestamp rule: a
        same-size rewrite within one timestamp tick keeps both). Files whose names
        are not valid UTF-8 are compared under their printable name and reported
        once per change, never indexed."""
        states = self.index.file_states()
        good, bad = self.layout.scan_all()
        changed: list[str] = []
        for rel in good:
            state = states.get(rel)  # a file never read is changed: no need to stat it
            if state is None or state.stale(file_signature(self.layout.abs(rel)), RACY_NS):
                changed.append(rel)
        bad_keys = set()
        for rel in bad:
            key = printable_name(rel)
            bad_keys.add(key)
            state = states.get(key)
            if state is None or state.signature != file_signature(self.layout.abs(rel)):
                changed.append(rel)
        gone = (set(states) | self.index.indexed_paths()) - set(good) - bad_keys
        changed.extend(sorted(gone))
        self.dirty.add(changed)
        return changed

    def sync(self, now: float | None = None, *, reclaim_dead: bool | None = None) -> SyncReport:
        """SPEC §3: reindex dirty paths under the claim, then embed missing vectors.

        ``reclaim_dead`` (default: ``watcher.reclaim_dead_claims``) takes a claim whose
        holder is a dead process on this machine at once."""
        missing = self._count_missing()
        force = self.retry_missing_vectors and (self._vectors_pending or missing > 0)
        report = self._sync(now, force=force, reclaim_dead=reclaim_dead)
        report.missing_vectors = self._count_missing() if report.ran else missing
        return report

    def _count_missing(self) -> int:
        """Chunks without a vector (0 without an embedder or a usable vector table): a
        killed sync leaves some that no later sync notices unless something changes.

        Counting scans the vector table (tens of milliseconds at 10k chunks, on every
        search), so the count is kept and taken again only after the index changed
        (``MemoryIndex.change_stamp``: a write by this or another connection)."""
        if self.embedder is None or not vectors.usable(self.index):
            return 0
        stamp = self.index.change_stamp()
        if self._missing_count is None or self._missing_count[0] != stamp:
            self._missing_count = (stamp, vectors.count_without_vectors(self.index))
        return self._missing_count[1]

    def _sync(
        self, now: float | None, *, force: bool, reclaim_dead: bool | None = None
    ) -> SyncReport:
        """Run a sync if something is dirty (or ``force``) and the claim is won."""
        report = SyncReport()
        if not len(self.dirty) and not force:
            return report
        if not self.claim.try_claim(reclaim_dead=reclaim_dead):
            report.claim_lost = True
            report.pending = len(self.dirty)
            report.holder = self.claim.holder()
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

    def build(self, now: float | None = None, *, reclaim_dead: bool = False) -> SyncReport:
        """Index everything in scope now (scan + sync, embedding every missing vector even
        when nothing changed), as ``memlab index`` does.

        ``memlab index`` passes ``reclaim_dead=True``: a claim left by a crashed
        indexer on this machine does not block an explicit rebuild for 60 s."""
        self.scan_changes()
        report = self._sync(now, force=self.embedder is not None, reclaim_dead=reclaim_dead or None)
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
