"""An index path is new or a memlab index, never a user's file (issue 12, item 1)."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

import pytest

from memlab.cli import main
from memlab.errors import MemoryRootError, StoreError
from memlab.store.guard import not_an_index, remove_index
from memlab.store.layout import MemoryLayout
from memlab.store.store import MemoryStore
from tests.conftest import T0, WS, docs_say, write


def other_db(path: Path) -> Path:
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE precious (x)")
        conn.execute("INSERT INTO precious VALUES ('keep me')")
    conn.close()
    return path


@pytest.mark.parametrize("kind", ["markdown", "empty", "text", "other-db", "directory", "fifo"])
def test_opening_never_converts_a_file_that_is_not_an_index(
    memory: Path, tmp_path: Path, kind: str
) -> None:
    target = {
        "markdown": memory / "MEMORY.md",
        "empty": write(tmp_path, "empty.sqlite", b""),
        "text": write(tmp_path, "notes.sqlite", "my notes\n"),
        "other-db": other_db(tmp_path / "other.sqlite"),
        "directory": tmp_path,
        "fifo": tmp_path / "fifo.sqlite",
    }[kind]
    if kind == "fifo":
        os.mkfifo(target)
    before = target.read_bytes() if target.is_file() else None
    with pytest.raises(StoreError, match="not a memlab index|never an index"):
        MemoryStore.open(memory, index_path=target)
    assert (target.read_bytes() if target.is_file() else None) == before
    with pytest.raises(StoreError):
        remove_index(target)
    assert target.exists()


def test_rebuild_replaces_a_memlab_index_only(memory: Path, tmp_path: Path) -> None:
    assert docs_say("guarantees.md", "opens, replaces or deletes only a memlab index")
    index = tmp_path / "idx.sqlite"
    with MemoryStore.open(memory, index_path=index) as store:
        store.build(now=T0)
    assert not_an_index(index) is None
    assert main(["index", str(memory), "--index", str(index), "--rebuild", "--now", "1"]) == 0
    assert not_an_index(index) is None
    assert remove_index(index) and not index.exists() and not remove_index(index)


def test_cli_rebuild_on_the_global_memory_keeps_it(
    memory: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The finding: ``--index m/MEMORY.md --rebuild`` turned the global memory into SQLite."""
    before = (memory / "MEMORY.md").read_bytes()
    code = main(["index", str(memory), "--index", str(memory / "MEMORY.md"), "--rebuild"])
    assert code == 2 and (memory / "MEMORY.md").read_bytes() == before
    assert "Markdown" in capsys.readouterr().err


def test_default_index_never_leads_out_of_the_root(memory: Path, tmp_path: Path) -> None:
    elsewhere = other_db(tmp_path / "elsewhere.sqlite")
    os.symlink(elsewhere, memory / WS / "index.sqlite")
    with pytest.raises(StoreError, match="outside|symbolic link"):
        MemoryStore.open(memory, WS)
    assert main(["index", str(memory), "--workspace", WS, "--rebuild"]) == 2
    assert other_db_rows(elsewhere) == [("keep me",)]


def other_db_rows(path: Path) -> list[tuple[str]]:
    with sqlite3.connect(path) as conn:
        rows = conn.execute("SELECT x FROM precious").fetchall()
    conn.close()
    return rows


@pytest.mark.parametrize("name", ["/abs/dir", "../x", ".", "..", "", "a/b", ".hidden", "nope"])
def test_workspace_must_be_a_plain_directory_in_the_root(memory: Path, name: str) -> None:
    with pytest.raises(MemoryRootError, match="workspace"):
        MemoryLayout.open(memory, name)


def test_workspace_symlinked_out_of_the_root_is_refused(memory: Path, tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    write(outside, "MEMORY.md", "# Secret\n\nhunter2\n")
    os.symlink(outside, memory / "evil-0000aaaa")
    with pytest.raises(MemoryRootError, match="symbolic link"):
        MemoryLayout.open(memory, "evil-0000aaaa")
    assert not (outside / "index.sqlite").exists()


def test_absolute_workspace_wrote_an_index_outside_the_root(memory: Path, tmp_path: Path) -> None:
    """The finding: ``--workspace /abs/dir`` wrote ``index.sqlite`` outside the root."""
    outside = tmp_path / "abs"
    outside.mkdir()
    assert main(["index", str(memory), "--workspace", str(outside)]) == 2
    assert list(outside.iterdir()) == []
