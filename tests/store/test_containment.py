"""Index and sync read nothing outside the memory root (issue 12, item 3).

Resolved containment for every component of a path, regular files only, the
opened inode compared with the checked one, size caps, FIFOs and devices
refused — each with a one-line reason.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from pathlib import Path

import pytest

from memlab import safefs
from memlab.retrieval.pipeline import search
from memlab.safefs import Outside, Refused, read_bytes
from memlab.store.store import MemoryStore
from tests.conftest import T0, WS, write

SECRET = "the password is hunter2"


@pytest.fixture
def secret(tmp_path: Path) -> Path:
    return write(tmp_path, "outside/secret.md", f"# Secret\n\n{SECRET}\n")


def found(store: MemoryStore, word: str = "hunter2") -> list[str]:
    result = search(store, word, None, T0, record_access=False)
    return [h.chunk_id for h in result.hits]


def test_a_path_through_a_symlinked_sessions_dir_is_not_read(
    memory: Path, secret: Path, open_store: Callable[..., MemoryStore]
) -> None:
    """The finding: a path through a symlinked ``sessions/`` was read."""
    sessions = memory / WS / "sessions"
    for p in sessions.iterdir():
        p.unlink()
    sessions.rmdir()
    os.symlink(secret.parent, sessions)
    store = open_store(memory)
    store.build(now=T0)
    out = store.reindex_file(f"{WS}/sessions/secret.md", now=T0)  # named explicitly
    assert out.action == "deleted" and "outside the memory root" in out.reason
    assert found(store) == []


def test_symlinked_file_and_dir_out_of_the_root(
    memory: Path, secret: Path, open_store: Callable[..., MemoryStore]
) -> None:
    os.symlink(secret, memory / "linked.md")
    os.symlink(secret, memory / WS / "sessions" / "2026-01-02-link-eeee5555.md")
    os.symlink(secret.parent, memory / WS / "linkdir")
    store = open_store(memory)
    report = store.build(now=T0)
    assert found(store) == []
    reasons = {o.path: o.reason for o in report.outcomes if o.reason}
    assert reasons == {
        "linked.md": "symbolic link pointing outside the memory root (not followed)",
        f"{WS}/sessions/2026-01-02-link-eeee5555.md": (
            "symbolic link pointing outside the memory root (not followed)"
        ),
    }


def test_a_symlink_to_a_device_or_fifo_is_refused_without_blocking(
    memory: Path, tmp_path: Path, open_store: Callable[..., MemoryStore]
) -> None:
    os.mkfifo(memory / WS / "sessions" / "2026-01-03-fifo-aaaa0000.md")
    os.symlink("/dev/zero", memory / WS / "sessions" / "2026-01-03-zero-bbbb0000.md")
    store = open_store(memory)
    done = threading.Event()
    outcome: list[object] = []

    def build() -> None:
        outcome.append(store.build(now=T0))
        done.set()

    threading.Thread(target=build, daemon=True).start()
    assert done.wait(60), "indexing blocked on a FIFO or a device"
    reasons = sorted(o.reason for o in outcome[0].outcomes if o.reason)  # type: ignore[attr-defined]
    assert reasons == [
        "a FIFO (named pipe), not a regular file; not read",
        "symbolic link pointing outside the memory root (not followed)",
    ]


def test_a_file_swapped_for_a_link_between_check_and_open_is_not_read(
    memory: Path, secret: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The finding: a file swapped for a symlink between the check and the open was
    indexed. The swap is injected exactly there: inside ``os.open``, before it runs."""
    victim = memory / WS / "sessions" / "2026-01-01-auth-aaaa1111.md"
    real_open = os.open
    swapped: list[str] = []

    def swapping_open(path: object, flags: int, *args: object, **kwargs: object) -> int:
        if Path(str(path)) == victim and not swapped:
            victim.unlink()
            os.symlink(secret, victim)
            swapped.append(str(path))
        return real_open(path, flags, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(safefs.os, "open", swapping_open)
    with pytest.raises(Refused, match="symbolic link while being opened"):
        read_bytes(victim, root=memory, max_bytes=1 << 20)
    assert swapped


def test_a_file_replaced_between_check_and_open_is_not_read(
    memory: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another inode at the path when it is opened (a rename over it): refused."""
    victim = memory / WS / "MEMORY.md"
    other = write(tmp_path, "other.md", "# Other\n\nnot the file that was checked\n")
    real_open = os.open

    def replacing_open(path: object, flags: int, *args: object, **kwargs: object) -> int:
        if Path(str(path)) == victim:
            os.replace(other, victim)
        return real_open(path, flags, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(safefs.os, "open", replacing_open)
    with pytest.raises(Refused, match="replaced while being opened"):
        read_bytes(victim, root=memory, max_bytes=1 << 20)


def test_containment_resolves_every_component(memory: Path, secret: Path) -> None:
    os.symlink(secret.parent.parent, memory / WS / "up")
    with pytest.raises(Outside):
        read_bytes(memory / WS / "up" / "outside" / "secret.md", root=memory, max_bytes=1 << 20)
    inside = memory / WS / "alias.md"
    os.symlink(memory / "MEMORY.md", inside)  # a link inside the root is fine
    assert read_bytes(inside, root=memory, max_bytes=1 << 20).data.startswith(b"# Preferences")


def test_size_cap_is_checked_before_reading(memory: Path, tmp_path: Path) -> None:
    big = memory / WS / "sessions" / "2026-01-09-big-cccc0000.md"
    with open(big, "wb") as fh:
        fh.truncate(200 * 1024 * 1024)  # sparse: 200 MB that would take long to read
    with pytest.raises(Refused, match="over the 1048576-byte limit"):
        read_bytes(big, root=memory, max_bytes=1 << 20)


def test_every_refusal_is_one_line(memory: Path, secret: Path) -> None:
    os.symlink(secret, memory / "x.md")
    os.mkfifo(memory / "f.md")
    for name in ("x.md", "f.md"):
        with pytest.raises(Refused) as info:
            read_bytes(memory / name, root=memory, max_bytes=10)
        assert "\n" not in str(info.value) and str(info.value).startswith(str(memory / name))
