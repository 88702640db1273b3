"""``memlab search``: reads without recording unless asked, says what its trace means,
dates chunks by the rule asked for, and takes file names with spaces."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from memlab.cli import main
from memlab.store.store import MemoryStore
from memlab.timefmt import parse_iso
from tests.conftest import WS, write

NOW = "2026-02-10T00:00:00Z"


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


def accesses(root: Path) -> dict[str, int]:
    with MemoryStore.open(root, scan=False) as store:
        return {c.chunk_id: c.access_count for c in store.index.chunks()}


def test_search_records_accesses_only_when_asked(
    memory: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run(capsys, "index", str(memory), "--now", "2026-01-01")
    before = accesses(memory)
    args = ("search", str(memory), "token refresh bug", "--now", "2026-01-02T00:00:00Z")
    code, out, _ = run(capsys, *args)
    assert code == 0 and "auth" in out
    assert accesses(memory) == before  # exploring does not change later rankings
    run(capsys, *args, "--record-access")
    after = accesses(memory)
    bumped = {c for c in after if after[c] != before[c]}
    assert len(bumped) == 1 and next(iter(bumped)).endswith("auth-aaaa1111.md:0")


def test_explain_shows_age_and_a_legend(memory: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run(capsys, "index", str(memory), "--now", "2026-01-01T00:00:00Z")
    _, out, _ = run(
        capsys,
        "search",
        str(memory),
        "token refresh bug",
        "--now",
        "2026-01-03T00:00:00Z",
        "--explain",
    )
    header = next(line for line in out.splitlines() if line.startswith("rank "))
    assert " age " in header
    legend = out[out.index("columns:") :]
    assert "age     days since the chunk was first indexed" in legend
    assert "half-life 7 days, min_score 0.35" in legend and "vectors on but no embedder" in legend
    _, out, _ = run(
        capsys,
        "search",
        str(memory),
        "token refresh bug",
        "--now",
        "2026-01-03T00:00:00Z",
        "--explain",
        "--json",
    )
    assert json.loads(out)["trace"][0]["age_days"] == 2.0


@pytest.mark.parametrize(
    ("rule", "age_a", "age_b"),
    [("insert", 0.0, 0.0), ("mtime", 20.0, 9.0), ("filename-date", 36.0, 9.0)],
)
def test_chunks_dated_by_the_rule_asked_for(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], rule: str, age_a: float, age_b: float
) -> None:
    root = tmp_path / "memory"
    a = write(root, f"{WS}/sessions/2026-01-05-a.md", "# a\n\nredis port 6379\n")
    b = write(root, f"{WS}/sessions/b.md", "# b\n\nredis port 6380\n")
    os.utime(a, (parse_iso("2026-01-21T00:00:00Z"),) * 2)
    os.utime(b, (parse_iso("2026-02-01T00:00:00Z"),) * 2)
    code, out, _ = run(capsys, "index", str(root), "--created-at", rule, "--now", NOW, "--json")
    assert code == 0 and json.loads(out)["created_at"] == rule
    _, out, _ = run(capsys, "search", str(root), "redis port", "--now", NOW, "--explain", "--json")
    ages = {r["chunk_id"].rsplit("/", 1)[1]: r["age_days"] for r in json.loads(out)["trace"]}
    assert ages == {"2026-01-05-a.md:0": age_a, "b.md:0": age_b}
    other = "mtime" if rule != "mtime" else "insert"
    code, _, err = run(capsys, "search", str(root), "x", "--created-at", other)
    assert code == 2 and f"--created-at {other} --rebuild" in err


def test_file_names_with_spaces_index_and_search(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = tmp_path / "my memory"
    write(root, "MEMORY.md", "# Prefs\n\n- hello\n")
    write(root, f"{WS}/sessions/my notes 2026-01-02.md", "# Redis\n\n- Redis runs on port 6379.\n")
    code, out, _ = run(capsys, "index", str(root), "--now", NOW)
    assert code == 0 and "2 chunks" in out
    code, out, _ = run(capsys, "search", str(root), "redis port", "--now", NOW, "--json")
    hit = json.loads(out)["hits"][0]
    assert hit["chunk_id"] == f"{WS}/sessions/my notes 2026-01-02.md:0"
    assert hit["path"] == f"{WS}/sessions/my notes 2026-01-02.md"
