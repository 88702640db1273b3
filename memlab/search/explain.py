"""Render a search trace as a fixed-width text table (for ``--explain`` and the demo)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

COLUMNS = (
    ("final_rank", "rank", 4),
    ("chunk_id", "chunk", 34),
    ("source", "source", 9),
    ("bm25_rank", "bm25", 7),
    ("fts", "fts", 5),
    ("distance", "dist", 5),
    ("vec", "vec", 5),
    ("merged", "merged", 6),
    ("decay", "decay", 5),
    ("source_weight", "srcw", 5),
    ("boost", "boost", 5),
    ("raw", "raw", 5),
    ("display", "score", 5),
    ("kept", "kept", 4),
    ("mmr_position", "mmr", 3),
)


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
    header = "  ".join(title.ljust(width) for _, title, width in COLUMNS)
    lines = [header, "-" * len(header)]
    for row in rows:
        cells = [_cell(row.get(key), width) for key, _, width in COLUMNS]
        mark = "  ∅ content-free" if row.get("content_free") else ""
        mark += "" if row.get("in_set", True) else "  (outside the candidate limit)"
        lines.append("  ".join(cells) + mark)
    return "\n".join(lines)
