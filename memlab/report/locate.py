"""Where the notebooks, the shipped datasets and the committed baselines live.

memlab is used from a checkout (``pip install -e .``): the folders sit beside the
package. Each can be moved with an environment variable:

* ``MEMLAB_NOTEBOOKS`` — the notebooks folder (default ``<repo>/notebooks``);
* ``MEMLAB_DATASETS``  — a folder of datasets searched by name (default ``<repo>/datasets``);
* ``MEMLAB_BASELINES`` — the baselines folder (default ``<repo>/baselines``).

A dataset is named either by a path (absolute, or relative to the current
directory) or by its folder name in the datasets folder (``agent-memory``), so a
notebook's ``dataset`` parameter works wherever papermill runs it.
"""

from __future__ import annotations

import os
from pathlib import Path

from memlab.errors import ReportError, did_you_mean

DEFAULT_DATASET = "agent-memory"
DEFAULT_BASELINE = "regression.json"


def repo_root() -> Path:
    """The checkout that holds the ``memlab`` package."""
    return Path(__file__).resolve().parents[2]


def _folder(env: str, name: str) -> Path:
    value = os.environ.get(env)
    return Path(value).expanduser() if value else repo_root() / name


def notebook_dir() -> Path:
    return _folder("MEMLAB_NOTEBOOKS", "notebooks")


def datasets_dir() -> Path:
    return _folder("MEMLAB_DATASETS", "datasets")


def baselines_dir() -> Path:
    return _folder("MEMLAB_BASELINES", "baselines")


def default_baseline() -> Path:
    return baselines_dir() / DEFAULT_BASELINE


def known_datasets() -> list[str]:
    folder = datasets_dir()
    if not folder.is_dir():
        return []
    return sorted(p.name for p in folder.iterdir() if (p / "manifest.json").is_file())


def resolve_dataset(name: str | os.PathLike[str]) -> Path:
    """A dataset folder from a path or a shipped dataset's name (absolute result)."""
    text = os.fspath(name)
    if not text:
        text = DEFAULT_DATASET
    path = Path(text).expanduser()
    if (path / "manifest.json").is_file():
        return path.resolve()
    shipped = datasets_dir() / text
    if (shipped / "manifest.json").is_file():
        return shipped.resolve()
    known = known_datasets()
    hint = did_you_mean(text, known)
    listing = f" shipped datasets: {', '.join(known)}" if known else ""
    raise ReportError(
        f"dataset '{text}' not found (no manifest.json there or in {datasets_dir()});"
        f"{hint}{listing}"
    )
