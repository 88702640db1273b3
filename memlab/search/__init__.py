"""Search: keywords, candidates (SQL), the scoring core (pure), MMR, the pipeline.

``memlab.search`` is also the public function ``search(store, query, config, now, …)``
(``memlab.search.pipeline.search``): the package object is callable. The name
``search`` in ``memlab`` is both this sub-package (bound by Python's import system
whenever a ``memlab.search.*`` module is imported) and the public function; making
the package itself the function keeps ``from memlab import search`` the same
callable object whatever was imported before, while ``import
memlab.search.pipeline as p`` and ``mock.patch("memlab.search.…")`` keep working.
"""

from __future__ import annotations

import sys
import types
from typing import Any


class _CallablePackage(types.ModuleType):
    """The ``memlab.search`` package, callable as ``memlab.search.pipeline.search``."""

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        from memlab.search.pipeline import search

        return search(*args, **kwargs)

    @property
    def __wrapped__(self) -> Any:  # inspect.signature(memlab.search) is the function's
        from memlab.search.pipeline import search

        return search


sys.modules[__name__].__class__ = _CallablePackage
