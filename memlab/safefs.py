"""Reading and writing the user's files without leaving the directory they belong to.

Every file memlab reads from a memory root, a Dream workspace or an agent
project goes through ``read_bytes`` / ``read_text``:

1. **containment** — the path is resolved (every symbolic link, in every
   component) and must lie inside the allowed root;
2. **regular files only** — FIFOs, devices, sockets and directories are refused
   before anything is opened (a FIFO would block, ``/dev/zero`` never ends);
3. **no swapped links** — the file is opened without following a last
   symbolic link (``O_NOFOLLOW``) and without blocking (``O_NONBLOCK``), and the
   opened inode must be the inode checked in step 2, so a file replaced by a
   link (or by anything else) between the check and the open is refused;
4. **a size cap** — larger files are refused, and a file that grows past the
   cap while it is read is refused too.

Writes (``write_atomic``, ``write_in_place``, ``copy_into``) check that the
target directory resolves inside the root and never write through a symbolic
link. Every refusal is a ``Refused``: an ``OSError`` whose message is one line
saying what was refused and why, so existing ``except OSError`` handlers treat
it as an unreadable file.
"""

from __future__ import annotations

import errno
import os
import stat
from dataclasses import dataclass
from pathlib import Path

_READ_FLAGS = (
    os.O_RDONLY
    | getattr(os, "O_NOFOLLOW", 0)
    | getattr(os, "O_NONBLOCK", 0)
    | getattr(os, "O_NOCTTY", 0)
    | getattr(os, "O_CLOEXEC", 0)
)
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
MiB = 1024 * 1024


class Refused(OSError):
    """memlab will not read or write this path; ``reason`` says why in one line."""

    def __init__(self, path: str | Path, reason: str) -> None:
        super().__init__(errno.EPERM, reason, str(path))
        self.reason = reason

    def __str__(self) -> str:
        return f"{self.filename}: {self.reason}"


class Outside(Refused):
    """The path resolves outside the directory it must stay in."""


@dataclass(frozen=True)
class FileBytes:
    data: bytes
    size: int
    mtime_ns: int


def kind_of(mode: int) -> str:
    """A word for the file type of ``mode`` (for refusal messages)."""
    for test, word in (
        (stat.S_ISDIR, "a directory"),
        (stat.S_ISFIFO, "a FIFO (named pipe)"),
        (stat.S_ISCHR, "a character device"),
        (stat.S_ISBLK, "a block device"),
        (stat.S_ISSOCK, "a socket"),
        (stat.S_ISLNK, "a symbolic link"),
    ):
        if test(mode):
            return word
    return "not a regular file"


def is_inside(path: Path, root: Path) -> bool:
    """Is ``path`` (already resolved) ``root`` or below it?"""
    try:
        path.relative_to(root)
    except ValueError:
        return False
    return True


def resolve_inside(
    path: str | Path, root: str | Path | None, *, root_resolved: bool = False
) -> Path:
    """``path`` with every link resolved; ``Refused`` if that leaves ``root``.

    A missing path resolves as far as it exists (the caller sees it as missing).
    ``root_resolved``: ``root`` is already resolved (a caller reading many files
    resolves it once).
    """
    resolved = Path(os.path.realpath(path))
    if root is not None:
        base = Path(root if root_resolved else os.path.realpath(root))
        if not is_inside(resolved, base):
            raise Outside(path, f"leads to {resolved}, outside {base}; not followed")
    return resolved


def _folder(resolved: str) -> str:
    """``resolved`` as a prefix of the paths below it."""
    return resolved if resolved.endswith(os.sep) else resolved + os.sep


