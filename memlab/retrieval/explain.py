"""Search results as text: the hit list and the stage-by-stage trace table.

``format_result`` is what ``memlab search`` and ``memlab demo`` print;
``format_trace`` renders a trace (``--explain``) as a fixed-width table and
``format_legend`` says what each of its columns means (from ``TRACE_FIELDS``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from memlab.config import SearchConfig
from memlab.retrieval.pipeline import SearchResult
from memlab.retrieval.trace import TRACE_FIELDS

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


def format_legend(config: SearchConfig | None = None, embedder: str | None = None) -> str:
    """What the ``--explain`` columns mean, one line each; with ``config``, the settings
    that produced them (half-life, min_score, weights, vectors and the ``embedder``, MMR)."""
    lines = ["columns:"]
    width = max(len(f.heading) for f in _COLUMNS)
    lines += [f"  {f.heading.ljust(width)}  {f.meaning}" for f in _COLUMNS]
    lines.append(f"  {'∅'.ljust(width)}  content-free (headings or comments only): never returned")
    lines.append(f"  {'-'.ljust(width)}  not in that list, not returned, or not applied")
    if config is not None:
        half = config.effective_half_life()
        mmr = f"on (λ {config.mmr.lambda_:g})" if config.mmr.enabled else "off"
        if not config.vectors:
            vectors = "off"
        else:
            vectors = f"on ({embedder})" if embedder else "on but no embedder: text only"
        lines.append(
            f"settings: half-life {'none' if not half else f'{half:g} days'}, min_score "
            f"{config.min_score:g}, weights text {config.text_weight:g} / vector "
            f"{config.vector_weight:g}, vectors {vectors}, MMR {mmr}, "
            f"max_results {config.max_results}"
        )
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
