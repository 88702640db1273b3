"""Reading a dataset's files as untrusted input (a dataset is often someone else's).

Every file memlab reads from a dataset folder — ``manifest.json``, the JSON
Lines and TSV tables, every memory file, every ``versions/`` file — goes
through ``read_dataset_file``, i.e. ``memlab.safefs.read_bytes`` with the
dataset folder as the root: every component of the path resolved inside the
folder, regular files only (a FIFO would block, ``/dev/zero`` never ends),
``O_NOFOLLOW`` and the opened inode compared with the checked one, and a size
cap. Memory roots are resolved inside the folder too (``dataset_subdir``), so a
``memory/`` that is a link to a folder elsewhere is refused before anything
under it is listed.

Within ``reading_dataset(folder)`` (what loading, validating and digesting a
dataset use) the reads of that folder's files share one ``memlab.safefs.RootedReader``:
the folder and each directory resolved and checked once, not every component
of every file at every read; the checks and refusals are the same.

A refusal is a ``DatasetFileRefused``: a ``DatasetError`` of one line naming the
file and why, raised at once (nothing else is read; the CLI exits 2).
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path, PurePosixPath

from memlab.errors import DatasetError
from memlab.read_memo import ReadMemo, stamp_of
from memlab.safefs import MiB, Refused, RootedReader, kind_of, read_bytes, resolve_inside

MAX_MEMORY_FILE_BYTES = 64 * MiB  # a memory or versions/ file larger than this is refused
MAX_TABLE_BYTES = 256 * MiB  # manifest.json, *.jsonl, qrels*.tsv

_FIX = "memlab reads only regular files inside the dataset folder; replace or remove it"


class DatasetFileRefused(DatasetError):
    """A dataset file memlab will not read; the message is one line."""


_READER: ContextVar[RootedReader | None] = ContextVar("memlab_dataset_reader", default=None)


def _refused(exc: Refused) -> DatasetFileRefused:
    return DatasetFileRefused(f"dataset file {exc} — {_FIX}")


@contextmanager
def reading_dataset(dataset_dir: str | Path) -> Iterator[RootedReader]:
    """Within it, every read of a file of ``dataset_dir`` (``read_dataset_file``,
    ``dataset_file_exists``) goes through one ``RootedReader`` (closed at the end): the
    same checks and refusals, each directory resolved once. An active reader of the
    same folder is reused."""
    active = _reader_for(dataset_dir)
    if active is not None:
        yield active
        return
    with RootedReader(dataset_dir) as reader:
        token = _READER.set(reader)
        try:
            yield reader
        finally:
            _READER.reset(token)


def _reader_for(dataset_dir: str | Path) -> RootedReader | None:
    reader = _READER.get()
    return reader if reader is not None and reader.serves(dataset_dir) else None


def read_dataset_file(
    path: str | Path, dataset_dir: str | Path, max_bytes: int, keep_in: ReadMemo | None = None
) -> bytes:
    """The bytes of ``path``, a regular file inside ``dataset_dir`` (resolved here);
    ``keep_in``: a memo that keeps them for one more read (``memlab.read_memo``).

    ``FileNotFoundError`` if it does not exist; ``DatasetFileRefused`` for anything
    memlab will not read."""
    reader = _reader_for(dataset_dir)
    try:
        if reader is not None:
            read = reader.read(path, max_bytes)
        else:
            read = read_bytes(path, root=dataset_dir, max_bytes=max_bytes)
    except Refused as exc:
        raise _refused(exc) from None
    if keep_in is not None and read.stat is not None:
        keep_in.keep(path, read.data, stamp_of(read.stat))
    return read.data


def read_optional(path: str | Path, dataset_dir: str | Path, max_bytes: int) -> bytes | None:
    """``read_dataset_file``, or None if the file does not exist."""
    try:
        return read_dataset_file(path, dataset_dir, max_bytes)
    except FileNotFoundError:
        return None


def _mode_inside(
    path: str | Path, dataset_dir: str | Path, stat_of: Callable[[Path], os.stat_result]
) -> int | None:
    """The mode of ``path`` resolved inside ``dataset_dir`` (None if it does not exist);
    ``DatasetFileRefused`` if it leads outside."""
    try:
        resolved = resolve_inside(path, dataset_dir)
    except Refused as exc:
        raise _refused(exc) from None
    try:
        return stat_of(resolved).st_mode
    except FileNotFoundError:
        return None


def dataset_file_exists(path: str | Path, dataset_dir: str | Path) -> bool:
    """Is ``path`` a regular file inside ``dataset_dir``? False if it does not exist;
    ``DatasetFileRefused`` if it leads outside or is not a regular file (nothing read)."""
    reader = _reader_for(dataset_dir)
    if reader is None:
        mode = _mode_inside(path, dataset_dir, os.lstat)
    else:
        try:
            mode = reader.lstat_mode(path)
        except Refused as exc:
            raise _refused(exc) from None
    if mode is None:
        return False
    if not stat.S_ISREG(mode):
        raise _refused(Refused(path, f"{kind_of(mode)}, not a regular file; not read"))
    return True


def dataset_subdir(path: str | Path, dataset_dir: str | Path) -> Path | None:
    """``path`` if it is a directory inside ``dataset_dir`` (both resolved); None if it does
    not exist; ``DatasetFileRefused`` if it leads outside or is something else."""
    mode = _mode_inside(path, dataset_dir, os.stat)
    if mode is None:
        return None
    if not stat.S_ISDIR(mode):
        kind = "a regular file" if stat.S_ISREG(mode) else kind_of(mode)
        raise _refused(Refused(path, f"{kind}, not a directory; not read"))
    return Path(path)


def folder_of(root: Path, root_rel: str) -> Path:
    """The dataset folder of a memory root ``root`` = ``<folder>/<root_rel>``."""
    depth = len(PurePosixPath(root_rel).parts)
    return root.parents[depth - 1] if depth else root


def read_memory_text(root: Path, root_rel: str, rel: str) -> str:
    """A memory file of a loaded dataset's group as text (undecodable bytes replaced)."""
    data = read_dataset_file(root / rel, folder_of(root, root_rel), MAX_MEMORY_FILE_BYTES)
    return data.decode("utf-8", errors="replace")
