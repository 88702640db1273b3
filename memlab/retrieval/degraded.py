"""The warning line of a degraded search, one per query — or one per reason for many.

Every degraded search logs ``search degraded: REASON`` (the result keeps its own
flag and reasons either way). Work that searches many queries (a replay gathering
a dataset's queries, a CLI command, a benchmark) wraps itself in ``aggregated()``:
the reasons are then counted while it runs and logged once at the end, one line
per kind of reason — the reason with its first parenthesised detail (the query's
words, an SQL error) elided, how many searches it degraded and a few of those
details as examples. A reason seen once is logged as it was. Nested blocks report
to the outermost one.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

log = logging.getLogger("memlab")
EXAMPLES = 3  # details shown per kind of reason
_DETAIL = re.compile(r"\(([^()]*)\)")
_collecting: ContextVar[list[str] | None] = ContextVar("degraded", default=None)


def report(reason: str) -> None:
    """Log ``reason`` now, or count it when an ``aggregated()`` block is running."""
    seen = _collecting.get()
    if seen is None:
        log.warning("search degraded: %s", reason)
    else:
        seen.append(reason)


@contextmanager
def aggregated() -> Iterator[None]:
    """Count the degraded searches in this block; log one line per kind of reason at its end."""
    if _collecting.get() is not None:  # an outer block reports
        yield
        return
    seen: list[str] = []
    token = _collecting.set(seen)
    try:
        yield
    finally:
        _collecting.reset(token)
        for line in summary(seen):
            log.warning("%s", line)


def summary(seen: list[str]) -> list[str]:
    """One line per kind of reason among ``seen`` (every degraded search's reasons)."""
    kinds: dict[str, list[str]] = {}
    for reason in seen:
        kinds.setdefault(_kind(reason), []).append(reason)
    out = []
    for kind, reasons in kinds.items():
        if len(reasons) == 1:
            out.append(f"search degraded: {reasons[0]}")
            continue
        details = list(dict.fromkeys(d for r in reasons if (d := _detail(r)) is not None))
        more = f" and {len(details) - EXAMPLES} more" if len(details) > EXAMPLES else ""
        examples = "; ".join(f"({d})" for d in details[:EXAMPLES])
        tail = f" — e.g. {examples}{more}" if examples else ""
        out.append(f"search degraded in {len(reasons)} searches: {kind}{tail}")
    return out


def _kind(reason: str) -> str:
    return _DETAIL.sub("(…)", reason, count=1)


def _detail(reason: str) -> str | None:
    found = _DETAIL.search(reason)
    return None if found is None else found.group(1)
