"""The argument layer every ``memlab`` subcommand shares: bad input is one line, exit 2.

``MemlabParser`` is the ``argparse`` parser of ``memlab`` and of every
subcommand (sub-parsers inherit its class), so a new flag gets these checks
without asking:

* ``type=float`` becomes ``number()``: finite (no ``nan``, ``inf``);
* ``type=int`` becomes ``integer()``: within 64-bit integers;
* every other value (strings, paths) must be valid UTF-8 without NUL bytes (an
  argument that is not — a query with a stray byte under a UTF-8 locale — would
  otherwise fail later, when it is printed or stored);
* a parse error prints ``memlab: error: <what>; <how to fix it>`` on one line
  (no usage block) and exits with status 2.

Flags with a meaningful range use ``number(lo, hi)`` / ``integer(lo, hi)`` and the
ready-made types below (``time_value``, ``workspace_name``, ``existing_dir``, …),
whose messages say what to give instead.
"""

from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, NoReturn

INT64 = (-(2**63), 2**63 - 1)
Checker = Callable[[str], Any]


def _fail(message: str) -> NoReturn:
    raise argparse.ArgumentTypeError(message)


def text(value: str) -> str:
    """Any string that is valid UTF-8 and holds no NUL byte."""
    if "\x00" in value:
        _fail("contains a NUL byte; remove it")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        shown = value.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
        _fail(f"'{shown}' is not valid UTF-8; retype it (memlab reads arguments as UTF-8)")
    return value


def path(value: str) -> Path:
    return Path(text(value))


def _range(lo: float | None, hi: float | None, open_lo: bool) -> str:
    low = "" if lo is None else (f"> {lo:g}" if open_lo else f">= {lo:g}")
    high = "" if hi is None else f"<= {hi:g}"
    return " and ".join(p for p in (low, high) if p) or "finite"


def number(
    lo: float | None = None, hi: float | None = None, *, open_lo: bool = False, hint: str = ""
) -> Checker:
    """A finite float within [lo, hi] (``open_lo``: strictly above lo)."""

    def check(value: str) -> float:
        try:
            x = float(text(value))
        except ValueError:
            _fail(f"'{value}' is not a number{hint}")
        below = lo is not None and (x <= lo if open_lo else x < lo)
        if not math.isfinite(x) or below or (hi is not None and x > hi):
            _fail(f"'{value}' must be a finite number {_range(lo, hi, open_lo)}{hint}")
        return x

    check.__name__ = "number"
    return check


def integer(lo: int | None = None, hi: int | None = None, *, hint: str = "") -> Checker:
    """An integer within [lo, hi] (default: 64-bit)."""
    low = INT64[0] if lo is None else lo
    high = INT64[1] if hi is None else hi

    def check(value: str) -> int:
        try:
            x = int(text(value).strip())
        except ValueError:
            _fail(f"'{value}' is not an integer{hint}")
        if not low <= x <= high:
            _fail(f"'{value}' must be an integer between {low} and {high}{hint}")
        return x

    check.__name__ = "integer"
    return check


def time_value(value: str) -> str:
    """``--now``-style times: ISO 8601 or unix seconds, finite, years 1970–9999."""
    from datetime import datetime, timezone

    from memlab.errors import ConfigError
    from memlab.timefmt import parse_time

    try:
        seconds = parse_time(text(value))
    except ConfigError as exc:
        _fail(str(exc))
    latest = datetime(9999, 12, 31, tzinfo=timezone.utc).timestamp()
    if seconds is None or not math.isfinite(seconds) or not 0 <= seconds <= latest:
        _fail(
            f"'{value}' is not a usable time; give ISO 8601 such as 2026-03-01T09:00:00Z "
            "or unix seconds between 1970 and 9999"
        )
    return value


def iso_time(value: str) -> str:
    """A strict ISO 8601 time with a UTC offset (dataset times), e.g. 2026-06-30T18:00:00Z."""
    from memlab.timefmt import parse_iso

    try:
        parse_iso(text(value))
    except ValueError as exc:
        _fail(str(exc))
    return value


def workspace_name(value: str) -> str:
    """A workspace: the plain name of a directory in the memory root (checked there)."""
    name = text(value)
    if not name or name in (".", "..") or "/" in name or "\\" in name or name.startswith("."):
        _fail(
            f"{value!r} is not a plain directory name; give the name of a workspace "
            "directory inside the memory root, e.g. proj-1234abcd"
        )
    return name


def existing_dir(value: str) -> Path:
    if not text(value).strip():  # Path("") is ".": never the folder meant
        _fail("is empty; give an existing directory")
    p = path(value)
    if not p.is_dir():
        what = "is not a directory" if p.exists() else "does not exist"
        _fail(f"{value} {what}; give an existing directory")
    return p


def existing_file(value: str) -> Path:
    """An existing regular file (not a directory, FIFO or device)."""
    p = path(value)
    if not p.exists():
        _fail(f"{value} does not exist; give an existing file")
    if not p.is_file():
        _fail(f"{value} is not a regular file; give a file (not a directory, FIFO or device)")
    return p


def named_file(value: str) -> str:
    """``NAME=FILE`` with FILE an existing regular file (returned as given)."""
    name, sep, file = text(value).partition("=")
    if not sep or not name.strip() or not file.strip():
        _fail(f"{value!r} is not NAME=FILE; write e.g. bm25=runs/bm25.trec")
    existing_file(file.strip())
    return value


def comma_list(value: str) -> str:
    """A non-empty comma-separated list (returned as given)."""
    if not [item for item in text(value).split(",") if item.strip()]:
        _fail(f"{value!r} names nothing; give a comma-separated list")
    return value


def nonempty(value: str) -> str:
    if not text(value).strip():
        _fail("is empty; give a value")
    return value


_DEFAULT_TYPES: dict[Any, Checker] = {float: number(), int: integer(), None: text, str: text}


class MemlabParser(argparse.ArgumentParser):
    """``argparse`` with memlab's checks on every value and one-line errors (exit 2)."""

    def add_argument(self, *args: Any, **kwargs: Any) -> argparse.Action:
        action = kwargs.get("action")
        takes_value = action in (None, "store", "append", "extend")
        if takes_value:
            kind = kwargs.get("type")
            if kind is Path:
                kwargs["type"] = path
            elif kind in _DEFAULT_TYPES:
                kwargs["type"] = _DEFAULT_TYPES[kind]
        return super().add_argument(*args, **kwargs)

    def error(self, message: str) -> NoReturn:
        hint = f" (see `{self.prog} --help`)"
        print(f"memlab: error: {' '.join(message.split())}{hint}", file=sys.stderr)
        sys.exit(2)
