"""Reading memory trees and computing the dataset digest (file I/O, no parsing of JSON)."""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from memlab.datasets.model import (
    FACTS,
    FILES,
    GROUPS_DIR,
    MANIFEST,
    MEMORY_DIR,
    QUERIES,
    VERSIONS_DIR,
)
from memlab.datasets.problems import ValidationReport
from memlab.datasets.targets import FACT_MARKER_RE
from memlab.datasets.untrusted import (
    MAX_MEMORY_FILE_BYTES,
    MAX_TABLE_BYTES,
    dataset_file_exists,
    dataset_subdir,
    read_dataset_file,
    reading_dataset,
)
from memlab.read_memo import MEMORY_FILES


@dataclass
class ScannedFile:
    """What validation needs from one memory file."""

    rel: str  # path relative to the memory root
    n_lines: int
    markers: list[tuple[str, int]] = field(default_factory=list)  # (fact id, 1-based line)
    sha256: str = ""  # hex digest of the bytes read (the dataset digest's, without a reread)


def count_lines(text: str) -> int:
    """Lines as the chunker numbers them (a final newline does not open a new line)."""
    if not text:
        return 0
    return text.count("\n") + (0 if text.endswith("\n") else 1)


def _walk(root: Path) -> list[tuple[str, bool]]:
    """(root-relative POSIX path, is_symlink) of every file under ``root``, sorted; a link
    to a directory is listed (as a link), never followed. Unreadable directories are
    skipped (as ``os.walk`` does)."""
    found: list[tuple[str, bool]] = []
    stack = [("", os.fspath(root))]
    while stack:
        rel_dir, abs_dir = stack.pop()
        try:
            entries = list(os.scandir(abs_dir))
        except OSError:
            continue
        for entry in entries:
            rel = f"{rel_dir}/{entry.name}" if rel_dir else entry.name
            try:
                is_dir, is_link = entry.is_dir(), entry.is_symlink()
            except OSError:
                is_dir, is_link = False, False
            if is_dir and not is_link:
                stack.append((rel, entry.path))
            else:
                found.append((rel, is_link))
    return sorted(found)


def in_scope(rel: str, workspace: str | None) -> bool:
    """Does an index of ``workspace`` read this root-relative path (SPEC §1)?"""
    if not rel.endswith(".md") or rel.startswith(".") or "/." in rel:  # a hidden part
        return False
    head, slash, _ = rel.partition("/")
    return not slash or (workspace is not None and head == workspace)


def scan_memory(
    dataset_dir: Path, root_rel: str, workspaces: Sequence[str | None], report: ValidationReport
) -> dict[str, ScannedFile]:
    """The Markdown files of the memory root ``root_rel`` that an index of one of
    ``workspaces`` reads (the groups sharing the root); everything else is reported.
    Every file is read inside ``dataset_dir`` (``untrusted``)."""
    root = dataset_dir / root_rel
    base = os.fspath(root)  # each file's path as text: what ``root / rel`` spells
    files: dict[str, ScannedFile] = {}
    for rel, is_link in _walk(root):
        shown = f"{root_rel}/{rel}"
        if is_link:
            report.add(
                "ignored_files",
                shown,
                None,
                "symbolic link (indexes never follow links)",
                "replace it with a regular file or remove it",
                "warning",
            )
            continue
        if not any(in_scope(rel, ws) for ws in workspaces):
            named = ", ".join(sorted(ws for ws in workspaces if ws)) or "none"
            why = (
                "not a Markdown file"
                if not rel.endswith(".md")
                else (f"outside the index scope (workspace {named})")
            )
            report.add(
                "ignored_files",
                shown,
                None,
                f"{why}: no index of this memory reads it",
                "remove it, or put it in its own group",
                "warning",
            )
            continue
        scanned = _scan_file(f"{base}/{rel}", dataset_dir, rel, shown, report)
        if scanned is not None:
            files[rel] = scanned
    return files


def _scan_file(
    path: str | Path, dataset_dir: Path, rel: str, shown: str, report: ValidationReport
) -> ScannedFile | None:
    try:  # kept for the replay, which reads the file again (if it is unchanged by then)
        data = read_dataset_file(path, dataset_dir, MAX_MEMORY_FILE_BYTES, MEMORY_FILES)
    except FileNotFoundError:
        return None  # removed since it was listed
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        MEMORY_FILES.drop(path)
        line = data[: exc.start].count(b"\n") + 1
        report.add("bad_utf8", shown, line, "the file is not valid UTF-8", "save the file as UTF-8")
        return None
    scanned = ScannedFile(rel, count_lines(text), sha256=hashlib.sha256(data).hexdigest())
    if "<!-- fact:" in text:
        for number, line_text in enumerate(text.split("\n"), start=1):
            scanned.markers += [(m.group(1), number) for m in FACT_MARKER_RE.finditer(line_text)]
    return scanned


def manifest_roots(dataset_dir: Path) -> list[str]:
    """The ``root`` of every group the manifest names (format 2), best effort (a manifest
    memlab will not read is still refused)."""
    try:
        data = read_dataset_file(dataset_dir / MANIFEST, dataset_dir, MAX_TABLE_BYTES)
        manifest = json.loads(data.decode("utf-8"))
        groups = manifest.get("groups") or []
        return [g["root"] for g in groups if isinstance(g.get("root"), str)]
    except (OSError, ValueError, AttributeError, TypeError):
        return []


