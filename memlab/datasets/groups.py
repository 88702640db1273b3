"""Memory groups of a dataset: their roots, workspaces, files and per-file times.

Several groups may share one root (format 2) and index different workspaces of
it; the root is scanned once, and a file is ignored only if no group reads it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any

from memlab.datasets.fields import Record
from memlab.datasets.model import (
    DEFAULT_GROUP,
    FILES,
    GROUPS_DIR,
    MANIFEST,
    MEMORY_DIR,
    VERSIONS_DIR,
    Event,
    FactText,
    simulate_versions,
)
from memlab.datasets.problems import Severity, ValidationReport
from memlab.datasets.reader import RawDataset
from memlab.datasets.scan import ScannedFile, count_lines, in_scope, scan_memory, workspace_dirs
from memlab.datasets.targets import check_path
from memlab.datasets.untrusted import dataset_subdir, read_memory_text
from memlab.read_memo import MEMORY_FILES
from memlab.store.records import split_records
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
    events: tuple[Event, ...] = ()  # replay order
    fact_texts: dict[str, FactText] = field(default_factory=dict)  # format 2
    origin_ids: dict[str, str] = field(default_factory=dict)  # files.jsonl origin_id
    record_ids: dict[str, tuple[str, ...]] = field(default_factory=dict)  # files.jsonl
    _versions: dict[str, list[tuple[float, str]]] | None = field(default=None, repr=False)

    def __post_init__(self) -> None:
        for rel, scanned in sorted(self.files.items()):
            for fact, line in scanned.markers:
                self.facts.setdefault(fact, []).append((rel, line))

    @property
    def versions(self) -> dict[str, list[tuple[float, str]]]:
        """(time, text) of every version of every path over the timeline (no Dream)."""
        if self._versions is None:
            self._versions = simulate_versions(self.events)
        return self._versions

    def n_lines(self, rel: str) -> int:
        """The most lines ``rel`` ever has (its tree file or any version)."""
        counts = [count_lines(text) for _, text in self.versions.get(rel, ())]
        if rel in self.files:
            counts.append(self.files[rel].n_lines)
        return max(counts, default=0)

    def first_seen(self, rel: str, text: str | None = None) -> float | None:
        """When ``rel`` is first written (holding ``text``, if given); None: never."""
        return next((t for t, v in self.versions.get(rel, ()) if text is None or text in v), None)


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


def root_problem(root: object) -> str | None:
    """Why a group's ``root`` is not a usable dataset-relative directory, or None."""
    if not isinstance(root, str) or "\\" in root or root.startswith("/"):
        return f"root {root!r} must be a dataset-relative POSIX directory"
    parts = PurePosixPath(root).parts
    if not parts or any(p in ("", ".", "..") for p in parts) or parts[0] == VERSIONS_DIR:
        return f"root '{root}' must not be empty, contain '.' or '..', or lie under versions/"
    return None


def _roots(dataset_dir: Path, raw: RawDataset, report: ValidationReport) -> list[tuple[Any, ...]]:
    """(group id, root relative to the dataset, as_of, named workspace) of every group."""
    as_of = raw.manifest.get("as_of")
    warn: Severity = "warning"
    if not raw.groups:
        if (dataset_dir / GROUPS_DIR).exists():
            fix = "list the groups in manifest.json or remove groups/"
            report.add("ignored_files", GROUPS_DIR, None, "ignored: no groups listed", fix, warn)
        return [(DEFAULT_GROUP, MEMORY_DIR, as_of, None)]
    entries = []
    for g in raw.groups:
        root = g.get("root", f"{GROUPS_DIR}/{g.get('id')}/{MEMORY_DIR}")
        problem = root_problem(root)
        if problem:
            report.add("bad_fields", MANIFEST, None, f"group '{g.get('id')}': {problem}", "fix it")
            continue
        entries.append(
            (g.get("id"), PurePosixPath(root).as_posix(), g.get("as_of", as_of), g.get("workspace"))
        )
    used = {root for _, root, _, _ in entries}
    if (dataset_dir / MEMORY_DIR).exists() and not any(
        r == MEMORY_DIR or r.startswith(MEMORY_DIR + "/") for r in used
    ):
        fix = "move it to groups/<id>/memory/ or remove it"
        report.add(
            "ignored_files", MEMORY_DIR, None, "ignored: the manifest lists groups", fix, warn
        )
    for extra in workspace_dirs(dataset_dir / GROUPS_DIR):
        mine = f"{GROUPS_DIR}/{extra}"
        if not any(r == mine or r.startswith(mine + "/") for r in used):
            fix = "add the group to manifest.json or remove the directory"
            report.add("ignored_files", mine, None, "not a listed group", fix, warn)
    return entries


