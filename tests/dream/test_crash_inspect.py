"""What the SIGKILL campaign's inspection counts, on hand-made aftermaths of a kill."""

from __future__ import annotations

import hashlib
from pathlib import Path

from memlab.dream.kill_dream import (
    CampaignResult,
    fresh_workspace,
    inspect_kill,
    journal_records,
    newest_in_slots,
)


def _journal(journal: Path, *lines: str) -> None:
    journal.write_text("".join(line + "\n" for line in lines), encoding="utf-8")


def _written(journal: Path, text: str) -> str:
    """Store ``text`` as the child does before writing it; its journal name."""
    digest = hashlib.sha256(text.encode("utf-8")).hexdigest()
    (journal.parent / "texts" / f"{digest}.md").write_text(text, encoding="utf-8")
    return digest


def test_newest_in_slots_reads_the_newest_run_per_slot() -> None:
    text = "- slot-0: r0000003s0\n- slot-1: r0000002s1\n- slot-0: r0000001s0\n- note: r9s0\n"
    assert newest_in_slots(text) == {0: 3, 1: 2}


def test_a_deleted_log_whose_slot_memory_holds_at_a_newer_value_is_not_lost(
    tmp_path: Path,
) -> None:
    workspace, journal, initial = fresh_workspace(tmp_path, 0)
    memory = initial + "- slot-0: r0000002s0\n"
    (workspace / "MEMORY.md").write_text(memory, encoding="utf-8")
    digest = _written(journal, memory)
    _journal(journal, "session gone-1.md r0000001s0", "session gone-2.md r0000002s0",
             f"intend {digest}", f"wrote {digest}")  # fmt: skip
    result = CampaignResult("t")
    inspect_kill(workspace, journal, initial, result)
    assert (result.damaged, result.facts_lost, result.sessions_lost) == (0, 0, 0)


def test_a_deleted_log_newer_than_memory_is_lost_and_counted(tmp_path: Path) -> None:
    workspace, journal, initial = fresh_workspace(tmp_path, 0)
    memory = initial + "- slot-0: r0000001s0\n"
    (workspace / "MEMORY.md").write_text(memory, encoding="utf-8")
    digest = _written(journal, memory)
    (workspace / "sessions" / "kept.md").write_text("- slot-1: r0000002s1\n")
    _journal(journal, "session gone.md r0000002s0", "session kept.md r0000002s1",
             f"intend {digest}", f"wrote {digest}")  # fmt: skip
    result = CampaignResult("t")
    inspect_kill(workspace, journal, initial, result)
    # MEMORY.md is a complete text, yet slot 0's newer fact is gone with its log
    assert result.damaged == 0
    assert (result.facts_lost, result.kills_losing_facts, result.sessions_lost) == (1, 1, 1)


def test_an_empty_memory_is_damage_that_loses_the_initial_facts(tmp_path: Path) -> None:
    workspace, journal, initial = fresh_workspace(tmp_path, 0)
    (workspace / "MEMORY.md").write_text("", encoding="utf-8")
    _journal(journal, "intend d2")
    result = CampaignResult("t")
    inspect_kill(workspace, journal, initial, result)
    assert result.damaged_kinds == {"empty": 1}
    assert result.facts_lost == initial.count("- init-")


def test_a_torn_last_journal_record_is_not_counted(tmp_path: Path) -> None:
    # seen in a campaign: the kill cut "wrote <digest>" at the journal's 4,096th byte
    workspace, journal, initial = fresh_workspace(tmp_path, 0)
    memory = initial + "- slot-0: r0000001s0\n"
    (workspace / "MEMORY.md").write_text(memory, encoding="utf-8")
    digest = _written(journal, memory)
    _journal(journal, "session gone.md r0000001s0", f"intend {digest}")
    with journal.open("a", encoding="utf-8") as fh:
        fh.write(f"wrote {digest[:59]}")  # no newline: the write was cut
    assert journal_records(journal) == ["session gone.md r0000001s0", f"intend {digest}"]
    result = CampaignResult("t")
    inspect_kill(workspace, journal, initial, result)
    assert result.runs_completed == 0  # the write is not journaled as completed
    assert (result.damaged, result.facts_lost, result.sessions_lost) == (0, 0, 1)


def test_a_torn_session_record_is_ignored(tmp_path: Path) -> None:
    workspace, journal, initial = fresh_workspace(tmp_path, 0)
    _journal(journal, "session kept.md r0000001s0")
    (workspace / "sessions" / "kept.md").write_text("- slot-0: r0000001s0\n")
    with journal.open("a", encoding="utf-8") as fh:
        fh.write("session 2026-01-01-cr")
    result = CampaignResult("t")
    inspect_kill(workspace, journal, initial, result)
    assert (result.damaged, result.facts_lost, result.sessions_lost) == (0, 0, 0)


def test_a_missing_workdir_is_one_line_exit_2(tmp_path: Path) -> None:
    """Issue 27, lower item: ``--workdir MISSING`` gave a traceback."""
    import subprocess
    import sys

    for bad in (tmp_path / "missing", tmp_path / "file"):
        if bad.name == "file":
            bad.write_text("x")
        proc = subprocess.run(
            [
                sys.executable,
                "-m",
                "memlab.dream.kill_dream",
                "--workdir",
                str(bad),
                "--kills",
                "1",
            ],
            capture_output=True,
            text=True,
            timeout=120,
        )
        lines = proc.stderr.strip().splitlines()
        assert proc.returncode == 2 and len(lines) == 1 and "Traceback" not in proc.stderr
        assert "--workdir" in lines[0] and str(bad) in lines[0]
