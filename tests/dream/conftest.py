"""Fixtures for Dream tests: a workspace directory with session logs on disk."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

NOW = 1_767_225_600.0  # 2026-01-01T00:00:00Z
HOUR = 3600.0
OLD = NOW - 10 * HOUR  # quiet for longer than the 300 s grace
WS = "proj-1234abcd"


def add_session(ws: Path, stem: str, text: str | None = None, mtime: float = OLD) -> Path:
    """Write ``sessions/<stem>.md`` with a unique fact and set its mtime."""
    path = ws / "sessions" / f"{stem}.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text if text is not None else f"# Session\n\n## Facts\n\n- {stem}: noted\n")
    os.utime(path, (mtime, mtime))
    return path


def stems(ws: Path) -> list[str]:
    return sorted(p.stem for p in (ws / "sessions").glob("*.md"))


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    """A workspace with three quiet session logs and no MEMORY.md or lock."""
    root = tmp_path / "memory" / "proj-1234abcd"
    for i, sid in enumerate(["aaaa1111", "bbbb2222", "cccc3333"]):
        add_session(root, f"2025-12-3{i}-work-{sid}")
    return root


@pytest.fixture
def root(tmp_path: Path) -> Path:
    """A memory root whose workspace has a MEMORY.md and three quiet session logs."""
    root = tmp_path.resolve() / "memory"
    ws = root / WS
    (ws / "MEMORY.md").parent.mkdir(parents=True)
    (ws / "MEMORY.md").write_text("# Memory\n\n## Facts\n\n- API port: 8080\n")
    for i in range(3):
        text = f"# S\n\n## Facts\n\n- fact {i}: learned on day {i}\n"
        add_session(ws, f"2026-01-0{i + 1}-work-{i}{i}{i}{i}aaaa", text=text)
    return root


@pytest.fixture
def dead_pid() -> int:
    """The PID of a process that has exited (and been reaped)."""
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    return proc.pid


@pytest.fixture
def live_pid() -> Iterator[int]:
    """The PID of a live process other than ours."""
    proc = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        yield proc.pid
    finally:
        proc.kill()
        proc.wait()
