"""Chunks and targets as a protocol's units, named by the source's own ids.

A ``UnitSpace`` maps, within one dataset and one index (its indexed roles):

* a **file** to its session or document id (files.jsonl ``origin_id``: a
  LongMemEval session id such as ``answer_4be1b6b4_2``, LoCoMo's ``session_3``, a
  BEIR corpus ``_id``);
* a **record** (a turn, ``memlab.store.records``) to its turn id (files.jsonl
  ``record_ids``: ``D1:3``, ``<session id>_<n>``); the turns of speakers the index
  leaves out are no units;
* a **chunk** (its path and line span, as indexed at its query's time) to the
  units it holds: its file, or the indexed turns its span overlaps, in file order;
* a **target** (``path`` or ``path#La-Lb``) to the units it names.

``unit_ranking`` turns a chunk ranking into a unit ranking by first occurrence:
each unit takes the place of the first chunk that holds it (with one record per
chunk, the unit ranking is the chunk ranking, renamed). ``unit_qrels`` gives
every query's judged units with the protocol's cross-level rules, and
``question_set`` the questions scored and why the others are not.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import cast

from memlab.datasets import Dataset, parse_target
from memlab.datasets.untrusted import read_memory_text
from memlab.errors import ConfigError, unknown_name
from memlab.eval.protocols.spec import SESSION, TURN, Protocol
from memlab.store.records import FileRecords, Record, split_records

Span = tuple[str, int, int]  # (path, first line, last line) of a chunk


@dataclass
class UnitSpace:
    dataset: Dataset
    unit: str  # turn | session | document
    roles: tuple[str, ...] = ()  # the indexed speakers (empty: all)
    _records: dict[tuple[str, str], FileRecords] = field(default_factory=dict, repr=False)
    _spans: dict[str, dict[Span, tuple[str, ...]]] = field(
        default_factory=dict, repr=False
    )  # group -> a chunk's span -> its units (chunks recur across queries and runs)

    def file_unit(self, group: str, path: str) -> str:
        return self.dataset.groups[group].origin_ids.get(path, path)

    def records(self, group: str, path: str) -> FileRecords:
        key = (group, path)
        if key not in self._records:
            g = self.dataset.groups[group]
            try:
                text = read_memory_text(g.root, g.root_rel, path)
            except FileNotFoundError:
                text = ""
            self._records[key] = split_records(text)
        return self._records[key]

    def indexed(self, group: str, path: str, record: Record) -> bool:
        """Whether the index holds ``record`` as text (its speaker is indexed)."""
        return (
            not self.roles or not self.records(group, path).labelled or record.label in self.roles
        )

    def record_unit(self, group: str, path: str, record: Record) -> str:
        ids = self.dataset.groups[group].record_ids.get(path, ())
        if record.ordinal < len(ids):
            return ids[record.ordinal]
        return f"{self.file_unit(group, path)}#{record.ordinal + 1}"

    def span_units(self, group: str, path: str, start: int, end: int) -> list[str]:
        """The units of lines ``start..end`` of ``path`` (a chunk's span, a target's)."""
        if self.unit != TURN:
            return [self.file_unit(group, path)]
        return [
            self.record_unit(group, path, r)
            for r in self.records(group, path).overlapping(start, end)
            if self.indexed(group, path, r)
        ]

    def target_units(self, group: str, target: str) -> list[str]:
        t = parse_target(target)
        if t.path is None:  # a fact: no unit of an imported dataset is labelled so
            return []
        if self.unit != TURN:  # the file's own unit, whatever its lines (nothing read)
            return [self.file_unit(group, t.path)]
        if t.start_line is None or t.end_line is None:
            return self.span_units(group, t.path, 1, len(self.records(group, t.path).lines))
        return self.span_units(group, t.path, t.start_line, t.end_line)

    def unit_ranking(self, group: str, spans: Iterable[Span], drop: str | None = None) -> list[str]:
        """Units in the order their first chunk is ranked (``drop``: a unit left out)."""
        spans = list(spans)
        return self.scored_units(group, spans, [0.0] * len(spans), drop)[0]

    def scored_units(
        self, group: str, spans: Sequence[Span], scores: Sequence[float], drop: str | None = None
    ) -> tuple[list[str], list[float]]:
        """``unit_ranking`` with each unit's score: its first chunk's (``scores``: the
        chunks', best first)."""
        cache = self._spans.setdefault(group, {})
        found = list(map(cache.get, spans))  # mostly cached: one C-level pass
        if None in found:
            for span in spans:
                if span not in cache:
                    cache[span] = tuple(self.span_units(group, *span))
            found = list(map(cache.get, spans))
        per_span = cast(list[tuple[str, ...]], found)
        flat = [unit for units in per_span for unit in units]
        pairs = zip(per_span, scores, strict=True)
        flat_scores = [score for units, score in pairs for _ in units]
        first = dict(zip(reversed(flat), reversed(flat_scores), strict=True))  # first scores
        order = dict.fromkeys(flat)  # the units in the order they first occur
        if drop is not None:
            order.pop(drop, None)
        return list(order), [first[unit] for unit in order]


UPSTREAM, TURNS = "upstream", "turns"
EVIDENCE_RULES = {
    UPSTREAM: "every judged session (LongMemEval: every session in answer_session_ids)",
    TURNS: "a session only if it holds an indexed evidence turn (memlab's former rule)",
}


def unit_qrels(
    space: UnitSpace, protocol: Protocol, evidence: str = UPSTREAM
) -> dict[str, dict[str, int]]:
    """``{query_id: {unit: grade}}`` at the space's unit (a unit's grade: the highest of
    the targets naming it), with the cross-level rules: a turn is evidence only in an
    evidence session; at the session unit a question with no indexed evidence turn has
    no evidence (the upstream evaluations skip it), and its sessions are evidence by the
    ``evidence`` rule (``EVIDENCE_RULES``): ``upstream``, every judged session
    (LongMemEval's ``answer_session_ids``), or ``turns``, only those holding an indexed
    evidence turn."""
    if evidence not in EVIDENCE_RULES:
        raise ConfigError(unknown_name("evidence rule", evidence, EVIDENCE_RULES))
    ds = space.dataset
    levels = ds.qrels_by_level
    turn_level, session_level = protocol.level_of(TURN), protocol.level_of(SESSION)
    turns = UnitSpace(ds, TURN, space.roles, space._records)
    out: dict[str, dict[str, int]] = {}
    for q in ds.queries:
        sessions: set[str] | None = None  # evidence files (None: no rule applies)
        if space.unit == TURN and session_level is not None and session_level in levels:
            sessions = _relevant_paths(levels[session_level].get(q.query_id, {}))
        if space.unit == SESSION and turn_level is not None and turn_level in levels:
            sessions = {
                parse_target(t).path or ""
                for t, g in levels[turn_level].get(q.query_id, {}).items()
                if g > 0 and turns.target_units(q.group, t)
            }
            if not sessions:
                continue
            if evidence == UPSTREAM:
                sessions = None
        grades: dict[str, int] = {}
        for target, grade in levels[ds.level].get(q.query_id, {}).items():
            if sessions is not None and parse_target(target).path not in sessions:
                grade = 0
            for unit in space.target_units(q.group, target):
                grades[unit] = max(grade, grades.get(unit, grade))
        if grades:
            out[q.query_id] = grades
    return out


def _relevant_paths(judged: Mapping[str, int]) -> set[str]:
    return {parse_target(t).path or "" for t, g in judged.items() if g > 0}


@dataclass(frozen=True)
class QuestionSet:
    """The questions a protocol scores, and why the others are not."""

    total: int  # questions in the dataset
    scored: tuple[str, ...]
    excluded: Mapping[str, tuple[str, ...]]  # reason -> query ids
    categories: Mapping[str, int]  # scored questions per category
    all_categories: Mapping[str, int]  # every question per category

    def describe(self) -> str:
        parts = [f"{len(ids)} {why}" for why, ids in self.excluded.items() if ids]
        return f"{self.total} questions; scored {len(self.scored)}" + (
            " — not scored: " + "; ".join(parts) if parts else ""
        )


def question_set(
    dataset: Dataset, protocol: Protocol, qrels: Mapping[str, Mapping[str, int]]
) -> QuestionSet:
    scored: list[str] = []
    abstention: list[str] = []
    nothing: list[str] = []
    for q in dataset.queries:
        if q.abstention and protocol.exclude_abstention:
            abstention.append(q.query_id)
        elif not any(g > 0 for g in qrels.get(q.query_id, {}).values()):
            nothing.append(q.query_id)
        else:
            scored.append(q.query_id)
    category = {q.query_id: q.category or "" for q in dataset.queries}
    excluded = {"abstention (excluded)": tuple(abstention), protocol.no_unit: tuple(nothing)}
    return QuestionSet(
        len(dataset.queries),
        tuple(scored),
        {k: v for k, v in excluded.items() if v},
        dict(sorted(Counter(category[q] for q in scored).items())),
        dict(sorted(Counter(category.values()).items())),
    )


def original_query_ids(dataset: Dataset, ids: Sequence[str]) -> dict[str, str]:
    """memlab query id -> the source's id (its ``origin_id`` when the source's was not
    usable as an id)."""
    by_id = {q.query_id: q for q in dataset.queries}
    return {qid: by_id[qid].origin_id or qid for qid in ids}