def _safe_root(root: str) -> bool:
    parts = PurePosixPath(root).parts
    return bool(parts) and not root.startswith("/") and not any(p in ("", ".", "..") for p in parts)


def digest_listing(
    dataset_dir: Path,
    roots: Iterable[str] | None = None,
    known: Mapping[str, str] | None = None,
) -> list[tuple[str, str]]:
    """(dataset-relative path, sha256 hex) of every file the digest covers, sorted by path.

    ``known``: sha256 hex of files already read (dataset-relative path -> hex, e.g. by
    ``scan_memory``); those files are not read again, every other file is.

    Covered: every ``*.md`` file under ``memory/``, ``groups/*/memory/`` and the
    groups' own roots (``roots``; default: as the manifest names them),
    ``files.jsonl``, ``queries.jsonl``, ``facts.jsonl``, every top-level
    ``qrels*.tsv`` and every file under ``versions/``. Not covered:
    ``manifest.json``, ``README.md``, ``vectors/`` and anything else (an
    ``index.sqlite`` or ``.dream-lock`` left by a run does not change the digest).
    """
    ordered = covered_paths(dataset_dir, roots)
    known = known or {}
    return [(p, known.get(p) or _sha256(dataset_dir, p)) for p in ordered]


def covered_paths(dataset_dir: Path, roots: Iterable[str] | None = None) -> list[str]:
    """The dataset-relative paths the digest covers (``digest_listing``), sorted; a
    memory root or ``versions/`` leading out of the dataset is refused (``untrusted``)."""
    paths: list[str] = []
    found = [MEMORY_DIR]
    groups = dataset_subdir(dataset_dir / GROUPS_DIR, dataset_dir)
    if groups is not None:
        found += [
            f"{GROUPS_DIR}/{d.name}/{MEMORY_DIR}"
            for d in sorted(groups.iterdir())
            if d.is_dir() and not d.is_symlink()
        ]
    extra = manifest_roots(dataset_dir) if roots is None else list(roots)
    found += [r for r in extra if _safe_root(r)]
    covered: set[str] = set()
    for root_rel in dict.fromkeys(PurePosixPath(r).as_posix() for r in found):
        root = dataset_subdir(dataset_dir / root_rel, dataset_dir)
        if root is not None:
            for rel, link in _walk(root):
                if rel.endswith(".md") and not link:
                    covered.add(f"{root_rel}/{rel}")
    versions = dataset_subdir(dataset_dir / VERSIONS_DIR, dataset_dir)
    if versions is not None:
        covered |= {f"{VERSIONS_DIR}/{rel}" for rel, link in _walk(versions) if not link}
    paths = sorted(covered)
    for entry in sorted(dataset_dir.iterdir()) if dataset_dir.is_dir() else []:
        name = entry.name
        if name in (FILES, QUERIES, FACTS) or (name.startswith("qrels") and name.endswith(".tsv")):
            paths.append(name)  # whatever it is: refused when read unless a regular file
    return sorted(paths, key=lambda p: p.encode("utf-8"))


def check_dataset_files(dataset_dir: Path) -> None:
    """Refuse (``DatasetFileRefused``, one line) a dataset whose manifest or covered files
    are not regular files inside it, reading none of the covered files (a cheap check
    before handing the dataset to a notebook)."""
    with reading_dataset(dataset_dir):
        for rel in [MANIFEST, *covered_paths(dataset_dir)]:
            dataset_file_exists(dataset_dir / rel, dataset_dir)


def _sha256(dataset_dir: Path, rel: str) -> str:
    top = "/" not in rel
    cap = MAX_TABLE_BYTES if top else MAX_MEMORY_FILE_BYTES
    return hashlib.sha256(read_dataset_file(dataset_dir / rel, dataset_dir, cap)).hexdigest()


def digest_of(listing: Iterable[tuple[str, str]]) -> str:
    """``sha256:<hex>`` of the ``sha256sum``-style listing ``<hex>  <path>\\n`` (sorted by
    path, as ``digest_listing`` returns it)."""
    ordered = sorted(listing, key=lambda item: item[0].encode("utf-8"))
    text = "".join(f"{h}  {p}\n" for p, h in ordered)
    return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()


def compute_digest(
    dataset_dir: str | Path,
    roots: Iterable[str] | None = None,
    known: Mapping[str, str] | None = None,
) -> str:
    """``sha256:<hex>`` of the ``sha256sum``-style listing ``<hex>  <path>\\n`` of covered
    files (``known``: hashes already taken, as ``digest_listing`` reads them)."""
    with reading_dataset(dataset_dir):
        return digest_of(digest_listing(Path(dataset_dir), roots, known))


def workspace_dirs(root: Path) -> list[str]:
    """Top-level, non-hidden directories of a memory root (each is a workspace)."""
    if not root.is_dir():
        return []
    return sorted(
        e.name
        for e in root.iterdir()
        if e.is_dir() and not e.is_symlink() and not e.name.startswith(".")
    )
