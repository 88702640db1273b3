"""reindex_file / delete_path semantics (SPEC §2.2) and bad files, on real SQLite."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest

from memlab.store.store import MemoryStore
from tests.conftest import DAY, T0, WS, write

SESSION = f"{WS}/sessions/2026-01-01-auth-aaaa1111.md"


def rows(store: MemoryStore, path: str | None = None) -> dict[str, tuple]:
    sql = "SELECT id, source, created_at, updated_at, access_count, text FROM chunks"
    args: tuple = ()
    if path:
        sql, args = sql + " WHERE path = ?", (path,)
    return {r[0]: r[1:] for r in store.index.db.execute(sql, args)}


def fts_ids(store: MemoryStore, word: str) -> set[str]:
    q = "SELECT c.id FROM chunks_fts f JOIN chunks c ON c.rowid = f.rowid WHERE chunks_fts MATCH ?"
    return {r[0] for r in store.index.db.execute(q, (f'"{word}"',))}


def test_sources_are_classified(memory: Path, open_store: Callable[..., MemoryStore]) -> None:
    store = open_store(memory)
    store.build(now=T0)
    sources = {cid.rsplit(":", 1)[0]: r[0] for cid, r in rows(store).items()}
    assert sources == {
        "MEMORY.md": "global",
        f"{WS}/MEMORY.md": "workspace",
        SESSION: "session",
        f"{WS}/sessions/2026-01-05-deploy-bbbb2222.md": "session",
    }


def test_update_keeps_source_created_at_and_access_count(
    memory: Path, open_store: Callable[..., MemoryStore]
) -> None:
    store = open_store(memory)
    store.build(now=T0)
    store.index.reindex_file(SESSION, source="custom", now=T0 + DAY)  # same hash: skipped
    store.index.record_access([f"{SESSION}:0"], now=T0 + DAY)
    write(memory, SESSION, "# Auth bug\n\nFixed the refresh bug; added a regression test.\n")
    out = store.index.reindex_file(SESSION, source="other", now=T0 + 2 * DAY)
    assert (out.updated, out.added, out.removed) == (1, 0, 0)
    source, created, updated, access, text = rows(store, SESSION)[f"{SESSION}:0"]
    assert (source, created, updated, access) == ("session", T0, T0 + 2 * DAY, 1)
    assert "regression" in text
    assert fts_ids(store, "regression") == {f"{SESSION}:0"}
    assert fts_ids(store, "token") == set()  # the old FTS row was replaced


def test_unchanged_tree_reindex_changes_nothing(
    memory: Path, open_store: Callable[..., MemoryStore]
) -> None:
    store = open_store(memory)
    store.build(now=T0)
    before = rows(store)
    for rel in store.layout.scan():
        assert store.index.reindex_file(rel, now=T0 + 5 * DAY).action == "unchanged"
    assert rows(store) == before
    assert store.scan_changes() == []


def test_positional_ids_and_removed_chunks(
    memory: Path, open_store: Callable[..., MemoryStore]
) -> None:
    store = open_store(memory, config=None)
    big = "# Log\n\n" + "\n\n".join(f"## Part {i}\n\n" + ("detail " * 200) for i in range(4))
    write(memory, SESSION, big)
    store.build(now=T0)
    ids = sorted(rows(store, SESSION))
    assert ids == [f"{SESSION}:{i}" for i in range(len(ids))] and len(ids) >= 4
    write(memory, SESSION, "# Log\n\nshort now\n")
    out = store.index.reindex_file(SESSION, now=T0 + DAY)
    assert out.removed == len(ids) - 1
    assert sorted(rows(store, SESSION)) == [f"{SESSION}:0"]
    assert fts_ids(store, "detail") == set()


def test_new_chunk_gets_created_at_now(
    memory: Path, open_store: Callable[..., MemoryStore]
) -> None:
    store = open_store(memory)
    store.build(now=T0)
    write(memory, f"{WS}/sessions/2026-02-01-new-cccc3333.md", "# New\n\nbrand new note\n")
    store.build(now=T0 + 3 * DAY)
    ((_, created, updated, _, _),) = rows(
        store, f"{WS}/sessions/2026-02-01-new-cccc3333.md"
    ).values()
    assert created == updated == T0 + 3 * DAY


def test_delete_path_removes_chunks_and_fts(
    memory: Path, open_store: Callable[..., MemoryStore]
) -> None:
    store = open_store(memory)
    store.build(now=T0)
    assert store.delete_path(SESSION) == 1
    assert rows(store, SESSION) == {} and fts_ids(store, "token") == set()


def test_injectable_clock(memory: Path, open_store: Callable[..., MemoryStore]) -> None:
    store = open_store(memory, clock=lambda: T0 + 42.0)
    store.build()
    assert {r[1] for r in rows(store).values()} == {T0 + 42.0}


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        (b"# Bad\n\xff\xfe not utf-8\n", "UTF-8"),
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00binary", "binary"),
    ],
)
def test_bad_files_are_skipped_and_keep_old_chunks(
    memory: Path, open_store: Callable[..., MemoryStore], content: bytes, reason: str
) -> None:
    store = open_store(memory)
    store.build(now=T0)
    before = rows(store, SESSION)
    write(memory, SESSION, content)
    report = store.build(now=T0 + DAY)
    [skip] = report.skipped
    assert skip.path == SESSION and reason in skip.reason
    assert rows(store, SESSION) == before
    assert any(reason in w for w in store.index.warnings)


def test_empty_file_has_no_chunks(memory: Path, open_store: Callable[..., MemoryStore]) -> None:
    store = open_store(memory)
    store.build(now=T0)
    write(memory, SESSION, "")
    store.build(now=T0 + DAY)
    assert rows(store, SESSION) == {}


def test_oversized_file_is_skipped(memory: Path, open_store: Callable[..., MemoryStore]) -> None:
    write(memory, f"{WS}/sessions/2026-01-09-huge-dddd4444.md", "x" * (50 * 1024 * 1024))
    store = open_store(memory)
    report = store.build(now=T0)
    [skip] = report.skipped
    assert "limit" in skip.reason
    assert rows(store, f"{WS}/sessions/2026-01-09-huge-dddd4444.md") == {}
    assert len(rows(store)) == 4


def test_symlink_outside_root_is_never_followed(
    memory: Path, tmp_path: Path, open_store: Callable[..., MemoryStore]
) -> None:
    secret = write(tmp_path, "outside/secret.md", "# Secret\n\nthe password is hunter2\n")
    os.symlink(secret, memory / WS / "sessions" / "2026-01-02-link-eeee5555.md")
    os.symlink(secret.parent, memory / WS / "linkdir")
    store = open_store(memory)
    store.build(now=T0)
    assert fts_ids(store, "hunter2") == set()
    assert not any("secret" in p or "linkdir" in p for p in store.index.indexed_paths())


def test_symlink_inside_root_is_indexed(
    memory: Path, open_store: Callable[..., MemoryStore]
) -> None:
    os.symlink(memory / "MEMORY.md", memory / WS / "sessions" / "2026-01-03-alias-ffff6666.md")
    store = open_store(memory)
    store.build(now=T0)
    assert f"{WS}/sessions/2026-01-03-alias-ffff6666.md" in store.index.indexed_paths()


def test_file_deleted_during_sync_is_removed(
    memory: Path, open_store: Callable[..., MemoryStore]
) -> None:
    store = open_store(memory)
    store.build(now=T0)
    store.dirty.add([SESSION])
    (memory / SESSION).unlink()
    report = store.sync(now=T0 + DAY)
    assert [o.action for o in report.outcomes] == ["deleted"]
    assert rows(store, SESSION) == {}


def test_other_workspaces_are_not_indexed(
    memory: Path, open_store: Callable[..., MemoryStore]
) -> None:
    write(memory, "other-9999/MEMORY.md", "# Other\n\nnot ours\n")
    store = open_store(memory, workspace=WS)
    store.build(now=T0)
    assert not any(p.startswith("other-9999") for p in store.index.indexed_paths())


def test_schema_and_tokenizer_are_recorded(memory: Path, tmp_path: Path) -> None:
    from memlab.errors import SchemaMismatchError
    from memlab.store.schema import SCHEMA_VERSION, get_meta

    path = tmp_path / "idx.sqlite"
    with MemoryStore.open(memory, index_path=path, tokenizer="trigram") as store:
        assert get_meta(store.index.db, "schema_version") == str(SCHEMA_VERSION)
        assert store.index.tokenizer == "trigram"
    with MemoryStore.open(memory, index_path=path) as store:  # None: accept the index's own
        assert store.index.tokenizer == "trigram"
    with pytest.raises(SchemaMismatchError, match="rebuild"):
        MemoryStore.open(memory, index_path=path, tokenizer="porter")


def test_unreadable_index_is_a_clear_error(memory: Path, tmp_path: Path) -> None:
    from memlab.errors import StoreError

    bad = write(tmp_path, "bad.sqlite", b"this is not a database" * 100)
    with pytest.raises(StoreError, match="not a memlab index"):
        MemoryStore.open(memory, index_path=bad)


def test_classify_source_spec(memory: Path, tmp_path: Path) -> None:
    from memlab.store.layout import MemoryLayout

    layout = MemoryLayout.open(memory, WS)
    cases = {
        f"{WS}/MEMORY.md": "workspace",
        f"{WS}/sessions/2026-01-01-x-12345678.md": "session",
        f"{WS}/notes/MEMORY.md": "workspace",
        "MEMORY.md": "global",
        "notes.md": "global",
    }
    for rel, source in cases.items():
        assert layout.classify_source(rel) == source
        assert layout.classify_source(memory / rel) == source
    assert layout.classify_source(tmp_path / "elsewhere" / "MEMORY.md") == "session"


def test_sigkill_during_indexing_leaves_a_recoverable_index(tmp_path: Path) -> None:
    """Kill an indexing process at random points; reopening and syncing must give
    exactly the index a clean build gives (a dead claim holder is reclaimed)."""
    import random
    import signal
    import subprocess
    import sys
    import time

    from memlab.config import WatcherConfig

    root = tmp_path / "m"
    for i in range(400):
        write(
            root,
            f"{WS}/sessions/2026-01-01-k{i}-{i:08d}.md",
            "# K\n\n" + "\n\n".join(f"## P{j}\n\n" + f"entry {i} {j} " * 60 for j in range(6)),
        )
    clean = tmp_path / "clean.sqlite"
    started = time.monotonic()
    with MemoryStore.open(root, index_path=clean) as store:
        store.build(now=T0)
        expected = sorted(store.index.db.execute("SELECT id, hash FROM chunks"))
    duration = time.monotonic() - started  # only used to spread the kill points
    code = (
        "import sys\nfrom memlab.store.store import MemoryStore\n"
        f"s = MemoryStore.open({str(root)!r}, index_path={{path!r}})\n"
        "print('go', flush=True)\n"
        f"s.build(now={T0})\nprint('done', flush=True)\n"
    )
    rng = random.Random(1)
    killed_mid_build = 0
    for attempt in range(12):  # four at least; more only while too few were killed mid-build
        if attempt >= 4 and killed_mid_build >= 2:
            break
        path = str(tmp_path / f"killed-{attempt}.sqlite")
        proc = subprocess.Popen(
            [sys.executable, "-c", code.format(path=path)], stdout=subprocess.PIPE, text=True
        )
        assert proc.stdout is not None and proc.stdout.readline().strip() == "go"
        time.sleep(rng.random() * duration * 0.8)
        proc.send_signal(signal.SIGKILL)
        rest = proc.stdout.read()
        proc.wait()
        killed_mid_build += "done" not in rest
        if "done" in rest:  # the child outran the estimate (the machine's load moved): aim earlier
            duration *= 0.5
        watcher = WatcherConfig(reclaim_dead_claims=True)
        with MemoryStore.open(root, index_path=path, watcher=watcher) as store:
            store.build(now=T0)
            got = sorted(store.index.db.execute("SELECT id, hash FROM chunks"))
            fts = store.index.db.execute(
                "SELECT COUNT(*) FROM chunks_fts WHERE chunks_fts MATCH 'entry'"
            ).fetchone()[0]
        assert got == expected
        assert fts == len(expected) - 400  # every chunk but the heading-only one per file
    assert killed_mid_build >= 2


def test_dead_claim_holder(memory: Path, open_store: Callable[..., MemoryStore]) -> None:
    from memlab.store.sync import ReindexClaim

    store = open_store(memory)
    dead = ReindexClaim(store.index.db, 60, pid=4_000_000_000)
    assert dead.try_claim()
    assert not ReindexClaim(store.index.db, 60).try_claim()  # c0: wait until stale
    assert ReindexClaim(store.index.db, 60, reclaim_dead=True).try_claim()


def test_record_access_rows_alone_in_parts_and_inside_a_batch(tmp_path: Path) -> None:
    """One statement on its own (a search's hits), parts of 500 in one transaction (more
    rows), and inside a batch it joins the batch's transaction: rolled back with it."""
    root = tmp_path / "mem"
    body = "\n".join(f"\n## Part {i}\n\nword{i} text here" for i in range(1200))
    write(root, f"{WS}/sessions/2026-01-01-many-cccc3333.md", "# Many\n" + body + "\n")
    store = MemoryStore.open(root, index_path=tmp_path / "i.sqlite", scan=False)
    store.build(now=T0)
    db = store.index.db
    rowids = [r[0] for r in db.execute("SELECT rowid FROM chunks ORDER BY rowid")]
    assert len(rowids) > 1000

    def counts() -> dict[int, tuple[int, float | None]]:
        sql = "SELECT rowid, access_count, last_accessed FROM chunks"
        return {r[0]: (r[1], r[2]) for r in db.execute(sql)}

    store.index.record_access_rows(rowids[:6], now=T0 + 1)
    assert not db.in_transaction
    store.index.record_access_rows(rowids, now=T0 + 2)  # three parts, one transaction
    got = counts()
    assert all(got[r] == (2, T0 + 2) for r in rowids[:6])
    assert all(got[r] == (1, T0 + 2) for r in rowids[6:])
    with pytest.raises(RuntimeError), store.index.batch():
        store.index.record_access_rows(rowids[:3], now=T0 + 3)
        assert db.in_transaction
        raise RuntimeError("the batch fails")
    assert counts() == got  # rolled back with the batch
    with pytest.raises(ValueError, match="once"):
        store.index.record_access_rows([rowids[0], rowids[0]])
    store.close()
