"""Bytes read once, served to one more read of the same unchanged file.

Loading a dataset reads every memory file (to check it is UTF-8, count its lines
and hash it); replaying the dataset reads each of them again a moment later. A
``ReadMemo`` keeps the first read's bytes under the file's path with its identity
and change stamps (device, inode, size, modification and status-change times);
the next read of that path (``memlab.safefs.RootedReader`` given the memo) still
makes every check of ``read_bytes`` — containment, no link, a regular file, the
size cap — and takes the kept bytes instead of opening the file only when the
``lstat`` it just made shows the same identity and stamps. A changed file (new
bytes change its size or times, and any write changes its status-change time)
is read from disk. Each kept read is served once, and the memo never holds more
than its budget (what does not fit is not kept). ``MEMORY_FILES`` holds the files of
the dataset loaded last: each full load (``memlab.datasets.groups.load_groups``)
clears it first, so a long-lived kernel keeps no more than one dataset's files (at
most the budget) until their replay takes them.
"""

from __future__ import annotations

import os

Stamp = tuple[int, int, int, int, int]  # st_dev, st_ino, st_size, st_mtime_ns, st_ctime_ns


def stamp_of(st: os.stat_result) -> Stamp:
    return (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)


class ReadMemo:
    """See the module docstring; ``budget``: the most bytes kept at once."""

    def __init__(self, budget: int = 128 << 20) -> None:  # 128 MiB
        self.budget = budget
        self.used = 0
        self._kept: dict[str, tuple[bytes, Stamp]] = {}  # path -> (bytes, stamp)
        self.served = 0  # reads answered from the memo (for tests and benchmarks)

    def keep(self, path: str | os.PathLike[str], data: bytes, stamp: Stamp) -> None:
        key = os.fspath(path)
        if key in self._kept:
            self.drop(key)
        if self.used + len(data) > self.budget:
            return
        self._kept[key] = (data, stamp)
        self.used += len(data)

    def take(self, path: str | os.PathLike[str], checked: os.stat_result) -> bytes | None:
        """The kept bytes of ``path`` if ``checked`` (its ``lstat`` now) shows the file
        that was read; None otherwise. Either way the entry is gone."""
        kept = self._kept.pop(os.fspath(path), None)
        if kept is None:
            return None
        data, stamp = kept
        self.used -= len(data)
        if stamp != stamp_of(checked):
            return None
        self.served += 1
        return data

    def drop(self, path: str | os.PathLike[str]) -> None:
        kept = self._kept.pop(os.fspath(path), None)
        if kept is not None:
            self.used -= len(kept[0])

    def clear(self) -> None:
        self._kept.clear()
        self.used = 0

    def __len__(self) -> int:
        return len(self._kept)


MEMORY_FILES = ReadMemo()  # a dataset's memory files, from its load to its replay
