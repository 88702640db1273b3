"""files.jsonl of format 2: the timeline of every memory group, checked event by event.

Each line is one event (see ``memlab.datasets``); this module parses the lines
into ``Event`` values per group (a shared root's global files go to every group
of that root), sorts them into replay order, marks session ends, and checks
what replay relies on: one action per event, prefixes at character boundaries
and never shrinking, content files that exist, paths inside the group's scope.

``simulate_versions`` replays the events on text (no index, no Dream): every
version each path ever has, used to check fact texts and line spans.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path, PurePosixPath

from memlab.datasets.fields import Record
from memlab.datasets.groups import GroupInfo, note_source_ids
from memlab.datasets.model import FILES, VERSIONS_DIR, Event
from memlab.datasets.problems import ValidationReport
from memlab.datasets.reader import RawDataset
from memlab.datasets.scan import in_scope
from memlab.datasets.targets import FACT_MARKER_RE, check_path
from memlab.datasets.untrusted import (
    MAX_MEMORY_FILE_BYTES,
    dataset_file_exists,
    folder_of,
    read_dataset_file,
    read_optional,
)
from memlab.store.layout import SESSIONS_DIR

ACTIONS = ("bytes", "content", "append", "delete")


def is_session_log(rel: str) -> bool:
    """``<workspace>/sessions/<name>.md``: a file Dream reads and deletes (SPEC §7)."""
    parts: Sequence[str] = rel.split("/")
    if "" in parts or "." in parts:  # not a plain relative path: as PurePosixPath splits it
        parts = PurePosixPath(rel).parts
    return len(parts) == 3 and parts[1] == SESSIONS_DIR and parts[2].endswith(".md")


def check_dataset_file(rel: object) -> str | None:
    """Why ``rel`` is not a usable ``versions/…`` file path, or None."""
    if not isinstance(rel, str) or "\\" in rel or rel.startswith("/"):
        return f"{rel!r} must be a dataset-relative POSIX path under {VERSIONS_DIR}/"
    parts = PurePosixPath(rel).parts
    if len(parts) < 2 or parts[0] != VERSIONS_DIR or any(p in ("", ".", "..") for p in parts):
        return f"'{rel}' must name a file under {VERSIONS_DIR}/ (no '.' or '..')"
    return None


def build_events(
    dataset_dir: Path, raw: RawDataset, groups: dict[str, GroupInfo], report: ValidationReport
) -> None:
    """Fill every group's ``events`` (replay order) and ``created_at`` (first writes)."""
    grouped = bool(raw.groups)
    found: dict[str, list[Event]] = {gid: [] for gid in groups}
    for rec in raw.files or []:
        targets = _targets(rec, grouped, groups, report)
        event = _event(dataset_dir, rec, targets, report) if targets else None
        for group in targets if event is not None else ():
            found[group.id].append(event)  # type: ignore[arg-type]
            note_source_ids(group, rec)
    _check_prefixes(found, groups, report)
    for gid, group in groups.items():
        named = {e.path for e in found[gid]}
        for rel in sorted(set(group.files) - named):
            if raw.files is not None:
                fix = f'add {{"path": "{rel}", "at": ...}} to files.jsonl'
                shown = f"{group.root_rel}/{rel}"
                report.add("unlisted_files", shown, None, "not written by any event", fix)
            found[gid].append(
                Event(group.as_of, rel, "write", group.root / rel, within=dataset_dir)
            )
        group.events = mark_session_ends(sorted(found[gid], key=lambda e: e.order))
        for e in group.events:
            if e.action != "delete":
                group.created_at.setdefault(e.path, e.at)


def _targets(
    rec: Record, grouped: bool, groups: dict[str, GroupInfo], report: ValidationReport
) -> list[GroupInfo]:
    """The groups whose timeline the event belongs to (a shared global file: all of them)."""
    gid, path, line = rec.get("group"), rec.get("path"), rec.line
    if grouped and gid is None:
        report.add("bad_fields", FILES, line, "missing field 'group'", "name the event's group")
        return []
    group = groups.get(gid) if grouped else next(iter(groups.values()), None)
    if group is None:
        fix = "use a group id from manifest.json" if grouped else "drop 'group' (one memory)"
        report.add("unknown_groups", FILES, line, f"unknown group '{gid}'", fix)
        return []
    problem = check_path(path)
    if problem:
        report.add("bad_fields", FILES, line, problem, "use a path relative to the memory root")
        return []
    if not in_scope(path, group.workspace):
        what = f"'{path}' is outside the index scope of group '{group.id}'"
        fix = f"use a global file or a file under {group.workspace or 'its workspace'}/"
        report.add("bad_events", FILES, line, what, fix)
        return []
    if "/" in path:
        return [group]
    return [g for g in groups.values() if g.root_rel == group.root_rel]


