"""Shared helpers for parsing agent, role, persona and config tables. No I/O.

``Origin`` turns a key into the ``path:line`` prefix of an error message; the
checkers raise ``AgentConfigError`` with that prefix.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from memlab.errors import AgentConfigError, unknown_name


@dataclass(frozen=True)
class Origin:
    """Where a table came from, to prefix error messages with ``path:line:``."""

    path: Path | None
    line: int = 1
    key_lines: Mapping[str, int] = field(default_factory=dict)
    label: str = "inline config"

    def at(self, key: str | None = None) -> str:
        if self.path is None:
            return self.label
        line = self.key_lines.get(key, self.line) if key is not None else self.line
        return f"{self.path}:{line}"


def check_table(data: Any, origin: Origin, what: str) -> None:
    if not isinstance(data, Mapping):
        raise AgentConfigError(f"{origin.at()}: {what} must be a table of settings")


def check_keys(data: Mapping[str, Any], valid: tuple[str, ...], origin: Origin, what: str) -> None:
    for key in data:
        if key not in valid:
            raise AgentConfigError(f"{origin.at(key)}: {what}: {unknown_name('key', key, valid)}")


def opt_str(data: Mapping[str, Any], key: str, origin: Origin) -> str | None:
    value = data.get(key)
    if value is None or isinstance(value, str):
        return value
    raise AgentConfigError(f"{origin.at(key)}: '{key}' must be a string, not {value!r}")


def str_list(data: Mapping[str, Any], key: str, origin: Origin) -> tuple[str, ...]:
    value = data.get(key)
    if value is None:
        return ()
    if isinstance(value, str):
        return (value,)
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return tuple(value)
    raise AgentConfigError(f"{origin.at(key)}: '{key}' must be a string or a list of strings")
