"""A team's queries, from a file: plain text (one per line) or JSON lines.

* ``*.jsonl`` / ``*.json``: one object per line, ``{"text", "query_id"?, "group"?,
  "as_of"?, "category"?, "tags"?, "abstention"?}``; ``as_of`` is when the question
  is asked (ISO 8601 or unix seconds; no offset = UTC), so it is evaluated on
  the memory as it stood then;
* anything else: one query per line; blank lines and lines starting with ``#``
  are skipped.

Ids default to ``q001``, ``q002``, … (in file order). Every problem is one
``DatasetError`` line naming the file and line and what to write instead.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from memlab.datasets.fields import ID_RE
from memlab.errors import ConfigError, DatasetError, did_you_mean
from memlab.safefs import read_bytes
from memlab.timefmt import parse_time

KEYS = ("text", "query_id", "group", "as_of", "category", "tags", "abstention")
MAX_QUERY_FILE_BYTES = 10 * 1024 * 1024


@dataclass(frozen=True)
class QuerySpec:
    query_id: str
    text: str
    group: str | None = None
    as_of: float | None = None
    category: str | None = None
    tags: tuple[str, ...] = ()
    abstention: bool = False


def next_query_id(used: set[str] | list[str], width: int = 3) -> str:
    """The first ``q<NNN>`` not in ``used``."""
    taken = set(used)
    n = 1
    while f"q{n:0{width}d}" in taken:
        n += 1
    return f"q{n:0{width}d}"


def _record(raw: Any, where: str) -> dict[str, Any]:
    if not isinstance(raw, dict):
        raise DatasetError(f'{where}: expected a JSON object such as {{"text": "…"}}')
    unknown = [k for k in raw if k not in KEYS]
    if unknown:
        raise DatasetError(
            f"{where}: unknown key '{unknown[0]}';{did_you_mean(unknown[0], KEYS)} "
            f"valid: {', '.join(KEYS)}"
        )
    text = raw.get("text")
    if not isinstance(text, str) or not text.strip():
        raise DatasetError(f'{where}: "text" must be the query, a non-empty string')
    return raw


def _spec(raw: dict[str, Any], default_id: str, where: str) -> QuerySpec:
    qid = raw.get("query_id", default_id)
    if not isinstance(qid, str) or not ID_RE.fullmatch(qid):
        raise DatasetError(f"{where}: query_id {qid!r} must be an id (letters, digits, . _ : -)")
    as_of = raw.get("as_of")
    try:
        seconds = parse_time(str(as_of)) if as_of is not None else None
    except ConfigError as exc:
        raise DatasetError(f"{where}: {exc}") from None
    tags = raw.get("tags", [])
    if not isinstance(tags, list) or not all(isinstance(t, str) for t in tags):
        raise DatasetError(f'{where}: "tags" must be a list of strings')
    for key in ("group", "category"):
        if key in raw and not isinstance(raw[key], str):
            raise DatasetError(f'{where}: "{key}" must be a string')
    if not isinstance(raw.get("abstention", False), bool):
        raise DatasetError(f'{where}: "abstention" must be true or false')
    return QuerySpec(
        qid,
        " ".join(raw["text"].split()),
        raw.get("group"),
        seconds,
        raw.get("category"),
        tuple(tags),
        bool(raw.get("abstention", False)),
    )


def read_query_file(path: str | Path) -> list[QuerySpec]:
    """The queries of ``path`` (see the module docstring), ids unique."""
    file = Path(path)
    try:
        data = read_bytes(file, root=None, max_bytes=MAX_QUERY_FILE_BYTES).data
    except FileNotFoundError:
        raise DatasetError(f"queries file {file} not found; check the path") from None
    except OSError as exc:  # a FIFO, a device, too large: safefs says which
        raise DatasetError(f"queries file {file}: {getattr(exc, 'reason', None) or exc}") from None
    try:
        text = data.decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError as exc:
        bad = data[: exc.start].count(b"\n") + 1
        raise DatasetError(f"{file}:{bad}: not valid UTF-8; save the file as UTF-8") from None
    as_json = file.suffix in (".jsonl", ".json")
    records: list[tuple[str, dict[str, Any]]] = []
    for number, line in enumerate(text.splitlines(), start=1):
        where = f"{file}:{number}"
        if not line.strip() or (not as_json and line.lstrip().startswith("#")):
            continue
        if as_json:
            try:
                raw = json.loads(line)
            except json.JSONDecodeError as exc:
                raise DatasetError(f"{where}: not valid JSON ({exc.msg})") from None
            records.append((where, _record(raw, where)))
        else:
            records.append((where, {"text": line.strip()}))
    width = max(3, len(str(len(records))))
    given = {r["query_id"] for _, r in records if isinstance(r.get("query_id"), str)}
    out: list[QuerySpec] = []
    seen: set[str] = set()
    for where, raw in records:
        default = next_query_id(given | seen, width) if "query_id" not in raw else ""
        spec = _spec(raw, default, where)
        if spec.query_id in seen:
            raise DatasetError(f"{where}: query_id '{spec.query_id}' is used twice")
        seen.add(spec.query_id)
        out.append(spec)
    return out