def _event(
    dataset_dir: Path, rec: Record, targets: list[GroupInfo], report: ValidationReport
) -> Event | None:
    line, path = rec.line or 0, rec.get("path")
    times = [rec.get(k) for k in ("at", "created_at") if k in rec.values]
    if len(times) != 1:
        report.add("bad_fields", FILES, line, "an event needs 'at'", 'give "at": ISO time')
        return None
    actions = [a for a in ACTIONS if a in rec.values and rec.get(a) is not False]
    if len(actions) > 1:
        what = f"the event has several actions ({', '.join(actions)})"
        report.add("bad_events", FILES, line, what, "split it into one event per action")
        return None
    action = actions[0] if actions else "write"
    end = bool(rec.get("end", False))
    if end and (action == "delete" or not is_session_log(path)):
        what = "'end' marks the last write of a session log (<workspace>/sessions/*.md)"
        report.add("bad_events", FILES, line, what, "drop 'end' from this event")
        return None
    at = float(times[0])
    if action == "delete":
        return Event(at, path, "delete", line=line)
    if action in ("content", "append"):
        source = _versions_file(dataset_dir, rec.get(action), line, report)
        if source is None:
            return None
        kind = "write" if action == "content" else "append"
        return Event(at, path, kind, source, end=end, line=line, within=dataset_dir)
    tree = targets[0].root / path
    if not dataset_file_exists(tree, dataset_dir):
        what = f"no {targets[0].root_rel}/{path}: a write takes its content from the memory tree"
        fix = "add the file's final content to the tree, or write it with 'content'"
        report.add("missing_files", FILES, line, what, fix)
        return None
    nbytes = rec.get("bytes")
    if nbytes is not None and not _prefix_ok(
        read_dataset_file(tree, dataset_dir, MAX_MEMORY_FILE_BYTES), nbytes, line, report
    ):
        return None
    return Event(at, path, "write", tree, nbytes, end, line, dataset_dir)


def _versions_file(
    dataset_dir: Path, rel: object, line: int, report: ValidationReport
) -> Path | None:
    problem = check_dataset_file(rel)
    if problem:
        report.add("bad_fields", FILES, line, problem, "store other contents under versions/")
        return None
    path = dataset_dir / str(rel)
    data = read_optional(path, dataset_dir, MAX_MEMORY_FILE_BYTES)
    if data is None:
        report.add("missing_files", FILES, line, f"versions file '{rel}' is missing", "add it")
        return None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        report.add("bad_utf8", str(rel), None, "not UTF-8", "save the file as UTF-8")
        return None
    if FACT_MARKER_RE.search(text):
        what = "a fact marker in a format 2 dataset (markers are indexed text)"
        report.add("bad_facts", str(rel), None, what, "remove it; label the fact in facts.jsonl")
    return path


def _prefix_ok(data: bytes, nbytes: int, line: int, report: ValidationReport) -> bool:
    if not 0 <= nbytes <= len(data):
        what = f"bytes {nbytes} is outside 0..{len(data)} (the size of the tree's file)"
        report.add("bad_events", FILES, line, what, "give a prefix length within the file")
        return False
    try:
        data[:nbytes].decode("utf-8")
    except UnicodeDecodeError:
        what = f"bytes {nbytes} cuts a UTF-8 character in two"
        report.add("bad_events", FILES, line, what, "cut the prefix at a character boundary")
        return False
    return True


def _check_prefixes(
    found: dict[str, list[Event]], groups: dict[str, GroupInfo], report: ValidationReport
) -> None:
    """A growing log's prefixes never shrink (per path, in replay order)."""
    seen: set[tuple[str, int]] = set()
    for gid, events in found.items():
        last: dict[str, int] = {}
        for e in sorted(events, key=lambda e: e.order):
            if e.nbytes is None:
                continue
            before = last.get(e.path, 0)
            key = (groups[gid].root_rel + "/" + e.path, e.line)
            if e.nbytes < before and key not in seen:
                seen.add(key)
                what = (
                    f"bytes {e.nbytes} of '{e.path}' is smaller than an earlier prefix ({before})"
                )
                fix = "make the prefixes of a growing file non-decreasing in time"
                report.add("bad_events", FILES, e.line, what, fix)
            last[e.path] = max(before, e.nbytes)


def v1_events(group: GroupInfo) -> tuple[Event, ...]:
    """Format 1: each file is written once, at its ``created_at`` (order: time, then path);
    that one write is a session log's last (``mark_session_ends``), so it ends it."""
    ordered = sorted(group.created_at, key=lambda p: (group.created_at[p], p))
    folder = folder_of(group.root, group.root_rel)
    root, at = group.root, group.created_at
    return tuple(
        Event(at[p], p, "write", root / p, None, is_session_log(p), 0, folder) for p in ordered
    )


def mark_session_ends(events: list[Event]) -> tuple[Event, ...]:
    """Session logs without an explicit ``end`` end at their last write (or append)."""
    explicit = {e.path for e in events if e.end}
    last: dict[str, int] = {}
    for i, e in enumerate(events):
        if e.action != "delete" and is_session_log(e.path) and e.path not in explicit:
            last[e.path] = i
    marked = set(last.values())
    return tuple(_ended(e) if i in marked else e for i, e in enumerate(events))


def _ended(e: Event) -> Event:
    """``dataclasses.replace(e, end=True)``, without its per-call field introspection."""
    return Event(e.at, e.path, e.action, e.source, e.nbytes, True, e.line, e.within)
