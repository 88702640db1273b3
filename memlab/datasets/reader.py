"""Parsing the dataset's own files into typed records; every field problem is reported.

Cross-file checks (targets exist, files match, timestamps) live in ``checks``.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from memlab.datasets.jsonl import read_jsonl
from memlab.datasets.model import DEFAULT_LEVEL, FILES, FORMAT_VERSION, MANIFEST, QRELS, QUERIES
from memlab.datasets.problems import ValidationReport
from memlab.datasets.timefmt import parse_iso
from memlab.errors import did_you_mean

ID_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9._:-]*")  # query, group and level ids
QRELS_FILE_RE = re.compile(r"qrels[A-Za-z0-9._-]*\.tsv")

# field name -> (expected type name, required)
_MANIFEST = {
    "name": ("str", True),
    "description": ("text", False),
    "licence": ("str", True),
    "origin": ("str", True),
    "as_of": ("time", True),
    "digest": ("str", True),
    "format_version": ("int", True),
    "groups": ("list", False),
    "qrels": ("list", False),
    "import": ("dict", False),
}
_GROUP = {"id": ("id", True), "as_of": ("time", False), "workspace": ("str", False)}
_LEVEL = {"level": ("id", True), "file": ("str", True)}
_FILE = {
    "path": ("str", True),
    "created_at": ("time", True),
    "group": ("id", False),
    "origin_id": ("str", False),
}
_QUERY = {
    "query_id": ("id", True),
    "text": ("str", True),
    "as_of": ("time", False),
    "group": ("id", False),
    "category": ("str", False),
    "tags": ("strs", False),
    "abstention": ("bool", False),
    "stale_targets": ("strs", False),
    "answer": ("text", False),
}


@dataclass
class Record:
    """One parsed object: its line, its checked fields (times as unix seconds)."""

    line: int | None
    values: dict[str, Any]

    def get(self, key: str, default: Any = None) -> Any:
        return self.values.get(key, default)


@dataclass
class RawDataset:
    manifest: Record
    groups: list[Record] = field(default_factory=list)
    levels: list[tuple[str, str]] = field(default_factory=list)  # (level, file)
    files: list[Record] | None = None  # None: no files.jsonl
    queries: list[Record] = field(default_factory=list)


def _typed(kind: str, value: Any) -> tuple[bool, Any, str]:
    """(ok, converted value, expectation) for one field value."""
    if kind == "str":
        return isinstance(value, str) and value.strip() != "", value, "a non-empty string"
    if kind == "text":
        return isinstance(value, str), value, "a string"
    if kind == "id":
        ok = isinstance(value, str) and ID_RE.fullmatch(value) is not None
        return ok, value, "an id of letters, digits and . _ : - (no spaces)"
    if kind == "int":
        return isinstance(value, int) and not isinstance(value, bool), value, "an integer"
    if kind == "bool":
        return isinstance(value, bool), value, "true or false"
    if kind == "list":
        return isinstance(value, list), value, "a JSON list"
    if kind == "dict":
        return isinstance(value, dict), value, "a JSON object"
    if kind == "strs":
        ok = isinstance(value, list) and all(isinstance(v, str) and v for v in value)
        return ok, tuple(value) if ok else value, "a list of non-empty strings"
    try:
        return True, parse_iso(value), ""
    except ValueError as exc:
        return False, value, str(exc)


def check_record(
    obj: dict[str, Any],
    spec: dict[str, tuple[str, bool]],
    rel: str,
    line: int | None,
    report: ValidationReport,
    what: str,
) -> Record | None:
    """Check keys and types against ``spec``; None if a required field is unusable."""
    values, usable = check_fields(obj, spec, rel, line, report, what)
    return Record(line, values) if usable else None


def check_fields(
    obj: dict[str, Any],
    spec: dict[str, tuple[str, bool]],
    rel: str,
    line: int | None,
    report: ValidationReport,
    what: str,
) -> tuple[dict[str, Any], bool]:
    """(the valid fields, converted; whether every required field is valid)."""
    values: dict[str, Any] = {}
    usable = True
    for key in obj:
        if key not in spec:
            report.add(
                "bad_fields",
                rel,
                line,
                f"unknown {what} field '{key}'",
                f"remove it or rename it;{did_you_mean(key, spec) or ' valid: ' + ', '.join(spec)}",
            )
    for key, (kind, required) in spec.items():
        if key not in obj or obj[key] is None:
            if required:
                report.add("bad_fields", rel, line, f"missing {what} field '{key}'", f"add '{key}'")
                usable = False
            continue
        ok, value, expected = _typed(kind, obj[key])
        if not ok:
            report.add(
                "bad_fields",
                rel,
                line,
                f"{what} field '{key}' = {obj[key]!r} is invalid",
                expected if kind == "time" else f"make it {expected}",
            )
            usable = usable and not required
            continue
        values[key] = value
    return values, usable


def read_manifest(dataset_dir: Path, report: ValidationReport) -> RawDataset | None:
    path = dataset_dir / MANIFEST
    if not path.is_file():
        report.add(
            "missing_files", MANIFEST, None, "no manifest.json", "create it (see memlab.datasets)"
        )
        return None
    try:
        obj = json.loads(path.read_bytes().decode("utf-8"))
    except UnicodeDecodeError:
        report.add("bad_utf8", MANIFEST, None, "not UTF-8", "save the file as UTF-8")
        return None
    except RecursionError:
        report.add("malformed_lines", MANIFEST, 1, "JSON nested too deeply", "flatten it")
        return None
    except json.JSONDecodeError as exc:
        report.add(
            "malformed_lines", MANIFEST, exc.lineno, f"not valid JSON ({exc.msg})", "fix the JSON"
        )
        return None
    if not isinstance(obj, dict):
        report.add("malformed_lines", MANIFEST, 1, "expected a JSON object", "fix the JSON")
        return None
    values, usable = check_fields(obj, _MANIFEST, MANIFEST, None, report, "manifest")
    if not usable:  # keep checking the rest; the errors are reported, nothing will load
        values.setdefault("as_of", math.inf)
    manifest = Record(None, values)
    if manifest.get("format_version") != FORMAT_VERSION:
        report.add(
            "bad_fields",
            MANIFEST,
            None,
            f"format_version {manifest.get('format_version')} is not supported",
            f"this memlab reads format_version {FORMAT_VERSION}",
        )
    raw = RawDataset(manifest)
    _read_groups(manifest.get("groups", []), raw, report)
    _read_levels(manifest.get("qrels"), raw, report)
    return raw


def _read_groups(items: list[Any], raw: RawDataset, report: ValidationReport) -> None:
    seen: set[str] = set()
    for item in items:
        group = (
            check_record(item, _GROUP, MANIFEST, None, report, "group")
            if isinstance(item, dict)
            else None
        )
        if group is None:
            if not isinstance(item, dict):
                report.add(
                    "bad_fields",
                    MANIFEST,
                    None,
                    f"group entry {item!r} is not an object",
                    'write {"id": ...}',
                )
            continue
        if group.get("id") in seen:
            report.add(
                "duplicate_ids",
                MANIFEST,
                None,
                f"group '{group.get('id')}' is listed twice",
                "keep one entry",
            )
            continue
        seen.add(group.get("id"))
        raw.groups.append(group)


def _read_levels(items: list[Any] | None, raw: RawDataset, report: ValidationReport) -> None:
    if not items:
        raw.levels = [(DEFAULT_LEVEL, QRELS)]
        return
    for item in items:
        level = (
            check_record(item, _LEVEL, MANIFEST, None, report, "qrels")
            if isinstance(item, dict)
            else None
        )
        if level is None:
            continue
        name, file = level.get("level"), level.get("file")
        if not QRELS_FILE_RE.fullmatch(file):
            report.add(
                "bad_fields",
                MANIFEST,
                None,
                f"qrels file '{file}' is not a top-level qrels*.tsv",
                "name it like qrels.tsv or qrels.turn.tsv",
            )
        elif name in {n for n, _ in raw.levels} or file in {f for _, f in raw.levels}:
            report.add(
                "duplicate_ids",
                MANIFEST,
                None,
                f"qrels level '{name}' or file '{file}' is listed twice",
                "list each level and file once",
            )
        else:
            raw.levels.append((name, file))


def read_records(
    dataset_dir: Path,
    name: str,
    spec: dict[str, tuple[str, bool]],
    what: str,
    report: ValidationReport,
) -> list[Record] | None:
    path = dataset_dir / name
    if not path.is_file():
        return None
    out = []
    for line, obj in read_jsonl(path, name, report):
        record = check_record(obj, spec, name, line, report, what)
        if record is not None:
            out.append(record)
    return out


def read_raw(dataset_dir: Path, report: ValidationReport) -> RawDataset | None:
    """Manifest, files.jsonl and queries.jsonl, field-checked; None without a usable manifest."""
    raw = read_manifest(dataset_dir, report)
    if raw is None:
        return None
    raw.files = read_records(dataset_dir, FILES, _FILE, "file", report)
    queries = read_records(dataset_dir, QUERIES, _QUERY, "query", report)
    if queries is None:
        report.add("missing_files", QUERIES, None, "no queries.jsonl", "add one query per line")
    raw.queries = queries or []
    return raw
