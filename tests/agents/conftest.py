"""Fixtures for sub-agent configuration tests: a git repo and a GROK_HOME on disk."""

from __future__ import annotations

from pathlib import Path

import pytest


def write(path: Path, text: str | bytes) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return path


def agent_md(name: str, body: str = "Do the task.", **front: str) -> str:
    """An agent file with ``name`` and the given front-matter strings."""
    lines = [f"name: {name}", *(f"{k}: {v}" for k, v in front.items())]
    return "---\n" + "\n".join(lines) + "\n---\n" + body + "\n"


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """A directory that is a git root (holds ``.git``)."""
    root = tmp_path / "repo"
    (root / ".git").mkdir(parents=True)
    return root


@pytest.fixture
def home(tmp_path: Path) -> Path:
    """An empty GROK_HOME, so no test reads the real ~/.grok."""
    path = tmp_path / "grok-home"
    path.mkdir()
    return path
