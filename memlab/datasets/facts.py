"""facts.jsonl of format 2: fact labels kept outside the indexed text.

``{"fact": "f001", "group"?: G, "path": P, "text": "exact single-line substring"}``.
A target ``fact:f001`` resolves, at each query's time, to every chunk of the
query's group whose text contains ``text`` — wherever the text is then (a
session log, or ``MEMORY.md`` after Dream copied it there). ``path`` is where it
is first written; the check is that the text occurs in some version of that
file. A fact without ``group`` belongs to every group whose index reads ``path``.

A format 2 dataset must not contain ``<!-- fact:ID -->`` markers: their words
would be indexed (format 1 keeps them, and resolves fact targets by marker).
"""

from __future__ import annotations

from memlab.datasets.fields import Record
from memlab.datasets.groups import GroupInfo
from memlab.datasets.model import FACTS, FactText
from memlab.datasets.problems import ValidationReport
from memlab.datasets.reader import RawDataset
from memlab.datasets.scan import in_scope
from memlab.datasets.targets import FACT_ID_RE, check_path


def check_markers(groups: dict[str, GroupInfo], report: ValidationReport) -> None:
    """Every ``<!-- fact:ID -->`` marker in a format 2 memory tree is an error."""
    seen: set[str] = set()
    for group in groups.values():
        for rel, scanned in sorted(group.files.items()):
            shown = f"{group.root_rel}/{rel}"
            for fact, line in scanned.markers if shown not in seen else ():
                what = f"fact marker '<!-- fact:{fact} -->' in a format 2 dataset"
                fix = "remove it (markers are indexed text); label the fact in facts.jsonl"
                report.add("bad_facts", shown, line, what, fix)
            seen.add(shown)
        group.facts.clear()


def check_facts(raw: RawDataset, groups: dict[str, GroupInfo], report: ValidationReport) -> None:
    """Fill every group's ``fact_texts`` (and ``facts``: where each is first written)."""
    for rec in raw.facts or []:
        fact = _fact(rec, bool(raw.groups), groups, report)
        if fact is None:
            continue
        fid, text, path, owners = fact
        found = False
        for group in owners:
            if fid in group.fact_texts:
                what = f"fact '{fid}' is defined twice for group '{group.id}'"
                report.add("duplicate_ids", FACTS, rec.line, what, "keep one line")
                continue
            when = group.first_seen(path, text)
            found = found or when is not None
            group.fact_texts[fid] = FactText(path, text)
            group.facts[fid] = [(path, _line_of(group, path, text))]
        if not found:
            what = f"the text of fact '{fid}' is not found in any version of '{path}'"
            fix = "copy the text exactly (one line) from what the file holds at some time"
            report.add("bad_facts", FACTS, rec.line, what, fix)


def _fact(
    rec: Record, grouped: bool, groups: dict[str, GroupInfo], report: ValidationReport
) -> tuple[str, str, str, list[GroupInfo]] | None:
    fid, gid, path, text = (rec.get(k) for k in ("fact", "group", "path", "text"))
    line = rec.line
    if not FACT_ID_RE.fullmatch(fid):
        what = f"fact id '{fid}' is not an id"
        report.add("bad_fields", FACTS, line, what, "use letters, digits and . _ - (e.g. f017)")
        return None
    problem = check_path(path)
    if problem:
        report.add("bad_fields", FACTS, line, problem, "use a path relative to the memory root")
        return None
    if "\n" in text or "\r" in text:
        what = f"the text of fact '{fid}' spans several lines"
        report.add("bad_fields", FACTS, line, what, "label one line (a substring of it)")
        return None
    if gid is not None:
        group = groups.get(gid)
        if group is None:
            fix = "use a group id from manifest.json" if grouped else "drop 'group'"
            report.add("unknown_groups", FACTS, line, f"unknown group '{gid}'", fix)
            return None
        owners = [group]
    else:
        owners = [g for g in groups.values() if in_scope(path, g.workspace)]
    owners = [g for g in owners if in_scope(path, g.workspace)]
    if not owners:
        what = f"'{path}' is not a memory file of {'group ' + gid if gid else 'any group'}"
        report.add("unknown_targets", FACTS, line, what, "fix the path or the group")
        return None
    return fid, text, path, owners


def _line_of(group: GroupInfo, path: str, text: str) -> int:
    """The 1-based line of ``text`` in the first version of ``path`` holding it (0: none)."""
    for _, version in group.versions.get(path, ()):
        if text in version:
            return version[: version.index(text)].count("\n") + 1
    return 0
