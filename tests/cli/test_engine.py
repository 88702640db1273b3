"""The engine's CLI: index, search (--json, --explain), demo, clear errors."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from memlab.cli import main
from tests.conftest import WS


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_index_then_search_json(memory: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "index", str(memory), "--json", "--now", "2026-01-01")
    assert code == 0 and json.loads(out)["chunks"] == 4
    assert (memory / WS / "index.sqlite").exists()
    code, out, _ = run(
        capsys,
        "search",
        str(memory),
        "token refresh bug",
        "--json",
        "--now",
        "2026-01-02T00:00:00Z",
        "--explain",
    )
    data = json.loads(out)
    assert code == 0 and data["degraded"] is False and data["reasons"] == []
    hit = data["hits"][0]
    assert {"chunk_id", "path", "source", "score"} <= set(hit)
    assert hit["source"] == "session" and data["trace"][0]["final_rank"] == 1


def test_search_flags_change_the_config(memory: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run(capsys, "index", str(memory), "--now", "2026-01-01")
    code, out, _ = run(
        capsys,
        "search",
        str(memory),
        "API port pytest token",
        "--json",
        "--min-score",
        "0",
        "--max-results",
        "2",
        "--half-life",
        "0",
        "--mmr",
        "--lambda",
        "0.5",
        "--strategy",
        "rrf",
        "--now",
        "2026-06-01",
    )
    assert code == 0 and len(json.loads(out)["hits"]) == 2


def test_explain_prints_a_trace_table(memory: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "search", str(memory), "deploy rate limits", "--explain")
    assert code == 0 and "merged" in out and "decay" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["search", "/nonexistent/root", "x"], "does not exist"),
        (
            ["search", "{root}", "x", "--strategy", "rff"],
            "unknown strategy 'rff'; did you mean 'rrf'",
        ),
        (["search", "{root}", "x", "--profile", "nope"], "unknown profile 'nope'"),
        (["search", "{root}", "x", "--now", "yesterday"], "cannot read time"),
        (
            ["search", "{root}", "x", "--embedder", "hsah"],
            "unknown embedder 'hsah'; did you mean 'hash'",
        ),
        (["search", "{root}", "x", "--index", "{bad}"], "not a memlab index"),
    ],
)
def test_errors_are_one_line(
    memory: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    bad = tmp_path / "bad.sqlite"
    bad.write_bytes(b"garbage" * 1000)
    argv = [a.format(root=memory, bad=bad) for a in args]
    code, _, err = run(capsys, *argv)
    assert code == 2 and message in err and err.count("\n") == 1


def test_schema_mismatch_is_a_clear_error(memory: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run(capsys, "index", str(memory), "--tokenizer", "trigram")
    code, _, err = run(capsys, "search", str(memory), "x", "--tokenizer", "porter")
    assert code == 2 and "rebuild" in err


def test_python_dash_m_and_demo(tmp_path: Path) -> None:
    out = subprocess.run(
        [sys.executable, "-m", "memlab", "demo", "--out", str(tmp_path)],
        capture_output=True,
        text=True,
        check=True,
    )
    assert "Node 22" in out.stdout and "DEGRADED" in out.stdout and "content-free" in out.stdout
