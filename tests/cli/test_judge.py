"""``memlab dataset from-memory``, ``memlab pool``, ``memlab judge``: output and bad input
(one line on stderr, exit 2)."""

from __future__ import annotations

from pathlib import Path

import pytest

from memlab.cli import main
from tests.datasets.team_memory import write_queries, write_team_memory


@pytest.fixture
def dataset(tmp_path: Path) -> Path:
    root = write_team_memory(tmp_path / "memory")
    dest = tmp_path / "team"
    queries = write_queries(tmp_path / "queries.jsonl")
    assert main(["dataset", "from-memory", str(root), str(dest), "--queries", str(queries)]) == 0
    return dest


def error_line(capsys: pytest.CaptureFixture[str]) -> str:
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "Traceback" not in err
    return err


def test_the_commands_print_what_they_did(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = write_team_memory(tmp_path / "memory")
    dataset = tmp_path / "team"
    queries = write_queries(tmp_path / "queries.jsonl")
    assert main(["dataset", "from-memory", str(root), str(dataset), "--queries", str(queries)]) == 0
    out = capsys.readouterr().out
    assert f"wrote {dataset}: 2 group(s)" in out and f"next: memlab pool {dataset}" in out
    assert main(["pool", str(dataset), "--depth", "3", "--embedder", "hash"]) == 0
    out = capsys.readouterr().out
    assert "pooled 4 queries with fts, hybrid, mmr to depth 3" in out
    assert main(["judge", str(dataset), "--health"]) == 0
    assert "candidates judged" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["dataset", "from-memory", "{tmp}/nowhere", "{tmp}/ds"], "does not exist"),
        (["dataset", "from-memory", "{tmp}/memory", "{tmp}/memory/ds"], "inside the memory"),
        (
            ["dataset", "from-memory", "{tmp}/memory", "{tmp}/x", "--as-of", "soon"],
            "cannot read time",
        ),
        (["pool", "{tmp}/memory"], "is not a dataset folder"),
        (["pool", "{tmp}/team", "--runs", "fts,hybird"], "did you mean 'hybrid'"),
        (["pool", "{tmp}/team", "--depth", "0"], "--depth"),
        (["judge", "agent-memory"], "is not a dataset folder"),
        (["judge", "{tmp}/team", "--health", "--agreement", "{tmp}/bob.tsv"], "not found"),
    ],
)
def test_bad_input(
    dataset: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    capsys.readouterr()
    assert main([a.format(tmp=tmp_path) for a in args]) == 2
    err = error_line(capsys)
    assert err.startswith("memlab: error: ") and message in err
