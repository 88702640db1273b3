"""Sync-on-search (SPEC §3): real watcher events, the stat scan, the reindex claim."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

from memlab.retrieval.pipeline import search
from memlab.store.store import MemoryStore
from memlab.store.sync import ReindexClaim
from tests.conftest import DAY, T0, WS, write

SESSION = f"{WS}/sessions/2026-01-01-auth-aaaa1111.md"


def wait_for(predicate: Callable[[], bool], timeout: float = 10.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.02)
    return predicate()


def test_watcher_feeds_the_dirty_set(memory: Path, open_store: Callable[..., MemoryStore]) -> None:
    store = open_store(memory, watch=True)
    store.build(now=T0)
    new = f"{WS}/sessions/2026-01-07-cache-cccc3333.md"
    write(memory, new, "# Cache\n\nThe memcached eviction policy is LRU.\n")
    assert wait_for(lambda: new in store.dirty.snapshot())
    write(memory, f"{WS}/notes.txt", "not markdown")
    result = search(store, "memcached eviction", now=T0 + DAY, record_access=False)
    assert [h.path for h in result.hits] == [new]


def test_deleted_file_is_gone_before_the_query_runs(
    memory: Path, open_store: Callable[..., MemoryStore]
) -> None:
    store = open_store(memory, watch=True)
    store.build(now=T0)
    assert search(store, "token refresh", now=T0, record_access=False).hits
    (memory / SESSION).unlink()
    assert wait_for(lambda: SESSION in store.dirty.snapshot())
    assert search(store, "token refresh", now=T0, record_access=False).hits == []


def test_stat_scan_on_open_catches_unwatched_changes(memory: Path, tmp_path: Path) -> None:
    path = tmp_path / "idx.sqlite"
    with MemoryStore.open(memory, index_path=path) as store:
        store.build(now=T0)
    write(memory, SESSION, "# Auth\n\nSwitched the auth middleware to opaque tokens.\n")
    (memory / f"{WS}/sessions/2026-01-05-deploy-bbbb2222.md").unlink()
    write(memory, f"{WS}/sessions/2026-01-08-new-dddd4444.md", "# New\n\nkubernetes rollout\n")
    with MemoryStore.open(memory, index_path=path) as store:
        assert sorted(store.dirty.snapshot()) == sorted(
            [
                SESSION,
                f"{WS}/sessions/2026-01-05-deploy-bbbb2222.md",
                f"{WS}/sessions/2026-01-08-new-dddd4444.md",
            ]
        )
        assert [h.path for h in search(store, "opaque kubernetes deployed", now=T0).hits]


def test_claim_is_atomic_and_goes_stale_after_60s(
    memory: Path, open_store: Callable[..., MemoryStore]
) -> None:
    store = open_store(memory)
    clock = [1000.0]
    a = ReindexClaim(store.index.db, 60, clock=lambda: clock[0], pid=111)
    b = ReindexClaim(store.index.db, 60, clock=lambda: clock[0], pid=222)
    assert a.try_claim() and a.holder() == "111:1000"
    assert not b.try_claim()
    clock[0] += 60  # exactly 60 s: not yet stale
    assert not b.try_claim()
    clock[0] += 1
    assert b.try_claim() and b.holder() == "222:1061"
    a.release()  # a no longer holds it: must not free b's claim
    assert b.holder() == "222:1061"
    b.release()
    assert b.holder() == ""


def test_lost_claim_keeps_the_dirty_set(
    memory: Path, open_store: Callable[..., MemoryStore]
) -> None:
    store = open_store(memory)
    other = ReindexClaim(store.index.db, 60, pid=999)
    assert other.try_claim()
    before = store.dirty.snapshot()
    report = store.sync(now=T0)
    assert report.claim_lost and not report.ran
    assert store.dirty.snapshot() == before and len(before) == 4
    assert search(store, "token", now=T0, record_access=False).hits == []
    other.release()
    assert [h.path for h in search(store, "token refresh", now=T0, record_access=False).hits] == [
        SESSION
    ]
    assert len(store.dirty) == 0


def test_two_processes_share_the_claim(memory: Path, tmp_path: Path) -> None:
    import subprocess
    import sys

    path = tmp_path / "idx.sqlite"
    code = (
        "import sys; from memlab.store.store import MemoryStore\n"
        f"s = MemoryStore.open({str(memory)!r}, index_path={str(path)!r}, scan=False)\n"
        "print(s.claim.try_claim())\n"
    )
    with MemoryStore.open(memory, index_path=path) as store:
        assert store.claim.try_claim()
        out = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, check=True
        )
        assert out.stdout.strip() == "False"
        store.claim.release()
        out = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, check=True
        )
        assert out.stdout.strip() == "True"
