"""Open a SQLite connection with FTS5 and, where possible, sqlite-vec.

The built-in ``sqlite3`` of some Python builds (the default Python of the
development machines among them) cannot load extensions. memlab therefore
tries, in order, SQLite bindings that can: the built-in one if it allows
extension loading, ``sqlean`` (from the ``sqlean.py`` wheel, a dependency) and
``pysqlite3``. Where none can load sqlite-vec, memlab falls back to the
built-in ``sqlite3``, FTS-only, with one clear warning.

``MEMLAB_SQLITE_DRIVER`` (``sqlite3``, ``sqlean`` or ``pysqlite3``) forces a
driver; ``MEMLAB_DISABLE_VEC=1`` pretends sqlite-vec is absent (for tests of
the degraded path).
"""

from __future__ import annotations

import importlib
import logging
import os
import sqlite3
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from memlab.errors import StoreError, unknown_name

log = logging.getLogger("memlab")

DRIVERS = ("sqlite3", "sqlean", "pysqlite3")
_MODULES = {"sqlite3": "sqlite3", "sqlean": "sqlean", "pysqlite3": "pysqlite3.dbapi2"}
_warned_no_vec = False


@dataclass
class Connection:
    """A DB-API connection plus what it can do."""

    conn: Any
    driver: str
    vec_loaded: bool
    sqlite_version: str
    fts5_version: str
    vec_version: str | None
    warnings: list[str] = field(default_factory=list)
    # The driver module's exception classes, so callers can catch them.
    Error: type[Exception] = sqlite3.Error
    OperationalError: type[Exception] = sqlite3.OperationalError

    def versions(self) -> dict[str, str | None]:
        return {
            "driver": self.driver,
            "sqlite": self.sqlite_version,
            "fts5": self.fts5_version,
            "sqlite_vec": self.vec_version,
        }

    def close(self) -> None:
        self.conn.close()


def _try_load_vec(conn: Any) -> str | None:
    """Load sqlite-vec into ``conn``; its version, or None where it cannot be loaded."""
    if os.environ.get("MEMLAB_DISABLE_VEC") == "1":
        return None
    try:
        import sqlite_vec

        conn.enable_load_extension(True)
        sqlite_vec.load(conn)
        conn.enable_load_extension(False)
        return str(conn.execute("SELECT vec_version()").fetchone()[0])
    except Exception as exc:  # any failure means "not loadable here"
        log.debug("sqlite-vec not loadable with this driver: %s", exc)
        return None


def _fts5_version(conn: Any) -> str:
    try:
        conn.execute("CREATE VIRTUAL TABLE temp.memlab_fts5_probe USING fts5(x)")
        conn.execute("DROP TABLE temp.memlab_fts5_probe")
    except Exception as exc:
        raise StoreError(
            "this SQLite has no FTS5; install memlab's dependencies (pip install -e .) "
            "so the sqlean.py binding is available"
        ) from exc
    row = conn.execute("SELECT sqlite_source_id()").fetchone()
    return f"fts5 (sqlite {row[0].split()[0]})" if row else "fts5"


def _open_with(driver: str, path: str) -> tuple[Any, Any]:
    module = importlib.import_module(_MODULES[driver])
    conn = module.connect(path, timeout=30.0, isolation_level=None, check_same_thread=False)
    return module, conn


def index_driver() -> tuple[str, Any]:
    """The binding every index of this process is opened with: the first of ``DRIVERS``
    that can load sqlite-vec (else the last importable one, else the built-in).

    Chosen once (on ``:memory:``) and used for every index file, read-only checks
    included: two copies of SQLite in one process do not see each other's POSIX
    locks, and one closing a file would drop the other's locks (and could truncate
    a WAL index the other has mapped)."""
    forced = os.environ.get("MEMLAB_SQLITE_DRIVER")
    if forced and forced not in DRIVERS:
        raise StoreError(unknown_name("MEMLAB_SQLITE_DRIVER", forced, DRIVERS))
    key = (forced or "", os.environ.get("MEMLAB_DISABLE_VEC", ""))
    if key not in _CHOSEN:
        _CHOSEN[key] = _choose(forced)
    return _CHOSEN[key]


_CHOSEN: dict[tuple[str, str], tuple[str, Any]] = {}


def _choose(forced: str | None) -> tuple[str, Any]:
    order = [forced] if forced else list(DRIVERS)
    for driver in order:
        try:
            module, conn = _open_with(driver, ":memory:")
        except ImportError:
            continue
        vec = _try_load_vec(conn)
        conn.close()
        if vec is not None or driver == order[-1]:
            return driver, module
    return "sqlite3", importlib.import_module("sqlite3")


def table_names(path: str | Path) -> set[str]:
    """The tables of an existing database, read with the index driver and nothing written
    (no pragma; a read-only URI is avoided: it cannot recreate a WAL index's ``-shm``)."""
    _, module = index_driver()
    conn = module.connect(str(path), timeout=30.0, isolation_level=None, check_same_thread=False)
    try:
        rows = conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
        return {str(r[0]) for r in rows}
    finally:
        conn.close()


def open_connection(path: str | Path, *, want_vec: bool = True) -> Connection:
    """Open ``path`` (or ``":memory:"``) with FTS5 and, if possible, sqlite-vec."""
    global _warned_no_vec
    target = str(path)
    driver, module = index_driver()
    try:
        conn = module.connect(target, timeout=30.0, isolation_level=None, check_same_thread=False)
    except Exception as exc:
        raise StoreError(f"cannot open index {target}: {exc}") from exc
    vec = _try_load_vec(conn) if want_vec else None
    warnings: list[str] = []
    if want_vec and vec is None:
        message = (
            "sqlite-vec cannot be loaded by any SQLite binding here; vector search is off "
            "and every search is FTS-only (install memlab's dependencies: sqlean.py, sqlite-vec)"
        )
        warnings.append(message)
        if not _warned_no_vec:
            log.warning(message)
            _warned_no_vec = True
    try:
        conn.execute(
            "PRAGMA journal_mode=WAL" if target != ":memory:" else "PRAGMA journal_mode=MEMORY"
        )
        conn.execute("PRAGMA synchronous=NORMAL")
        conn.execute("PRAGMA foreign_keys=ON")
        fts5 = _fts5_version(conn)
        sqlite_version = str(conn.execute("SELECT sqlite_version()").fetchone()[0])
    except module.DatabaseError as exc:
        conn.close()
        raise StoreError(
            f"{target} is not a readable SQLite index ({exc}); delete it and run "
            "`memlab index` again"
        ) from exc
    return Connection(
        conn=conn,
        driver=driver,
        vec_loaded=vec is not None,
        sqlite_version=sqlite_version,
        fts5_version=fts5,
        vec_version=vec,
        warnings=warnings,
        Error=module.Error,
        OperationalError=module.OperationalError,
    )
