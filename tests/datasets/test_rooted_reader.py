"""``RootedReader`` (and ``reading_dataset``): each directory resolved once, and every
read still checked and refused exactly as ``read_bytes`` refuses it (issue 30)."""

from __future__ import annotations

import os
import stat
import threading
from pathlib import Path

import pytest

from memlab.datasets.untrusted import (
    DatasetFileRefused,
    dataset_file_exists,
    read_dataset_file,
    reading_dataset,
)
from memlab.safefs import Outside, Refused, RootedReader, read_bytes

SECRET = "the password is hunter2"


@pytest.fixture
def ds(tmp_path: Path) -> Path:
    root = tmp_path / "ds"
    (root / "memory" / "ws" / "sessions").mkdir(parents=True)
    (root / "memory" / "MEMORY.md").write_text("# Memory\n\nkept\n")
    (root / "memory" / "ws" / "sessions" / "a.md").write_text("# A\n\nsession a\n")
    (root / "queries.jsonl").write_text('{"query_id": "q1", "text": "kept"}\n')
    out = tmp_path / "outside"
    out.mkdir()
    (out / "secret.md").write_text(SECRET)
    return root


def refusal(call: object) -> str:
    """The one-line message ``call()`` raises (``Refused`` or ``FileNotFoundError``)."""
    try:
        call()  # type: ignore[operator]
    except (Refused, FileNotFoundError) as exc:
        return f"{type(exc).__name__}: {exc}"
    return "read"


def both(ds: Path, path: Path, max_bytes: int = 1 << 20) -> tuple[str, str]:
    """What ``read_bytes`` and a ``RootedReader`` make of ``path`` (data or refusal)."""
    with RootedReader(ds) as reader:
        fast = refusal(lambda: reader.read(path, max_bytes))
        if fast == "read":
            fast = reader.read(path, max_bytes).data.decode()
    slow = refusal(lambda: read_bytes(path, root=ds, max_bytes=max_bytes))
    if slow == "read":
        slow = read_bytes(path, root=ds, max_bytes=max_bytes).data.decode()
    return fast, slow


def test_reads_the_same_bytes_as_read_bytes(ds: Path) -> None:
    for rel in ("memory/MEMORY.md", "memory/ws/sessions/a.md", "queries.jsonl"):
        fast, slow = both(ds, ds / rel)
        assert fast == slow and fast == (ds / rel).read_text()


def test_refuses_what_read_bytes_refuses(ds: Path, tmp_path: Path) -> None:
    sessions = ds / "memory" / "ws" / "sessions"
    os.mkfifo(sessions / "fifo.md")
    os.symlink(tmp_path / "outside" / "secret.md", sessions / "out.md")
    os.symlink("/dev/zero", sessions / "zero.md")
    os.symlink(tmp_path / "outside", ds / "memory" / "linkdir")
    (sessions / "big.md").write_bytes(b"x" * 100)
    cases = {
        "fifo.md": "a FIFO (named pipe), not a regular file; not read",
        "out.md": "outside",
        "zero.md": "leads to /dev/zero, outside",
        "big.md": "over the 50-byte limit",
        "missing.md": "FileNotFoundError",
    }
    for name, why in cases.items():
        fast, slow = both(ds, sessions / name, max_bytes=50)
        assert fast == slow and why in fast and SECRET not in fast, (name, fast, slow)
    fast, slow = both(ds, ds / "memory" / "linkdir" / "secret.md")
    assert fast == slow and "outside" in fast and SECRET not in fast
    fast, slow = both(ds, ds / "memory" / "ws")
    assert fast == slow and "a directory, not a regular file" in fast


def test_a_fifo_is_refused_without_blocking(ds: Path) -> None:
    os.mkfifo(ds / "queries.fifo")
    done = threading.Event()
    raised: list[BaseException] = []

    def run() -> None:
        try:
            with RootedReader(ds) as reader:
                reader.read(ds / "queries.fifo", 1 << 20)
        except BaseException as exc:
            raised.append(exc)
        done.set()

    threading.Thread(target=run, daemon=True).start()
    assert done.wait(60), "blocked on a FIFO"
    assert isinstance(raised[0], Refused) and "FIFO" in str(raised[0])


