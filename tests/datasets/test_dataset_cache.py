"""``memlab.datasets.load_cache``: a dataset loaded before is reused only while nothing in its
folder changed; any change means the full load, which refuses what it always refused
(issue 30)."""

from __future__ import annotations

import json
import os
import shutil
import threading
from collections.abc import Callable
from pathlib import Path

import pytest

import memlab.datasets.loader as loader
from memlab.datasets import load_cache as cache
from memlab.datasets import load_dataset
from memlab.datasets.untrusted import DatasetFileRefused
from memlab.errors import DatasetError
from tests.eval.conftest import WS, write_eval_dataset

SECRET = "the password is hunter2"


@pytest.fixture(scope="module")
def clean(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_eval_dataset(tmp_path_factory.mktemp("cached") / "clean")


@pytest.fixture
def ds(clean: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fresh copy, a cache of its own, and no settling time (the copy is brand new)."""
    monkeypatch.setenv("MEMLAB_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("MEMLAB_DATASET_CACHE", raising=False)
    monkeypatch.setattr(cache, "SETTLE_NS", 0)
    folder = tmp_path / "ds"
    shutil.copytree(clean, folder, symlinks=True)
    return folder


def entries(tmp_path: Path) -> list[Path]:
    return sorted((tmp_path / "cache" / "datasets").glob("*.pkl"))


def full_loads(monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    """Every full load (``_inspect``) from now on."""
    calls: list[Path] = []
    inspect = loader._inspect

    def counted(path: Path) -> object:
        calls.append(path)
        return inspect(path)

    monkeypatch.setattr(loader, "_inspect", counted)
    return calls


def test_an_unchanged_dataset_is_reused(
    ds: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls = full_loads(monkeypatch)
    first = load_dataset(ds)
    assert len(entries(tmp_path)) == 1 and len(calls) == 1
    again = load_dataset(ds)
    assert again == first and len(calls) == 1  # no file read again
    assert load_dataset(ds, level="default") == first.with_level("default")


def test_any_change_means_a_full_load(
    ds: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls = full_loads(monkeypatch)
    load_dataset(ds)
    manifest = json.loads((ds / "manifest.json").read_text())
    manifest["description"] = "changed"
    (ds / "manifest.json").write_text(json.dumps(manifest))
    assert load_dataset(ds).description == "changed" and len(calls) == 2
    md = sorted((ds / "memory").rglob("*.md"))[0]
    md.write_text(md.read_text() + "\nchanged\n")  # a covered file: the digest catches it
    with pytest.raises(DatasetError, match="digest"):
        load_dataset(ds)
    assert len(calls) == 3


def _fifo(ds: Path, outside: Path) -> str:
    session = sorted((ds / "memory" / WS / "sessions").glob("*.md"))[0]
    session.unlink()
    os.mkfifo(session)
    return "a FIFO (named pipe), not a regular file; not read"


def _link_out(ds: Path, outside: Path) -> str:
    (ds / "queries.jsonl").unlink()
    os.symlink(outside, ds / "queries.jsonl")
    return "outside"


def _memory_out(ds: Path, outside: Path) -> str:
    shutil.rmtree(ds / "memory")
    os.symlink(outside.parent, ds / "memory")
    return "outside"


def _oversize(ds: Path, outside: Path) -> str:
    with open(ds / "qrels.tsv", "ab") as fh:
        fh.truncate(300 * 1024 * 1024)  # sparse: over the 256 MiB cap of a table
    return "over the"


@pytest.mark.parametrize("hostile", [_fifo, _link_out, _memory_out, _oversize])
def test_refused_input_is_still_refused_after_a_cached_load(
    hostile: Callable[[Path, Path], str], ds: Path, tmp_path: Path
) -> None:
    load_dataset(ds)
    assert entries(tmp_path)
    outside = tmp_path / "outside" / "secret.jsonl"
    outside.parent.mkdir()
    outside.write_text(f'{{"query_id": "q", "text": "{SECRET}"}}\n')
    why = hostile(ds, outside)
    raised: list[BaseException] = []
    done = threading.Event()

    def run() -> None:
        try:
            load_dataset(ds)
        except BaseException as exc:
            raised.append(exc)
        done.set()

    threading.Thread(target=run, daemon=True).start()
    assert done.wait(60), "loading blocked"
    assert raised and isinstance(raised[0], DatasetFileRefused), raised
    assert why in str(raised[0]) and SECRET not in str(raised[0])


def test_a_broken_dataset_is_never_kept(ds: Path, tmp_path: Path) -> None:
    (ds / "queries.jsonl").write_text("not json\n")
    for _ in range(2):
        with pytest.raises(DatasetError):
            load_dataset(ds)
    assert entries(tmp_path) == []


def test_a_damaged_entry_is_dropped(
    ds: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = load_dataset(ds)
    (entry,) = entries(tmp_path)
    entry.write_bytes(b"not a pickle")
    calls = full_loads(monkeypatch)
    assert load_dataset(ds) == first and len(calls) == 1
    assert entries(tmp_path) == [entry] and entry.read_bytes() != b"not a pickle"


def test_a_folder_changed_moments_ago_and_the_switch_are_not_kept(
    ds: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(cache, "SETTLE_NS", 3600 * 10**9)  # the copy is younger than this
    load_dataset(ds)
    assert entries(tmp_path) == []
    monkeypatch.setattr(cache, "SETTLE_NS", 0)
    monkeypatch.setenv("MEMLAB_DATASET_CACHE", "0")
    load_dataset(ds)
    assert entries(tmp_path) == []
