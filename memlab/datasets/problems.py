"""Validation problems and the report that collects them.

Every problem names the file (relative to the dataset folder), the line when
there is one, what is wrong and how to fix it. ``kind`` is the counter it adds
to; ``severity`` is "error" (the dataset cannot be used: ``load_dataset``
raises) or "warning" (usable, but probably not what the author meant).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from memlab.errors import DatasetError

Severity = Literal["error", "warning"]

# Counter names, in report order.
KINDS = (
    "malformed_lines",  # a JSON line / TSV row that cannot be parsed
    "bad_utf8",  # bytes that are not UTF-8
    "bad_fields",  # a missing, unknown or ill-typed field
    "duplicate_ids",  # query ids, group ids, files or judgements listed twice
    "unknown_targets",  # a target whose file, line span or fact does not exist
    "unknown_queries",  # qrels for a query that queries.jsonl does not define
    "unknown_groups",  # a query or file naming a group the manifest does not list
    "unjudged_queries",  # a non-abstention query with nothing relevant at some level
    "future_timestamps",  # a file dated after the as_of that applies to it
    "unlisted_files",  # a memory file missing from files.jsonl
    "missing_files",  # files.jsonl / manifest naming a file that does not exist
    "ignored_files",  # files under memory/ that no index would read
    "bad_events",  # a files.jsonl event that cannot be replayed (format 2)
    "bad_facts",  # a fact text found in no version of its file, or a marker (format 2)
    "digest_mismatch",  # manifest digest differs from the files
)


@dataclass(frozen=True)
class Problem:
    kind: str
    file: str
    line: int | None
    message: str
    fix: str
    severity: Severity = "error"

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}" if self.line is not None else self.file
        return f"{where}: {self.severity}: {self.message} — fix: {self.fix}"


@dataclass
class ValidationReport:
    """Everything ``validate_dataset`` found, plus counts and dataset statistics."""

    path: Path
    problems: list[Problem] = field(default_factory=list)
    stats: dict[str, int] = field(default_factory=dict)

    def add(
        self,
        kind: str,
        file: str,
        line: int | None,
        message: str,
        fix: str,
        severity: Severity = "error",
    ) -> None:
        if kind not in KINDS:
            raise ValueError(f"unknown problem kind {kind!r}")
        self.problems.append(Problem(kind, file, line, message, fix, severity))

    @property
    def errors(self) -> list[Problem]:
        return [p for p in self.problems if p.severity == "error"]

    @property
    def warnings(self) -> list[Problem]:
        return [p for p in self.problems if p.severity == "warning"]

    @property
    def ok(self) -> bool:
        """True when there is no error (warnings allowed)."""
        return not self.errors

    @property
    def counts(self) -> dict[str, int]:
        """Problems per kind; every kind is present (0 when none)."""
        found = Counter(p.kind for p in self.problems)
        return {kind: found.get(kind, 0) for kind in KINDS}

    def format(self, limit: int | None = 50) -> str:
        """Human-readable report: problems (at most ``limit``), then counts and stats."""
        lines = [
            f"dataset {self.path}: {len(self.errors)} error(s), {len(self.warnings)} warning(s)"
        ]
        shown = self.problems if limit is None else self.problems[:limit]
        lines += [f"  {p}" for p in shown]
        if len(shown) < len(self.problems):
            lines.append(f"  … {len(self.problems) - len(shown)} more (use --all to see them)")
        nonzero = {k: v for k, v in self.counts.items() if v}
        if nonzero:
            lines.append("counts: " + ", ".join(f"{k}={v}" for k, v in nonzero.items()))
        if self.stats:
            lines.append("stats: " + ", ".join(f"{k}={v}" for k, v in self.stats.items()))
        return "\n".join(lines)

    def raise_if_errors(self) -> None:
        """Raise ``DatasetError`` listing every error (warnings are not raised)."""
        if self.errors:
            raise DatasetError(
                f"dataset {self.path} has {len(self.errors)} error(s)",
                problems=[str(p) for p in self.errors],
            )
