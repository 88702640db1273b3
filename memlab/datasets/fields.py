"""Field specifications of every dataset file and the checker that applies them.

A spec maps a field name to (kind, required); ``check_fields`` reports unknown,
missing and ill-typed fields with a fix, and converts times to unix seconds.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from memlab.datasets.problems import ValidationReport
from memlab.errors import did_you_mean
from memlab.timefmt import parse_iso

ID_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9._:-]*")  # query, group and level ids

# field name -> (expected type name, required)
MANIFEST_FIELDS = {
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
    "index": ("dict", False),  # format 2
    "timeline": ("dict", False),  # format 2
}
GROUP_FIELDS = {
    "id": ("id", True),
    "as_of": ("time", False),
    "workspace": ("str", False),
    "root": ("str", False),  # format 2
}
LEVEL_FIELDS = {"level": ("id", True), "file": ("str", True)}
FILE_FIELDS = {
    "path": ("str", True),
    "created_at": ("time", True),
    "group": ("id", False),
    "origin_id": ("str", False),
    "record_ids": ("strs", False),
}
# format 2: one event per line (a v1 line {"path", "created_at"} is one full write)
EVENT_FIELDS = {
    "path": ("str", True),
    "at": ("time", False),
    "created_at": ("time", False),
    "bytes": ("int", False),
    "content": ("str", False),
    "append": ("str", False),
    "delete": ("bool", False),
    "end": ("bool", False),
    "group": ("id", False),
    "origin_id": ("str", False),
    "record_ids": ("strs", False),
}
FACT_FIELDS = {
    "fact": ("str", True),
    "group": ("id", False),
    "path": ("str", True),
    "text": ("str", True),
}
QUERY_FIELDS = {
    "query_id": ("id", True),
    "text": ("str", True),
    "as_of": ("time", False),
    "group": ("id", False),
    "category": ("str", False),
    "tags": ("strs", False),
    "abstention": ("bool", False),
    "stale_targets": ("strs", False),
    "answer": ("text", False),
    "answer_at": ("time", False),  # format 2
    "origin_id": ("str", False),
}


@dataclass
class Record:
    """One parsed object: its line, its checked fields (times as unix seconds)."""

    line: int | None
    values: dict[str, Any]

    def get(self, key: str, default: Any = None) -> Any:
        return self.values.get(key, default)


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
