"""Cross-file checks of queries, targets and qrels (memory groups: ``groups``)."""

from __future__ import annotations

from pathlib import Path

from memlab.datasets.groups import GroupInfo
from memlab.datasets.jsonl import decode_lines
from memlab.datasets.model import DEFAULT_GROUP, QUERIES, Query
from memlab.datasets.problems import ValidationReport
from memlab.datasets.reader import RawDataset, Record
from memlab.datasets.targets import parse_target
from memlab.datasets.trec import parse_qrels


def target_problem(target: str, group: GroupInfo) -> str | None:
    """Why ``target`` does not exist in ``group``'s memory, or None if it does."""
    try:
        parsed = parse_target(target)
    except ValueError as exc:
        return str(exc)
    if parsed.fact is not None:
        return (
            None
            if parsed.fact in group.facts
            else (f"no '<!-- fact:{parsed.fact} -->' marker in the memory of group '{group.id}'")
        )
    scanned = group.files.get(parsed.path or "")
    if scanned is None:
        return f"'{parsed.path}' is not an indexed memory file of group '{group.id}'"
    if parsed.end_line is not None and parsed.end_line > scanned.n_lines:
        return (
            f"line span ends at {parsed.end_line} but '{parsed.path}' has {scanned.n_lines} lines"
        )
    return None


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
        query = _query(rec, bool(raw.groups), groups, report)
        if query is not None:
            queries.append(query)
    return queries


def _query(
    rec: Record, grouped: bool, groups: dict[str, GroupInfo], report: ValidationReport
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
        problem = target_problem(target, group)
        if problem:
            what = f"stale target: {problem}"
            report.add("unknown_targets", QUERIES, line, what, "fix or drop the target")
    as_of = rec.get("as_of", group.as_of)
    newer = sum(t > as_of for t in group.created_at.values())
    if "as_of" in rec.values and newer:
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
    )


def check_qrels(
    dataset_dir: Path,
    raw: RawDataset,
    groups: dict[str, GroupInfo],
    queries: list[Query],
    report: ValidationReport,
) -> dict[str, dict[str, dict[str, int]]]:
    """Judgements per level, keeping only valid rows; every problem is reported."""
    by_id = {q.query_id: q for q in queries}
    levels: dict[str, dict[str, dict[str, int]]] = {}
    for level, name in raw.levels:
        judged: dict[str, dict[str, int]] = levels.setdefault(level, {})
        path = dataset_dir / name
        if not path.is_file():
            report.add(
                "missing_files",
                name,
                None,
                f"qrels file of level '{level}' is missing",
                "create it (it may be empty)",
            )
            continue
        for line, qid, target, grade in parse_qrels(
            decode_lines(path.read_bytes(), name, report), name, report
        ):
            _check_row(name, line, by_id.get(qid), qid, target, grade, groups, judged, report)
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
    return levels


def _check_row(
    name: str,
    line: int,
    query: Query | None,
    qid: str,
    target: str,
    grade: int,
    groups: dict[str, GroupInfo],
    judged: dict[str, dict[str, int]],
    report: ValidationReport,
) -> None:
    if query is None:
        report.add(
            "unknown_queries",
            name,
            line,
            f"query '{qid}' is not in queries.jsonl",
            "add the query or drop the line",
        )
        return
    problem = target_problem(target, groups[query.group])
    if problem:
        report.add("unknown_targets", name, line, problem, "point the target at existing text")
    elif grade < 0:
        report.add("bad_fields", name, line, f"relevance {grade} is negative", "use 0, 1 or 2")
    elif grade > 0 and query.abstention:
        report.add(
            "bad_fields",
            name,
            line,
            f"abstention query '{qid}' has a relevant target",
            "drop the judgement or the abstention flag",
        )
    elif target in judged.get(qid, {}):
        report.add(
            "duplicate_ids", name, line, f"'{qid} {target}' is judged twice", "keep one line"
        )
    else:
        judged.setdefault(qid, {})[target] = grade
