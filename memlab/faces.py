"""Lazy package faces (PEP 562): a package's ``__init__`` lists its public names and the
module holding each; a module is imported on the first use of one of its names, so
importing one module of a package (or the package) does not import the others —
``memlab eval`` does not pay for pandas because the comparison wing's face names a
table function.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Mapping
from typing import Any


def lazy_face(
    package: str, where: Mapping[str, str]
) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """``__getattr__`` and ``__dir__`` for ``package``: ``where`` maps each public name to
    the module (under ``package``) that defines it."""

    def __getattr__(name: str) -> Any:
        module = where.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(f"{package}.{module}"), name)
        sys.modules[package].__dict__[name] = value  # the next use is a plain lookup
        return value

    def __dir__() -> list[str]:
        return sorted({*where, *sys.modules[package].__dict__})

    return __getattr__, __dir__
