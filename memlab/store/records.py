"""Records: the turns of a conversation as memlab's importers write it (one grammar).

A conversation is rendered as a title, then one block per turn: the speaker alone
on a line in bold (``**user**``), then the turn's text
(``memlab.datasets.importers._common.render_conversation``). Here:

* a **label line** is ``**name**`` alone on its line — no leading space, a name
  without ``*`` — at the start of the file or after a blank line;
* a **record** runs from a label line to the last non-blank line before the next
  label line (its span: 1-based, inclusive); its label is the speaker;
* the non-blank lines before the first label line (the title) are the file's
  **preamble**;
* a file without label lines (a BEIR document, any memory note) is one record
  without a label, spanning its non-blank lines.

Renderers keep the grammar unambiguous: a body line that would read as a label
line is written with one leading space (``escape_body_line``), which Markdown
renders the same way and which no tokenizer sees. Record mode indexes each
record as one chunk (``memlab.store.chunking``); protocol evaluation maps chunks
to the records they cover (``memlab.eval.protocols``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

LABEL_LINE = re.compile(r"\*\*([^*\s](?:[^*]*[^*\s])?)\*\*")


@dataclass(frozen=True)
class Record:
    ordinal: int  # position among the file's records, from 0
    label: str | None  # the speaker; None in a file without label lines
    start_line: int  # 1-based, inclusive
    end_line: int


@dataclass(frozen=True)
class FileRecords:
    lines: tuple[str, ...]  # the file's lines (no trailing empty line)
    records: tuple[Record, ...]
    preamble: tuple[int, int] | None  # span of the title before the first label
    labelled: bool  # the file has label lines

    def text(self, start: int, end: int) -> str:
        return "\n".join(self.lines[start - 1 : end])

    def overlapping(self, start: int, end: int) -> list[Record]:
        """The records whose span overlaps lines ``start..end``, in file order."""
        return [r for r in self.records if r.start_line <= end and r.end_line >= start]


def label_of(line: str, previous: str | None) -> str | None:
    """The speaker if ``line`` is a label line (``previous``: the line before, None at
    the start of the file), else None."""
    if previous is not None and previous.strip():
        return None
    match = LABEL_LINE.fullmatch(line.rstrip())
    return match.group(1) if match else None


def escape_body_line(line: str) -> str:
    """A turn's text line, indented by one space if it would read as a label line."""
    return " " + line if LABEL_LINE.fullmatch(line.rstrip()) else line


def file_lines(text: str) -> list[str]:
    """The lines of ``text`` as the chunker counts them (a final newline ends the last)."""
    lines = text.split("\n")
    if text.endswith("\n"):
        lines.pop()
    return lines


def split_records(text: str) -> FileRecords:
    """The records of a file (see the module docstring)."""
    lines = file_lines(text)
    starts: list[tuple[int, str]] = []  # (0-based line, label)
    for i, line in enumerate(lines):
        label = label_of(line, lines[i - 1] if i else None)
        if label is not None:
            starts.append((i, label))
    if not starts:
        span = _non_blank(lines, 0, len(lines))
        whole = (Record(0, None, *span),) if span else ()
        return FileRecords(tuple(lines), whole, None, False)
    records: list[Record] = []
    bounds = [s for s, _ in starts] + [len(lines)]
    for ordinal, (start, label) in enumerate(starts):
        span = _non_blank(lines, start, bounds[ordinal + 1])
        assert span is not None  # the label line itself is not blank
        records.append(Record(ordinal, label, *span))
    return FileRecords(tuple(lines), tuple(records), _non_blank(lines, 0, starts[0][0]), True)


def _non_blank(lines: list[str], start: int, stop: int) -> tuple[int, int] | None:
    """1-based span of the non-blank lines among ``lines[start:stop]``, or None."""
    filled = [i for i in range(start, stop) if lines[i].strip()]
    return (filled[0] + 1, filled[-1] + 1) if filled else None
