"""Cross-file checks of queries, targets and qrels (memory groups: ``groups``)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from memlab.datasets.fields import Record
from memlab.datasets.groups import GroupInfo
from memlab.datasets.jsonl import decode_lines
from memlab.datasets.model import DEFAULT_GROUP, QUERIES, Query
from memlab.datasets.problems import ValidationReport
from memlab.datasets.reader import RawDataset
from memlab.datasets.targets import parse_target
from memlab.datasets.trec import parse_qrels
from memlab.datasets.untrusted import MAX_TABLE_BYTES, read_optional


def target_problem(target: str, group: GroupInfo, v2: bool = False) -> str | None:
    """Why ``target`` does not exist in ``group``'s memory, or None if it does.

    Format 2: a fact is a facts.jsonl label and a path or span may name any file
    the timeline writes (at its longest version)."""
    try:
        parsed = parse_target(target)
    except ValueError as exc:
        return str(exc)
    if parsed.fact is not None:
        if v2:
            known = parsed.fact in group.fact_texts
            return (
                None
                if known
                else f"fact '{parsed.fact}' of group '{group.id}' is not in facts.jsonl"
            )
        return (
            None
            if parsed.fact in group.facts
            else (f"no '<!-- fact:{parsed.fact} -->' marker in the memory of group '{group.id}'")
        )
    path = parsed.path or ""
    if path not in group.files and not (v2 and path in group.created_at):
        return f"'{parsed.path}' is not an indexed memory file of group '{group.id}'"
    lines = group.n_lines(path) if v2 else group.files[path].n_lines
    if parsed.end_line is not None and parsed.end_line > lines:
        return f"line span ends at {parsed.end_line} but '{parsed.path}' has {lines} lines"
    return None


def first_seen(target: str, group: GroupInfo) -> float | None:
    """Format 2: when ``target`` first exists in the group's timeline (None: never)."""
    parsed = parse_target(target)
    if parsed.fact is not None:
        fact = group.fact_texts[parsed.fact]
        return group.first_seen(fact.path, fact.text)
    return group.created_at.get(parsed.path or "")


def check_queries(
    raw: RawDataset, groups: dict[str, GroupInfo], report: ValidationReport
) -> list[Query]:
    """The valid queries; duplicates, unknown groups and bad stale targets are reported."""
    queries: list[Query] = []
    seen: set[str] = set()
    for rec in raw.queries:
        qid = rec.get("query_id")
        if qid in seen:
            what, fix = f"query_id '{qid}' is used twice", "give every query its own id"
            report.add("duplicate_ids", QUERIES, rec.line, what, fix)
            continue
        seen.add(qid)
        query = _query(rec, bool(raw.groups), groups, report, raw.version >= 2)
        if query is not None:
            queries.append(query)
    return queries


def _query(
    rec: Record, grouped: bool, groups: dict[str, GroupInfo], report: ValidationReport, v2: bool
) -> Query | None:
    line = rec.line
    gid = rec.get("group", None if grouped else DEFAULT_GROUP)
    if gid is None:
        report.add("bad_fields", QUERIES, line, "missing field 'group'", "name its memory group")
        return None
    group = groups.get(gid)
    if group is None:
        fix = "use a group id from manifest.json" if grouped else "drop 'group'"
        report.add("unknown_groups", QUERIES, line, f"unknown group '{gid}'", fix)
        return None
    stale = rec.get("stale_targets", ())
    for target in stale:
        problem = target_problem(target, group, v2)
        if problem:
            what = f"stale target: {problem}"
            report.add("unknown_targets", QUERIES, line, what, "fix or drop the target")
    as_of = rec.get("as_of", group.as_of)
    newer = (
        0 if v2 or "as_of" not in rec.values else sum(t > as_of for t in group.created_at.values())
    )
    if newer:  # format 2 replays up to each as_of
        what = f"{newer} file(s) of group '{gid}' are dated after this query's as_of"
        fix = "replay only files up to the query's as_of, or drop the query's as_of"
        report.add("future_timestamps", QUERIES, line, what, fix, "warning")
    return Query(
        query_id=rec.get("query_id"),
        text=rec.get("text"),
        group=gid,
        as_of=as_of,
        category=rec.get("category"),
        tags=rec.get("tags", ()),
        abstention=rec.get("abstention", False),
        stale_targets=tuple(stale),
        answer=rec.get("answer"),
        answer_at=rec.get("answer_at"),
        origin_id=rec.get("origin_id"),
    )


Levels = dict[str, dict[str, dict[str, int]]]
NuggetLevels = dict[str, dict[str, dict[str, frozenset[int]]]]


