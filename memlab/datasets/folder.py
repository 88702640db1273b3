"""The dataset folder as a whole: making it ready for a writer, the manifest, the digest."""

from __future__ import annotations

import json
import shutil
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from memlab.datasets.groups import root_problem
from memlab.datasets.model import (
    FACTS,
    FILES,
    GROUPS_DIR,
    JUDGEMENTS,
    MANIFEST,
    MEMORY_DIR,
    POOL,
    POOL_SETTINGS,
    QRELS,
    QUERIES,
    README,
    VERSIONS_DIR,
)
from memlab.datasets.scan import compute_digest, manifest_roots
from memlab.errors import DatasetError

# What a rewrite of an existing dataset folder removes (vectors/ and others survive);
# the judging files go with the queries and qrels they belong to.
_OWNED = (
    *(MANIFEST, FILES, QUERIES, FACTS, README, MEMORY_DIR, GROUPS_DIR, VERSIONS_DIR),
    *(POOL, POOL_SETTINGS, JUDGEMENTS),
)


def check_dest(dest: Path, force: bool) -> bool:
    """``DatasetError`` unless a dataset may be written to ``dest``; True if one is there."""
    if dest.exists() and not dest.is_dir():
        raise DatasetError(f"{dest} exists and is not a directory; choose another DEST")
    if dest.is_dir() and any(dest.iterdir()):
        if not (dest / MANIFEST).is_file():
            raise DatasetError(
                f"{dest} is not empty and holds no dataset; choose an empty or new DEST"
            )
        if not force:
            raise DatasetError(f"{dest} already holds a dataset; pass --force to overwrite it")
        return True
    return False


def prepare_dest(dest: Path, force: bool) -> None:
    """Make ``dest`` ready: create it, or with ``force`` clear a previous dataset in it."""
    if check_dest(dest, force):
        for root in manifest_roots(dest):  # format 2 roots named by the old manifest
            if not root_problem(root) and (dest / root).is_dir():
                shutil.rmtree(dest / root)
        for entry in dest.iterdir():
            if entry.name in _OWNED or (
                entry.name.startswith("qrels") and entry.name.endswith(".tsv")
            ):
                shutil.rmtree(entry) if entry.is_dir() else entry.unlink()
    dest.mkdir(parents=True, exist_ok=True)


def qrels_file(level: str, first: bool) -> str:
    return QRELS if first else f"qrels.{level}.tsv"


def manifest_text(manifest: Mapping[str, Any]) -> str:
    """``manifest.json`` as memlab writes it (sorted keys, indented, UTF-8 kept)."""
    return json.dumps(manifest, sort_keys=True, ensure_ascii=False, indent=2) + "\n"


def write_manifest(dest: Path, manifest: Mapping[str, Any]) -> None:
    (dest / MANIFEST).write_bytes(manifest_text(manifest).encode("utf-8"))


def update_digest(dataset_dir: str | Path) -> str:
    """Recompute the digest and write it into manifest.json; returns it."""
    path = Path(dataset_dir) / MANIFEST
    try:
        manifest = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise DatasetError(f"cannot read {path}: {exc}") from None
    if not isinstance(manifest, dict):
        raise DatasetError(f"{path} is not a JSON object")
    manifest["digest"] = compute_digest(dataset_dir)  # roots: as the manifest names them
    write_manifest(Path(dataset_dir), manifest)
    return str(manifest["digest"])
