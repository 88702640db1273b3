"""Search results as text: the hit list and the stage-by-stage trace table.

``format_result`` is what ``memlab search`` and ``memlab demo`` print;
``format_trace`` renders a trace (``--explain``) as a fixed-width table.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from memlab.config import SearchConfig
from memlab.search.pipeline import SearchResult
from memlab.search.trace import TRACE_FIELDS

_COLUMNS = [f for f in TRACE_FIELDS if f.width]


def _cell(value: Any, width: int) -> str:
    if value is None:
        text = "-"
    elif isinstance(value, bool):
        text = "yes" if value else "no"
    elif isinstance(value, float):
        text = f"{value:.3f}" if abs(value) < 100 else f"{value:.0f}"
    else:
        text = str(value)
    if len(text) > width:
        text = "…" + text[-(width - 1) :]
    return text.rjust(width) if isinstance(value, (int, float)) else text.ljust(width)


def format_trace(rows: Sequence[dict[str, Any]]) -> str:
    """One line per candidate; content-free candidates are marked with ``∅``."""
    header = "  ".join(f.heading.ljust(f.width) for f in _COLUMNS)
    lines = [header, "-" * len(header)]
    for row in rows:
        cells = [_cell(row.get(f.key), f.width) for f in _COLUMNS]
        mark = "  ∅ content-free" if row.get("content_free") else ""
        mark += "" if row.get("in_set", True) else "  (outside the candidate limit)"
        lines.append("  ".join(cells) + mark)
    return "\n".join(lines)


def format_result(result: SearchResult, config: SearchConfig, *, explain: bool = False) -> str:
    """The query, its hits (score, chunk, source, lines, snippet) and, with ``explain``,
    the trace table; a degraded search says why on the first line."""
    flag = "  [DEGRADED: " + "; ".join(result.reasons) + "]" if result.degraded else ""
    lines = [
        f"query: {result.query!r}  ({len(result.hits)} hits, strategy {config.strategy}){flag}"
    ]
    for rank, hit in enumerate(result.hits, 1):
        snippet = " ".join(hit.snippet.split())[:100]
        lines.append(
            f"  {rank}. {hit.score:.3f}  {hit.chunk_id} [{hit.source}] "
            f"L{hit.start_line}-{hit.end_line}  {snippet}"
        )
    if explain and result.trace:
        lines.append(format_trace(result.trace))
    return "\n".join(lines)