def check_qrels(
    dataset_dir: Path,
    raw: RawDataset,
    groups: dict[str, GroupInfo],
    queries: list[Query],
    report: ValidationReport,
) -> tuple[Levels, NuggetLevels]:
    """Judgements (max over nuggets) and nuggets per level, keeping only valid rows."""
    by_id = {q.query_id: q for q in queries}
    v2 = raw.version >= 2
    levels: Levels = {}
    nuggets: NuggetLevels = {}
    for level, name in raw.levels:
        judged: dict[str, dict[str, int]] = levels.setdefault(level, {})
        rows: dict[tuple[str, str, int], int] = {}
        data = read_optional(dataset_dir / name, dataset_dir, MAX_TABLE_BYTES)
        if data is None:
            report.add(
                "missing_files",
                name,
                None,
                f"qrels file of level '{level}' is missing",
                "create it (it may be empty)",
            )
            continue
        for line, qid, target, grade, column in parse_qrels(
            decode_lines(data, name, report), name, report
        ):
            nugget = _nugget(column, name, line, report) if v2 else 0
            if nugget is None:
                continue
            row = _Row(name, line, qid, target, grade, nugget)
            _check_row(row, by_id.get(qid), groups, rows, report, v2)
        _collect(rows, judged, nuggets.setdefault(level, {}), name, report)
        for q in queries:
            if not q.abstention and not any(g > 0 for g in judged.get(q.query_id, {}).values()):
                report.add(
                    "unjudged_queries",
                    name,
                    None,
                    f"query '{q.query_id}' has nothing relevant",
                    'judge a target, or flag the query "abstention": true',
                    "warning",
                )
        if v2:
            _future_targets(name, judged, by_id, groups, report)
    return levels, {lv: n for lv, n in nuggets.items() if n}


@dataclass(frozen=True)
class _Row:
    file: str
    line: int
    qid: str
    target: str
    grade: int
    nugget: int


def _nugget(column: str, name: str, line: int, report: ValidationReport) -> int | None:
    if column.isascii() and column.isdigit():
        return int(column)
    what = f"nugget '{column}' is not a non-negative integer"
    report.add("malformed_lines", name, line, what, "write 0 (no nugget) or a nugget number")
    return None


def _check_row(
    row: _Row,
    query: Query | None,
    groups: dict[str, GroupInfo],
    rows: dict[tuple[str, str, int], int],
    report: ValidationReport,
    v2: bool,
) -> None:
    name, line, qid = row.file, row.line, row.qid
    if query is None:
        report.add(
            "unknown_queries",
            name,
            line,
            f"query '{qid}' is not in queries.jsonl",
            "add the query or drop the line",
        )
        return
    problem = target_problem(row.target, groups[query.group], v2)
    if problem:
        report.add("unknown_targets", name, line, problem, "point the target at existing text")
    elif row.grade < 0:
        report.add("bad_fields", name, line, f"relevance {row.grade} is negative", "use 0, 1 or 2")
    elif row.grade > 0 and query.abstention:
        report.add(
            "bad_fields",
            name,
            line,
            f"abstention query '{qid}' has a relevant target",
            "drop the judgement or the abstention flag",
        )
    elif (qid, row.target, row.nugget) in rows:
        report.add(
            "duplicate_ids", name, line, f"'{qid} {row.target}' is judged twice", "keep one line"
        )
    else:
        rows[(qid, row.target, row.nugget)] = row.grade


def _collect(
    rows: dict[tuple[str, str, int], int],
    judged: dict[str, dict[str, int]],
    nuggets: dict[str, dict[str, frozenset[int]]],
    name: str,
    report: ValidationReport,
) -> None:
    """Grades (max over a target's nuggets) and, for queries judged with nuggets, the
    nuggets of every positive target (each needs one)."""
    with_nuggets = {q for (q, _, n), g in rows.items() if n > 0}
    for (qid, target, nugget), grade in rows.items():
        grades = judged.setdefault(qid, {})
        grades[target] = max(grade, grades.get(target, grade))
        if qid in with_nuggets and grade > 0:
            if nugget == 0:
                what = f"query '{qid}' is judged with nuggets but '{target}' has none"
                fix = "give every relevant target of this query a nugget number"
                report.add("bad_fields", name, None, what, fix)
                continue
            held = nuggets.setdefault(qid, {}).get(target, frozenset())
            nuggets[qid][target] = held | {nugget}


def _future_targets(
    name: str,
    judged: dict[str, dict[str, int]],
    queries: dict[str, Query],
    groups: dict[str, GroupInfo],
    report: ValidationReport,
) -> None:
    """Format 2: a relevant target first written after its query's as_of cannot answer it."""
    for qid, grades in judged.items():
        query = queries[qid]
        for target, grade in grades.items():
            when = first_seen(target, groups[query.group]) if grade > 0 else None
            if when is not None and when > query.as_of:
                what = f"'{target}' (relevant to '{qid}') is first written after the query's as_of"
                fix = "ask the query later, or judge what exists at its time"
                report.add("future_timestamps", name, None, what, fix, "warning")
