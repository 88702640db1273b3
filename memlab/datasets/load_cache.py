"""Loaded datasets kept on disk, reused while nothing in their folder changed.

``load_dataset`` reads and checks every file of a dataset (thousands of memory
files, every line of every table): most of a fresh process's first metric. A
dataset that loaded without errors is kept in
``$MEMLAB_CACHE_DIR/datasets/<key>.pkl`` (default ``~/.cache/memlab``) and
reused by the next load whose key is the same. The key covers:

* the dataset folder (resolved) and every entry under it, links not followed —
  its path, type and permission bits, size, modification and change times (ns),
  inode and device (``lstat``): a file edited, added, removed, renamed or
  replaced (by a link, a FIFO, a device, another file) changes it, and so does
  a folder that is replaced or a link whose target is replaced;
* memlab's own code (the same stamps of every ``.py`` file of the package, not
  of ``memlab/shipped``) and ``CACHE_FORMAT``.

Any change means a full load, with every check: a refused or broken dataset
raises exactly as before, and is never kept. The kept dataset is the one the
full load built (its files are still read through the same checks when a replay
reads them). A folder changed in the last two seconds is not kept (a rewrite
within one tick of the file system's clock could keep its stamps). An entry is
written atomically; an unreadable one is dropped; the newest ``KEEP`` entries
are kept. ``MEMLAB_DATASET_CACHE=0`` turns the cache off.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import stat
import time
from collections.abc import Callable
from pathlib import Path

from memlab.datasets.model import Dataset

CACHE_FORMAT = 1  # bump when what a kept entry holds changes
KEEP = 32  # entries kept (the newest)
# a folder changed less than this ago is not kept: a file rewritten within one tick
# of the file system's clock, at the same size, would keep its stamp (as "racy git")
SETTLE_NS = 2_000_000_000
_CODE: list[str] = []  # memlab's code stamp, taken once per process
_NOT_CODE = ("__pycache__", "shipped")  # folders of the package that hold no code (a wheel's
# datasets and notebooks are in memlab/shipped)


def enabled() -> bool:
    return os.environ.get("MEMLAB_DATASET_CACHE", "1").strip().lower() not in ("0", "off", "no")


def cache_dir() -> Path:
    base = os.environ.get("MEMLAB_CACHE_DIR") or os.path.join(Path.home(), ".cache", "memlab")
    return Path(base) / "datasets"


def _stamp(st: os.stat_result) -> str:
    return f"{st.st_mode:o} {st.st_size} {st.st_mtime_ns} {st.st_ctime_ns} {st.st_ino} {st.st_dev}"


def _tree(top: str, suffix: str = "", newest: list[int] | None = None) -> list[str] | None:
    """``<relative path>\\0<stamp>`` of every entry under ``top`` (with ``suffix``: only
    the files ending in it, outside ``_NOT_CODE`` folders), links not followed, in a
    fixed order; None if a directory cannot be listed. ``newest``: gets the latest
    change time (ns)."""
    out: list[str] = []
    latest = 0
    stack = [("", top)]
    while stack:
        rel_dir, abs_dir = stack.pop()
        try:
            with os.scandir(abs_dir) as it:
                entries = sorted(it, key=lambda e: e.name)
            for entry in entries:
                rel = f"{rel_dir}/{entry.name}"
                st = entry.stat(follow_symlinks=False)
                latest = max(latest, st.st_mtime_ns, st.st_ctime_ns)
                if stat.S_ISDIR(st.st_mode):
                    if not (suffix and entry.name in _NOT_CODE):
                        stack.append((rel, entry.path))
                    if suffix:
                        continue
                elif suffix and not entry.name.endswith(suffix):
                    continue
                out.append(f"{os.fsencode(rel)!r}\0{_stamp(st)}")
        except OSError:
            return None
    if newest is not None:
        newest.append(latest)
    return out


def _code() -> str:
    if not _CODE:
        package = str(Path(__file__).resolve().parents[1])
        files = _tree(package, ".py") or []
        _CODE.append(hashlib.sha256("\n".join(files).encode()).hexdigest())
    return _CODE[0]


def dataset_key(folder: Path) -> str | None:
    """The key of ``folder`` as it is now (module docstring); None if part of it cannot
    be listed, or changed less than ``SETTLE_NS`` ago (no caching)."""
    start = time.time_ns()
    try:
        top = os.lstat(folder)
    except OSError:
        return None
    newest = [top.st_mtime_ns, top.st_ctime_ns]
    entries = _tree(os.fspath(folder), newest=newest)
    if entries is None or max(newest) > start - SETTLE_NS:
        return None
    digest = hashlib.sha256()
    head = f"{CACHE_FORMAT}\0{_code()}\0{os.fsencode(folder)!r}\0{_stamp(top)}\n"
    digest.update(head.encode())
    digest.update("\n".join(entries).encode())
    return digest.hexdigest()[:32]


def _read(path: Path, folder: Path) -> Dataset | None:
    try:
        with open(path, "rb") as fh:
            found = pickle.load(fh)
    except FileNotFoundError:
        return None
    except Exception:  # a damaged or foreign entry: dropped, the dataset loaded again
        path.unlink(missing_ok=True)
        return None
    return found if isinstance(found, Dataset) and found.path == folder else None


def _write(path: Path, dataset: Dataset) -> None:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".{path.name}.tmp-{os.getpid()}")
        with open(tmp, "wb") as fh:
            pickle.dump(dataset, fh, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(tmp, path)
        kept = sorted(path.parent.glob("*.pkl"), key=lambda p: p.stat().st_mtime_ns)
        for old in kept[:-KEEP]:
            old.unlink(missing_ok=True)
    except OSError:
        pass  # a cache that cannot be written only costs time


def cached_load(folder: Path, load: Callable[[Path], Dataset]) -> Dataset:
    """``load(folder)`` (the full load, which raises on errors), or the dataset it built
    before if nothing in ``folder`` (and nothing of memlab's code) changed since."""
    key = dataset_key(folder) if enabled() else None
    if key is None:
        return load(folder)
    path = cache_dir() / f"{key}.pkl"
    kept = _read(path, folder)
    if kept is not None:
        return kept
    dataset = load(folder)
    _write(path, dataset)  # a file changed since the key was taken has a new stamp now:
    return dataset  # the entry, under its former stamp, is then never found again
