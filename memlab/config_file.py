"""Configuration files (YAML or JSON): the one reader of ``--config`` and run files.

A config file is a mapping: ``profile`` and one key per section (``index``,
``search``, ``watcher``, ``dream``, plus command-specific ones such as
``simulation``); a file without section keys holds one section's keys directly
(``memlab eval --config`` files list search keys at the top).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from memlab.datafile import load_data
from memlab.errors import ConfigError

SECTIONS = ("index", "search", "watcher", "dream")


def read_config_file(
    path: str | Path | None, section: str, extra: Sequence[str] = ()
) -> dict[str, Any]:
    """The config file as a mapping of sections (``{}`` without a file); a file that
    names no section holds ``section``'s keys."""
    if not path:
        return {}
    file = Path(path)
    data = load_data(file, what="config file") or {}
    if not isinstance(data, Mapping):
        raise ConfigError(f"{file}: expected a mapping of configuration keys")
    sections = {*SECTIONS, *extra}
    if not set(data) & sections:  # the command's own section, written directly
        flat = {k: v for k, v in data.items() if k != "profile"}
        return {**({"profile": data["profile"]} if "profile" in data else {}), section: flat}
    known = sorted({"profile", *sections})
    unknown = sorted(set(data) - set(known))
    if unknown:
        raise ConfigError(f"{file}: unknown key '{unknown[0]}'; valid: {', '.join(known)}")
    return dict(data)
