"""`memlab init DIR`: what a pip install needs to run, change and keep, in a user's folder."""

from __future__ import annotations

from pathlib import Path

import pytest

from memlab.cli import main
from memlab.datasets.locate import DEFAULT_DATASET, shipped_dir
from memlab.grids import shipped_grids
from memlab.report.init_folder import lay_out


def test_init_lays_out_notebooks_dataset_with_vectors_and_baseline(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    dest = tmp_path / "my work"
    assert main(["init", str(dest)]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"{dest}: ") and "kept" in out and "memlab lab" in out
    shipped = sorted(p.name for p in shipped_dir("notebooks").glob("*.ipynb"))
    assert sorted(p.name for p in (dest / "notebooks").glob("*.ipynb")) == shipped
    dataset = dest / "datasets" / DEFAULT_DATASET
    assert (dataset / "qrels.tsv").is_file() and any((dataset / "vectors").glob("*.sqlite"))
    assert (dest / "baselines" / "regression.json").is_file()
    grids = sorted(p.name for p in (dest / "grids").glob("*.yaml"))
    assert grids == sorted(p.name for p in shipped_grids().values()) and "decide.yaml" in grids
    assert f"--grid {dest / 'grids' / 'decide.yaml'}" in out
    # the copies are the user's: a second init keeps them, --force overwrites
    mine = dest / "baselines" / "regression.json"
    mine.write_text("{}")
    again = lay_out(dest)
    assert mine in again.kept and not again.written
    assert mine.read_text() == "{}"
    lay_out(dest, force=True)
    assert mine.read_text() == (shipped_dir("baselines") / "regression.json").read_text()


def test_init_into_a_file_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "file"
    target.write_text("x")
    assert main(["init", str(target)]) == 2
    assert "exists and is not a folder" in capsys.readouterr().err
