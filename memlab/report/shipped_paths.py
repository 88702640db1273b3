"""Where the notebooks, the shipped datasets and the committed baselines live.

An installed wheel carries them inside the package (``memlab/shipped/``); in a
checkout (``pip install -e .``) they sit beside the package
(``memlab.datasets.locate.shipped_dir``). Each can be moved with an environment
variable:

* ``MEMLAB_NOTEBOOKS`` — the notebooks folder (default: the shipped ``notebooks``);
* ``MEMLAB_DATASETS``  — a folder of datasets searched by name (default: the shipped
  ``datasets``; ``memlab.datasets.locate``, where dataset names are resolved);
* ``MEMLAB_BASELINES`` — the baselines folder (default: the shipped ``baselines``).

``memlab init DIR`` copies all three into a folder of the user's
(``memlab.report.init_folder``).
"""

from __future__ import annotations

import os
from pathlib import Path

from memlab.datasets.locate import (
    DEFAULT_DATASET,
    datasets_dir,
    known_datasets,
    repo_root,
    shipped_dir,
)
from memlab.datasets.locate import resolve_dataset as _resolve
from memlab.errors import DatasetError, ReportError

DEFAULT_BASELINE = "regression.json"

__all__ = [
    "DEFAULT_DATASET",
    "baselines_dir",
    "datasets_dir",
    "default_baseline",
    "known_datasets",
    "notebook_dir",
    "repo_root",
    "resolve_dataset",
]


def _folder(env: str, name: str) -> Path:
    value = os.environ.get(env)
    return Path(value).expanduser() if value else shipped_dir(name)


def notebook_dir() -> Path:
    return _folder("MEMLAB_NOTEBOOKS", "notebooks")


def baselines_dir() -> Path:
    return _folder("MEMLAB_BASELINES", "baselines")


def default_baseline() -> Path:
    return baselines_dir() / DEFAULT_BASELINE


def resolve_dataset(name: str | os.PathLike[str]) -> Path:
    """``memlab.datasets.locate.resolve_dataset``, failing as a report error."""
    try:
        return _resolve(name)
    except DatasetError as exc:
        raise ReportError(str(exc)) from None
