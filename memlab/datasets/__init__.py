"""Datasets: the memlab dataset format, its loader and validator, importers, a generator.

The format (``format_version`` 1)
=================================

A dataset is a folder, readable in review::

    manifest.json    metadata (below)
    memory/          one memory root laid out as SPEC §1 (global MEMORY.md,
                     <workspace>/MEMORY.md, <workspace>/sessions/*.md) ...
    groups/<id>/memory/   ... or one memory root per group (several independent memories)
    files.jsonl      {"path", "created_at", "group"?, "origin_id"?}: when replay indexes each file
    queries.jsonl    {"query_id", "text", "as_of"?, "group"?, "category"?, "tags"?,
                      "abstention"?, "stale_targets"?, "answer"?}
    qrels.tsv        TREC qrels "query_id 0 target relevance" (tab-separated)
    qrels.<level>.tsv  further judgement levels, when the manifest lists them
    README.md        optional, free text; vectors/ optional (precomputed embeddings)

``manifest.json``: ``name``, ``description``, ``licence``, ``origin`` (where the
data comes from; importers keep the source's licence and origin), ``as_of``
(default evaluation time, ISO 8601 with an offset, e.g. ``2026-06-30T18:00:00Z``),
``digest``, ``format_version`` (1); optional ``groups`` = ``[{"id", "as_of"?,
"workspace"?}]`` (omitted for a single memory, whose group id is ``"default"``),
``qrels`` = ``[{"level", "file"}]`` (omitted: one level ``"default"`` in
``qrels.tsv``; otherwise the first entry is the default level), and ``import``
(free-form provenance written by importers: options, counts, notes). Unknown keys
are errors (so "license" is caught).

Rules:

* A group's **workspace** is the one named in its entry, else the only top-level
  directory of its memory root (none: only global memory). An index of the group
  covers the root's ``*.md`` files and every ``*.md`` file of that workspace
  (``MemoryLayout``); other files are reported and ignored.
* **Times**: ``files.jsonl`` gives the logical time at which replay indexes each
  file (``Dataset.groups[g].created_at``, unix seconds). Without ``files.jsonl``
  every file is indexed at its group's ``as_of``. A query's ``as_of`` defaults to
  its group's, which defaults to the manifest's. A file dated after the ``as_of``
  that applies to it is a warning.
* **Targets** (the qrels' document column, and ``stale_targets``) never name
  chunks: ``path`` (a whole file, root-relative), ``path#L12-L20`` (1-based
  inclusive lines) or ``fact:<id>`` — the place where the memory holds the
  invisible marker ``<!-- fact:<id> -->``. Put a marker at the end of the line
  that states the fact (the content-free filter strips comments, so the marker
  must share a chunk with real content) and keep ids opaque (``f017``): the
  marker's words are indexed, so a descriptive id would leak query terms.
  ``resolve_qrels`` maps targets to chunks at evaluation time.
* **Relevance**: integers; 0 = judged non-relevant, 1 = partial, 2 = the answer.
  Importers map binary source labels to 2 and keep graded ones (BEIR) as they are.
  ``stale_targets`` list targets holding a superseded version of the answer (they
  may also be judged 0). ``abstention: true`` = nothing in memory answers the
  query: it must have no positive judgement. A non-abstention query without a
  positive judgement at some level is a warning (evaluation skips it there).
* **Digest**: ``sha256:<hex>`` of the ``sha256sum``-style listing ``<sha256>  <path>``
  (one line each, sorted by path) of every ``*.md`` under the memory roots,
  ``files.jsonl``, ``queries.jsonl`` and ``qrels*.tsv``. ``manifest.json``,
  ``README.md``, ``vectors/`` and stray files (an ``index.sqlite``) are not covered.

Entry points: ``load_dataset`` (a folder or a shipped dataset's name, ``resolve_dataset``),
``validate_dataset``, ``resolve_qrels`` (targets →
chunks; ``qrels_by_file`` / ``run_by_file`` for file-level metrics), ``chunk_group``,
the TREC I/O functions, ``import_dataset`` (kinds in
``IMPORTERS``) and ``generate_agent_memory`` (the shipped dataset).
"""

from __future__ import annotations

from memlab.datasets.generator import generate_agent_memory
from memlab.datasets.importers import IMPORTERS, ImportOptions, ImportResult, import_dataset
from memlab.datasets.loader import load_dataset, validate_dataset
from memlab.datasets.locate import known_datasets, resolve_dataset
from memlab.datasets.model import DEFAULT_GROUP, Dataset, MemoryGroup, Query
from memlab.datasets.problems import Problem, ValidationReport
from memlab.datasets.resolve import (
    ChunkLike,
    ChunkRecord,
    chunk_group,
    qrels_by_file,
    resolve_qrels,
    resolve_stale_targets,
    resolve_targets,
    run_by_file,
)
from memlab.datasets.scan import compute_digest
from memlab.datasets.targets import Target, fact_marker, parse_target, span_target
from memlab.datasets.trec import read_qrels, read_run, write_qrels, write_run
from memlab.datasets.writer import DatasetWriter, update_digest

__all__ = [
    "DEFAULT_GROUP",
    "IMPORTERS",
    "ChunkLike",
    "ChunkRecord",
    "Dataset",
    "DatasetWriter",
    "ImportOptions",
    "ImportResult",
    "MemoryGroup",
    "Problem",
    "Query",
    "Target",
    "ValidationReport",
    "chunk_group",
    "compute_digest",
    "fact_marker",
    "generate_agent_memory",
    "import_dataset",
    "known_datasets",
    "load_dataset",
    "parse_target",
    "qrels_by_file",
    "read_qrels",
    "read_run",
    "resolve_dataset",
    "resolve_qrels",
    "resolve_stale_targets",
    "resolve_targets",
    "run_by_file",
    "span_target",
    "update_digest",
    "validate_dataset",
    "write_qrels",
    "write_run",
]
