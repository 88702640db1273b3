"""numba, imported lazily and with its compilation cache made persistent.

memlab compiles a few kernels with numba (the sweep's selection and MMR,
``memlab.search.kernels``); ranx, the reference for the measures, does too.
numba caches compiled code on disk; memlab points that cache at
``$MEMLAB_CACHE_DIR/numba`` (default ``~/.cache/memlab/numba``) unless
``NUMBA_CACHE_DIR`` is already set, so compiling is paid once per machine
(``memlab warmup`` pays it ahead of time). numba reads the variable when it is
first imported, so every import of numba in memlab goes through ``numba()``.
Nothing imports this module at start-up: the CLI parser and the live search stay
free of numba.
"""

from __future__ import annotations

import os
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
