"""A sweep's results folder: ``sweep.csv`` (one row per configuration) and ``sweep.json``.

The CSV is keyed by ``config_hash``: rerunning a sweep into the same folder skips
every configuration already in it, so an interrupted sweep resumes where it
stopped. ``sweep.json`` records what the numbers depend on (dataset digest,
embedder, index configuration, base configuration, measures, split); a folder
made with different settings is refused rather than mixed (DESIGN invariant 6), and
so is a ``sweep.csv`` without its ``sweep.json``. The manifest is written before the
results, each file atomically and fsynced, so an interruption (even SIGKILL) never
leaves half a file nor results without the settings that made them; the temporary
files it may leave are removed by the next run.
"""

from __future__ import annotations

import json
import os
import secrets
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pandas as pd

from memlab import __version__
from memlab.config import config_hash, to_dict
from memlab.errors import ConfigError
from memlab.safefs import fsync_dir

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
    """Rows already in ``out`` (empty if none); refuses a folder made with other settings
    and a ``sweep.csv`` without its ``sweep.json`` (nothing says what made its rows).
    Temporary files a killed run left behind are removed first."""
    remove_stale_temps(out)
    csv, meta = out / RESULTS_FILE, out / MANIFEST_FILE
    if not csv.is_file():
        return pd.DataFrame()
    if not meta.is_file():
        raise ConfigError(
            f"{csv} has no {MANIFEST_FILE} beside it, so nothing says which settings made "
            f"its rows; use another --out folder, or delete {csv} to start again"
        )
    try:
        old = json.loads(meta.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise ConfigError(
            f"{meta} cannot be read ({exc}); use another --out folder or delete the folder"
        ) from None
    diffs = incompatibilities(old if isinstance(old, dict) else {}, manifest)
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
    """Write ``sweep.json``, then ``sweep.csv``, each atomically (temporary file, fsync,
    rename, fsync of the folder): a results file is never on disk before the manifest
    that describes it, and a kill leaves the old or the new file, never a mix."""
    out.mkdir(parents=True, exist_ok=True)
    text = json.dumps(manifest, indent=2, sort_keys=True, allow_nan=False, default=str) + "\n"
    _atomic_write(out / MANIFEST_FILE, text)
    _atomic_write(out / RESULTS_FILE, table.to_csv(index=False))


def _temp_prefix(name: str) -> str:
    return f".{name}.tmp-"


def remove_stale_temps(out: Path) -> list[str]:
    """Delete the temporary files of an interrupted ``save_results`` in ``out`` (regular
    files only); returns their names."""
    removed: list[str] = []
    if not out.is_dir():
        return removed
    prefixes = tuple(_temp_prefix(n) for n in (RESULTS_FILE, MANIFEST_FILE))
    for entry in os.scandir(out):
        if entry.name.startswith(prefixes) and entry.is_file(follow_symlinks=False):
            Path(entry.path).unlink(missing_ok=True)
            removed.append(entry.name)
    return sorted(removed)


def _atomic_write(path: Path, text: str) -> None:
    """Temp file beside ``path`` (mode from the umask, like every other file memlab
    writes), fsynced, renamed over ``path``; the folder fsynced after the rename."""
    tmp = path.with_name(f"{_temp_prefix(path.name)}{os.getpid()}-{secrets.token_hex(4)}")
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(tmp, flags, 0o666)
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    fsync_dir(path.parent)
