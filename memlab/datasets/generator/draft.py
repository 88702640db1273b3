"""The generated dataset in memory: timed writes ("slots"), facts, notes and queries.

Everything the generator decides lives here before any text is rendered:

* a ``Slot`` is one write on the timeline — a flush of a session log, the initial
  ``MEMORY.md`` or a user's append to it — holding the labelled ``Note`` s and the
  unlabelled lines written then;
* a ``Fact`` is one labelled line: its text is an exact single-line substring of
  the memory, and the labels (``facts.jsonl``, ``qrels.tsv``) name it by id, outside
  the indexed text;
* a ``Query`` names its facts with grades and nuggets, its own ``as_of`` and the
  time its answer was written.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from memlab.datasets.generator.world import WORKSPACES
from memlab.timefmt import DAY

MINUTE = 60.0
HOUR = DAY / 24

SESSION, MEMORY, GLOBAL = "session", "memory", "global"  # where a slot writes


@dataclass(eq=False)
class Fact:
    """A labelled line. ``id`` is given once everything is placed (f0001, … in write order)."""

    text: str
    group: str | None  # None: the global MEMORY.md (seen by every group)
    path: str = ""  # root-relative path of the file it is first written to
    at: float = 0.0  # when it is first written
    id: str = ""
    comp: str | None = None  # the component it is about (temporal checks)
    change_of: str | None = None  # "comp/kind" when the line records a change of a value


@dataclass(eq=False)
class Note:
    """A fact and the lines rendered with it (a lead-in, a code block, a stack trace)."""

    fact: Fact
    section: str
    before: tuple[str, ...] = ()
    after: tuple[str, ...] = ()
    bullet: bool = True  # render the fact line as a Markdown bullet

    def lines(self) -> list[str]:
        line = f"- {self.fact.text}" if self.bullet else self.fact.text
        return [*self.before, line, *self.after]


@dataclass(eq=False)
class Slot:
    """One write on the timeline and what it holds."""

    kind: str  # SESSION | MEMORY | GLOBAL
    group: str | None  # None for the global MEMORY.md
    at: float
    capacity: int
    session: Session | None = None
    index: int = 0  # position among the writes of its file
    notes: list[Note] = field(default_factory=list)
    # unlabelled entries: (section, lines) — a bullet, or a block such as a code fence
    extra: list[tuple[str, tuple[str, ...]]] = field(default_factory=list)
    families: set[str] = field(default_factory=set)  # items with a note here (one per slot)

    @property
    def free(self) -> int:
        return self.capacity - len(self.notes)

    def add(self, note: Note, family: str) -> None:
        self.notes.append(note)
        self.families.add(family)


@dataclass(eq=False)
class Session:
    """A session log of one workspace: written by flushes, the last one ends it."""

    group: str
    workspace: str  # directory name
    sid: str  # session id (uuid)
    start: float
    comp: str  # the component the session is mostly about
    topic: str
    zh: bool  # part of the log is written in Chinese
    slots: list[Slot] = field(default_factory=list)

    @property
    def end(self) -> float:
        return self.slots[-1].at


@dataclass(eq=False)
class MemoryFile:
    """A ``MEMORY.md``: the initial write, then appends by the user."""

    group: str | None  # None: the global MEMORY.md
    path: str
    title: str
    intro: str
    slots: list[Slot] = field(default_factory=list)


@dataclass(eq=False)
class Target:
    fact: Fact
    grade: int
    nugget: int = 0


@dataclass(eq=False)
class Query:
    category: str
    group: str
    text: str
    as_of: float
    answer_at: float | None
    targets: list[Target] = field(default_factory=list)
    stale: list[Fact] = field(default_factory=list)
    tags: tuple[str, ...] = ()
    answer: str | None = None
    # Each tuple: words that, occurring together in one line, would answer the query;
    # such lines may only be lines of its judged or stale facts (checked).
    answer_terms: tuple[tuple[str, ...], ...] = ()
    # Abstention: each tuple of words must never occur together in one line (checked).
    absent_terms: tuple[tuple[str, ...], ...] = ()
    # Temporal queries: the time window the query's phrase names, and the family's facts.
    window: tuple[float, float] | None = None
    family: tuple[Fact, ...] = ()
    qid: str = ""

    @property
    def abstention(self) -> bool:
        return not any(t.grade > 0 for t in self.targets)

    @property
    def gap(self) -> float | None:
        return None if self.answer_at is None else self.as_of - self.answer_at


@dataclass(frozen=True)
class Write:
    """One write of a file: ``text`` is what it adds to the file's content."""

    path: str
    group: str | None  # None: the global MEMORY.md
    at: float
    text: str
    end: bool = False  # the session ends with this write
    append: bool = False  # a user's append to MEMORY.md (composes with Dream's rewrites)


@dataclass
class Generated:
    seed: int
    as_of: float
    writes: list[Write] = field(default_factory=list)
    facts: list[Fact] = field(default_factory=list)
    queries: list[Query] = field(default_factory=list)

    def final_texts(self) -> dict[str, str]:
        """Root-relative path -> final content (every write applied, no Dream)."""
        out: dict[str, str] = {}
        for w in self.writes:
            out[w.path] = out.get(w.path, "") + w.text
        return out

    def groups_of(self, path: str) -> list[str]:
        """The groups whose index covers ``path`` (the global file: all)."""
        top = path.split("/", 1)[0]
        return [w.group for w in WORKSPACES if "/" not in path or w.dir == top]
