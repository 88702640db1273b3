"""What the generator's catalogs declare: notes to place in memory, and queries on them."""

from __future__ import annotations

from dataclasses import dataclass, field

from memlab.sources import GLOBAL, SESSION, WORKSPACE

__all__ = [
    "GLOBAL",
    "SERVICES",
    "SESSION",
    "WORKSPACE",
    "Catalog",
    "Distractor",
    "Generated",
    "Note",
    "QuerySpec",
]

SERVICES = ("gateway", "ledger", "billing", "webhooks", "fraud", "notifier", "reports", "scheduler")


@dataclass(frozen=True)
class Note:
    """One line of memory. Labelled notes get a ``<!-- fact:<id> -->`` marker."""

    key: str  # catalog key, never written into memory
    text: str
    where: str = SESSION  # session | workspace | global
    section: str = "Notes"  # the heading it is written under
    window: tuple[float, float] = (0.02, 0.98)  # position on the timeline (session notes)
    family: str | None = None  # notes of one family land in distinct sessions
    labelled: bool = True


@dataclass(frozen=True)
class QuerySpec:
    text: str
    category: str
    targets: tuple[tuple[str, int], ...] = ()  # (note key, grade)
    stale: tuple[str, ...] = ()  # note keys holding a superseded answer
    tags: tuple[str, ...] = ()
    # Strings that only the judged or stale notes of this query may contain (checked).
    answer_terms: tuple[str, ...] = ()
    # Abstention: strings that no memory file may contain, case-insensitive (checked).
    absent_terms: tuple[str, ...] = ()

    @property
    def abstention(self) -> bool:
        return not self.targets


@dataclass(frozen=True)
class Distractor:
    """Unlabelled lines that repeat a query's keywords without answering it."""

    templates: tuple[str, ...]  # may use {svc}
    count: tuple[int, int] = (18, 26)  # how many sessions get one (inclusive range)


@dataclass
class Catalog:
    notes: list[Note] = field(default_factory=list)
    queries: list[QuerySpec] = field(default_factory=list)
    distractors: list[Distractor] = field(default_factory=list)

    def extend(self, other: Catalog) -> None:
        self.notes += other.notes
        self.queries += other.queries
        self.distractors += other.distractors


@dataclass
class Generated:
    """The generated memory (files with their logical times) and its labelled queries."""

    seed: int
    as_of: float
    files: list[tuple[str, str, float]] = field(default_factory=list)  # (path, text, created_at)
    queries: list[tuple[str, QuerySpec]] = field(default_factory=list)  # (query id, spec)
    fact_ids: dict[str, str] = field(default_factory=dict)  # note key -> fact id
