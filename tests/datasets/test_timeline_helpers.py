"""The shortcuts of the loader's hot loops give what the plain forms give (issue 30)."""

from __future__ import annotations

import dataclasses
from pathlib import Path, PurePosixPath

from memlab.datasets.group_events import _ended, is_session_log
from memlab.datasets.model import Event


def test_is_session_log_splits_as_pure_posix_path() -> None:
    def plain(rel: str) -> bool:
        parts = PurePosixPath(rel).parts
        return len(parts) == 3 and parts[1] == "sessions" and parts[2].endswith(".md")

    for rel in [
        "ws/sessions/a.md",
        "ws/sessions/a.txt",
        "ws//sessions/a.md",
        "ws/./sessions/a.md",
        "/ws/sessions/a.md",
        "ws/sessions/a.md/",
        "./ws/sessions/a.md",
        "ws/sessions/x/a.md",
        "MEMORY.md",
        "sessions/a.md",
        "",
    ]:
        assert is_session_log(rel) == plain(rel), rel


def test_ended_is_dataclasses_replace() -> None:
    e = Event(3.5, "ws/sessions/a.md", "append", Path("/d/v/a.md"), 12, False, 7, Path("/d"))
    assert _ended(e) == dataclasses.replace(e, end=True)
    assert {f.name for f in dataclasses.fields(Event)} == {
        "at", "path", "action", "source", "nbytes", "end", "line", "within"
    }  # a new field must be carried by _ended too  # fmt: skip


def test_v1_events_are_marked_as_mark_session_ends_marks_them(tmp_path: Path) -> None:
    from memlab.datasets.group_events import mark_session_ends, v1_events
    from memlab.datasets.groups import GroupInfo
    from memlab.datasets.untrusted import folder_of

    created = {
        "MEMORY.md": 5.0,
        "ws/MEMORY.md": 1.0,
        "ws/sessions/b.md": 2.0,
        "ws/sessions/a.md": 2.0,  # same time: path order
        "ws/sessions/x/c.md": 0.5,  # not a session log (too deep)
        "ws/sessions/d.txt": 3.0,
    }
    root = tmp_path / "g"
    group = GroupInfo("g", root, "g", "ws", 9.0, {}, created_at=created)
    folder = folder_of(root, "g")
    ordered = sorted(created, key=lambda p: (created[p], p))
    plain = mark_session_ends(
        [Event(created[p], p, "write", root / p, within=folder) for p in ordered]
    )
    assert v1_events(group) == plain
    assert [e.path for e in plain if e.end] == ["ws/sessions/a.md", "ws/sessions/b.md"]
