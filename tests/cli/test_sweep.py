"""``memlab sweep``: grid file in, results folder out, resumable, clear errors."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest

from memlab.cli import main

GRID = """\
half_life_days: [1, 30, null]
source_weights.session: [0.5, 1.0]
mmr: {enabled: [true], lambda: [0.5, 1.0]}
strategy: [grok, rrf]
min_score: 0.0
"""


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.fixture
def grid_file(tmp_path: Path) -> Path:
    path = tmp_path / "grid.yaml"
    path.write_text(GRID)
    return path


def test_sweep_writes_one_row_per_configuration_and_resumes(
    evalmini_path: Path, grid_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out"
    args = [str(evalmini_path), "--grid", str(grid_file), "--out", str(out)]
    args += ["--embedder", "hash", "--holdout", "0.4", "--quiet", "--work", str(tmp_path / "w")]
    code, text, _ = run(capsys, "sweep", *args)
    assert code == 0
    assert "24 configurations (24 scored, 0 resumed)" in text and "holdout" in text
    table = pd.read_csv(out / "sweep.csv")
    assert len(table) == 24 and table["config_hash"].is_unique
    assert {"half_life_days", "mmr.lambda", "nDCG@10:dev", "nDCG@10:holdout"} <= set(table)
    assert len(pd.read_csv(out / "best.csv")) == 5
    manifest = json.loads((out / "sweep.json").read_text())
    assert manifest["embedder"]["id"] == "hash-384" and manifest["split"]["holdout"] == 0.4
    code, text, _ = run(capsys, "sweep", *args, "--json")
    assert code == 0
    summary = json.loads(text)
    assert (summary["evaluated"], summary["resumed"]) == (0, 24)
    assert summary["chosen"]["config_hash"] in set(table["config_hash"])


def test_random_search(
    evalmini_path: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    space = tmp_path / "space.yaml"
    space.write_text("half_life_days: {loguniform: [1, 90]}\nmmr.lambda: {uniform: [0, 1]}\n")
    code, text, _ = run(
        capsys,
        "sweep",
        str(evalmini_path),
        "--grid",
        str(space),
        "--random",
        "7",
        "--seed",
        "3",
        "--embedder",
        "hash",
        "--measure",
        "RR",
        "--holdout",
        "0",
        "--quiet",
        "--work",
        str(tmp_path / "w"),
    )
    assert code == 0 and "7 configurations" in text and "best by RR on all queries" in text


@pytest.mark.parametrize(
    ("grid", "message"),
    [
        ("mmr.lamda: [0.5]\n", "did you mean 'lambda'?"),
        ("half_life: [7]\n", "did you mean 'half_life_days'?"),
        ("source_weights.sesion: [1.0]\n", "did you mean 'session'?"),
        ("vector_weight: {uniform: [0, 1]}\n", "random search"),
    ],
)
def test_bad_grid_files_are_one_line_errors(
    evalmini_path: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    grid: str,
    message: str,
) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(grid)
    argv = ["sweep", str(evalmini_path), "--grid", str(path), "--embedder", "hash", "--quiet"]
    code, _, err = run(capsys, *argv, "--work", str(tmp_path / "w"))
    assert code == 2
    assert err.startswith("memlab: error:") and message in err and err.count("\n") == 1


def test_ctrl_c_saves_and_says_how_to_resume(
    evalmini_path: Path,
    grid_file: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from tests.sweep.test_runner import interrupt_on_chunk

    interrupt_on_chunk(monkeypatch, 2)
    out = tmp_path / "out"
    argv = ["sweep", str(evalmini_path), "--grid", str(grid_file), "--out", str(out)]
    code, text, _ = run(capsys, *argv, "--embedder", "hash", "--quiet")
    assert code == 130
    done = len(pd.read_csv(out / "sweep.csv"))
    assert 0 < done < 24
    message = f"interrupted after {done} of 24 configurations; rerun the same command to resume"
    assert message in text
