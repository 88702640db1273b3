"""Resolve chunk-independent targets to chunks (pure, except ``chunk_group`` which reads files).

Rules, for a chunk record (chunk_id, path, start_line, end_line, text):

* ``path`` matches every chunk of that file;
* ``path#La-Lb`` matches the chunks of that file whose line span overlaps a..b;
* ``fact:<id>`` matches every chunk whose text contains ``<!-- fact:<id> -->``
  (a marker carried into the next chunk's overlap matches that chunk too) — in
  format 2, every chunk whose text contains the fact's text (facts.jsonl).

A chunk gets the maximum grade of the targets it matches. Paths are
root-relative, so chunks must come from the query's own group.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

from memlab.datasets.model import Dataset, FactText, MemoryGroup
from memlab.datasets.targets import FACT_MARKER_RE, Target, parse_target
from memlab.datasets.untrusted import read_memory_text
from memlab.errors import DatasetError, unknown_name
from memlab.store.chunker import chunk_markdown


class ChunkLike(Protocol):
    """Anything with these attributes (``ChunkRecord``, the engine's candidate rows)."""

    @property
    def chunk_id(self) -> str: ...
    @property
    def path(self) -> str: ...
    @property
    def start_line(self) -> int: ...
    @property
    def end_line(self) -> int: ...
    @property
    def text(self) -> str: ...


@dataclass(frozen=True)
class ChunkRecord:
    chunk_id: str  # "<root-relative path>:<i>", as the engine names chunks
    path: str
    start_line: int  # 1-based, inclusive
    end_line: int
    text: str
    source: str  # "global" | "workspace" | "session" (SPEC §1)
    created_at: float


def chunk_group(
    group: MemoryGroup, *, max_bytes: int = 1600, overlap_chars: int = 320
) -> list[ChunkRecord]:
    """Chunk every file a group's index covers, in path order, with ``chunk_markdown``
    (the memory tree's content: in format 2 the final version of each file)."""
    layout = group.layout
    records: list[ChunkRecord] = []
    for rel in sorted(group.created_at):
        text = read_memory_text(group.root, group.root_rel, rel)
        source = layout.classify_source(rel)
        for i, chunk in enumerate(chunk_markdown(text, max_bytes, overlap_chars)):
            records.append(
                ChunkRecord(
                    f"{rel}:{i}",
                    rel,
                    chunk.start_line,
                    chunk.end_line,
                    chunk.text,
                    source,
                    group.created_at[rel],
                )
            )
    return records


def _matches(target: Target, chunk: ChunkLike, facts: set[str]) -> bool:
    if target.fact is not None:
        return target.fact in facts
    if chunk.path != target.path:
        return False
    if target.start_line is None or target.end_line is None:
        return True
    return chunk.start_line <= target.end_line and target.start_line <= chunk.end_line


class ChunkIndex:
    """The chunks of one memory state with lookups by path, fact marker and id, so that
    many targets (every query asked while the memory does not change) resolve without
    scanning every chunk again."""

    def __init__(self, chunks: Sequence[ChunkLike]) -> None:
        self.chunks = chunks
        self.by_path: dict[str, list[ChunkLike]] = {}
        self.position: dict[str, int] = {}  # chunk id -> its place in ``chunks``
        self._by_marker: dict[str, list[str]] = {}
        self._by_text: dict[str, list[str]] = {}  # a format-2 fact's text -> chunk ids
        for i, chunk in enumerate(chunks):
            self.by_path.setdefault(chunk.path, []).append(chunk)
            self.position[chunk.chunk_id] = i
            if "<!-- fact:" in chunk.text:
                for fact in dict.fromkeys(m.group(1) for m in FACT_MARKER_RE.finditer(chunk.text)):
                    self._by_marker.setdefault(fact, []).append(chunk.chunk_id)

    def resolve(
        self, targets: Iterable[str], facts: Mapping[str, FactText] | None = None
    ) -> dict[str, list[str]]:
        """See ``resolve_targets``."""
        facts = facts or {}
        out: dict[str, list[str]] = {}
        for raw in targets:
            target = parse_target(raw)
            if target.fact is not None and target.fact in facts:
                text = facts[target.fact].text
                if text not in self._by_text:
                    self._by_text[text] = [c.chunk_id for c in self.chunks if text in c.text]
                out[raw] = list(self._by_text[text])
            elif target.fact is not None:
                out[raw] = list(self._by_marker.get(target.fact, []))
            else:
                out[raw] = [
                    c.chunk_id
                    for c in self.by_path.get(target.path or "", [])
                    if _matches(target, c, set())
                ]
        return out


def resolve_targets(
    targets: Iterable[str],
    chunks: Sequence[ChunkLike] | ChunkIndex,
    facts: Mapping[str, FactText] | None = None,
) -> dict[str, list[str]]:
    """``{target: [chunk ids in chunk order]}`` (an unmatched target maps to ``[]``).

    ``facts`` (format 2) gives each fact's text; a fact not in it resolves by marker.
    ``chunks`` may be a ``ChunkIndex`` built once for many calls."""
    index = chunks if isinstance(chunks, ChunkIndex) else ChunkIndex(chunks)
    return index.resolve(targets, facts)


def _group_id(dataset: Dataset, group: str | None) -> str:
    if group is None:
        if len(dataset.groups) != 1:
            raise DatasetError(
                f"dataset {dataset.name} has {len(dataset.groups)} memory groups; "
                "pass group=<id> with the chunks of that group"
            )
        return next(iter(dataset.groups))
    if group not in dataset.groups:
        raise DatasetError(unknown_name("group", group, dataset.groups))
    return group


def resolve_qrels(
    dataset: Dataset,
    chunks: Sequence[ChunkLike],
    *,
    group: str | None = None,
    level: str | None = None,
) -> dict[str, dict[str, int]]:
    """``{query_id: {chunk_id: relevance}}`` for the judged queries of one group.

    Every query with judgements at the level appears, even if none of its targets
    matched a chunk (then with ``{}``); grade-0 judgements are kept (judged
    non-relevant). ``level`` defaults to the dataset's selected level.
    """
    gid = _group_id(dataset, group)
    judged: Mapping[str, Mapping[str, int]] = (
        dataset.qrels if level is None else dataset.with_level(level).qrels
    )
    wanted = {q.query_id for q in dataset.queries if q.group == gid and q.query_id in judged}
    facts = dataset.fact_texts.get(gid)
    resolved = resolve_targets({t for qid in wanted for t in judged[qid]}, chunks, facts)
    out: dict[str, dict[str, int]] = {}
    for q in dataset.queries:
        if q.query_id not in wanted:
            continue
        grades: dict[str, int] = {}
        for target, grade in judged[q.query_id].items():
            for chunk_id in resolved[target]:
                grades[chunk_id] = max(grade, grades.get(chunk_id, grade))
        out[q.query_id] = grades
    return out


def resolve_stale_targets(
    dataset: Dataset, chunks: Sequence[ChunkLike], *, group: str | None = None
) -> dict[str, list[str]]:
    """``{query_id: [chunk ids holding a superseded answer]}`` for queries with stale targets."""
    gid = _group_id(dataset, group)
    queries = [q for q in dataset.queries if q.group == gid and q.stale_targets]
    facts = dataset.fact_texts.get(gid)
    resolved = resolve_targets({t for q in queries for t in q.stale_targets}, chunks, facts)
    out: dict[str, list[str]] = {}
    for q in queries:
        ids = [cid for t in q.stale_targets for cid in resolved[t]]
        out[q.query_id] = list(dict.fromkeys(ids))
    return out


def qrels_by_file(
    dataset: Dataset, *, group: str | None = None, level: str | None = None
) -> dict[str, dict[str, int]]:
    """``{query_id: {path: relevance}}``: judgements at file granularity (max over targets).

    For metrics over whole memory files, e.g. LongMemEval's session-level recall:
    pair it with ``run_by_file``. Fact targets count for every file holding the marker.
    """
    gid = _group_id(dataset, group)
    judged = dataset.qrels if level is None else dataset.with_level(level).qrels
    facts = dataset.facts.get(gid, {})
    out: dict[str, dict[str, int]] = {}
    for q in dataset.queries:
        if q.group != gid or q.query_id not in judged:
            continue
        grades: dict[str, int] = {}
        for raw, grade in judged[q.query_id].items():
            target = parse_target(raw)
            paths = (
                [p for p, _ in facts.get(target.fact, ())] if target.fact else [target.path or ""]
            )
            for path in paths:
                grades[path] = max(grade, grades.get(path, grade))
        out[q.query_id] = grades
    return out


def run_by_file(run: Mapping[str, Mapping[str, float]]) -> dict[str, dict[str, float]]:
    """Collapse a chunk-level run (``"<path>:<i>"`` ids) to files: each file's best score."""
    out: dict[str, dict[str, float]] = {}
    for qid, docs in run.items():
        files: dict[str, float] = {}
        for chunk_id, score in docs.items():
            path = chunk_id.rsplit(":", 1)[0]
            files[path] = max(score, files.get(path, score))
        out[qid] = files
    return out
