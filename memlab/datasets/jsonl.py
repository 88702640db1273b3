"""Reading and writing JSON Lines with per-line problems (file, line, fix)."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from memlab.datasets.problems import ValidationReport


def decode_lines(data: bytes, rel: str, report: ValidationReport) -> list[tuple[int, str]]:
    """Split bytes into (1-based line number, text); a line that is not UTF-8 is reported."""
    out: list[tuple[int, str]] = []
    for number, raw in enumerate(data.split(b"\n"), start=1):
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            report.add(
                "bad_utf8",
                rel,
                number,
                f"byte {exc.start} of the line is not UTF-8",
                "save the file as UTF-8",
            )
            continue
        out.append((number, text.rstrip("\r")))
    return out


def parse_jsonl(
    data: bytes, rel: str, report: ValidationReport
) -> list[tuple[int, dict[str, Any]]]:
    """(line number, object) for every non-blank line; anything else becomes a problem."""
    records: list[tuple[int, dict[str, Any]]] = []
    for number, text in decode_lines(data, rel, report):
        if not text.strip():
            continue
        try:
            value = json.loads(text)
        except RecursionError:
            report.add(
                "malformed_lines", rel, number, "JSON nested too deeply", "flatten the object"
            )
            continue
        except json.JSONDecodeError as exc:
            report.add(
                "malformed_lines",
                rel,
                number,
                f"not valid JSON ({exc.msg} at column {exc.colno})",
                "write one JSON object per line",
            )
            continue
        if not isinstance(value, dict):
            report.add(
                "malformed_lines",
                rel,
                number,
                f"expected a JSON object, got {type(value).__name__}",
                "write one JSON object per line",
            )
            continue
        records.append((number, value))
    return records


def dumps(record: Mapping[str, Any]) -> str:
    """Deterministic JSON: sorted keys, UTF-8 kept as is."""
    return json.dumps(record, sort_keys=True, ensure_ascii=False)


def write_jsonl(path: Path, records: Iterable[Mapping[str, Any]]) -> None:
    """One sorted-key JSON object per line, ``\\n`` line endings, UTF-8."""
    text = "".join(dumps(r) + "\n" for r in records)
    path.write_bytes(text.encode("utf-8"))
