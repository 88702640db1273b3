"""Memory groups of a dataset: their roots, workspaces, files and per-file times."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from memlab.datasets.model import DEFAULT_GROUP, FILES, GROUPS_DIR, MANIFEST, MEMORY_DIR
from memlab.datasets.problems import Severity, ValidationReport
from memlab.datasets.reader import RawDataset, Record
from memlab.datasets.scan import ScannedFile, scan_memory, workspace_dirs
from memlab.datasets.targets import check_path
from memlab.timefmt import format_iso


@dataclass
class GroupInfo:
    id: str
    root: Path
    root_rel: str  # relative to the dataset folder
    workspace: str | None
    as_of: float
    files: dict[str, ScannedFile]
    facts: dict[str, list[tuple[str, int]]] = field(default_factory=dict)
    created_at: dict[str, float] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for rel, scanned in sorted(self.files.items()):
            for fact, line in scanned.markers:
                self.facts.setdefault(fact, []).append((rel, line))


def _pick_workspace(
    root: Path, root_rel: str, named: str | None, gid: str, report: ValidationReport
) -> tuple[bool, str | None]:
    found = workspace_dirs(root)
    if named is not None and named not in found:
        where = f"group '{gid}': workspace '{named}' is not a directory of {root_rel}"
        report.add("bad_fields", MANIFEST, None, where, f"use one of: {', '.join(found) or 'none'}")
        return False, None
    if named is None and len(found) > 1:
        several = f"group '{gid}': {root_rel} holds several workspaces ({', '.join(found)})"
        fix = 'name the one to index with "workspace" in a groups entry'
        report.add("bad_fields", MANIFEST, None, several, fix)
        return False, None
    return True, named if named is not None else (found[0] if found else None)


def _roots(dataset_dir: Path, raw: RawDataset, report: ValidationReport) -> list[tuple[Any, ...]]:
    """(group id, root relative to the dataset, as_of, named workspace) of every group."""
    as_of = raw.manifest.get("as_of")
    entries = [(g.get("id"), g.get("as_of", as_of), g.get("workspace")) for g in raw.groups]
    warn: Severity = "warning"
    if not entries:
        if (dataset_dir / GROUPS_DIR).exists():
            fix = "list the groups in manifest.json or remove groups/"
            report.add("ignored_files", GROUPS_DIR, None, "ignored: no groups listed", fix, warn)
        return [(DEFAULT_GROUP, MEMORY_DIR, as_of, None)]
    if (dataset_dir / MEMORY_DIR).exists():
        fix = "move it to groups/<id>/memory/ or remove it"
        report.add(
            "ignored_files", MEMORY_DIR, None, "ignored: the manifest lists groups", fix, warn
        )
    listed = {gid for gid, _, _ in entries}
    for extra in workspace_dirs(dataset_dir / GROUPS_DIR):
        if extra not in listed:
            fix = "add the group to manifest.json or remove the directory"
            report.add(
                "ignored_files", f"{GROUPS_DIR}/{extra}", None, "not a listed group", fix, warn
            )
    return [(gid, f"{GROUPS_DIR}/{gid}/{MEMORY_DIR}", t, ws) for gid, t, ws in entries]


def load_groups(
    dataset_dir: Path, raw: RawDataset, report: ValidationReport
) -> dict[str, GroupInfo]:
    """The memory groups with their scanned in-scope files."""
    groups: dict[str, GroupInfo] = {}
    for gid, root_rel, as_of, named in _roots(dataset_dir, raw, report):
        root = dataset_dir / root_rel
        if not root.is_dir():
            what = f"memory root of group '{gid}' is missing"
            report.add("missing_files", root_rel, None, what, f"create {root_rel}/ (SPEC §1)")
            continue
        ok, workspace = _pick_workspace(root, root_rel, named, gid, report)
        if ok:
            files = scan_memory(root, root_rel, workspace, report)
            groups[gid] = GroupInfo(gid, root, root_rel, workspace, as_of, files)
    return groups


def check_files(raw: RawDataset, groups: dict[str, GroupInfo], report: ValidationReport) -> None:
    """Fill each group's ``created_at`` from files.jsonl (or its as_of when there is none)."""
    if raw.files is None:
        for g in groups.values():
            g.created_at = dict.fromkeys(g.files, g.as_of)
        return
    for rec in raw.files:
        _file_record(rec, bool(raw.groups), groups, report)
    for group in groups.values():
        for rel in sorted(set(group.files) - set(group.created_at)):
            fix = f'add {{"path": "{rel}", "created_at": ...}} to files.jsonl'
            shown = f"{group.root_rel}/{rel}"
            report.add("unlisted_files", shown, None, "not listed in files.jsonl", fix)
            group.created_at[rel] = group.as_of


def _file_record(
    rec: Record, grouped: bool, groups: dict[str, GroupInfo], report: ValidationReport
) -> None:
    gid, path, line = rec.get("group"), rec.get("path"), rec.line
    if grouped and gid is None:
        report.add("bad_fields", FILES, line, "missing field 'group'", "name the file's group")
        return
    gid = gid if grouped or gid is not None else DEFAULT_GROUP
    group = groups.get(gid)
    if group is None:
        fix = "use a group id from manifest.json" if grouped else "drop 'group' (one memory)"
        report.add("unknown_groups", FILES, line, f"unknown group '{gid}'", fix)
        return
    problem = check_path(path)
    if problem:
        report.add("bad_fields", FILES, line, problem, "use a path relative to the memory root")
    elif path not in group.files:
        what = f"'{path}' is not a memory file of {group.root_rel}"
        report.add(
            "missing_files", FILES, line, what, "add the file, fix the path or drop the line"
        )
    elif path in group.created_at:
        report.add("duplicate_ids", FILES, line, f"'{path}' is listed twice", "keep one line")
    else:
        group.created_at[path] = created = rec.get("created_at")
        if created > group.as_of:
            what = (
                f"created_at {format_iso(created)} is after the as_of "
                f"{format_iso(group.as_of)} of group '{gid}'"
            )
            fix = "date the file at or before as_of, or move as_of later"
            report.add("future_timestamps", FILES, line, what, fix, "warning")
