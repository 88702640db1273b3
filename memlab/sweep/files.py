"""A sweep's results folder: ``sweep.csv`` (one row per configuration) and ``sweep.json``.

The CSV is keyed by ``config_hash``: rerunning a sweep into the same folder skips
every configuration already in it, so an interrupted sweep resumes where it
stopped. ``sweep.json`` records what the numbers depend on (dataset digest,
embedder, index configuration, base configuration, measures, split); a folder
made with different settings is refused rather than mixed (DESIGN invariant 6).
Files are replaced atomically, so an interruption never leaves half a file.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pandas as pd

from memlab import __version__
from memlab.config import config_hash, to_dict
from memlab.errors import ConfigError

RESULTS_FILE = "sweep.csv"
MANIFEST_FILE = "sweep.json"
# What must match for rows of two runs to share one results file.
COMPATIBILITY_KEYS = ("dataset", "index", "embedder", "base_hash", "measures", "split", "budget")


def sweep_manifest(sweep: Any) -> dict[str, Any]:
    """What a sweep's numbers depend on (no wall-clock time: same inputs, same manifest)."""
    prepared = sweep.prepared
    ds, emb = prepared.dataset, prepared.embedder
    return {
        "memlab_version": __version__,
        "dataset": {"name": ds.name, "digest": ds.digest, "level": ds.level},
        "index": {
            "config": to_dict(prepared.index_config),
            "by_tag": prepared.memory.to_dict().get("by_tag"),  # queries on their own index
            "versions": prepared.versions,
        },
        "embedder": {"id": emb.id if emb else None, "dims": emb.dims if emb else None},
        "base": to_dict(sweep.base),
        "base_hash": config_hash(sweep.base),
        "measures": list(sweep.measures),
        "split": sweep.split.describe(),
        "budget": sweep.budget,
    }


def incompatibilities(old: Mapping[str, Any], new: Mapping[str, Any]) -> list[str]:
    return [
        f"{key}: {old.get(key)!r} != {new.get(key)!r}"
        for key in COMPATIBILITY_KEYS
        if _jsonable(old.get(key)) != _jsonable(new.get(key))
    ]


def _jsonable(value: Any) -> Any:
    return json.loads(json.dumps(value, sort_keys=True, default=str))


def load_results(out: Path, manifest: Mapping[str, Any]) -> pd.DataFrame:
    """Rows already in ``out`` (empty if none); refuses a folder made with other settings."""
    csv, meta = out / RESULTS_FILE, out / MANIFEST_FILE
    if not csv.is_file():
        return pd.DataFrame()
    if meta.is_file():
        diffs = incompatibilities(json.loads(meta.read_text(encoding="utf-8")), manifest)
        if diffs:
            raise ConfigError(
                f"{out} holds a sweep with other settings ({'; '.join(diffs)}); "
                "use another --out folder or delete it"
            )
    return read_results(out)


def read_results(out: str | Path) -> pd.DataFrame:
    """The results table of a sweep folder (or of a ``sweep.csv`` path)."""
    path = Path(out)
    csv = path / RESULTS_FILE if path.is_dir() else path
    if not csv.is_file():
        raise ConfigError(f"no sweep results at {csv}")
    return pd.read_csv(csv, dtype={"config_hash": str})


def save_results(out: Path, table: pd.DataFrame, manifest: Mapping[str, Any]) -> None:
    """Write ``sweep.csv`` and ``sweep.json`` atomically (temporary file + rename)."""
    out.mkdir(parents=True, exist_ok=True)
    _atomic_write(out / RESULTS_FILE, table.to_csv(index=False))
    text = json.dumps(manifest, indent=2, sort_keys=True, allow_nan=False, default=str) + "\n"
    _atomic_write(out / MANIFEST_FILE, text)


def _atomic_write(path: Path, text: str) -> None:
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as fh:
            fh.write(text)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
