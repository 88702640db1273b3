"""Dataset names resolve in the library: ``load_dataset("agent-memory")`` works anywhere."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from memlab.datasets import known_datasets, load_dataset, resolve_dataset
from memlab.errors import DatasetError


def test_a_shipped_name_loads_from_any_directory(tmp_path: Path) -> None:
    here = os.getcwd()
    os.chdir(tmp_path)
    try:
        ds = load_dataset("agent-memory")
    finally:
        os.chdir(here)
    assert ds.name == "agent-memory" and ds.path == resolve_dataset("agent-memory")
    assert "agent-memory" in known_datasets()


def test_a_path_wins_and_a_typo_is_explained(tmp_path: Path) -> None:
    folder = tmp_path / "agent-memory"
    folder.mkdir()
    assert resolve_dataset(folder) == folder.resolve()  # an existing folder is taken as is
    with pytest.raises(DatasetError, match="manifest"):
        load_dataset(folder)  # ... and the loader says what is wrong with it
    with pytest.raises(DatasetError, match="did you mean 'agent-memory'"):
        load_dataset("agent-memroy")
