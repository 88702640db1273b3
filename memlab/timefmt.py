"""Time as text ↔ unix seconds (UTC): the one home of every parser and formatter.

* ``parse_iso`` — strict: an ISO 8601 timestamp that carries a UTC offset (dataset
  files; their times must not depend on where they are read);
* ``parse_time`` — lenient, for command-line options: ISO 8601 with or without an
  offset (none = UTC) or unix seconds; ``None`` stays ``None``;
* ``format_iso`` — ``YYYY-MM-DDTHH:MM:SSZ``, the one way memlab prints a time;
* ``utc_seconds`` / ``utc_date`` — calendar helpers for generators and importers.

Pure; nothing here reads the clock.
"""

from __future__ import annotations

import math
from datetime import datetime, timezone

from memlab.errors import ConfigError

DAY = 86_400.0  # seconds in a day (decay ages are in days, times in unix seconds)
_EXAMPLE = "2026-06-30T18:00:00Z"


def _from_iso(raw: str) -> datetime:
    """``datetime.fromisoformat`` that also reads a trailing ``Z`` (Python < 3.11 does not)."""
    return datetime.fromisoformat(raw[:-1] + "+00:00" if raw.endswith(("Z", "z")) else raw)


def parse_iso(text: str) -> float:
    """Unix seconds of an ISO 8601 timestamp that carries a UTC offset ("Z" or "+00:00").

    Raises ``ValueError`` with a readable message for anything else (including a
    timestamp without an offset: the dataset's time must not depend on where it runs).
    """
    if not isinstance(text, str) or not text.strip():
        raise ValueError(f"expected an ISO 8601 timestamp such as {_EXAMPLE}, got {text!r}")
    raw = text.strip()
    try:
        moment = _from_iso(raw)
    except ValueError:
        raise ValueError(
            f"'{raw}' is not an ISO 8601 timestamp; write it like {_EXAMPLE}"
        ) from None
    if moment.tzinfo is None:
        raise ValueError(f"'{raw}' has no UTC offset; append 'Z' (for example {raw}Z)")
    return moment.timestamp()


def parse_time(value: str | None) -> float | None:
    """A command-line time: ISO 8601 (``2026-03-01``, ``2026-03-01T09:00:00Z``; no offset
    means UTC) or unix seconds → unix seconds; ``None`` → ``None``.

    Raises ``ConfigError`` (one line that says what to write) for anything else.
    """
    if value is None:
        return None
    raw = value.strip()
    try:
        seconds = float(raw)
    except ValueError:
        pass
    else:
        if not math.isfinite(seconds):
            raise ConfigError(f"time '{value}' is not a finite number of unix seconds")
        return seconds
    try:
        moment = _from_iso(raw)
    except ValueError:
        raise ConfigError(
            f"cannot read time '{value}'; use ISO 8601 such as {_EXAMPLE} or unix seconds"
        ) from None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=timezone.utc)
    return moment.timestamp()


def format_iso(seconds: float) -> str:
    """``YYYY-MM-DDTHH:MM:SSZ`` (fractions of a second are kept only when present)."""
    moment = datetime.fromtimestamp(seconds, tz=timezone.utc)
    if moment.microsecond:
        return moment.isoformat().replace("+00:00", "Z")
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


def utc_seconds(
    year: int, month: int, day: int, hour: int = 0, minute: int = 0, second: int = 0
) -> float:
    """Unix seconds of a UTC calendar time."""
    return datetime(year, month, day, hour, minute, second, tzinfo=timezone.utc).timestamp()


def utc_date(seconds: float) -> str:
    """``YYYY-MM-DD`` of a unix time, in UTC (the date part of session file names)."""
    return datetime.fromtimestamp(seconds, tz=timezone.utc).strftime("%Y-%m-%d")
