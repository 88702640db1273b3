"""A YAML alias cycle in a report parameter is a one-line error (issue 27, lower item):
``--param 'x=&a [*a]'`` exited 70 as "a memlab bug" after the progress line."""

from __future__ import annotations

from pathlib import Path

import pytest

from memlab.cli import main


@pytest.mark.parametrize("how", ["--param", "-f"])
def test_a_value_that_contains_itself_is_refused_before_any_notebook(
    how: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    if how == "--param":
        argv = ["report", "--param", "tokenizer=&a [*a]", "--out", str(tmp_path / "r")]
    else:
        (tmp_path / "p.yaml").write_text("tokenizer: &a [*a]\n")
        argv = ["report", "-f", str(tmp_path / "p.yaml"), "--out", str(tmp_path / "r")]
    code = main(argv)
    captured = capsys.readouterr()
    lines = captured.err.strip().splitlines()
    assert code == 2 and captured.out == "", captured
    assert len(lines) == 1 and "contains itself" in lines[0] and "a memlab bug" not in lines[0]
    assert not (tmp_path / "r").exists()
