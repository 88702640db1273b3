"""Relative time phrases ("yesterday", "on Tuesday", "last week", "in March") and their windows.

``time_phrase(rng, written, asked)`` names when something written at ``written``
happened, as seen from ``asked`` (UTC calendar days, ISO weeks starting on
Monday, calendar months), and returns the window of time the phrase covers —
the window always contains ``written``.
"""

from __future__ import annotations

import random
from datetime import datetime, timedelta, timezone

from memlab.datasets.generator.draft import HOUR

WEEK_WORDS = {1: "last week", 2: "two weeks ago", 3: "three weeks ago"}


def _date(t: float) -> datetime:
    d = datetime.fromtimestamp(t, tz=timezone.utc)
    return d.replace(hour=0, minute=0, second=0, microsecond=0)


def _month_start(d: datetime, shift: int = 0) -> datetime:
    months = d.year * 12 + d.month - 1 + shift
    return d.replace(year=months // 12, month=months % 12 + 1, day=1)


def time_phrase(
    rng: random.Random, written: float, asked: float
) -> tuple[str, str, tuple[float, float]] | None:
    """(phrase, phrase kind, window) naming ``written`` from ``asked``; None if none fits."""
    day, today = _date(written), _date(asked)
    days = (today - day).days
    options: list[tuple[str, str, datetime, datetime]] = []
    if days == 0 and asked - written <= 10 * HOUR:
        options.append(("earlier today", "today", day, today + timedelta(days=1)))
    if days == 1:
        options.append(("yesterday", "yesterday", day, today))
    if 2 <= days <= 6:
        options.append((f"on {day.strftime('%A')}", "weekday", day, day + timedelta(days=1)))
    monday = day - timedelta(days=day.weekday())
    weeks = (today - timedelta(days=today.weekday()) - monday).days // 7
    if weeks in WEEK_WORDS:
        options.append((WEEK_WORDS[weeks], "week", monday, monday + timedelta(days=7)))
    months = (today.year - day.year) * 12 + today.month - day.month
    if months == 0 and days >= 8:
        options.append(("earlier this month", "month", _month_start(day), today))
    if months == 1 and days >= 10:
        options.append(("last month", "month", _month_start(day), _month_start(day, 1)))
    if months >= 2:
        name = day.strftime("%B")
        phrase = rng.choice((f"in {name}", f"back in {name}"))
        options.append((phrase, "month-name", _month_start(day), _month_start(day, 1)))
    if not options:
        return None
    phrase, kind, lo, hi = rng.choice(options)
    return phrase, kind, (lo.timestamp(), hi.timestamp())
