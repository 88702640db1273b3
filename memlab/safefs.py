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

from memlab.read_memo import ReadMemo

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
    stat: os.stat_result | None = None  # of the file read (None: from a ``ReadMemo``)


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


def read_bytes(
    path: str | Path, *, root: str | Path | None, max_bytes: int, root_resolved: bool = False
) -> FileBytes:
    """The content of a regular file inside ``root`` (None: anywhere), at most ``max_bytes``
    (``root_resolved``: see ``resolve_inside``).

    Raises ``FileNotFoundError`` if it does not exist and ``Refused`` for anything
    memlab will not read.
    """
    resolved = resolve_inside(path, root, root_resolved=root_resolved)
    return _read_checked(path, os.lstat(resolved), resolved, max_bytes)


def _read_checked(
    path: str | Path,
    checked: os.stat_result,
    target: str | Path,
    max_bytes: int,
    dir_fd: int | None = None,
) -> FileBytes:
    """Steps 2–4 of ``read_bytes`` on ``target`` (resolved, or a name in ``dir_fd``),
    whose ``lstat`` is ``checked``; messages name ``path``."""
    if not stat.S_ISREG(checked.st_mode):
        raise Refused(path, f"{kind_of(checked.st_mode)}, not a regular file; not read")
    if checked.st_size > max_bytes:
        raise Refused(path, f"file is {checked.st_size} bytes, over the {max_bytes}-byte limit")
    try:
        if dir_fd is None:
            fd = os.open(target, _READ_FLAGS)
        else:
            fd = os.open(target, _READ_FLAGS, dir_fd=dir_fd)
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
    return FileBytes(data, opened.st_size, opened.st_mtime_ns, opened)


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


_DIR_FLAGS = (
    os.O_RDONLY
    | getattr(os, "O_DIRECTORY", 0)
    | _NOFOLLOW
    | getattr(os, "O_NONBLOCK", 0)
    | getattr(os, "O_CLOEXEC", 0)
)
_BY_FD = os.open in os.supports_dir_fd and os.stat in os.supports_dir_fd


class RootedReader:
    """``read_bytes`` (and the type of a path) for many files inside one ``root``, with
    the same checks and refusals, at a fraction of the cost.

    ``root`` is resolved once; each directory a file is read from is resolved once
    (every link, every component: ``resolve_inside``), checked inside ``root`` and
    kept open, and its files are checked (``lstat`` relative to that directory) and
    opened relative to it without following a link (``O_NOFOLLOW``), the opened
    inode compared with the checked one, the size capped — steps 2–4 of
    ``read_bytes``. A directory read through is pinned: replacing it by a link
    later cannot lead a read out of ``root``. Anything else — a file that is itself
    a symbolic link, a missing file, a relative path, a directory outside ``root``
    or not a directory — goes through ``read_bytes`` itself, which resolves, reads
    or refuses it exactly as it always does.

    Use it as a context manager (or ``close`` it): it holds one descriptor per
    directory read from, at most ``MAX_DIRS`` (the oldest is closed first).
    """

    MAX_DIRS = 64

    def __init__(self, root: str | Path, memo: ReadMemo | None = None) -> None:
        self.memo = memo  # bytes read before, taken for an unchanged file (``read_memo``)
        self.given = os.fspath(root)
        self.root = os.path.realpath(root)
        self._base = Path(self.root)
        self._dirs: dict[str, int | None] = {}
        self._aliases: dict[str, bool] = {self.given: True, self.root: True}

    def __enter__(self) -> RootedReader:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __del__(self) -> None:
        self.close()

    def close(self) -> None:
        dirs, self._dirs = getattr(self, "_dirs", {}), {}
        for fd in dirs.values():
            if fd is not None:
                os.close(fd)

    def serves(self, root: str | Path) -> bool:
        """Is ``root`` this reader's root (as given, or resolved to the same folder)?"""
        key = os.fspath(root)
        found = self._aliases.get(key)
        if found is None:
            found = self._aliases[key] = os.path.realpath(root) == self.root
        return found

    def _dir_fd(self, head: str) -> int | None:
        """An open descriptor of the directory ``head`` if it resolves to a directory
        inside the root (None: read through ``read_bytes``)."""
        if head in self._dirs:
            return self._dirs[head]
        if len(self._dirs) >= self.MAX_DIRS:  # the oldest is closed (resolved again if needed)
            oldest = next(iter(self._dirs))
            dropped = self._dirs.pop(oldest)
            if dropped is not None:
                os.close(dropped)
        fd = None
        resolved = os.path.realpath(head)
        if is_inside(Path(resolved), self._base):
            try:
                fd = os.open(resolved, _DIR_FLAGS)
            except OSError:
                fd = None
        self._dirs[head] = fd
        return fd

    def _checked(self, path: str | Path) -> tuple[str, int, os.stat_result] | None:
        """(name, directory descriptor, lstat) of a path the fast way can read; None if
        ``read_bytes`` must (see the class)."""
        text = os.fspath(path)
        head, name = os.path.split(text)
        if not _BY_FD or not os.path.isabs(text) or name in ("", ".", ".."):
            return None
        dir_fd = self._dir_fd(head)
        if dir_fd is None:
            return None
        try:
            checked = os.stat(name, dir_fd=dir_fd, follow_symlinks=False)
        except OSError:
            return None
        if stat.S_ISLNK(checked.st_mode):
            return None
        return name, dir_fd, checked

    def read(self, path: str | Path, max_bytes: int) -> FileBytes:
        """``read_bytes(path, root=root, max_bytes=max_bytes)``."""
        found = self._checked(path)
        if found is None:
            return read_bytes(path, root=self.root, max_bytes=max_bytes, root_resolved=True)
        name, dir_fd, checked = found
        if self.memo is not None and stat.S_ISREG(checked.st_mode) and checked.st_size <= max_bytes:
            data = self.memo.take(path, checked)
            if data is not None:
                return FileBytes(data, checked.st_size, checked.st_mtime_ns)
        return _read_checked(path, checked, name, max_bytes, dir_fd)

    def lstat_mode(self, path: str | Path) -> int | None:
        """The mode of ``path`` resolved inside the root (its last link followed, as
        ``resolve_inside``), from ``lstat``; None if it does not exist; ``Outside`` if it
        leads out."""
        found = self._checked(path)
        if found is not None:
            return found[2].st_mode
        resolved = resolve_inside(path, self.root, root_resolved=True)
        try:
            return os.lstat(resolved).st_mode
        except FileNotFoundError:
            return None


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
