"""Fixtures for dataset tests: a tiny valid dataset written with ``DatasetWriter``."""

from __future__ import annotations

from pathlib import Path

import pytest

from memlab.datasets import DatasetWriter
from memlab.timefmt import parse_iso
from tests.datasets.team_memory import write_team_memory

FIXTURES = Path(__file__).parent / "fixtures"
WS = "proj-1234abcd"
SESSION = f"{WS}/sessions/2026-02-01-deploy-abcdef12.md"
AS_OF = "2026-06-30T18:00:00Z"


def write_tiny(dest: Path, **writer_kwargs: object) -> Path:
    """Global + workspace MEMORY.md and one session; three queries, one abstention."""
    w = DatasetWriter(
        dest,
        name="tiny",
        licence="CC0-1.0",
        origin="tests",
        as_of=parse_iso(AS_OF),
        **writer_kwargs,  # type: ignore[arg-type]
    )
    w.add_file(
        "MEMORY.md", "# Prefs\n\n- Use pnpm. <!-- fact:f1 -->\n", parse_iso("2026-01-01T00:00:00Z")
    )
    w.add_file(
        f"{WS}/MEMORY.md",
        "# Project\n\nThe API listens on port 8080. <!-- fact:f2 -->\n",
        parse_iso("2026-01-01T00:00:00Z"),
    )
    w.add_file(
        SESSION, "# Deploy\n\nline three\nline four\nline five\n", parse_iso("2026-02-01T10:00:00Z")
    )
    w.add_query("q1", "which package manager", category="fact")
    w.add_query("q2", "deploy notes", category="fact", stale_targets=["fact:f2"])
    w.add_query("q3", "nothing here", category="abstention", abstention=True)
    w.judge("q1", "fact:f1", 2)
    w.judge("q2", f"{SESSION}#L3-L4", 2)
    w.judge("q2", "fact:f2", 0)
    return w.finish()


@pytest.fixture
def tiny(tmp_path: Path) -> Path:
    return write_tiny(tmp_path / "tiny")


@pytest.fixture
def team_memory(tmp_path: Path) -> Path:
    """The team memory (``tests.datasets.team_memory``) with a link out of its root."""
    return write_team_memory(tmp_path / "memory", tmp_path / "outside")
