"""Reading YAML / JSON files a user hands to memlab (``--config``, ``--grid``, baselines).

``load_data(path, what=…)`` reads a regular file (never a FIFO or device, at most
``MAX_DATA_BYTES``, UTF-8) and parses it as YAML (JSON is YAML) or JSON. Every
failure is a ``ConfigError`` (or the ``error`` class given) with one message
naming the file, the line when the parser knows it, and what to do: missing,
not a regular file, too large, not UTF-8, a syntax error, or nested too deeply
(the parsers recurse; Python's recursion limit would otherwise end in a
traceback).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from memlab.errors import ConfigError, MemlabError
from memlab.safefs import read_text

MAX_DATA_BYTES = 10 * 1024 * 1024


def load_data(
    path: str | Path,
    *,
    what: str,
    kind: str = "yaml",
    error: type[MemlabError] = ConfigError,
) -> Any:
    """The parsed content of the ``what`` file at ``path`` (``kind``: yaml or json)."""
    file = Path(path)
    try:
        text = read_text(file, root=None, max_bytes=MAX_DATA_BYTES)
    except FileNotFoundError:
        raise error(f"{what} {file} not found; check the path") from None
    except OSError as exc:
        raise error(f"{what} {file}: {getattr(exc, 'reason', None) or exc}") from None
    return parse_data(text, what=f"{what} {file}", kind=kind, error=error)


def parse_data(
    text: str, *, what: str, kind: str = "yaml", error: type[MemlabError] = ConfigError
) -> Any:
    """Parse ``text`` (YAML or JSON) with one-line errors."""
    try:
        if kind == "json":
            return json.loads(text)
        import yaml

        return yaml.safe_load(text)
    except RecursionError:
        raise error(f"{what} is nested too deeply to read; flatten it") from None
    except json.JSONDecodeError as exc:
        raise error(f"{what}:{exc.lineno}: not valid JSON ({exc.msg})") from None
    except Exception as exc:  # yaml.YAMLError and its marked variants
        mark = getattr(exc, "problem_mark", None)
        line = f":{mark.line + 1}" if mark is not None else ""
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        raise error(f"{what}{line}: not valid YAML ({problem})") from None