def read_bytes(
    path: str | Path,
    *,
    root: str | Path | None,
    max_bytes: int,
    root_resolved: bool = False,
    dir_resolved: bool = False,
) -> FileBytes:
    """The content of a regular file inside ``root`` (None: anywhere), at most ``max_bytes``
    (``root_resolved``: see ``resolve_inside``; ``dir_resolved``: ``path``'s folder is
    already resolved, as by a caller reading many files of one folder, so only its last
    component is left, which is then not followed: a link there is refused).

    Raises ``FileNotFoundError`` if it does not exist and ``Refused`` for anything
    memlab will not read.
    """
    resolved: str | Path
    if dir_resolved:  # both normalised already: containment is a prefix (no Path object)
        resolved = os.fspath(path)
        base = os.fspath(root) if root_resolved and root is not None else None
        if root is not None and not root_resolved:
            base = os.path.realpath(root)
        if base is not None and resolved != base and not resolved.startswith(_folder(base)):
            raise Outside(path, f"leads to {resolved}, outside {base}; not followed")
    else:
        resolved = resolve_inside(path, root, root_resolved=root_resolved)
    checked = os.lstat(resolved)
    if not stat.S_ISREG(checked.st_mode):
        raise Refused(path, f"{kind_of(checked.st_mode)}, not a regular file; not read")
    if checked.st_size > max_bytes:
        raise Refused(path, f"file is {checked.st_size} bytes, over the {max_bytes}-byte limit")
    try:
        fd = os.open(resolved, _READ_FLAGS)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            reason = "turned into a symbolic link while being opened; not followed"
            raise Refused(path, reason) from None
        raise
    try:
        opened = os.fstat(fd)
        if (opened.st_dev, opened.st_ino) != (checked.st_dev, checked.st_ino) or not stat.S_ISREG(
            opened.st_mode
        ):
            raise Refused(path, "file replaced while being opened; not read (try again)")
        data = _read_upto(fd, max_bytes + 1)
    finally:
        os.close(fd)
    if len(data) > max_bytes:
        raise Refused(path, f"file grew over the {max_bytes}-byte limit while being read")
    return FileBytes(data, opened.st_size, opened.st_mtime_ns)


def _read_upto(fd: int, limit: int) -> bytes:
    chunks: list[bytes] = []
    left = limit
    while left > 0:
        try:
            piece = os.read(fd, min(left, MiB))
        except BlockingIOError:  # a regular file never blocks; be safe anyway
            break
        if not piece:
            break
        chunks.append(piece)
        left -= len(piece)
    return b"".join(chunks)


def read_text(path: str | Path, *, root: str | Path | None, max_bytes: int) -> str:
    """``read_bytes`` decoded as UTF-8 (a leading BOM dropped); ``Refused`` if not UTF-8."""
    data = read_bytes(path, root=root, max_bytes=max_bytes).data
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise Refused(path, f"not valid UTF-8 (line {line}); re-save it as UTF-8") from None
    return text.removeprefix("\ufeff")


def check_write_target(path: str | Path, root: str | Path | None) -> Path:
    """Where ``path`` may be written: its directory resolved inside ``root``, and the
    file itself absent or a regular file (never a link, FIFO or device)."""
    path = Path(path)
    parent = resolve_inside(path.parent, root)
    target = parent / path.name
    try:
        st = os.lstat(target)
    except FileNotFoundError:
        return target
    if not stat.S_ISREG(st.st_mode):
        raise Refused(path, f"{kind_of(st.st_mode)}, not a regular file; not overwritten")
    return target


def write_in_place(path: str | Path, text: str, *, root: str | Path | None = None) -> None:
    """Truncate and write (c0's write), never through a symbolic link."""
    target = check_write_target(path, root)
    flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC | _NOFOLLOW | getattr(os, "O_CLOEXEC", 0)
    fd = os.open(target, flags, 0o644)
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        fh.write(text)


def fsync_dir(directory: Path) -> None:
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return  # some platforms cannot open a directory; a rename is still atomic
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def write_atomic(path: str | Path, data: str | bytes, *, root: str | Path | None = None) -> None:
    """Temp file in the same directory, fsync, ``os.replace``: the target holds the old
    or the new content, never a mix; a link at the target is replaced, not followed."""
    target = check_write_target(path, root)
    tmp = target.with_name(f".{target.name}.tmp-{os.getpid()}")
    payload = data.encode("utf-8") if isinstance(data, str) else data
    flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC | _NOFOLLOW | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(tmp, flags, 0o644)
        with os.fdopen(fd, "wb") as fh:
            fh.write(payload)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, target)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    fsync_dir(target.parent)


def copy_into(src: str | Path, dest: str | Path, *, root: str | Path | None, max_bytes: int) -> int:
    """Copy the regular file ``src`` (inside ``root``) to the new file ``dest``, fsynced.

    Returns the number of bytes copied. ``dest`` must not exist."""
    data = read_bytes(src, root=root, max_bytes=max_bytes).data
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW | getattr(os, "O_CLOEXEC", 0)
    fd = os.open(dest, flags, 0o644)
    with os.fdopen(fd, "wb") as fh:
        fh.write(data)
        fh.flush()
        os.fsync(fh.fileno())
    return len(data)


def utf8_name(name: str) -> bool:
    """Can this file name (as Python decoded it from the OS) be written as UTF-8?"""
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def printable_name(name: str) -> str:
    """A file name with its undecodable bytes shown as ``\\xNN`` (for messages and keys)."""
    return os.fsencode(name).decode("utf-8", errors="backslashreplace")
