"""The ``memlab dream`` commands, the real index, and a c0 finding shown on real files."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from memlab.cli import main
from memlab.config import DreamConfig
from memlab.dream.offline import OfflineConsolidator
from memlab.dream.run import DreamStatus, run_dream
from memlab.store.store import MemoryStore

from .conftest import HOUR, NOW, add_session, stems

WS = "proj-1234abcd"


@pytest.fixture
def root(tmp_path: Path) -> Path:
    root = tmp_path.resolve() / "memory"
    ws = root / WS
    (ws / "MEMORY.md").parent.mkdir(parents=True)
    (ws / "MEMORY.md").write_text("# Memory\n\n## Facts\n\n- API port: 8080\n")
    for i in range(3):
        add_session(ws, f"2026-01-0{i + 1}-work-{i}{i}{i}{i}aaaa",
                    text=f"# S\n\n## Facts\n\n- fact {i}: learned on day {i}\n")  # fmt: skip
    return root


def run_cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    code = main(list(argv))
    return code, capsys.readouterr().out


def test_check_then_run_then_check(root: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out = run_cli(capsys, "dream", "check", str(root), "--workspace", WS, "--json")
    got = json.loads(out)
    assert code == 0 and got["open"] and len(got["sessions"]) == 3
    code, out = run_cli(capsys, "dream", "run", str(root), "--workspace", WS, "--json", "--yes")
    ran = json.loads(out)
    assert code == 0 and ran["status"] == "completed" and len(ran["deleted"]) == 3
    assert "- fact 2: learned on day 2" in (root / WS / "MEMORY.md").read_text()
    code, out = run_cli(capsys, "dream", "check", str(root), "--workspace", WS)
    assert out.startswith("too-soon: 0 h since the last consolidation, 4 h required")


def test_check_at_a_given_time_and_profile(root: Path, capsys: pytest.CaptureFixture[str]) -> None:
    lock = root / WS / ".dream-lock"
    lock.write_text("")
    os.utime(lock, (NOW - 12 * HOUR, NOW - 12 * HOUR))  # older than the session logs
    now = "2026-01-01T00:00:00Z"
    _, out = run_cli(capsys, "dream", "check", str(root), "--workspace", WS, "--now", now,
                     "--profile", "grok-2026-08")  # fmt: skip
    assert out.startswith("too-soon: 12 h since the last consolidation, 24 h required")
    _, out = run_cli(capsys, "dream", "check", str(root), "--workspace", WS, "--now", now,
                     "--set", "min_hours=1", "--set", "min_sessions=5")  # fmt: skip
    assert out.startswith("too-few-sessions: 3 session log(s)")


def test_run_force_noreply_and_errors(root: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out = run_cli(capsys, "dream", "run", str(root), "--workspace", WS, "--force",
                        "--consolidator", "noreply", "--yes")  # fmt: skip
    assert code == 0 and out.startswith("nothing-to-consolidate: no-reply")
    assert len(stems(root / WS)) == 3
    argv = ["dream", "run", str(root), "--workspace", WS, "--consolidator", "gpt", "--yes"]
    assert main(argv) == 2
    assert "valid: noreply, offline" in capsys.readouterr().err


def test_simulate_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out = run_cli(capsys, "dream", "simulate", "--users", "40", "--days", "3", "--json",
                        "--sim", "manual_share=0.1", "--set", "min_hours=2")  # fmt: skip
    summary = json.loads(out)
    assert code == 0 and summary["users"] == 40 and summary["runs"] > 0
    config = tmp_path / "sim.yaml"
    config.write_text("profile: grok-2026-08\nsimulation: {users: 30, days: 2}\n")
    plot = tmp_path / "sweep.png"
    code, out = run_cli(capsys, "dream", "simulate", "--config", str(config), "--json",
                        "--sweep", "min_sessions=1,5", "--plot", str(plot))  # fmt: skip
    rows = json.loads(out)
    assert [r["min_sessions"] for r in rows] == [1, 5] and plot.stat().st_size > 0
    assert main(["dream", "simulate", "--sim", "sessions_per_dy=3"]) == 2
    assert "valid keys here" in capsys.readouterr().err


def chunk_sources(store: MemoryStore, rel: str) -> dict[str, str]:
    rows = store.index.db.execute("SELECT id, source FROM chunks WHERE path = ?", (rel,))
    return dict(rows.fetchall())


@pytest.mark.parametrize("source", ["dream", "workspace"])
def test_real_index_gets_the_configured_source(root: Path, tmp_path: Path, source: str) -> None:
    """SPEC §7.3 step 4 on the real store. Per SPEC §2.2 an updated chunk id keeps its
    source; new chunk ids get the one Dream passes ("dream" in c0: they decay)."""
    ws = root / WS
    for i in range(40):  # enough to make the new MEMORY.md several chunks long
        add_session(ws, f"2026-01-05-more-{i:04d}ffff",
                    text=f"# S\n\n## Topic {i}\n\n- detail {i}: " + "x" * 60 + "\n")  # fmt: skip
    add_session(ws, "2026-01-06-live-5555bbbb", mtime=NOW - 10)  # active: kept
    rel = f"{WS}/MEMORY.md"
    with MemoryStore.open(root, WS, index_path=tmp_path / "index.sqlite") as store:
        store.build(now=NOW - HOUR)
        before = chunk_sources(store, rel)
        assert before == {f"{rel}:0": "workspace"}
        indexed = store.index.indexed_paths()
        got = run_dream(ws, OfflineConsolidator(), now=NOW, index=store,
                        config=DreamConfig(memory_source=source))  # fmt: skip
        assert got.status is DreamStatus.COMPLETED and got.index_error is None
        after = chunk_sources(store, rel)
        remaining = store.index.indexed_paths()
    assert len(after) > 1 and after[f"{rel}:0"] == "workspace"
    assert {cid: src for cid, src in after.items() if cid not in before} == {
        cid: source for cid in after if cid not in before
    }
    deleted = {f"{WS}/sessions/{s}.md" for s in got.deleted}
    assert len(deleted) == 43 and deleted <= indexed and not deleted & remaining
    assert f"{WS}/sessions/2026-01-06-live-5555bbbb.md" in remaining  # kept: still indexed


def test_real_index_first_memory_is_all_dream(root: Path, tmp_path: Path) -> None:
    (root / WS / "MEMORY.md").unlink()
    with MemoryStore.open(root, WS, index_path=tmp_path / "index.sqlite") as store:
        store.build(now=NOW - HOUR)
        run_dream(root / WS, OfflineConsolidator(), now=NOW, index=store)
        sources = set(chunk_sources(store, f"{WS}/MEMORY.md").values())
    assert sources == {"dream"}


def test_c0_strands_the_log_of_the_session_that_triggered_dream(tmp_path: Path) -> None:
    """Finding: the current session is excluded, and its log is older than the new lock
    mtime, so no later automatic run ever counts it again (only /dream picks it up)."""
    ws = tmp_path
    for i in range(3):
        add_session(ws, f"2026-01-01-old-{i}000cccc", mtime=NOW - 2 * HOUR)
    add_session(ws, "2026-01-01-current-9999dddd", mtime=NOW - 400)  # just ended
    first = run_dream(ws, OfflineConsolidator(), now=NOW, current_session="9999dddd-full")
    assert first.status is DreamStatus.COMPLETED and len(first.deleted) == 3
    for i in range(3):  # three more sessions later: the gates open again
        add_session(ws, f"2026-01-02-new-{i}000eeee", mtime=NOW + 5 * HOUR)
    second = run_dream(ws, OfflineConsolidator(), now=NOW + 6 * HOUR)
    assert second.status is DreamStatus.COMPLETED
    assert stems(ws) == ["2026-01-01-current-9999dddd"]  # never consolidated automatically
