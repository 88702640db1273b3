"""Bad files and file names, racy timestamps, nested headings, a crashed indexer's claim
(issue 12, items 5, 8, 9, 11) — on real files and real SQLite."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from memlab.cli import main
from memlab.config import WatcherConfig
from memlab.retrieval.pipeline import search
from memlab.store.chunker import CONTEXT_MAX_BYTES, chunk_markdown, context_prefix
from memlab.store.store import MemoryStore
from tests.conftest import T0, WS, write
from tests.store.conftest import index_problems

BAD_NAME = os.fsdecode(b"2026-01-07-caf\xe9-dddd4444.md")


def test_a_file_name_that_is_not_utf8_is_skipped_with_a_warning(
    memory: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The finding: such a name broke ``index`` and every ``search`` for good."""
    sessions = os.fsencode(memory / WS / "sessions")
    with open(os.path.join(sessions, b"2026-01-07-caf\xe9-dddd4444.md"), "w") as fh:
        fh.write("# Bad name\n\nnever indexed\n")
    index = tmp_path / "idx.sqlite"
    with MemoryStore.open(memory, index_path=index) as store:
        report = store.build(now=T0)
        [skip] = report.skipped
        assert skip.path.endswith("caf\\xe9-dddd4444.md") and "not valid UTF-8" in skip.reason
        assert search(store, "pytest", None, T0).hits  # search works
    assert index_problems(memory, None, index) == []
    args = ["search", str(memory), "token bug", "--index", str(index), "--json"]
    assert main(args) == 0
    assert main(["index", str(memory), "--index", str(index)]) == 0


def test_bad_files_are_recorded_and_warned_once_per_change(
    memory: Path, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The finding: bad files were re-read and re-warned on every CLI search."""
    bad = write(memory, f"{WS}/sessions/2026-01-08-latin-eeee5555.md", b"# Caf\xe9\n")
    old = T0 - 86400
    os.utime(bad, (old, old))
    index = tmp_path / "idx.sqlite"

    def warnings_of_one_search() -> list[str]:
        caplog.clear()
        with (
            caplog.at_level(logging.WARNING, logger="memlab"),
            MemoryStore.open(memory, index_path=index) as store,
        ):
            search(store, "token", None, T0)
        return [r.getMessage() for r in caplog.records if "latin" in r.getMessage()]

    assert len(warnings_of_one_search()) == 1
    assert warnings_of_one_search() == []  # unchanged: not read, not warned again
    assert warnings_of_one_search() == []
    bad.write_bytes(b"# Still \xff bad\n")
    os.utime(bad, (old + 10, old + 10))
    assert len(warnings_of_one_search()) == 1  # changed: warned once more
    assert warnings_of_one_search() == []
    bad.write_text("# Fixed\n\nnow readable: zanzibar\n")
    os.utime(bad, (old + 20, old + 20))
    assert warnings_of_one_search() == []
    with MemoryStore.open(memory, index_path=index) as store:
        assert search(store, "zanzibar", None, T0).hits


def test_a_same_size_rewrite_within_one_tick_is_reindexed(
    memory: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The finding: same size, same mtime → never re-indexed. The racy-timestamp rule
    re-reads a file whose mtime is not older than its last read."""
    path = memory / WS / "MEMORY.md"
    write(memory, f"{WS}/MEMORY.md", "# Project\n\nthe ocelot\n")
    tick = os.stat(path).st_mtime_ns
    index = tmp_path / "idx.sqlite"
    with MemoryStore.open(memory, index_path=index) as store:
        store.build(now=T0)
    write(memory, f"{WS}/MEMORY.md", "# Project\n\nthe jaguar\n")  # same size
    os.utime(path, ns=(tick, tick))  # and the same timestamp tick
    with MemoryStore.open(memory, index_path=index) as store:
        assert [h.chunk_id for h in search(store, "jaguar", None, T0).hits] == [f"{WS}/MEMORY.md:0"]
    assert index_problems(memory, None, index) == []


def test_old_files_are_not_reread(memory: Path, tmp_path: Path) -> None:
    index = tmp_path / "idx.sqlite"
    with MemoryStore.open(memory, index_path=index) as store:
        store.build(now=T0)
    with MemoryStore.open(memory, index_path=index) as store:
        assert store.scan_changes() == []


def test_nested_headings_grow_linearly(tmp_path: Path) -> None:
    """The finding: 1,000 nested headings gave quadratic chunk text (1.5 MB → 500 MB)."""
    depth = 1000
    text = "".join(f"{'#' * (i + 1)} heading number {i:04d}\n\nbody {i}\n\n" for i in range(depth))
    chunks = chunk_markdown(text)
    total = sum(len(c.text.encode()) for c in chunks)
    assert len(chunks) == depth
    assert total < len(text.encode()) + depth * (CONTEXT_MAX_BYTES + 100)
    prefixes = [c.text.split("]\n\n")[0] for c in chunks[1:]]
    assert all(len(p.encode()) <= CONTEXT_MAX_BYTES + 20 for p in prefixes)
    assert prefixes[-1].startswith("[Context: … > ") and "heading number 0998" in prefixes[-1]


def test_ordinary_prefixes_are_c0s() -> None:
    assert context_prefix(["A", "B"]) == "[Context: A > B]\n\n"
    assert context_prefix([]) == ""
    long = ["x" * 5000]
    assert len(context_prefix(long).encode()) <= CONTEXT_MAX_BYTES + 20


def dead_pid() -> int:
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    return proc.pid


def test_a_search_behind_a_crashed_indexers_claim_is_degraded(
    memory: Path, open_store: Callable[..., MemoryStore]
) -> None:
    """The finding: after a crashed indexer, searches answered from a stale index for 60 s
    without a word. c0 still waits for the claim to expire; the result now says so."""
    store = open_store(memory)
    store.build(now=T0)
    pid = dead_pid()
    store.index.db.execute(
        "UPDATE meta SET value = ? WHERE key = 'reindex_claim'", (f"{pid}:{int(time.time())}",)
    )
    write(memory, f"{WS}/sessions/2026-01-09-new-ffff6666.md", "# New\n\nzanzibar rollout\n")
    store.scan_changes()
    result = search(store, "zanzibar", None, T0)
    assert result.hits == [] and result.degraded
    assert any(f"process {pid}, which is not running" in r for r in result.reasons)
    reclaiming = open_store(memory, watcher=WatcherConfig(reclaim_dead_claims=True))
    assert search(reclaiming, "zanzibar", None, T0).hits  # the option takes the claim at once


def test_index_command_takes_a_dead_claim(memory: Path, tmp_path: Path) -> None:
    index = tmp_path / "idx.sqlite"
    with MemoryStore.open(memory, index_path=index) as store:
        store.build(now=T0)
        store.index.db.execute(
            "UPDATE meta SET value = ? WHERE key = 'reindex_claim'",
            (f"{dead_pid()}:{time.time():.0f}",),
        )
    assert main(["index", str(memory), "--index", str(index)]) == 0
