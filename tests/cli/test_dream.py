"""The ``memlab dream`` commands: check, run, simulate (one-line errors, JSON)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from memlab.cli import main
from tests.dream.conftest import HOUR, NOW, WS, stems


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
    assert main(["dream", "run", str(root), "--workspace", WS, "--consolidator", "gpt"]) == 2
    assert "valid: noreply, offline" in capsys.readouterr().err


def test_run_warns_when_the_consolidation_was_cut_and_names_the_backup(
    root: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    facts = "".join(f"- fact-{i:04d}: value {i}\n" for i in range(1000))  # > 16,000 chars
    (root / WS / "MEMORY.md").write_text("# Memory\n\n## Facts\n\n" + facts)
    keeps_all = ["--consolidator", "tests.dream.unbounded_consolidator:run"]
    code = main(["dream", "run", str(root), "--workspace", WS, "--yes", "--force", *keeps_all])
    out, err = capsys.readouterr()
    assert code == 0 and out.startswith("completed")
    assert "cut to 16000 characters" in err and ".dream-backups" in err
    assert len((root / WS / "MEMORY.md").read_text()) == 16_000


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


def test_simulate_on_a_local_dask_cluster_prints_the_same_summary(
    capsys: pytest.CaptureFixture[str],
) -> None:
    pytest.importorskip("distributed")
    argv = ["dream", "simulate", "--users", "3000", "--days", "2", "--json"]
    assert main(argv) == 0
    here = json.loads(capsys.readouterr().out)
    assert main([*argv, "--scheduler", "local:2"]) == 0
    there = json.loads(capsys.readouterr().out)
    assert here == there and here["runs"] > 0
