"""``DatasetWriter``: how importers and the generator write a dataset, deterministically.

Memory files are written as they are added (so large imports stay small in
memory); ``finish()`` writes files.jsonl, queries.jsonl, the qrels files and,
last, manifest.json with the digest. Output depends only on the calls made:
sorted JSON keys, ``\\n`` line endings, UTF-8, no clock.

``format_version=2`` (the time-aware format) adds events (``add_event``: a
prefix of a growing log, a rewrite or an append whose text the writer stores
under ``versions/``, a deletion, a session end), fact labels (``add_fact``),
nuggets (``judge(..., nugget=N)``), group roots shared by several workspaces
(``add_group(..., root=...)``), the manifest's ``timeline`` default and
``answer_at`` on queries (the ``index`` defaults are written in both formats).
``finish()`` then validates the dataset and raises ``DatasetError`` listing
every error (file, line, fix).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from memlab.datasets.defaults import index_problems, timeline_problems
from memlab.datasets.fields import ID_RE
from memlab.datasets.folder import prepare_dest, qrels_file, update_digest, write_manifest
from memlab.datasets.groups import root_problem
from memlab.datasets.jsonl import write_jsonl
from memlab.datasets.model import (
    DEFAULT_GROUP,
    DEFAULT_LEVEL,
    FACTS,
    FILES,
    FORMAT_VERSION,
    FORMAT_VERSIONS,
    GROUPS_DIR,
    MEMORY_DIR,
    QUERIES,
    VERSIONS_DIR,
)
from memlab.datasets.scan import compute_digest
from memlab.datasets.targets import FACT_ID_RE, check_path, parse_target
from memlab.datasets.trec import write_qrels
from memlab.errors import DatasetError, unknown_name
from memlab.timefmt import format_iso


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
        format_version: int = FORMAT_VERSION,
        index: Mapping[str, Any] | None = None,
        timeline: Mapping[str, Any] | None = None,
    ) -> None:
        self.dest = Path(dest)
        self.levels = list(levels)
        if not self.levels or any(not ID_RE.fullmatch(lv) for lv in self.levels):
            raise DatasetError(f"judgement levels {self.levels} must be non-empty ids")
        if format_version not in FORMAT_VERSIONS:
            raise DatasetError(f"format_version must be one of {FORMAT_VERSIONS}")
        self.version = format_version
        self.grouped = grouped
        self.manifest: dict[str, Any] = {
            "name": name,
            "description": description,
            "licence": licence,
            "origin": origin,
            "as_of": format_iso(as_of),
            "format_version": format_version,
        }
        if import_info is not None:
            self.manifest["import"] = dict(import_info)
        for key, value, problems in (
            ("index", index, index_problems),
            ("timeline", timeline, timeline_problems),
        ):
            if value is not None:
                if key == "timeline":
                    self._needs_v2(f"{key}=")
                if problems(value):
                    raise DatasetError("; ".join(what for what, _ in problems(value)))
                self.manifest[key] = dict(value)
        self.groups: dict[str, dict[str, Any]] = {}
        self.files: list[dict[str, Any]] = []
        self.facts: list[dict[str, Any]] = []
        self.queries: dict[str, dict[str, Any]] = {}
        self.qrels: dict[str, dict[str, dict[tuple[str, int], int]]] = {
            lv: {} for lv in self.levels
        }
        self._versions: dict[str, int] = {}  # versions/ file stem -> count written
        prepare_dest(self.dest, force)

    def _needs_v2(self, what: str) -> None:
        if self.version < 2:
            raise DatasetError(
                f"{what} needs format_version=2 (DatasetWriter(..., format_version=2))"
            )

    def add_group(
        self,
        group_id: str,
        *,
        as_of: float | None = None,
        workspace: str | None = None,
        root: str | None = None,
    ) -> None:
        """A memory group; ``root`` (format 2) is its dataset-relative memory root, which
        several groups may share (each indexing its own ``workspace``)."""
        if not self.grouped:
            raise DatasetError("this writer was created with grouped=False")
        if not ID_RE.fullmatch(group_id) or group_id in self.groups:
            raise DatasetError(f"group id '{group_id}' is invalid or used twice")
        entry: dict[str, Any] = {"id": group_id}
        if as_of is not None:
            entry["as_of"] = format_iso(as_of)
        if workspace is not None:
            entry["workspace"] = workspace
        if root is not None:
            self._needs_v2("a group root")
            problem = root_problem(root)
            if problem:
                raise DatasetError(problem)
            entry["root"] = root
        self.groups[group_id] = entry

    def memory_root(self, group: str | None = None) -> Path:
        if self.grouped:
            if group not in self.groups:
                raise DatasetError(unknown_name("group", str(group), self.groups))
            default = f"{GROUPS_DIR}/{group}/{MEMORY_DIR}"
            return self.dest / self.groups[group].get("root", default)
        return self.dest / MEMORY_DIR

    def add_file(
        self,
        rel: str,
        text: str,
        created_at: float | None,
        *,
        group: str | None = None,
        origin_id: str | None = None,
        record_ids: Iterable[str] | None = None,
    ) -> None:
        """Write a memory file (UTF-8, ``\\n``): its final content. With ``created_at``,
        also record one write of it at that time (format 2: ``None`` = the events say
        when it is written). ``origin_id``: the file's id in the source (a session, a
        document); ``record_ids``: the source's ids of its turns, in file order."""
        problem = check_path(rel)
        if problem:
            raise DatasetError(problem)
        path = self.memory_root(group) / rel
        if path.exists():
            raise DatasetError(f"memory file {path} is written twice")
        if created_at is None and self.version < 2:
            raise DatasetError("format 1 needs the created_at of every file")
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(text.replace("\r\n", "\n").encode("utf-8"))
        if created_at is None:
            return
        key = "at" if self.version >= 2 else "created_at"
        record: dict[str, Any] = {"path": rel, key: format_iso(created_at)}
        if self.grouped:
            record["group"] = group
        if origin_id is not None:
            record["origin_id"] = origin_id
        if record_ids is not None:
            record["record_ids"] = list(record_ids)
        self.files.append(record)

    def add_event(
        self,
        rel: str,
        at: float,
        *,
        group: str | None = None,
        nbytes: int | None = None,
        content: str | None = None,
        append: str | None = None,
        delete: bool = False,
        end: bool = False,
    ) -> None:
        """One timeline event (format 2), in the order added. ``nbytes``: the first N
        bytes of the tree's file; ``content`` / ``append``: this TEXT (stored under
        versions/); ``delete``; none of them: the tree's whole file. ``end``: the
        session ends after this write."""
        self._needs_v2("add_event")
        if sum(x is not None for x in (nbytes, content, append)) + delete > 1:
            raise DatasetError("an event has at most one of nbytes, content, append, delete")
        problem = check_path(rel)
        if problem:
            raise DatasetError(problem)
        self.memory_root(group)  # checks the group
        record: dict[str, Any] = {"path": rel, "at": format_iso(at)}
        if self.grouped:
            record["group"] = group
        if nbytes is not None:
            record["bytes"] = int(nbytes)
        for key, text in (("content", content), ("append", append)):
            if text is not None:
                record[key] = self._version_file(group, rel, text)
        if delete:
            record["delete"] = True
        if end:
            record["end"] = True
        self.files.append(record)

    def _version_file(self, group: str | None, rel: str, text: str) -> str:
        """Store ``text`` as ``versions/<group>/<path stem>.v<k><suffix>`` (k counts up)."""
        stem, dot, suffix = rel.rpartition(".")
        base = f"{VERSIONS_DIR}/{group or DEFAULT_GROUP}/{stem if dot else rel}"
        k = self._versions.get(base, 0) + 1
        self._versions[base] = k
        name = f"{base}.v{k:03d}" + (f".{suffix}" if dot else "")
        target = self.dest / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(text.replace("\r\n", "\n").encode("utf-8"))
        return name

    def add_fact(self, fact_id: str, rel: str, text: str, *, group: str | None = None) -> None:
        """Label a fact (format 2): ``text`` (one line, exact) is first written into ``rel``."""
        self._needs_v2("add_fact")
        if not FACT_ID_RE.fullmatch(fact_id):
            raise DatasetError(f"fact id {fact_id!r} is not an id (letters, digits, . _ -)")
        if "\n" in text or not text.strip():
            raise DatasetError(f"the text of fact '{fact_id}' must be one non-blank line")
        record = {"fact": fact_id, "path": rel, "text": text}
        if group is not None:
            record["group"] = group
        self.facts.append(record)

    def add_query(
        self,
        query_id: str,
        text: str,
        *,
        group: str | None = None,
        as_of: float | None = None,
        answer_at: float | None = None,
        category: str | None = None,
        tags: Iterable[str] = (),
        abstention: bool = False,
        stale_targets: Iterable[str] = (),
        answer: str | None = None,
        origin_id: str | None = None,
    ) -> None:
        if not ID_RE.fullmatch(query_id) or query_id in self.queries:
            raise DatasetError(f"query id '{query_id}' is invalid or used twice")
        if answer_at is not None:
            self._needs_v2("answer_at")
        record: dict[str, Any] = {"query_id": query_id, "text": text}
        optional = {
            "group": group if self.grouped else None,
            "as_of": format_iso(as_of) if as_of is not None else None,
            "answer_at": format_iso(answer_at) if answer_at is not None else None,
            "category": category,
            "tags": list(tags) or None,
            "abstention": abstention or None,
            "stale_targets": list(stale_targets) or None,
            "answer": answer,
            "origin_id": origin_id,
        }
        record.update({k: v for k, v in optional.items() if v is not None})
        self.queries[query_id] = record

    def judge(
        self,
        query_id: str,
        target: str,
        grade: int,
        *,
        level: str | None = None,
        nugget: int = 0,
    ) -> None:
        """Judge ``target`` for a query (the higher grade wins if judged twice). A positive
        ``nugget`` (format 2) names the information facet the target carries."""
        level = self.levels[0] if level is None else level
        if level not in self.qrels:
            raise DatasetError(unknown_name("judgement level", level, self.qrels))
        if nugget:
            self._needs_v2("a nugget")
            if nugget < 0:
                raise DatasetError(f"nugget {nugget} must be a positive integer (0: none)")
        parse_target(target)
        judged = self.qrels[level].setdefault(query_id, {})
        key = (target, int(nugget))
        judged[key] = max(grade, judged.get(key, grade))

    def write_text(self, name: str, text: str) -> None:
        """A file beside the dataset that the digest does not cover (e.g. README.md)."""
        (self.dest / name).write_bytes(text.encode("utf-8"))

    def finish(self) -> Path:
        write_jsonl(self.dest / FILES, self.files)
        write_jsonl(self.dest / QUERIES, self.queries.values())
        if self.facts:
            write_jsonl(self.dest / FACTS, self.facts)
        for i, level in enumerate(self.levels):
            write_qrels(self.dest / qrels_file(level, i == 0), self.qrels[level])
        if self.grouped:
            self.manifest["groups"] = list(self.groups.values())
        if self.levels != [DEFAULT_LEVEL]:
            self.manifest["qrels"] = [
                {"level": lv, "file": qrels_file(lv, i == 0)} for i, lv in enumerate(self.levels)
            ]
        roots = [g["root"] for g in self.groups.values() if "root" in g]
        self.manifest["digest"] = compute_digest(self.dest, roots)
        write_manifest(self.dest, self.manifest)
        if self.version >= 2:
            from memlab.datasets.loader import validate_dataset

            validate_dataset(self.dest).raise_if_errors()
        return self.dest


__all__ = ["DatasetWriter", "prepare_dest", "update_digest", "write_manifest"]
