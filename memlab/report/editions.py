"""A notebook's edition in another language, generated from one source.

``notebooks/i18n/<name>.<lang>.json`` translates every markdown cell of
``notebooks/<name>.ipynb``, keyed by cell id, each with a digest of the English
text it translates. ``edition`` builds ``<name>_<lang>.ipynb`` from the two: the
English notebook with each markdown cell replaced by its translation and every
code cell as it is, so both editions run the same code and show the same
numbers. A markdown cell with no translation, or whose English changed since it
was translated, is an error naming the cell; ``write_edition`` regenerates the
file (the test ``tests/report/test_editions.py`` says when it is out of date).
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from memlab.errors import ReportError
from memlab.report.shipped_paths import notebook_dir

EDITIONS: dict[str, tuple[str, ...]] = {"tour": ("zh",)}


def digest(text: str) -> str:
    """The digest a translation records of the English text it translates."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:12]


def table_path(name: str, lang: str, folder: Path | None = None) -> Path:
    return (folder or notebook_dir()) / "i18n" / f"{name}.{lang}.json"


def edition_path(name: str, lang: str, folder: Path | None = None) -> Path:
    return (folder or notebook_dir()) / f"{name}_{lang}.ipynb"


def edition(name: str, lang: str, folder: Path | None = None) -> Any:
    """``name``'s notebook with its markdown in ``lang`` (an nbformat node)."""
    import nbformat

    source = (folder or notebook_dir()) / f"{name}.ipynb"
    nb = nbformat.read(source, as_version=4)
    table = json.loads(table_path(name, lang, folder).read_text(encoding="utf-8"))["cells"]
    regenerate = f"update {table_path(name, lang, folder).name}, then run write_edition"
    for cell in nb.cells:
        if cell.cell_type != "markdown":
            continue
        entry = table.get(cell.id)
        if entry is None:
            raise ReportError(
                f"{name}.ipynb cell {cell.id} has no {lang} translation; {regenerate}"
            )
        if entry["en"] != digest(cell.source):
            raise ReportError(
                f"{name}.ipynb cell {cell.id} changed since its {lang} translation; {regenerate}"
            )
        cell.source = entry["text"]
    nb.metadata["language_edition"] = {"source": f"{name}.ipynb", "lang": lang}
    return nb


def render(nb: Any) -> str:
    """The notebook's file text, as nbformat writes it (sources as lists of lines)."""
    import nbformat

    return str(nbformat.writes(nb)) + "\n"


def write_edition(name: str, lang: str, folder: Path | None = None) -> Path:
    """Write ``<name>_<lang>.ipynb`` beside its source."""
    target = edition_path(name, lang, folder)
    target.write_text(render(edition(name, lang, folder)), encoding="utf-8")
    return target


def write_table(name: str, lang: str, texts: dict[str, str], folder: Path | None = None) -> Path:
    """Record ``texts`` (cell id → translation) with the digests of today's English."""
    import nbformat

    nb = nbformat.read((folder or notebook_dir()) / f"{name}.ipynb", as_version=4)
    english = {c.id: c.source for c in nb.cells if c.cell_type == "markdown"}
    cells = {cid: {"en": digest(english[cid]), "text": text} for cid, text in texts.items()}
    path = table_path(name, lang, folder)
    path.parent.mkdir(parents=True, exist_ok=True)
    body = {"notebook": f"{name}.ipynb", "lang": lang, "cells": cells}
    path.write_text(json.dumps(body, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return path