def load_groups(
    dataset_dir: Path, raw: RawDataset, report: ValidationReport
) -> dict[str, GroupInfo]:
    """The memory groups with their scanned in-scope files (each root scanned once)."""
    picked: dict[str, tuple[str, Any, str | None]] = {}  # gid -> (root_rel, as_of, workspace)
    for gid, root_rel, as_of, named in _roots(dataset_dir, raw, report):
        root = dataset_subdir(dataset_dir / root_rel, dataset_dir)  # refused if it leads out
        if root is None:
            what = f"memory root of group '{gid}' is missing"
            report.add("missing_files", root_rel, None, what, f"create {root_rel}/ (SPEC §1)")
            continue
        ok, workspace = _pick_workspace(root, root_rel, named, gid, report)
        if ok:
            picked[gid] = (root_rel, as_of, workspace)
    scanned: dict[str, dict[str, ScannedFile]] = {}
    MEMORY_FILES.clear()  # the scan keeps this dataset's files for its replay, no other's
    for root_rel in dict.fromkeys(r for r, _, _ in picked.values()):
        workspaces = [ws for r, _, ws in picked.values() if r == root_rel]
        scanned[root_rel] = scan_memory(dataset_dir, root_rel, workspaces, report)
    return {
        gid: GroupInfo(
            gid,
            dataset_dir / root_rel,
            root_rel,
            ws,
            as_of,
            {rel: f for rel, f in scanned[root_rel].items() if in_scope(rel, ws)},
        )
        for gid, (root_rel, as_of, ws) in picked.items()
    }


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
        note_source_ids(group, rec)
        if created > group.as_of:
            what = (
                f"created_at {format_iso(created)} is after the as_of "
                f"{format_iso(group.as_of)} of group '{gid}'"
            )
            fix = "date the file at or before as_of, or move as_of later"
            report.add("future_timestamps", FILES, line, what, fix, "warning")


def note_source_ids(group: GroupInfo, rec: Record) -> None:
    """Keep a files.jsonl line's ``origin_id`` and ``record_ids`` (the first line that
    gives them for a path wins)."""
    path = rec.get("path")
    if rec.get("origin_id") is not None:
        group.origin_ids.setdefault(path, rec.get("origin_id"))
    if rec.get("record_ids") is not None:
        group.record_ids.setdefault(path, tuple(rec.get("record_ids")))


def check_record_ids(groups: dict[str, GroupInfo], report: ValidationReport) -> None:
    """A file's ``record_ids`` name each of its records (``memlab.store.records``) once."""
    for group in groups.values():
        for rel, ids in sorted(group.record_ids.items()):
            if rel not in group.files:
                continue
            text = read_memory_text(group.root, group.root_rel, rel)
            found = len(split_records(text).records)
            shown = f"{group.root_rel}/{rel}"
            if found != len(ids):
                what = f"record_ids lists {len(ids)} ids, the file has {found} records"
                fix = "give one id per turn (a '**speaker**' line), in file order"
                report.add("bad_fields", FILES, None, f"{shown}: {what}", fix)
            elif len(set(ids)) != len(ids):
                report.add("duplicate_ids", FILES, None, f"{shown}: record_ids repeat", "fix it")
