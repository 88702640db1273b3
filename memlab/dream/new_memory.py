"""Writing the new ``MEMORY.md`` (SPEC §7.3 step 3.3).

* ``write_in_place`` — c0: truncate and overwrite. A crash between the
  truncation and the end of the write leaves a damaged file (empty or cut).
* ``write_atomic`` — memlab's option (``dream.atomic_write``; the CLI's default):
  write a temp file in the same directory, fsync it, ``os.replace`` it over the
  target, fsync the directory. A reader (or a crash) sees the old text or the
  new one, never a mix.

Neither writes through a symbolic link, nor over a FIFO or a device
(``memlab.safefs``). Temp files are named ``.MEMORY.md.tmp-<pid>`` (hidden, not
``*.md``, so never indexed); leftovers of dead processes are removed by the
next atomic write.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from memlab import safefs
from memlab.config import DreamConfig
from memlab.dream.lock import pid_alive

Writer = Callable[[Path, str], None]
TEMP_MARK = ".tmp-"


def write_in_place(path: Path, text: str) -> None:
    """c0's write: open with truncation, write, close (never through a link)."""
    safefs.write_in_place(path, text)


def remove_dead_temps(path: Path) -> None:
    """Delete temp files of ``path`` left behind by processes that no longer exist."""
    prefix = f".{path.name}{TEMP_MARK}"
    try:
        entries = list(os.scandir(path.parent))
    except OSError:
        return
    for entry in entries:
        if not entry.name.startswith(prefix):
            continue
        pid = entry.name[len(prefix) :]
        if pid.isdigit() and not pid_alive(int(pid)) and entry.is_file(follow_symlinks=False):
            Path(entry.path).unlink(missing_ok=True)


def write_atomic(path: Path, text: str) -> None:
    """Temp file + fsync + ``os.replace``: the target holds the old or the new text."""
    remove_dead_temps(path)
    safefs.write_atomic(path, text)


def writer_for(config: DreamConfig) -> Writer:
    return write_atomic if config.atomic_write else write_in_place
