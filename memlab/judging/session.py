"""The judging flow, independent of any screen: what to judge next, and what a key does.

``JudgingSession.open(dataset)`` reads the queries, the pool (``memlab.judging.pool``)
and what is already judged (``memlab.judging.journal``), so judging resumes
where it stopped: ``current()`` is the first candidate, in pool order, of the
first query (in dataset order) that still has one without a grade. Then

* ``grade(0 | 1 | 2, notes)`` saves the grade at once and moves on;
* ``skip()`` leaves the candidate for later (it comes back once everything
  else is judged, and in the next session);
* ``abstain(notes)`` — "nothing relevant": the query becomes an abstention
  query and its remaining candidates are graded 0 (refused while one of its
  candidates is graded relevant);
* ``back()`` shows the last judged candidate again, to change its grade;
* ``add_query(text)`` adds a query and pools it the way the pool was drawn.

The terminal (``memlab.judging.terminal``) and the notebook widget
(``memlab.workbench.judging``) are two views of this one model.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from memlab.datasets import load_dataset
from memlab.datasets.model import MANIFEST
from memlab.datasets.query_file import next_query_id
from memlab.errors import DatasetError, unknown_name
from memlab.judging.journal import Journal
from memlab.judging.pool import (
    DEFAULT_POOL_RUNS,
    Candidate,
    PoolSettings,
    pool_dataset,
    read_pool,
    read_settings,
)
from memlab.timefmt import format_iso

GRADES = {0: "not relevant", 1: "partial", 2: "the answer"}


@dataclass
class QueryInfo:
    query_id: str
    text: str
    group: str
    as_of: float
    abstention: bool = False


@dataclass(frozen=True)
class Item:
    """What the judge is looking at: a query and one of its candidates (None: the query
    has no candidate — no ranker returned anything)."""

    query: QueryInfo
    candidate: Candidate | None
    position: int  # 1-based, among the query's candidates
    count: int  # the query's candidates
    grade: int | None = None  # its grade so far (when shown again with back())


@dataclass(frozen=True)
class Progress:
    judged: int  # pooled candidates with a grade
    total: int  # pooled candidates
    queries_done: int
    queries: int

    def text(self) -> str:
        return (
            f"{self.judged}/{self.total} candidates judged, "
            f"{self.queries_done}/{self.queries} queries done"
        )


def count_progress(
    queries: Sequence[QueryInfo],
    pool: Mapping[str, Sequence[Candidate]],
    grades: Mapping[str, Mapping[str, int]],
) -> Progress:
    """Pooled candidates judged, and queries done (abstention, or every candidate judged)."""
    total = judged = done = 0
    for q in queries:
        cands = pool.get(q.query_id, [])
        graded = grades.get(q.query_id, {})
        n = sum(c.target in graded for c in cands)
        total, judged = total + len(cands), judged + n
        done += q.abstention or (bool(cands) and n == len(cands))
    return Progress(judged, total, done, len(queries))


def dataset_folder(dataset: str | Path) -> Path:
    """The folder of a dataset to judge: it must exist (a shipped dataset's name is not
    enough: judging writes to the folder, so copy a shipped dataset first)."""
    path = Path(dataset).expanduser()
    if not (path / MANIFEST).is_file():
        raise DatasetError(
            f"{dataset} is not a dataset folder (no {MANIFEST}); give the folder that "
            "`memlab dataset from-memory` wrote (judging writes into it)"
        )
    return path.resolve()


@dataclass
class JudgingSession:
    folder: Path
    journal: Journal
    queries: list[QueryInfo]
    groups: tuple[str, ...]
    as_of: float
    pool: dict[str, list[Candidate]] = field(default_factory=dict)
    settings: PoolSettings | None = None
    skipped: set[tuple[str, str]] = field(default_factory=set)
    history: list[tuple[str, str]] = field(default_factory=list)
    messages: list[str] = field(default_factory=list)
    pooler: Callable[[Sequence[str]], None] | None = None
    _revisit: tuple[str, str] | None = None

    @classmethod
    def open(
        cls,
        dataset: str | Path,
        *,
        judge: str | None = None,
        qrels: str | Path | None = None,
        clock: Callable[[], float] = time.time,
        work_dir: str | Path | None = None,
    ) -> JudgingSession:
        folder = dataset_folder(dataset)
        journal = Journal.open(folder, qrels=qrels, judge=judge, clock=clock)
        ds = load_dataset(folder)
        queries = [
            QueryInfo(q.query_id, q.text, q.group, q.as_of, q.abstention) for q in ds.queries
        ]
        session = cls(folder, journal, queries, tuple(ds.groups), ds.as_of)
        session.messages += journal.repaired
        session.reload_pool()

        def pool_them(ids: Sequence[str]) -> None:
            s = session.settings or PoolSettings()
            pool_dataset(
                folder,
                s.runs,
                depth=s.depth,
                seed=s.seed,
                embedder=s.embedder,
                queries=ids,
                work_dir=work_dir,
            )

        session.pooler = pool_them
        return session

    def reload_pool(self) -> None:
        self.pool = read_pool(self.folder)
        self.settings = read_settings(self.folder)

    # ------------------------------------------------------------------ state

    def _info(self, query_id: str) -> QueryInfo:
        for q in self.queries:
            if q.query_id == query_id:
                return q
        raise DatasetError(unknown_name("query", query_id, [q.query_id for q in self.queries]))

    def graded(self, query_id: str) -> dict[str, int]:
        return self.journal.grades.get(query_id, {})

    def unpooled(self) -> list[str]:
        """Queries never pooled (added to queries.jsonl after the last pooling)."""
        done = set(self.settings.queries) if self.settings else set()
        return [q.query_id for q in self.queries if q.query_id not in done | set(self.pool)]

    def pool_missing(self) -> int:
        """Pool the queries that have no pool yet; returns how many."""
        missing = self.unpooled()
        if missing and self.pooler is not None:
            self.pooler(missing)
            self.reload_pool()
        return len(missing)

    def _open_candidates(self, q: QueryInfo, skipped: set[tuple[str, str]]) -> Item | None:
        cands = self.pool.get(q.query_id, [])
        graded = self.graded(q.query_id)
        if not cands:
            pooled = self.settings is not None and q.query_id in self.settings.queries
            if pooled and (q.query_id, "") not in skipped:
                return Item(q, None, 0, 0)
            return None
        for i, c in enumerate(cands, start=1):
            if c.target not in graded and (q.query_id, c.target) not in skipped:
                return Item(q, c, i, len(cands))
        return None

    def current(self) -> Item | None:
        """The next thing to judge (None: everything is judged)."""
        if self._revisit is not None:
            qid, target = self._revisit
            cands = self.pool.get(qid, [])
            for i, c in enumerate(cands, start=1):
                if c.target == target:
                    return Item(self._info(qid), c, i, len(cands), self.graded(qid).get(target))
            self._revisit = None
        for skipped in (self.skipped, set()):
            for q in self.queries:
                if not q.abstention:
                    item = self._open_candidates(q, skipped)
                    if item is not None:
                        return item
        return None

    def progress(self) -> Progress:
        return count_progress(self.queries, self.pool, self.journal.grades)

    # ------------------------------------------------------------------ actions

    def _need(self) -> Item:
        item = self.current()
        if item is None:
            raise DatasetError("nothing left to judge")
        return item

    def grade(self, grade: int, notes: str = "") -> None:
        item = self._need()
        if item.candidate is None:
            raise DatasetError(
                f"query {item.query.query_id} has no candidate to grade; mark it abstention "
                "(nothing relevant) or skip it"
            )
        self.journal.record(item.query.query_id, item.candidate.target, grade, notes)
        self.history.append((item.query.query_id, item.candidate.target))
        self._revisit = None

    def skip(self) -> None:
        item = self._need()
        target = item.candidate.target if item.candidate else ""
        if self._revisit is not None:
            self._revisit = None
            return
        self.skipped.add((item.query.query_id, target))
        self.journal.log("skip", item.query.query_id, target=target)

    def abstain(self, notes: str = "") -> None:
        """The current query: nothing in the memory answers it."""
        item = self._need()
        q = item.query
        relevant = sorted(t for t, g in self.graded(q.query_id).items() if g > 0)
        if relevant:
            raise DatasetError(
                f"query {q.query_id} has a candidate graded relevant ({relevant[0]}); go back "
                "and grade it 0 first, or grade the rest"
            )
        self.journal.mark_abstention(q.query_id)
        targets = [c.target for c in self.pool.get(q.query_id, [])]
        self.journal.record_many(q.query_id, targets, 0)
        self.journal.log("abstention", q.query_id, notes=notes)
        q.abstention = True
        self._revisit = None

    def back(self) -> bool:
        """Show the last candidate judged in this session again (False: none)."""
        if not self.history:
            return False
        self._revisit = self.history.pop()
        return True

    def add_query(self, text: str, *, group: str | None = None, as_of: float | None = None) -> str:
        """Add a query (to the dataset's queries) and pool it; returns its id."""
        text = " ".join(text.split())
        if not text:
            raise DatasetError("a query needs some text")
        if group is None and len(self.groups) > 1:
            raise DatasetError(
                f"this dataset holds several memories ({', '.join(self.groups)}); say which "
                "one the query is asked of"
            )
        group = group or self.groups[0]
        if group not in self.groups:
            raise DatasetError(unknown_name("group", group, self.groups))
        qid = next_query_id([q.query_id for q in self.queries])
        record = {"query_id": qid, "text": text, "group": group}
        if as_of is not None:
            record["as_of"] = format_iso(as_of)
        self.journal.add_query(record)
        self.queries.append(QueryInfo(qid, text, group, as_of if as_of is not None else self.as_of))
        if self.pooler is not None:
            self.pooler([qid])
            self.reload_pool()
        return qid


__all__ = ["DEFAULT_POOL_RUNS", "GRADES", "Item", "JudgingSession", "Progress", "QueryInfo"]
