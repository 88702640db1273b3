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

from memlab.errors import ConfigError

SECTIONS = ("index", "search", "watcher", "dream")


def read_config_file(
    path: str | Path | None, section: str, extra: Sequence[str] = ()
) -> dict[str, Any]:
    """The config file as a mapping of sections (``{}`` without a file); a file that
    names no section holds ``section``'s keys."""
    if not path:
        return {}
    import yaml

    file = Path(path)
    if not file.is_file():
        raise ConfigError(f"config file {file} not found")
    try:
        data = yaml.safe_load(file.read_text(encoding="utf-8")) or {}
    except (OSError, yaml.YAMLError) as exc:
        raise ConfigError(f"cannot read config file {file}: {exc}") from None
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
