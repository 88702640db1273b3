"""An empty dataset argument is a one-line error, never a silent default (issue 27).

``eval ""`` and ``sweep ""`` ran on the shipped ``agent-memory`` and exited 0, and
``dataset digest ""`` printed the digest of the current folder's nothing.
"""

from __future__ import annotations

import pytest

from memlab.cli import main

CASES = [
    ["eval", ""],
    ["compare", " "],
    ["sweep", "", "--grid", "decide"],
    ["pool", ""],
    ["judge", ""],
    ["dataset", "validate", ""],
    ["dataset", "info", ""],
    ["dataset", "digest", ""],
]


@pytest.mark.parametrize("argv", CASES, ids=[" ".join(a[:2]) for a in CASES])
def test_an_empty_dataset_is_one_line_exit_2(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(argv)
    captured = capsys.readouterr()
    lines = captured.err.strip().splitlines()
    assert code == 2 and captured.out == "", captured
    assert len(lines) == 1 and lines[0].startswith("memlab: error: ") and "empty" in lines[0]
