"""``memlab dataset generate`` keeps hybrid runs honest: the shipped vectors come along."""

from __future__ import annotations

from pathlib import Path

import pytest

from memlab.cli import main
from memlab.eval.replay.prepared import PrepareOptions, prepare_dataset


def test_a_generated_dataset_carries_the_shipped_vectors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    dest = tmp_path / "gen"
    assert main(["dataset", "generate", str(dest)]) == 0
    out = capsys.readouterr().out
    assert "vectors: all-MiniLM-L6-v2 copied from the shipped dataset" in out
    assert (dest / "vectors" / "all-MiniLM-L6-v2.sqlite").is_file()
    prepared = prepare_dataset(dest, PrepareOptions(work_dir=tmp_path / "work"))
    assert prepared.embedder is not None  # hybrid and mmr use vectors, no model needed
    assert main(["dataset", "generate", str(dest), "--force"]) == 0
    assert "all-MiniLM-L6-v2 kept" in capsys.readouterr().out
