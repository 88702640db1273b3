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
