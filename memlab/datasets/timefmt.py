"""ISO 8601 timestamps ↔ unix seconds (UTC). Pure; nothing here reads the clock."""

from __future__ import annotations

from datetime import datetime, timezone


def parse_iso(text: str) -> float:
    """Unix seconds of an ISO 8601 timestamp that carries a UTC offset ("Z" or "+00:00").

    Raises ``ValueError`` with a readable message for anything else (including a
    timestamp without an offset: the dataset's time must not depend on where it runs).
    """
    if not isinstance(text, str) or not text.strip():
        raise ValueError(
            f"expected an ISO 8601 timestamp such as 2026-06-30T18:00:00Z, got {text!r}"
        )
    raw = text.strip()
    candidate = raw[:-1] + "+00:00" if raw.endswith(("Z", "z")) else raw
    try:
        moment = datetime.fromisoformat(candidate)
    except ValueError:
        raise ValueError(
            f"'{raw}' is not an ISO 8601 timestamp; write it like 2026-06-30T18:00:00Z"
        ) from None
    if moment.tzinfo is None:
        raise ValueError(f"'{raw}' has no UTC offset; append 'Z' (for example {raw}Z)")
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
