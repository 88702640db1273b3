"""``memlab dream run`` is safe by default on a real memory (issue 12, item 2).

The finding: ``dream run`` deleted session logs and rewrote MEMORY.md with no dry
run and no confirmation. Now: a dry run by default, ``--yes`` to apply (atomic
write, stale-input check, backup of what it replaces and deletes), ``--out DIR``
to write elsewhere, and c0's behaviour only when asked for (``--c0-unsafe``, or
the config keys set explicitly).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memlab.cli import main
from memlab.dream.backup import BACKUP_DIR

from .conftest import add_session, stems

WS = "proj-1234abcd"
FACTS = ["- API port: 8080"]


@pytest.fixture
def root(tmp_path: Path) -> Path:
    root = tmp_path.resolve() / "memory"
    ws = root / WS
    ws.mkdir(parents=True)
    (ws / "MEMORY.md").write_text("# Memory\n\n## Facts\n\n- API port: 8080\n")
    for i in range(3):
        add_session(ws, f"2026-01-0{i + 1}-work-{i}{i}{i}{i}aaaa",
                    text=f"# S\n\n## Facts\n\n- fact {i}: learned on day {i}\n")  # fmt: skip
    return root


def snapshot(ws: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(ws)): p.read_bytes()
        for p in ws.rglob("*")
        if p.is_file() and BACKUP_DIR not in p.parts
    }


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    code = main(list(argv))
    return code, capsys.readouterr().out


def test_without_yes_nothing_changes(root: Path, capsys: pytest.CaptureFixture[str]) -> None:
    before = snapshot(root / WS)
    code, out = run(capsys, "dream", "run", str(root), "--workspace", WS)
    assert code == 0 and out.startswith("dry run, nothing written")
    assert "would read 3 session log(s)" in out and "--yes" in out
    code, out = run(capsys, "dream", "run", str(root), "--workspace", WS, "--json")
    plan = json.loads(out)
    assert plan["dry_run"] and len(plan["would_delete"]) == 3 and plan["write"] == "atomic"
    assert snapshot(root / WS) == before and not (root / WS / ".dream-lock").exists()


def test_yes_applies_with_a_backup(root: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ws = root / WS
    before = snapshot(ws)
    code, out = run(capsys, "dream", "run", str(root), "--workspace", WS, "--yes", "--json")
    ran = json.loads(out)
    assert code == 0 and ran["status"] == "completed" and len(ran["deleted"]) == 3
    assert stems(ws) == [] and "fact 2: learned on day 2" in (ws / "MEMORY.md").read_text()
    backup = Path(ran["backup"])
    assert backup.parent == ws / BACKUP_DIR
    restored = {str(p.relative_to(backup)): p.read_bytes() for p in backup.rglob("*.md")}
    assert restored == {k: v for k, v in before.items() if k.endswith(".md")}


def test_out_writes_elsewhere_and_touches_nothing(
    root: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = snapshot(root / WS)
    out_dir = tmp_path / "preview"
    code, out = run(capsys, "dream", "run", str(root), "--workspace", WS, "--out", str(out_dir))
    assert code == 0 and "the memory is unchanged" in out
    assert "fact 1: learned on day 1" in (out_dir / "MEMORY.md").read_text()
    assert snapshot(root / WS) == before and not (root / WS / ".dream-lock").exists()


def test_c0_behaviour_only_when_asked(root: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out = run(capsys, "dream", "run", str(root), "--workspace", WS, "--json", "--c0-unsafe")
    plan = json.loads(out)
    assert plan["write"] == "in-place (c0)" and not plan["stale_input_check"] and not plan["backup"]
    code, out = run(capsys, "dream", "run", str(root), "--workspace", WS, "--json",
                    "--set", "atomic_write=false")  # fmt: skip
    plan = json.loads(out)
    assert plan["write"] == "in-place (c0)" and plan["stale_input_check"] and plan["backup"]
    code, out = run(capsys, "dream", "run", str(root), "--workspace", WS, "--yes", "--json",
                    "--c0-unsafe")  # fmt: skip
    assert code == 0 and json.loads(out)["backup"] == "" and not (root / WS / BACKUP_DIR).exists()


def test_backups_are_pruned_to_the_newest(root: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ws = root / WS
    for n in range(4):
        for k in range(3):
            add_session(ws, f"2026-02-0{n + 1}-more-{n}{k}{k}{k}bbbb")
        code, _ = run(capsys, "dream", "run", str(root), "--workspace", WS, "--yes", "--force",
                      "--keep-backups", "2", "--set", "stale_lock_secs=0")  # fmt: skip
        assert code == 0
    assert len(list((ws / BACKUP_DIR).iterdir())) == 2


def test_a_symlinked_memory_file_is_refused(
    root: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    outside = tmp_path / "elsewhere.md"
    outside.write_text("# Not yours\n")
    (root / WS / "MEMORY.md").unlink()
    (root / WS / "MEMORY.md").symlink_to(outside)
    for extra in ([], ["--yes"], ["--yes", "--c0-unsafe"]):
        code = main(["dream", "run", str(root), "--workspace", WS, *extra])
        err = capsys.readouterr().err
        assert code == 2 and "symbolic link" in err and err.count("\n") == 1
    assert outside.read_text() == "# Not yours\n" and len(stems(root / WS)) == 3