def test_a_link_inside_the_root_is_read_and_the_root_may_be_a_link(
    ds: Path, tmp_path: Path
) -> None:
    os.symlink(ds / "memory" / "MEMORY.md", ds / "memory" / "ws" / "alias.md")
    os.symlink(ds, tmp_path / "alias")
    alias = tmp_path / "alias"
    with RootedReader(alias) as reader:
        assert (
            reader.read(ds / "memory" / "ws" / "alias.md", 1 << 20).data
            == (ds / "memory" / "MEMORY.md").read_bytes()
        )
        assert reader.read(alias / "memory" / "MEMORY.md", 1 << 20).data.startswith(b"# Memory")
        assert reader.serves(ds) and reader.serves(alias) and not reader.serves(tmp_path)


def test_a_directory_swapped_for_a_link_out_is_not_followed(ds: Path, tmp_path: Path) -> None:
    """A directory read through stays pinned: a link put in its place later leads
    nowhere outside (and a fresh reader refuses the link)."""
    sessions = ds / "memory" / "ws" / "sessions"
    reader = RootedReader(ds)
    try:
        assert reader.read(sessions / "a.md", 1 << 20).data.startswith(b"# A")
        os.replace(sessions, ds / "moved")
        os.symlink(tmp_path / "outside", sessions)
        text = refusal(lambda: reader.read(sessions / "secret.md", 1 << 20))
        assert text != "read" and SECRET not in text
    finally:
        reader.close()
    with RootedReader(ds) as fresh, pytest.raises(Outside):
        fresh.read(sessions / "secret.md", 1 << 20)


def test_a_file_swapped_for_a_link_between_check_and_open_is_not_read(
    ds: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import memlab.safefs as safefs

    victim = ds / "memory" / "MEMORY.md"
    real_open = os.open

    def swapping_open(path: object, flags: int, *args: object, **kwargs: object) -> int:
        if path == "MEMORY.md" and kwargs.get("dir_fd") is not None:
            victim.unlink()
            os.symlink(tmp_path / "outside" / "secret.md", victim)
        return real_open(path, flags, *args, **kwargs)  # type: ignore[arg-type]

    with RootedReader(ds) as reader:
        reader.read(ds / "memory" / "ws" / "sessions" / "a.md", 1 << 20)  # memory/ open
        monkeypatch.setattr(safefs.os, "open", swapping_open)
        with pytest.raises(Refused, match="symbolic link while being opened"):
            reader.read(victim, 1 << 20)


def test_a_device_is_refused_before_it_is_opened(ds: Path) -> None:
    try:
        os.mknod(ds / "memory" / "zero.md", stat.S_IFCHR | 0o600, os.makedev(1, 5))
    except PermissionError:
        pytest.skip("creating a character device needs CAP_MKNOD here")
    fast, slow = both(ds, ds / "memory" / "zero.md")
    assert fast == slow and "a character device, not a regular file" in fast


def test_reading_dataset_keeps_the_dataset_errors(ds: Path, tmp_path: Path) -> None:
    os.mkfifo(ds / "qrels.tsv")
    os.symlink(tmp_path / "outside" / "secret.md", ds / "facts.jsonl")
    with reading_dataset(ds) as reader:
        with reading_dataset(ds) as again:
            assert again is reader  # one reader per folder
        assert read_dataset_file(ds / "queries.jsonl", ds, 1 << 20).startswith(b'{"query_id"')
        assert dataset_file_exists(ds / "memory" / "MEMORY.md", ds)
        assert not dataset_file_exists(ds / "nothing.md", ds)
        for name, why in (("qrels.tsv", "FIFO"), ("facts.jsonl", "outside")):
            with pytest.raises(DatasetFileRefused, match=why):
                read_dataset_file(ds / name, ds, 1 << 20)
            with pytest.raises(DatasetFileRefused, match=why):
                dataset_file_exists(ds / name, ds)
    assert reader._dirs == {}  # closed: no directory kept open


def test_at_most_max_dirs_directories_are_kept_open(
    ds: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(RootedReader, "MAX_DIRS", 3)
    for i in range(8):
        (ds / f"d{i}").mkdir()
        (ds / f"d{i}" / "f.md").write_text(f"file {i}\n")
    with RootedReader(ds) as reader:
        for _ in range(2):
            for i in range(8):
                assert reader.read(ds / f"d{i}" / "f.md", 100).data == f"file {i}\n".encode()
                assert len(reader._dirs) <= 3
