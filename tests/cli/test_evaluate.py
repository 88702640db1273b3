"""``memlab eval`` / ``compare``: the dataset options reach the evaluation."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memlab.cli import main
from memlab.datasets import DatasetWriter
from memlab.timefmt import parse_iso


@pytest.fixture
def tagged(tmp_path: Path) -> Path:
    t0 = parse_iso("2026-03-01T09:00:00Z")
    w = DatasetWriter(
        tmp_path / "tagged", name="tagged", licence="CC0-1.0", origin="tests", as_of=t0
    )
    w.add_file("MEMORY.md", "# Prefs\n\n- Run pytest with -q. <!-- fact:a -->\n", t0)
    w.add_file(
        "ws-1234abcd/MEMORY.md", "# Shop\n\n- Dev server on port 8080. <!-- fact:b -->\n", t0
    )
    w.add_query("q-a", "how do I run pytest")
    w.judge("q-a", "fact:a", 2)
    w.add_query("q-b", "dev server port", tags=["no-user-evidence"])
    w.judge("q-b", "fact:b", 2)
    return w.finish()


def numq(capsys: pytest.CaptureFixture[str], *argv: str) -> int:
    assert main(["eval", *argv, "--json", "--quiet", "--measures", "RR,NumQ"]) == 0
    rows = json.loads(capsys.readouterr().out)
    return int(next(r["value"] for r in rows if r["measure"] == "NumQ"))


def test_exclude_tag_leaves_the_queries_out(
    tagged: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    work = ["--work", str(tmp_path / "work")]
    assert numq(capsys, str(tagged), *work) == 2
    assert numq(capsys, str(tagged), *work, "--exclude-tag", "no-user-evidence") == 1
    assert numq(capsys, str(tagged), *work, "--exclude-tag", "other") == 2


def test_index_and_dream_options_reach_the_replay(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from tests.eval.test_dream_timeline import write_sessions

    dataset = write_sessions(tmp_path / "dreamy", dream=False)
    out = tmp_path / "out"
    argv = ["eval", str(dataset), "--quiet", "--work", str(tmp_path / "w"), "--out", str(out)]
    assert main([*argv, "--tokenizer", "trigram", "--chunk-bytes", "800", "--dream", "on"]) == 0
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["index"]["config"]["tokenizer"] == "trigram"
    assert manifest["index"]["config"]["chunking"]["max_bytes"] == 800
    assert manifest["timeline"]["dream"]["min_sessions"] == 3  # c0's gates
    assert main([*argv, "--dream", "on", "--set", "dream.min_sessions=2"]) == 0
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["timeline"]["dream"]["min_sessions"] == 2
    assert main([*argv, "--profile", "grok-2026-08", "--dream", "on"]) == 0
    assert json.loads((out / "manifest.json").read_text())["timeline"]["dream"]["min_hours"] == 24
    assert main(argv) == 0  # the manifest's default: Dream off
    assert json.loads((out / "manifest.json").read_text())["timeline"]["dream"] is None
    capsys.readouterr()
    assert main([*argv, "--tokenizer", "icu"]) == 2  # a parse error: one line, exit 2
    assert "invalid choice" in capsys.readouterr().err
