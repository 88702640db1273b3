"""TOML parsing on every supported Python: ``tomllib`` (3.11+) or ``tomli`` (3.10).

The module is imported by name so that type checking does not depend on which
of the two is installed; ``loads`` gives it back a typed signature.
"""

from __future__ import annotations

import importlib
import re
import sys
from typing import Any

_tomllib = importlib.import_module("tomllib" if sys.version_info >= (3, 11) else "tomli")

_LINE = re.compile(r"at line (\d+)")
_WHERE = re.compile(r"\s*\(at [^)]*\)\s*$")


class TomlSyntaxError(ValueError):
    """Invalid TOML; ``line`` is 1-based (None when the parser does not say)."""

    def __init__(self, message: str, line: int | None) -> None:
        super().__init__(message)
        self.line = line


def loads(text: str) -> dict[str, Any]:
    """Parse ``text``; raise ``TomlSyntaxError`` with the line of the problem."""
    try:
        data: dict[str, Any] = _tomllib.loads(text)
    except ValueError as exc:  # TOMLDecodeError subclasses ValueError in both parsers
        raise TomlSyntaxError(_WHERE.sub("", str(exc)), _error_line(exc, text)) from exc
    except RecursionError:
        raise TomlSyntaxError("nested too deeply to read; flatten it", None) from None
    return data


def _error_line(exc: ValueError, text: str) -> int | None:
    line = getattr(exc, "lineno", None)  # Python 3.14+ carries it as an attribute
    if isinstance(line, int):
        return line
    match = _LINE.search(str(exc))
    if match:
        return int(match.group(1))
    if "end of document" in str(exc):
        return max(1, len(text.splitlines()))
    return None
