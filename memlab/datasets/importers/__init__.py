"""Importers: external benchmark formats → memlab datasets (no network, ever).

``IMPORTERS`` maps a KIND (as in ``memlab dataset import KIND SRC DEST``) to its
function ``(src, dest, options) -> ImportResult``. TREC qrels and runs are read
and written by ``memlab.datasets.trec`` (a TREC qrels file needs a document
collection to become a memory, which the BEIR importer covers).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from memlab.datasets.folder import check_dest
from memlab.datasets.importers._common import ImportOptions, ImportResult
from memlab.datasets.importers.beir import import_beir
from memlab.datasets.importers.locomo import import_locomo
from memlab.datasets.importers.longmemeval import import_longmemeval
from memlab.errors import DatasetError, unknown_name


@dataclass(frozen=True)
class Importer:
    kind: str
    summary: str  # what SRC is
    run: Callable[[Path, Path, ImportOptions], ImportResult]


IMPORTERS: dict[str, Importer] = {
    imp.kind: imp
    for imp in (
        Importer(
            "beir", "a BEIR folder: corpus.jsonl, queries.jsonl, qrels/<split>.tsv", import_beir
        ),
        Importer("longmemeval", "a LongMemEval JSON file (oracle, S or M)", import_longmemeval),
        Importer("locomo", "locomo10.json (a list of conversations)", import_locomo),
    )
}


def import_dataset(
    kind: str, src: str | Path, dest: str | Path, options: ImportOptions | None = None
) -> ImportResult:
    """Convert ``src`` (an external dataset of ``kind``) into a memlab dataset at ``dest``."""
    if kind not in IMPORTERS:
        raise DatasetError(unknown_name("importer", kind, IMPORTERS))
    options = options or ImportOptions()
    if options.limit is not None and options.limit < 1:
        raise DatasetError(f"--limit must be at least 1, got {options.limit}")
    src_path = Path(src)
    if not src_path.exists():
        raise DatasetError(f"{kind} source {src_path} does not exist")
    check_dest(Path(dest), options.force)  # before reading anything
    return IMPORTERS[kind].run(src_path, Path(dest), options)


__all__ = ["IMPORTERS", "ImportOptions", "ImportResult", "Importer", "import_dataset"]
