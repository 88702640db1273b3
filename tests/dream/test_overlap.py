"""Two overlapping ``memlab dream run`` processes (issue 12, item 2).

The finding: a slower run that read its input before a faster run consolidated a
new session overwrote the newer MEMORY.md — the new session's fact was gone (its
log deleted by the faster run). Real processes, the order driven by files (no
sleeps): run A reads its input and waits; a new session log appears; run B
consolidates it and exits; A goes on. With the defaults A sees that another
consolidation finished and skips; with ``--c0-unsafe`` the fact is lost.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

from tests.conftest import docs_say

from .conftest import OLD, add_session

WS = "proj-1234abcd"


def start(root: Path, extra: list[str], env: dict[str, str] | None = None) -> subprocess.Popen:
    argv = [sys.executable, "-m", "memlab", "dream", "run", str(root), "--workspace", WS,
            "--yes", "--force", *extra]  # fmt: skip
    return subprocess.Popen(argv, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def wait_for(path: Path, proc: subprocess.Popen) -> None:
    deadline = time.monotonic() + 120
    while not path.exists():
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < deadline, "run A never read its input"
        time.sleep(0.01)


def facts_lost(ws: Path, facts: list[str]) -> list[str]:
    memory = (ws / "MEMORY.md").read_text()
    logs = "\n".join(p.read_text() for p in (ws / "sessions").glob("*.md"))
    return [f for f in facts if f not in memory and f not in logs]


def overlap_trial(tmp_path: Path, extra: list[str]) -> list[str]:
    root = tmp_path / "memory"
    ws = root / WS
    ws.mkdir(parents=True)
    (ws / "MEMORY.md").write_text("# Memory\n\n## Facts\n\n- base: kept from before\n")
    facts = ["- base: kept from before"]
    for i in range(3):
        add_session(ws, f"2026-01-0{i + 1}-old-{i}{i}{i}{i}aaaa",
                    text=f"# S\n\n## Facts\n\n- old {i}: learned\n")  # fmt: skip
        facts.append(f"- old {i}: learned")
    started, release = tmp_path / "started", tmp_path / "release"
    env = {**os.environ, "MEMLAB_TEST_STARTED": str(started), "MEMLAB_TEST_RELEASE": str(release)}
    slow = start(root, ["--consolidator", "tests.dream.slow_consolidator:run", *extra], env)
    wait_for(started, slow)
    add_session(ws, "2026-01-09-new-9999bbbb", text="# S\n\n## Facts\n\n- new: the newest\n",
                mtime=OLD)  # fmt: skip
    facts.append("- new: the newest")
    fast = start(root, extra)
    assert fast.wait(120) == 0, fast.communicate()
    release.touch()
    _, err = slow.communicate(timeout=120)
    assert slow.returncode == 0, err
    return facts_lost(ws, facts)


def test_overlapping_runs_lose_nothing_with_the_defaults(tmp_path: Path) -> None:
    assert overlap_trial(tmp_path, []) == []


def test_c0_unsafe_reproduces_the_lost_consolidation(tmp_path: Path) -> None:
    assert docs_say("guarantees.md", "with `--c0-unsafe` the new session's fact is lost every time")
    assert overlap_trial(tmp_path, ["--c0-unsafe"]) == ["- new: the newest"]
