"""``--measures bogus@10`` is refused before the replay (issue 27, lower item: it was
refused only after replaying the whole dataset, 86 s on LongMemEval). Shown by the
order of the checks: on a folder that is no dataset, the measure is what is named."""

from __future__ import annotations

from pathlib import Path

import pytest

from memlab.cli import main


@pytest.mark.parametrize("command", ["eval", "compare"])
def test_an_unknown_measure_is_named_before_the_dataset_is_read(
    command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main([command, str(tmp_path), "--measures", "nDCG@10,bogus@10", "--quiet"])
    lines = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(lines) == 1 and "unknown measure 'bogus@10'" in lines[0], lines
