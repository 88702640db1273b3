"""Errors raised by memlab.

Every error a user can trigger says what went wrong and what to do about it.
The tree::

    MemlabError
    ├── ConfigError              unknown key, bad value, unknown profile/strategy
    ├── StoreError               the index cannot be opened or used
    │   └── SchemaMismatchError  index written by another schema/tokenizer/embedder
    ├── MemoryRootError          missing or malformed memory root / workspace
    ├── EmbeddingError           a provider failed (caught by search → degraded)
    │   └── EmbedderUnavailable  provider not installed or not usable here
    ├── DatasetError             a dataset is malformed (lists every problem)
    ├── DreamError               Dream could not run (lock, write, consolidator)
    ├── AgentConfigError         malformed agent/role/persona file (file + line)
    └── ReportError              a notebook failed or a parameter is unknown

``cli.main`` turns any ``MemlabError`` into one line on stderr and exit code 2.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable


class MemlabError(Exception):
    """Base class of every error memlab raises on purpose."""


class ConfigError(MemlabError, ValueError):
    """A configuration key or value is invalid."""


class StoreError(MemlabError):
    """The index cannot be opened, read or written."""


class SchemaMismatchError(StoreError):
    """The index on disk was built with another schema, tokenizer or embedder."""


class MemoryRootError(MemlabError):
    """The memory root or workspace does not exist or is not laid out as expected."""


class EmbeddingError(MemlabError):
    """An embedding provider failed to produce vectors."""


class EmbedderUnavailable(EmbeddingError):
    """The embedding provider is not installed or cannot run on this machine."""


class DatasetError(MemlabError):
    """A dataset is malformed; ``problems`` lists every problem found."""

    def __init__(self, message: str, problems: Iterable[str] = ()) -> None:
        self.problems = list(problems)
        if self.problems:
            message = message + "\n" + "\n".join(f"  - {p}" for p in self.problems)
        super().__init__(message)


class DreamError(MemlabError):
    """Dream consolidation could not complete."""


class AgentConfigError(MemlabError):
    """An agent definition, role or persona file is malformed."""


class ReportError(MemlabError):
    """A report notebook failed or was given bad parameters."""


def did_you_mean(name: str, valid: Iterable[str]) -> str:
    """Return " did you mean 'x'?" for the closest valid name, or "" if none is close."""
    matches = difflib.get_close_matches(name, list(valid), n=1, cutoff=0.6)
    return f" did you mean '{matches[0]}'?" if matches else ""


def unknown_name(kind: str, name: str, valid: Iterable[str]) -> str:
    """A uniform message for an unknown registry key, listing the valid keys."""
    valid = sorted(valid)
    hint = did_you_mean(name, valid)
    return f"unknown {kind} '{name}';{hint} valid: {', '.join(valid)}"
