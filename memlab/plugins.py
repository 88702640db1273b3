"""Plugins: modules that add measure families or merge strategies, named in
``MEMLAB_PLUGINS``.

A plugin is a plain module that calls ``memlab.eval.measures.register_family``
and/or ``memlab.retrieval.strategies.register_strategy`` when imported. The command line
imports every module named in ``MEMLAB_PLUGINS`` (comma-separated, importable from
``sys.path``) before it builds its options, so ``--measures``, ``--runs``,
``--strategy`` and their help know the additions; in Python, import the module.
"""

from __future__ import annotations

import importlib
import os

from memlab.errors import ConfigError

ENV = "MEMLAB_PLUGINS"


def named(value: str | None = None) -> list[str]:
    """The module names ``MEMLAB_PLUGINS`` (or ``value``) lists, in order."""
    text = os.environ.get(ENV, "") if value is None else value
    return [name.strip() for name in text.split(",") if name.strip()]


def load(value: str | None = None) -> list[str]:
    """Import each plugin module once; a module that cannot be imported is a
    ConfigError naming it and the cause."""
    names = named(value)
    for name in names:
        try:
            importlib.import_module(name)
        except Exception as exc:  # an ImportError, or the plugin's own error
            raise ConfigError(
                f"{ENV} names '{name}', which cannot be imported ({type(exc).__name__}: "
                f"{exc}); fix the module or remove it from {ENV}"
            ) from exc
    return names
