"""``ReadMemo``: the replay takes the bytes the dataset's load read, only while the file
is unchanged, once, within a budget, and with every check of ``read_bytes`` still made
(issue 30: a memory file was read twice per evaluation)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from memlab.datasets import load_dataset
from memlab.eval.replay.prepared import PrepareOptions, prepare_dataset
from memlab.read_memo import MEMORY_FILES, ReadMemo, stamp_of
from memlab.safefs import Refused, RootedReader


def _file(tmp_path: Path, text: str = "# A\n\nfirst\n") -> Path:
    path = tmp_path / "root" / "a.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def _keep(memo: ReadMemo, path: Path) -> None:
    memo.keep(path, path.read_bytes(), stamp_of(os.stat(path)))


def test_an_unchanged_file_is_served_once_from_the_memo(tmp_path: Path) -> None:
    path = _file(tmp_path)
    memo = ReadMemo()
    memo.keep(path, b"# A\n\nkept\n", stamp_of(os.stat(path)))  # marked: not the disk's bytes
    with RootedReader(tmp_path / "root", memo) as reader:
        assert reader.read(path, 1 << 20).data == b"# A\n\nkept\n"
        assert reader.read(path, 1 << 20).data == b"# A\n\nfirst\n"  # once, then the disk
    assert memo.served == 1 and len(memo) == 0 and memo.used == 0


def test_a_changed_file_is_read_from_disk(tmp_path: Path) -> None:
    path = _file(tmp_path)
    memo = ReadMemo()
    _keep(memo, path)
    path.write_text("# A\n\nsecond, longer\n")
    with RootedReader(tmp_path / "root", memo) as reader:
        assert reader.read(path, 1 << 20).data == b"# A\n\nsecond, longer\n"
    same_size = _file(tmp_path, "# A\n\nfirst\n")
    _keep(memo, same_size)
    st = os.stat(same_size)
    same_size.write_text("# A\n\nFIRST\n")  # same size, same times: the status change differs
    os.utime(same_size, ns=(st.st_atime_ns, st.st_mtime_ns))
    with RootedReader(tmp_path / "root", memo) as reader:
        assert reader.read(same_size, 1 << 20).data == b"# A\n\nFIRST\n"
    assert memo.served == 0


def test_the_checks_still_refuse(tmp_path: Path) -> None:
    path = _file(tmp_path)
    memo = ReadMemo()
    _keep(memo, path)
    with RootedReader(tmp_path / "root", memo) as reader, pytest.raises(Refused, match="limit"):
        reader.read(path, 4)  # over the cap: refused, not served
    link = tmp_path / "root" / "b.md"
    link.symlink_to(path)
    memo.keep(link, b"x", stamp_of(os.stat(path)))
    with RootedReader(tmp_path / "root", memo) as reader:
        assert reader.read(link, 1 << 20).data == path.read_bytes()  # a link: read_bytes' way
    assert memo.served == 0


def test_the_budget_is_kept(tmp_path: Path) -> None:
    path = _file(tmp_path)
    memo = ReadMemo(budget=8)
    _keep(memo, path)  # 12 bytes: not kept
    assert len(memo) == 0 and memo.used == 0
    memo.keep(path, b"1234", stamp_of(os.stat(path)))
    memo.keep(path, b"12345", stamp_of(os.stat(path)))  # replaces the first
    assert len(memo) == 1 and memo.used == 5
    memo.clear()
    assert memo.used == 0


def test_a_replay_takes_what_the_load_read(
    tmp_path: Path, tiny: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    MEMORY_FILES.clear()
    served = MEMORY_FILES.served
    monkeypatch.setenv("MEMLAB_DATASET_CACHE", "0")  # a full load: every file read
    ds = load_dataset(tiny)
    kept = len(MEMORY_FILES)
    prepared = prepare_dataset(ds, PrepareOptions(work_dir=tmp_path, progress=False))
    prepared.timeline(6)
    assert kept > 0 and MEMORY_FILES.served - served > 0
    assert len(MEMORY_FILES) < kept


def test_a_load_keeps_only_its_own_files(
    tmp_path: Path, tiny: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The memo holds the files of the dataset loaded last (a kernel that loads many
    datasets keeps no more than one's files)."""
    import shutil

    monkeypatch.setenv("MEMLAB_DATASET_CACHE", "0")
    other = tmp_path / "other"
    shutil.copytree(tiny, other)
    load_dataset(tiny)
    first = len(MEMORY_FILES)
    load_dataset(other)
    assert first > 0 and len(MEMORY_FILES) == first
    served = MEMORY_FILES.served
    with RootedReader(tiny, MEMORY_FILES) as reader:
        for path in sorted((tiny / "memory").rglob("*.md")):
            reader.read(path, 1 << 20)
    assert MEMORY_FILES.served == served  # none of the first dataset's files was kept
    assert len(MEMORY_FILES) == first
