"""A writer and searchers at once, as separate processes (issue 12): with the defaults
nothing is lost — no search fails, and after the last sync the index is exactly the
files on disk, every fact written findable."""

from __future__ import annotations

import builtins
import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from memlab.cli import main
from memlab.retrieval.pipeline import search
from memlab.store.connection import index_driver
from memlab.store.store import MemoryStore
from tests.conftest import T0, WS, docs_say
from tests.store.conftest import index_problems


def worker(*args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "tests.store.race_worker", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def test_writer_and_searchers_lose_nothing(memory: Path, tmp_path: Path) -> None:
    assert docs_say(
        "guarantees.md", "one writer (150 new session logs, appends to older ones) and three"
    )
    assert main(["index", str(memory), "--workspace", WS]) == 0
    done = tmp_path / "done"
    searchers = [
        worker("searcher", str(memory), mode, str(done)) for mode in ("watch1", "watch2", "cli")
    ]
    writer = worker("writer", str(memory), "150", str(done))
    out, err = writer.communicate(timeout=300)
    assert writer.returncode == 0, err
    facts = json.loads(out)["facts"]
    for proc in searchers:
        out, err = proc.communicate(timeout=300)
        assert proc.returncode == 0, err
        stats = json.loads(out)
        assert stats["errors"] == [] and stats["searches"] > 1
        assert all(r.startswith("stale index: ") for r in stats["reasons"]), stats["reasons"]
    assert main(["index", str(memory), "--workspace", WS]) == 0
    assert index_problems(memory, WS, memory / WS / "index.sqlite") == []
    with MemoryStore.open(memory, WS) as store:
        db = store.index.db
        for fact in facts:
            rows = db.execute("SELECT rowid FROM chunks_fts WHERE chunks_fts MATCH ?", (fact,))
            assert rows.fetchone() is not None, fact


def test_an_index_is_opened_by_one_sqlite_library_only(
    memory: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Found by the race test above: the driver probe opened the index with Python's
    built-in ``sqlite3`` and closed it, which dropped the POSIX locks of the process's
    sqlean connections to it — another process then corrupted the index ("database disk
    image is malformed"). No other library, and no plain file descriptor, may open an
    index file while SQLite connections to it may be open."""
    if index_driver()[0] == "sqlite3":
        pytest.skip("the built-in sqlite3 is the index driver here")
    index = tmp_path / "idx.sqlite"
    opened: list[str] = []
    real_connect, real_os_open, real_open = sqlite3.connect, os.open, builtins.open

    def record(path: object) -> None:
        if "idx.sqlite" in str(path):
            opened.append(str(path))

    monkeypatch.setattr(
        sqlite3, "connect", lambda p, *a, **k: (record(p), real_connect(p, *a, **k))[1]
    )
    monkeypatch.setattr(os, "open", lambda p, *a, **k: (record(p), real_os_open(p, *a, **k))[1])
    monkeypatch.setattr(builtins, "open", lambda p, *a, **k: (record(p), real_open(p, *a, **k))[1])
    with MemoryStore.open(memory, index_path=index) as first:
        first.build(now=T0)
        with MemoryStore.open(memory, index_path=index) as second:
            assert search(second, "token bug", None, T0).hits
        assert main(["search", str(memory), "token", "--index", str(index), "--json"]) == 0
        assert main(["index", str(memory), "--index", str(index), "--rebuild"]) == 0
    assert opened == []
