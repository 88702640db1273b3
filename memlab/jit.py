"""numba, imported lazily and with its compilation cache made persistent.

memlab compiles a few kernels with numba (the sweep's selection and MMR,
``memlab.retrieval.kernels``); ranx, the reference for the measures, does too.
numba caches compiled code on disk; memlab points that cache at
``$MEMLAB_CACHE_DIR/numba`` (default ``~/.cache/memlab/numba``) unless
``NUMBA_CACHE_DIR`` is already set, so compiling is paid once per machine
(``memlab warmup`` pays it ahead of time). numba reads the variable when it is
first imported, so every import of numba in memlab goes through ``numba()``.
Nothing imports this module at start-up: the CLI parser and the live search stay
free of numba.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import sys
from pathlib import Path
from typing import Any


def numba_cache_dir() -> Path:
    """Where numba keeps compiled code (``NUMBA_CACHE_DIR``, else under memlab's cache)."""
    if os.environ.get("NUMBA_CACHE_DIR"):
        return Path(os.environ["NUMBA_CACHE_DIR"])
    base = os.environ.get("MEMLAB_CACHE_DIR") or os.path.join(Path.home(), ".cache", "memlab")
    return Path(base) / "numba"


def use_cache_dir() -> Path:
    """Create the cache directory and point numba at it (before numba is imported)."""
    path = numba_cache_dir()
    path.mkdir(parents=True, exist_ok=True)
    os.environ.setdefault("NUMBA_CACHE_DIR", str(path))
    return path


def numba() -> Any:
    """The numba module, its cache directory set first."""
    use_cache_dir()
    import numba as nb

    return nb


def compile_pending(package: str = "ranx.metrics") -> bool:
    """Will numba compile ``package`` in this process (nothing of it in the cache yet)?

    numba keeps a module's compiled functions in ``<cache>/<dir name>_<sha1 of the
    dir path>/`` as ``*.nbi`` index files."""
    spec = importlib.util.find_spec(package)
    if spec is None or spec.origin is None:
        return False
    folder = os.path.dirname(spec.origin)
    name = f"{os.path.basename(folder)}_{hashlib.sha1(folder.encode()).hexdigest()}"
    return not any((numba_cache_dir() / name).glob("*.nbi"))


_NOTED: set[str] = set()


def note_compiling(what: str = "ranx's metrics", package: str = "ranx.metrics") -> None:
    """One line on stderr, once per process, when ``package`` is about to be compiled."""
    if what in _NOTED or not compile_pending(package):
        return
    _NOTED.add(what)
    print(
        f"memlab: compiling {what} once (up to a minute; later runs load them from "
        f"{numba_cache_dir()}; `memlab warmup` does it ahead)",
        file=sys.stderr,
        flush=True,
    )


def start_without_scipy() -> None:
    """Start numba's CPU target (its registries of implementations) without importing
    ``scipy.linalg``, when nothing in this process has imported it yet.

    The first call of any compiled function starts the target, which imports
    ``numba.np.arraymath``; that module asks for ``scipy.linalg.cython_blas`` once, only
    to choose between BLAS and a plain loop for ``np.correlate`` and ``np.convolve`` of
    floats — and importing scipy.linalg costs about 0.2 s CPU. The Dream simulator uses
    neither, so it starts numba with scipy.linalg hidden for that moment: those two
    functions, if compiled later in this process, take the plain loop. Everything else
    (``np.dot`` in numba, ranx, the statistics) imports scipy.linalg as usual."""
    nb = numba()
    if "scipy.linalg" in sys.modules:  # imported already: nothing to save
        return
    sys.modules["scipy.linalg"] = None  # type: ignore[assignment]  # its import: ImportError
    try:
        nb.core.registry.cpu_target.target_context.refresh()
    finally:
        if "scipy.linalg" in sys.modules and sys.modules["scipy.linalg"] is None:
            del sys.modules["scipy.linalg"]
