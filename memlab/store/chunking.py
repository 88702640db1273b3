"""The chunking of an index: c0's chunker (the default) or one of memlab's modes.

``chunk_file(text, config)`` is what indexing calls (``ChunkingConfig``):

* ``mode = "c0"`` — SPEC §2.1's chunker (``memlab.store.chunker``), unchanged;
* ``mode = "record"`` — one chunk per record (``memlab.store.records``): each
  turn of a conversation exactly one chunk, whatever its size (no overlap); a
  conversation's title (its preamble) is not a turn and is not indexed; a file
  without turns (a document) is one chunk, as in ``"file"`` mode;
* ``mode = "file"`` — one chunk per file, whatever its size: c0's chunk of a
  file that fits ``max_bytes``, for every file.

``roles`` (empty: all) indexes only the turns whose speaker is listed: the
other turns' lines are left out before chunking (a title and a file without
turns are kept). Chunk line spans always count the file's own lines, so
targets (``path#L12-L20``) resolve as without the option. Every mode is
deterministic, so the index's positional chunk ids stay stable.
"""

from __future__ import annotations

from memlab.config import ChunkingConfig
from memlab.store.chunker import Chunk, chunk_markdown
from memlab.store.records import FileRecords, file_lines, split_records


def chunk_file(text: str, config: ChunkingConfig) -> list[Chunk]:
    """The chunks of one file's text under ``config`` (see the module docstring)."""
    if config.mode == "c0" and not config.roles:
        return chunk_markdown(text, config.max_bytes, config.overlap_chars)
    records = split_records(text)
    if config.mode == "record" and records.labelled:
        return [
            Chunk(r.start_line, r.end_line, records.text(r.start_line, r.end_line))
            for r in records.records
            if not config.roles or r.label in config.roles
        ]
    kept = kept_lines(records, config.roles)
    if not kept:
        return []
    body = "\n".join(records.lines[i - 1] for i in kept) + ("\n" if text.endswith("\n") else "")
    if config.mode != "c0":  # a whole file, or a record mode's file without turns
        return [Chunk(1, max(len(records.lines), 1), body)] if body.strip() else []
    return [
        Chunk(kept[c.start_line - 1], kept[c.end_line - 1], c.text)
        for c in chunk_markdown(body, config.max_bytes, config.overlap_chars)
    ]


def kept_lines(records: FileRecords, roles: tuple[str, ...]) -> list[int]:
    """1-based numbers of the lines indexed with ``roles`` (empty: every line): a left-out
    turn takes its blank lines up to the next label line with it."""
    n = len(records.lines)
    if not roles or not records.labelled:
        return list(range(1, n + 1))
    dropped: set[int] = set()
    starts = [r.start_line for r in records.records] + [n + 1]
    for r, stop in zip(records.records, starts[1:], strict=True):
        if r.label not in roles:
            dropped.update(range(r.start_line, stop))
    return [i for i in range(1, n + 1) if i not in dropped]


__all__ = ["chunk_file", "file_lines", "kept_lines"]
