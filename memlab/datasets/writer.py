"""``DatasetWriter``: how importers and the generator write a dataset, deterministically.

Memory files are written as they are added (so large imports stay small in
memory); ``finish()`` writes files.jsonl, queries.jsonl, the qrels files and,
last, manifest.json with the digest. Output depends only on the calls made:
sorted JSON keys, ``\\n`` line endings, UTF-8, no clock.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from memlab.datasets.jsonl import write_jsonl
from memlab.datasets.model import (
    DEFAULT_LEVEL,
    FILES,
    FORMAT_VERSION,
    GROUPS_DIR,
    MANIFEST,
    MEMORY_DIR,
    QRELS,
    QUERIES,
    README,
)
from memlab.datasets.reader import ID_RE
from memlab.datasets.scan import compute_digest
from memlab.datasets.targets import check_path, parse_target
from memlab.datasets.timefmt import format_iso
from memlab.datasets.trec import write_qrels
from memlab.errors import DatasetError, unknown_name

# What a rewrite of an existing dataset folder removes (vectors/ and others survive).
_OWNED = (MANIFEST, FILES, QUERIES, README, MEMORY_DIR, GROUPS_DIR)


def check_dest(dest: Path, force: bool) -> bool:
    """``DatasetError`` unless a dataset may be written to ``dest``; True if one is there."""
    if dest.exists() and not dest.is_dir():
        raise DatasetError(f"{dest} exists and is not a directory; choose another DEST")
    if dest.is_dir() and any(dest.iterdir()):
        if not (dest / MANIFEST).is_file():
            raise DatasetError(
                f"{dest} is not empty and holds no dataset; choose an empty or new DEST"
            )
        if not force:
            raise DatasetError(f"{dest} already holds a dataset; pass --force to overwrite it")
        return True
    return False


def prepare_dest(dest: Path, force: bool) -> None:
    """Make ``dest`` ready: create it, or with ``force`` clear a previous dataset in it."""
    if check_dest(dest, force):
        for entry in dest.iterdir():
            if entry.name in _OWNED or (
                entry.name.startswith("qrels") and entry.name.endswith(".tsv")
            ):
                shutil.rmtree(entry) if entry.is_dir() else entry.unlink()
    dest.mkdir(parents=True, exist_ok=True)


def qrels_file(level: str, first: bool) -> str:
    return QRELS if first else f"qrels.{level}.tsv"


class DatasetWriter:
    """Write a dataset folder. Times are unix seconds (UTC)."""

    def __init__(
        self,
        dest: str | Path,
        *,
        name: str,
        licence: str,
        origin: str,
        as_of: float,
        description: str = "",
        levels: Iterable[str] = (DEFAULT_LEVEL,),
        grouped: bool = False,
        import_info: Mapping[str, Any] | None = None,
        force: bool = False,
    ) -> None:
        self.dest = Path(dest)
        self.levels = list(levels)
        if not self.levels or any(not ID_RE.fullmatch(lv) for lv in self.levels):
            raise DatasetError(f"judgement levels {self.levels} must be non-empty ids")
        self.grouped = grouped
        self.manifest: dict[str, Any] = {
            "name": name,
            "description": description,
            "licence": licence,
            "origin": origin,
            "as_of": format_iso(as_of),
            "format_version": FORMAT_VERSION,
        }
        if import_info is not None:
            self.manifest["import"] = dict(import_info)
        self.groups: dict[str, dict[str, Any]] = {}
        self.files: list[dict[str, Any]] = []
        self.queries: dict[str, dict[str, Any]] = {}
        self.qrels: dict[str, dict[str, dict[str, int]]] = {lv: {} for lv in self.levels}
        prepare_dest(self.dest, force)

    def add_group(
        self, group_id: str, *, as_of: float | None = None, workspace: str | None = None
    ) -> None:
        if not self.grouped:
            raise DatasetError("this writer was created with grouped=False")
        if not ID_RE.fullmatch(group_id) or group_id in self.groups:
            raise DatasetError(f"group id '{group_id}' is invalid or used twice")
        entry: dict[str, Any] = {"id": group_id}
        if as_of is not None:
            entry["as_of"] = format_iso(as_of)
        if workspace is not None:
            entry["workspace"] = workspace
        self.groups[group_id] = entry

    def memory_root(self, group: str | None = None) -> Path:
        if self.grouped:
            if group not in self.groups:
                raise DatasetError(unknown_name("group", str(group), self.groups))
            return self.dest / GROUPS_DIR / group / MEMORY_DIR
        return self.dest / MEMORY_DIR

    def add_file(
        self,
        rel: str,
        text: str,
        created_at: float,
        *,
        group: str | None = None,
        origin_id: str | None = None,
    ) -> None:
        """Write a memory file (UTF-8, ``\\n``) and record its logical creation time."""
        problem = check_path(rel)
        if problem:
            raise DatasetError(problem)
        path = self.memory_root(group) / rel
        if path.exists():
            raise DatasetError(f"memory file {path} is written twice")
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(text.replace("\r\n", "\n").encode("utf-8"))
        record: dict[str, Any] = {"path": rel, "created_at": format_iso(created_at)}
        if self.grouped:
            record["group"] = group
        if origin_id is not None:
            record["origin_id"] = origin_id
        self.files.append(record)

    def add_query(
        self,
        query_id: str,
        text: str,
        *,
        group: str | None = None,
        as_of: float | None = None,
        category: str | None = None,
        tags: Iterable[str] = (),
        abstention: bool = False,
        stale_targets: Iterable[str] = (),
        answer: str | None = None,
    ) -> None:
        if not ID_RE.fullmatch(query_id) or query_id in self.queries:
            raise DatasetError(f"query id '{query_id}' is invalid or used twice")
        record: dict[str, Any] = {"query_id": query_id, "text": text}
        optional = {
            "group": group if self.grouped else None,
            "as_of": format_iso(as_of) if as_of is not None else None,
            "category": category,
            "tags": list(tags) or None,
            "abstention": abstention or None,
            "stale_targets": list(stale_targets) or None,
            "answer": answer,
        }
        record.update({k: v for k, v in optional.items() if v is not None})
        self.queries[query_id] = record

    def judge(self, query_id: str, target: str, grade: int, *, level: str | None = None) -> None:
        """Judge ``target`` for a query (the higher grade wins if judged twice)."""
        level = self.levels[0] if level is None else level
        if level not in self.qrels:
            raise DatasetError(unknown_name("judgement level", level, self.qrels))
        parse_target(target)
        judged = self.qrels[level].setdefault(query_id, {})
        judged[target] = max(grade, judged.get(target, grade))

    def write_text(self, name: str, text: str) -> None:
        """A file beside the dataset that the digest does not cover (e.g. README.md)."""
        (self.dest / name).write_bytes(text.encode("utf-8"))

    def finish(self) -> Path:
        write_jsonl(self.dest / FILES, self.files)
        write_jsonl(self.dest / QUERIES, self.queries.values())
        for i, level in enumerate(self.levels):
            write_qrels(self.dest / qrels_file(level, i == 0), self.qrels[level])
        if self.grouped:
            self.manifest["groups"] = list(self.groups.values())
        if self.levels != [DEFAULT_LEVEL]:
            self.manifest["qrels"] = [
                {"level": lv, "file": qrels_file(lv, i == 0)} for i, lv in enumerate(self.levels)
            ]
        self.manifest["digest"] = compute_digest(self.dest)
        write_manifest(self.dest, self.manifest)
        return self.dest


def write_manifest(dest: Path, manifest: Mapping[str, Any]) -> None:
    text = json.dumps(manifest, sort_keys=True, ensure_ascii=False, indent=2) + "\n"
    (dest / MANIFEST).write_bytes(text.encode("utf-8"))


def update_digest(dataset_dir: str | Path) -> str:
    """Recompute the digest and write it into manifest.json; returns it."""
    path = Path(dataset_dir) / MANIFEST
    try:
        manifest = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise DatasetError(f"cannot read {path}: {exc}") from None
    if not isinstance(manifest, dict):
        raise DatasetError(f"{path} is not a JSON object")
    manifest["digest"] = compute_digest(dataset_dir)
    write_manifest(Path(dataset_dir), manifest)
    return str(manifest["digest"])
