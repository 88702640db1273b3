"""Reading memory trees and computing the dataset digest (file I/O, no parsing of JSON)."""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from memlab.datasets.model import FILES, GROUPS_DIR, MEMORY_DIR, QUERIES
from memlab.datasets.problems import ValidationReport
from memlab.datasets.targets import FACT_MARKER_RE


@dataclass
class ScannedFile:
    """What validation needs from one memory file."""

    rel: str  # path relative to the memory root
    n_lines: int
    markers: list[tuple[str, int]] = field(default_factory=list)  # (fact id, 1-based line)


def count_lines(text: str) -> int:
    """Lines as the chunker numbers them (a final newline does not open a new line)."""
    if not text:
        return 0
    return text.count("\n") + (0 if text.endswith("\n") else 1)


def _walk(root: Path) -> list[tuple[str, bool]]:
    """(root-relative POSIX path, is_symlink) of every file under ``root``, sorted."""
    found: list[tuple[str, bool]] = []
    for dirpath, dirnames, filenames in os.walk(root, followlinks=False):
        base = Path(dirpath)
        for name in dirnames:
            if (base / name).is_symlink():
                found.append(
                    (PurePosixPath(*(base / name).relative_to(root).parts).as_posix(), True)
                )
        dirnames[:] = sorted(d for d in dirnames if not (base / d).is_symlink())
        for name in filenames:
            rel = PurePosixPath(*(base / name).relative_to(root).parts).as_posix()
            found.append((rel, (base / name).is_symlink()))
    return sorted(found)


def in_scope(rel: str, workspace: str | None) -> bool:
    """Does an index of ``workspace`` read this root-relative path (SPEC §1)?"""
    parts = PurePosixPath(rel).parts
    if not rel.endswith(".md") or any(p.startswith(".") for p in parts):
        return False
    return len(parts) == 1 or (workspace is not None and parts[0] == workspace)


def scan_memory(
    root: Path, root_rel: str, workspace: str | None, report: ValidationReport
) -> dict[str, ScannedFile]:
    """The in-scope Markdown files of a memory root; everything else is reported."""
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
        if not in_scope(rel, workspace):
            why = (
                "not a Markdown file"
                if not rel.endswith(".md")
                else (f"outside the index scope (workspace {workspace or 'none'})")
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
        scanned = _scan_file(root / rel, rel, shown, report)
        if scanned is not None:
            files[rel] = scanned
    return files


def _scan_file(path: Path, rel: str, shown: str, report: ValidationReport) -> ScannedFile | None:
    data = path.read_bytes()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        report.add("bad_utf8", shown, line, "the file is not valid UTF-8", "save the file as UTF-8")
        return None
    scanned = ScannedFile(rel, count_lines(text))
    if "<!-- fact:" in text:
        for number, line_text in enumerate(text.split("\n"), start=1):
            scanned.markers += [(m.group(1), number) for m in FACT_MARKER_RE.finditer(line_text)]
    return scanned


def digest_listing(dataset_dir: Path) -> list[tuple[str, str]]:
    """(dataset-relative path, sha256 hex) of every file the digest covers, sorted by path.

    Covered: every ``*.md`` file under ``memory/`` and ``groups/*/memory/``,
    ``files.jsonl``, ``queries.jsonl`` and every top-level ``qrels*.tsv``. Not
    covered: ``manifest.json``, ``README.md``, ``vectors/`` and anything else (an
    ``index.sqlite`` or ``.dream-lock`` left by a run does not change the digest).
    """
    paths: list[str] = []
    roots = [MEMORY_DIR]
    groups = dataset_dir / GROUPS_DIR
    if groups.is_dir():
        roots += [
            f"{GROUPS_DIR}/{d.name}/{MEMORY_DIR}" for d in sorted(groups.iterdir()) if d.is_dir()
        ]
    for root_rel in roots:
        root = dataset_dir / root_rel
        if root.is_dir():
            paths += [
                f"{root_rel}/{rel}" for rel, link in _walk(root) if rel.endswith(".md") and not link
            ]
    for entry in sorted(dataset_dir.iterdir()) if dataset_dir.is_dir() else []:
        name = entry.name
        if entry.is_file() and (
            name in (FILES, QUERIES) or (name.startswith("qrels") and name.endswith(".tsv"))
        ):
            paths.append(name)
    ordered = sorted(paths, key=lambda p: p.encode("utf-8"))
    return [(p, hashlib.sha256((dataset_dir / p).read_bytes()).hexdigest()) for p in ordered]


def compute_digest(dataset_dir: str | Path) -> str:
    """``sha256:<hex>`` of the ``sha256sum``-style listing ``<hex>  <path>\\n`` of covered files."""
    listing = digest_listing(Path(dataset_dir))
    text = "".join(f"{h}  {p}\n" for p, h in listing)
    return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()


def workspace_dirs(root: Path) -> list[str]:
    """Top-level, non-hidden directories of a memory root (each is a workspace)."""
    if not root.is_dir():
        return []
    return sorted(e.name for e in root.iterdir() if e.is_dir() and not e.name.startswith("."))
