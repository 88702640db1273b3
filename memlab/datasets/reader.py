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

from memlab.datasets.fields import (
    EVENT_FIELDS,
    FACT_FIELDS,
    FILE_FIELDS,
    GROUP_FIELDS,
    LEVEL_FIELDS,
    MANIFEST_FIELDS,
    QUERY_FIELDS,
    Record,
    check_fields,
    check_record,
)
from memlab.datasets.jsonl import parse_jsonl
from memlab.datasets.model import (
    DEFAULT_LEVEL,
    FACTS,
    FILES,
    FORMAT_VERSIONS,
    MANIFEST,
    QRELS,
    QUERIES,
)
from memlab.datasets.problems import ValidationReport
from memlab.datasets.untrusted import MAX_TABLE_BYTES, read_optional

QRELS_FILE_RE = re.compile(r"qrels[A-Za-z0-9._-]*\.tsv")
V2_ONLY = {MANIFEST: ("timeline",), "group": ("root",)}


@dataclass
class RawDataset:
    manifest: Record
    groups: list[Record] = field(default_factory=list)
    levels: list[tuple[str, str]] = field(default_factory=list)  # (level, file)
    files: list[Record] | None = None  # None: no files.jsonl
    queries: list[Record] = field(default_factory=list)
    facts: list[Record] | None = None  # None: no facts.jsonl

    @property
    def version(self) -> int:
        version = self.manifest.get("format_version")
        return version if version in FORMAT_VERSIONS else max(FORMAT_VERSIONS)


def read_manifest(dataset_dir: Path, report: ValidationReport) -> RawDataset | None:
    data = read_optional(dataset_dir / MANIFEST, dataset_dir, MAX_TABLE_BYTES)
    if data is None:
        report.add(
            "missing_files", MANIFEST, None, "no manifest.json", "create it (see memlab.datasets)"
        )
        return None
    try:
        obj = json.loads(data.decode("utf-8"))
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
    values, usable = check_fields(obj, MANIFEST_FIELDS, MANIFEST, None, report, "manifest")
    if not usable:  # keep checking the rest; the errors are reported, nothing will load
        values.setdefault("as_of", math.inf)
    manifest = Record(None, values)
    if manifest.get("format_version") not in FORMAT_VERSIONS:
        report.add(
            "bad_fields",
            MANIFEST,
            None,
            f"format_version {manifest.get('format_version')} is not supported",
            f"this memlab reads format_version {' or '.join(map(str, FORMAT_VERSIONS))}",
        )
    elif manifest.get("format_version") == 1:
        _no_v2_fields(obj, report)
    raw = RawDataset(manifest)
    _read_groups(manifest.get("groups", []), raw, report)
    _read_levels(manifest.get("qrels"), raw, report)
    return raw


def _no_v2_fields(obj: dict[str, Any], report: ValidationReport) -> None:
    """Format-2 fields in a format-1 manifest are errors (they would be ignored)."""
    used = [k for k in V2_ONLY[MANIFEST] if k in obj]
    found = obj.get("groups")
    groups: list[Any] = found if isinstance(found, list) else []
    used += [
        f"groups[].{k}"
        for k in V2_ONLY["group"]
        if any(k in g for g in groups if isinstance(g, dict))
    ]
    for key in used:
        report.add(
            "bad_fields",
            MANIFEST,
            None,
            f"'{key}' needs format_version 2",
            'set "format_version": 2 or remove it',
        )


def _read_groups(items: list[Any], raw: RawDataset, report: ValidationReport) -> None:
    seen: set[str] = set()
    for item in items:
        group = (
            check_record(item, GROUP_FIELDS, MANIFEST, None, report, "group")
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
            check_record(item, LEVEL_FIELDS, MANIFEST, None, report, "qrels")
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
    data = read_optional(dataset_dir / name, dataset_dir, MAX_TABLE_BYTES)
    if data is None:
        return None
    out = []
    for line, obj in parse_jsonl(data, name, report):
        record = check_record(obj, spec, name, line, report, what)
        if record is not None:
            out.append(record)
    return out


def read_raw(dataset_dir: Path, report: ValidationReport) -> RawDataset | None:
    """Manifest, files.jsonl and queries.jsonl, field-checked; None without a usable manifest.
    Every read stays inside ``dataset_dir`` (``memlab.datasets.untrusted``)."""
    raw = read_manifest(dataset_dir, report)
    if raw is None:
        return None
    v2 = raw.version >= 2
    raw.files = read_records(
        dataset_dir, FILES, EVENT_FIELDS if v2 else FILE_FIELDS, "file", report
    )
    queries = read_records(dataset_dir, QUERIES, QUERY_FIELDS, "query", report)
    if queries is None:
        report.add("missing_files", QUERIES, None, "no queries.jsonl", "add one query per line")
    raw.queries = queries or []
    for rec in raw.queries if not v2 else ():
        if "answer_at" in rec.values:
            fix = 'set "format_version": 2 in manifest.json or drop the field'
            report.add("bad_fields", QUERIES, rec.line, "'answer_at' needs format_version 2", fix)
    raw.facts = read_records(dataset_dir, FACTS, FACT_FIELDS, "fact", report)
    if raw.facts is not None and not v2:
        fix = 'set "format_version": 2 (and drop the markers) or remove facts.jsonl'
        report.add("bad_fields", FACTS, None, "facts.jsonl needs format_version 2", fix)
        raw.facts = None
    return raw
