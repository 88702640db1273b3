"""The in-memory form of a dataset: ``Dataset``, ``MemoryGroup``, ``Query``."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Collection, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from memlab.datasets.untrusted import MAX_MEMORY_FILE_BYTES, read_dataset_file
from memlab.errors import DatasetError, unknown_name
from memlab.store.layout import MemoryLayout

FORMAT_VERSION = 1  # what the writer writes unless told otherwise (importers)
FORMAT_VERSIONS = (1, 2)  # what the loader reads
MANIFEST = "manifest.json"
FILES = "files.jsonl"
FACTS = "facts.jsonl"  # format 2: fact labels outside the indexed text
VERSIONS_DIR = "versions"  # format 2: file contents other than the final ones
QUERIES = "queries.jsonl"
QRELS = "qrels.tsv"
MEMORY_DIR = "memory"
GROUPS_DIR = "groups"
VECTORS_DIR = "vectors"
README = "README.md"
# Judging (memlab.judging): files beside the dataset, outside its digest.
POOL = "pool.jsonl"  # the pooled candidates of every query
POOL_SETTINGS = "pool.json"  # how they were pooled (runs, depth, seed, embedder)
JUDGEMENTS = "judgements.jsonl"  # who judged what, when, with notes
DEFAULT_GROUP = "default"  # the id of the one group of a dataset without "groups"
DEFAULT_LEVEL = "default"  # the level name of a dataset without a "qrels" list

Judgements = Mapping[str, Mapping[str, int]]  # query_id -> target -> relevance
# query_id -> target -> the nuggets (positive ids) it carries, for novelty-aware measures
Nuggets = Mapping[str, Mapping[str, frozenset[int]]]


@dataclass(frozen=True)
class Event:
    """One change of one memory file at a logical time (a line of files.jsonl).

    ``action`` is "write" (the file's content becomes ``source``'s bytes, or their
    first ``nbytes``), "append" (``source``'s bytes are appended to the current
    content) or "delete". ``end`` marks a session log's last write (its session
    ends: Dream's session-end trigger). ``line`` is the files.jsonl line (0 for an
    implicit write); replay order is (at, line, path).
    """

    at: float
    path: str  # root-relative
    action: str  # "write" | "append" | "delete"
    source: Path | None = None  # the file holding the bytes written or appended
    nbytes: int | None = None
    end: bool = False
    line: int = 0
    within: Path | None = None  # the dataset folder ``source`` must stay in

    @property
    def order(self) -> tuple[float, int, str]:
        return (self.at, self.line, self.path)

    def data(self) -> bytes:
        """The bytes this event writes or appends (nothing for a delete); ``source`` is
        read as untrusted input inside ``within`` (``memlab.datasets.untrusted``)."""
        if self.source is None:
            return b""
        if self.within is None:
            data = self.source.read_bytes()
        else:
            data = read_dataset_file(self.source, self.within, MAX_MEMORY_FILE_BYTES)
        return data if self.nbytes is None else data[: self.nbytes]


def simulate_versions(events: Iterable[Event]) -> dict[str, list[tuple[float, str]]]:
    """Every text each path has over the timeline (no Dream), with the time it appears."""
    current: dict[str, bytes] = {}
    versions: dict[str, list[tuple[float, str]]] = {}
    for e in events:
        if e.action == "delete":
            current.pop(e.path, None)
            continue
        data = e.data()
        current[e.path] = current.get(e.path, b"") + data if e.action == "append" else data
        versions.setdefault(e.path, []).append((e.at, current[e.path].decode("utf-8", "replace")))
    return versions


@dataclass(frozen=True)
class FactText:
    """A fact label of format 2: ``text`` is first written into ``path``."""

    path: str
    text: str


@dataclass(frozen=True)
class MemoryGroup:
    """One independent memory: a memory root, the workspace to index, its "now".

    ``created_at`` maps every root-relative path the group's index covers (global
    ``*.md`` files and the workspace's ``*.md`` files) to the unix time at which
    replay first writes it. ``events`` is the group's timeline in replay order (in
    format 1: one write of each file at its ``created_at``). ``origin_ids`` and
    ``record_ids`` keep what files.jsonl says of a file's source: its id there (a
    session, a document) and the ids of its records (the turns, in file order;
    ``memlab.store.records``), for evaluation under a benchmark's protocol.
    """

    id: str
    root: Path
    workspace: str | None
    as_of: float
    created_at: Mapping[str, float]
    events: tuple[Event, ...] = ()
    root_rel: str = MEMORY_DIR  # the root, relative to the dataset folder
    origin_ids: Mapping[str, str] = field(default_factory=dict)
    record_ids: Mapping[str, tuple[str, ...]] = field(default_factory=dict)

    @property
    def layout(self) -> MemoryLayout:
        return MemoryLayout(self.root, self.workspace)

    @property
    def paths(self) -> tuple[str, ...]:
        """Root-relative paths in replay order (created_at, then path)."""
        return tuple(sorted(self.created_at, key=lambda p: (self.created_at[p], p)))


@dataclass(frozen=True)
class Query:
    query_id: str
    text: str
    group: str
    as_of: float  # the query's own as_of, else its group's, else the dataset's
    category: str | None = None
    tags: tuple[str, ...] = ()
    abstention: bool = False  # nothing in the memory answers it
    stale_targets: tuple[str, ...] = ()  # targets holding a superseded answer
    answer: str | None = None  # informational (from the source dataset)
    answer_at: float | None = None  # when the answer was written (answer-age buckets)
    origin_id: str | None = None  # the source's id, when it is not a usable query id


@dataclass(frozen=True)
class Dataset:
    """A loaded, validated dataset. ``qrels`` are the judgements of ``level``."""

    path: Path
    name: str
    description: str
    licence: str
    origin: str
    as_of: float
    digest: str
    format_version: int
    groups: Mapping[str, MemoryGroup]
    queries: tuple[Query, ...]
    level: str
    qrels_by_level: Mapping[str, Judgements]
    # group -> fact id -> ((path, line), ...) where the marker (format 1) or the
    # fact's text (format 2, its first file) is written
    facts: Mapping[str, Mapping[str, tuple[tuple[str, int], ...]]] = field(default_factory=dict)
    # format 2: group -> fact id -> its text (resolved by substring, not by marker)
    fact_texts: Mapping[str, Mapping[str, FactText]] = field(default_factory=dict)
    nuggets_by_level: Mapping[str, Nuggets] = field(default_factory=dict)
    index: Mapping[str, Any] = field(default_factory=dict)  # manifest "index" (defaults)
    timeline: Mapping[str, Any] = field(default_factory=dict)  # manifest "timeline"
    import_info: Mapping[str, Any] = field(default_factory=dict)  # manifest "import"

    @property
    def levels(self) -> tuple[str, ...]:
        """Judgement levels in manifest order; the first is the default."""
        return tuple(self.qrels_by_level)

    @property
    def qrels(self) -> Judgements:
        """``{query_id: {target: relevance}}`` at the selected level (max over nuggets)."""
        return self.qrels_by_level[self.level]

    @property
    def nuggets(self) -> Nuggets:
        """``{query_id: {target: nuggets}}`` at the selected level (queries judged with
        nuggets only; a target's nuggets are those it is judged relevant for)."""
        return self.nuggets_by_level.get(self.level, {})

    @property
    def dream_default(self) -> bool:
        """Whether session ends run Dream during replay (manifest ``timeline.dream``)."""
        return bool(self.timeline.get("dream", False))

    def with_level(self, level: str) -> Dataset:
        """The same dataset judged at another level (e.g. "session" or "turn")."""
        if level not in self.qrels_by_level:
            raise DatasetError(unknown_name("judgement level", level, self.qrels_by_level))
        return dataclasses.replace(self, level=level)

    def query(self, query_id: str) -> Query:
        for q in self.queries:
            if q.query_id == query_id:
                return q
        raise DatasetError(unknown_name("query", query_id, [q.query_id for q in self.queries]))

    def queries_in(self, group: str) -> tuple[Query, ...]:
        if group not in self.groups:
            raise DatasetError(unknown_name("group", group, self.groups))
        return tuple(q for q in self.queries if q.group == group)

    def group_of(self, query_id: str) -> MemoryGroup:
        return self.groups[self.query(query_id).group]

    def judged(self, query_id: str) -> bool:
        """True if the query has at least one positive judgement at this level."""
        return any(g > 0 for g in self.qrels.get(query_id, {}).values())

    def select(
        self,
        *,
        categories: Collection[str] | None = None,
        exclude_tags: Collection[str] = (),
        abstention: bool | None = None,
        where: Callable[[Query], bool] | None = None,
    ) -> Dataset:
        """A copy keeping only the queries that pass every filter given.

        Example (the official LongMemEval retrieval protocol):
        ``ds.select(abstention=False, exclude_tags={"no-user-evidence"})``.
        """

        def keep(q: Query) -> bool:
            if categories is not None and q.category not in categories:
                return False
            if set(q.tags) & set(exclude_tags):
                return False
            if abstention is not None and q.abstention != abstention:
                return False
            return where is None or where(q)

        queries = tuple(q for q in self.queries if keep(q))
        ids = {q.query_id for q in queries}
        qrels = {
            level: {qid: j for qid, j in judged.items() if qid in ids}
            for level, judged in self.qrels_by_level.items()
        }
        nuggets = {
            level: {qid: n for qid, n in judged.items() if qid in ids}
            for level, judged in self.nuggets_by_level.items()
        }
        return dataclasses.replace(
            self, queries=queries, qrels_by_level=qrels, nuggets_by_level=nuggets
        )
