"""The LoCoMo tuning (benchmarks/tune_locomo.py, docs/locomo-tuning.md): the split, the
grid, the shipped ``locomo-tuned`` profile, and the held-out numbers the docs print
(slow: MiniLM over two real conversations; skipped without the data or the model)."""

from __future__ import annotations

import hashlib
import os
from dataclasses import replace
from pathlib import Path

import pytest

from benchmarks import tune_locomo
from memlab.config import profile
from memlab.datasets import load_dataset
from memlab.datasets.importers import import_dataset
from memlab.embeddings.minilm import available

DOCS = Path(__file__).resolve().parents[2] / "docs" / "locomo-tuning.md"
DATA = (
    Path(
        os.environ.get("MEMLAB_LOCOMO_DIR")
        or Path(__file__).resolve().parents[3] / "shared" / "data" / "locomo"
    )
    / "locomo_dev.json"
)
SHA256 = "ee8f45f9bb413443394e59e334e76747370a70635f4f2988ce9190710b1d84b4"


def _docs_row(name: str) -> list[str]:
    """The cells of the docs' test-split row ``name`` (the first table with it)."""
    text = DOCS.read_text(encoding="utf-8")
    held = text[text.index("Test split") :]
    line = next(r for r in held.splitlines() if r.startswith(f"| {name} "))
    return [c.strip() for c in line.strip("|").split("|")][1:]


def test_the_split_and_the_grid() -> None:
    convs = ["conv-49", "conv-26", "conv-47", "conv-41", "conv-43"]
    assert tune_locomo.split(convs) == (["conv-26", "conv-41", "conv-43"], ["conv-47", "conv-49"])
    runs = tune_locomo.grid()
    assert len(runs) == 13 and runs["fts"].vectors is False
    assert runs["grok-v0.7"] == profile("standard-ir").search  # c0's merge on standard-ir


def test_the_shipped_profile_is_the_chosen_grid_point() -> None:
    tuned = profile("locomo-tuned")
    assert tuned.search == tune_locomo.grid()["openclaw-v0.7"]
    assert tuned.index == profile("standard-ir").index
    assert "Chosen: `openclaw-v0.7`" in DOCS.read_text(encoding="utf-8")


@pytest.mark.slow
def test_the_held_out_numbers_are_the_docs(tmp_path: Path) -> None:
    if not DATA.is_file() or not available()[0]:
        pytest.skip("the LoCoMo development file or the MiniLM model is not available")
    assert hashlib.sha256(DATA.read_bytes()).hexdigest() == SHA256, "unexpected data file"
    import_dataset("locomo", DATA, tmp_path / "ds")
    ds = load_dataset(tmp_path / "ds")
    _, test = tune_locomo.split(list(ds.groups))
    runs = {
        "chosen": profile("locomo-tuned").search,
        "c0 hybrid": profile("standard-ir").search,
        "fts": replace(profile("standard-ir").search, vectors=False),
    }
    table, _ = tune_locomo.recall_table(
        ds.select(where=lambda q: q.group in test), runs, "minilm", tmp_path / "work"
    )
    for name in runs:
        cells = _docs_row(name)
        printed = [float(c) for c in cells[: len(tune_locomo.KS)]]
        assert printed == [round(float(table.loc[name, k]), 1) for k in tune_locomo.KS], name
        assert int(cells[len(tune_locomo.KS)]) == int(table.loc[name, "NumQ"])
