"""A writer and searchers at once, as separate processes (issue 12): with the defaults
nothing is lost — no search fails, and after the last sync the index is exactly the
files on disk, every fact written findable."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from memlab.cli import main
from memlab.store.store import MemoryStore
from tests.conftest import WS
from tests.store.conftest import index_problems


def worker(*args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "tests.store.race_worker", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def test_writer_and_searchers_lose_nothing(memory: Path, tmp_path: Path) -> None:
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
