"""The four commands of docs/judging.md, from a memory folder to ``memlab compare`` on the team's
own labelled queries, with nothing typed by hand: the queries come from a file and the
judge (a script here) answers the terminal flow's prompts."""

from __future__ import annotations

import shlex
from pathlib import Path

import pytest

from memlab.cli import main
from memlab.datasets import load_dataset, validate_dataset
from memlab.embeddings.minilm import available
from tests.datasets.team_memory import write_queries, write_team_memory
from tests.judging.driver import KEYS, Judge

PAGE = Path(__file__).resolve().parents[2] / "docs" / "judging.md"
SECTION = "# Your own memory as a benchmark"
ANSWERS = {  # what a relevant candidate says, per query (the scripted judge)
    "which Node version does CI use?": "Node 22",
    "redis cache expiry": "15 minutes",
    "how long do stripe webhook retries last": "three days",
    "which Node version did CI use in early March": "Node 18",
}


def page_commands() -> list[str]:
    text = PAGE.read_text(encoding="utf-8")
    section = text[text.index(SECTION) :]
    start = section.index("```sh\n") + len("```sh\n")
    return [line for line in section[start : section.index("```", start)].splitlines() if line]


def judge_by_script(argv: list[str], cwd: Path) -> None:
    """Run the page's judge command and grade every candidate: 2 if it holds the
    query's answer, else 0."""
    judge = Judge(None, *argv, cwd=cwd)
    query = ""
    while True:
        lines = judge.until(KEYS, "everything is judged")
        if "everything is judged" in lines[-1]:
            judge.send("")
            break
        for i, line in enumerate(lines):
            if line.startswith("query "):
                query = lines[i + 1].strip()
        text = "\n".join(line for line in lines if line.startswith("  │ "))
        judge.send("2" if ANSWERS[query] in text else "0")
    assert judge.proc.wait(timeout=60) == 0


def run_readme(tmp_path: Path, capsys: pytest.CaptureFixture[str], embedder: str) -> str:
    commands = page_commands()
    assert len(commands) == 4 and all(c.startswith("memlab ") for c in commands)
    root = write_team_memory(tmp_path / "memory")
    write_queries(tmp_path / "queries.jsonl")
    out = ""
    for command in commands:
        argv = shlex.split(command.replace("~/.grok/memory", str(root)))[1:]
        argv = [embedder if a == "minilm" else a for a in argv]
        if argv[0] == "judge":
            judge_by_script(argv, tmp_path)
            continue
        assert main(argv) == 0, command
        out = capsys.readouterr().out
    return out


def check_result(tmp_path: Path, out: str) -> None:
    folder = tmp_path / "team-memory"
    assert validate_dataset(folder).ok
    ds = load_dataset(folder)
    assert len(ds.queries) == 4 and all(ds.judged(q.query_id) for q in ds.queries)
    assert "use vectors but no embedder" not in out  # the vectors came with the dataset
    lines = out.splitlines()
    header = next(i for i, line in enumerate(lines) if line.startswith("run "))
    numq = lines[header].split().index("NumQ")
    rows = {line.split()[0]: line.split() for line in lines[header + 1 : header + 4]}
    assert set(rows) == {"fts", "hybrid", "mmr"}
    assert all(row[numq] == "4" for row in rows.values())
    assert "warning: run" not in out  # the pooled runs' top k is judged


def test_the_four_commands(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    check_result(tmp_path, run_readme(tmp_path, capsys, "hash"))  # the offline embedder


@pytest.mark.slow
@pytest.mark.minilm
@pytest.mark.skipif(not available()[0], reason=available()[1])
def test_the_four_commands_verbatim(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    check_result(tmp_path, run_readme(tmp_path, capsys, "minilm"))
