"""Dataset names: a folder path, or the name of a shipped dataset (``agent-memory``).

Shipped datasets live in the ``datasets`` folder: inside the installed package
(``memlab/shipped/datasets``, what a wheel carries) or beside the package in a
checkout (``pip install -e .``); ``MEMLAB_DATASETS`` points elsewhere. A
name that is neither an existing dataset folder nor a shipped dataset raises
``DatasetError`` with a did-you-mean and the shipped names.
"""

from __future__ import annotations

import os
from pathlib import Path

from memlab.errors import DatasetError, did_you_mean

DEFAULT_DATASET = "agent-memory"
MANIFEST = "manifest.json"


def repo_root() -> Path:
    """The checkout that holds the ``memlab`` package."""
    return Path(__file__).resolve().parents[2]


SHIPPED = ("notebooks", "datasets", "baselines")


def shipped_dir(name: str) -> Path:
    """A folder memlab ships (``notebooks``, ``datasets``, ``baselines``): in an installed
    wheel ``memlab/shipped/<name>`` (the build copies it there), in a checkout
    ``<repo>/<name>``."""
    packaged = Path(__file__).resolve().parents[1] / "shipped" / name
    return packaged if packaged.is_dir() else repo_root() / name


def datasets_dir() -> Path:
    value = os.environ.get("MEMLAB_DATASETS")
    return Path(value).expanduser() if value else shipped_dir("datasets")


def known_datasets() -> list[str]:
    """Names of the shipped datasets."""
    folder = datasets_dir()
    if not folder.is_dir():
        return []
    return sorted(p.name for p in folder.iterdir() if (p / MANIFEST).is_file())


def resolve_dataset(name: str | os.PathLike[str]) -> Path:
    """A dataset folder from a path or a shipped dataset's name (absolute result).

    A path to an existing folder is returned as it is (the loader then reports
    what is wrong with it); an empty name means ``agent-memory``.
    """
    text = os.fspath(name) or DEFAULT_DATASET
    path = Path(text).expanduser()
    if (path / MANIFEST).is_file() or path.is_dir():
        return path.resolve()
    shipped = datasets_dir() / text
    if (shipped / MANIFEST).is_file():
        return shipped.resolve()
    known = known_datasets()
    hint = did_you_mean(text, known)
    listing = f" shipped datasets: {', '.join(known)}" if known else ""
    raise DatasetError(
        f"dataset '{text}' not found (no such folder, and no manifest.json in {datasets_dir()});"
        f"{hint}{listing}"
    )
