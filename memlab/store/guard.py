"""What an index path may be: new, or an existing memlab index — never a user's file.

``check_index_target`` runs before an index is opened (and so before SQLite
creates or migrates anything in it): the path must not be a Markdown file, and
if it exists it must be a regular file holding an SQLite database with
memlab's ``meta`` table. An empty file, a text file, another program's SQLite
database, a FIFO or a device is refused with one line saying why — SQLite
would otherwise silently turn an empty file into an index, and ``--rebuild``
used to delete whatever the path named. The default index
(``<workspace>/index.sqlite``) must also stay inside the memory root (no
symbolic link out of it).

``remove_index`` deletes an index (and its ``-wal`` / ``-shm`` files) only after
the same check says it is a memlab index.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from memlab.errors import StoreError
from memlab.safefs import Refused, check_write_target, kind_of
from memlab.store.connection import table_names

SIDE_FILES = ("-wal", "-shm")


def not_an_index(path: Path) -> str | None:
    """Why the existing file ``path`` is not a memlab index, or None if it is one."""
    try:
        st = os.stat(path)
    except OSError as exc:
        return f"cannot be read ({exc.strerror or exc})"
    if not stat.S_ISREG(st.st_mode):
        return f"is {kind_of(st.st_mode)}"
    if st.st_size == 0:
        return "is an empty file"
    # Never open the file other than through SQLite: closing any other descriptor of it
    # would drop the POSIX locks this process's SQLite connections hold on it.
    return _meta_problem(path)


def _meta_problem(path: Path) -> str | None:
    """The tables, read with the same SQLite binding as every index connection of this
    process (``connection.index_driver``: a second SQLite library would drop its locks)."""
    try:
        tables = table_names(path)
    except Exception as exc:  # the driver's own error classes
        if "not a database" in str(exc):
            return "is not an SQLite database"
        return f"cannot be read as SQLite ({exc})"
    if not {"meta", "chunks"} <= tables:
        return "is an SQLite database without memlab's meta table (another program's?)"
    return None


def check_index_target(path: Path, memory_root: Path | None = None) -> None:
    """``StoreError`` unless ``path`` may be opened (and created) as a memlab index.

    With ``memory_root`` (the default index inside a workspace), the index must
    resolve inside the root and not be a symbolic link."""
    if path.name.lower().endswith(".md"):
        raise StoreError(
            f"index {path}: a Markdown file is never an index; choose a path ending in .sqlite"
        )
    if memory_root is not None:
        try:
            check_write_target(path, memory_root)
        except Refused as exc:
            raise StoreError(f"index {exc}; remove it or pass --index FILE") from None
    if not os.path.lexists(path):
        return
    problem = not_an_index(path)
    if problem is not None:
        raise StoreError(
            f"index {path} {problem}, not a memlab index; memlab never overwrites it — "
            "choose another --index path (or move that file away)"
        )


def remove_index(path: Path, memory_root: Path | None = None) -> bool:
    """Delete the memlab index at ``path`` (with its -wal/-shm); False if there was none."""
    check_index_target(path, memory_root)
    if not os.path.lexists(path):
        return False
    for suffix in SIDE_FILES:
        side = Path(f"{path}{suffix}")
        if side.is_file() and not side.is_symlink():
            side.unlink()
    path.unlink()
    return True
