"""Datasets: the memlab dataset format, its loader and validator, importers, a generator.

The format (``format_version`` 1 and 2)
=======================================

A dataset is a folder, readable in review::

    manifest.json    metadata (below)
    memory/          one memory root laid out as SPEC §1 (global MEMORY.md,
                     <workspace>/MEMORY.md, <workspace>/sessions/*.md) ...
    groups/<id>/memory/   ... or one memory root per group (several independent memories)
    files.jsonl      the timeline: when each file is written (format 1: one line per file)
    queries.jsonl    {"query_id", "text", "as_of"?, "group"?, "category"?, "tags"?,
                      "abstention"?, "stale_targets"?, "answer"?, "answer_at"? (2),
                      "origin_id"? (the source's id, when it was not a usable id)}
    qrels.tsv        TREC qrels "query_id nugget target relevance" (tab-separated)
    qrels.<level>.tsv  further judgement levels, when the manifest lists them
    facts.jsonl      format 2: fact labels kept outside the indexed text
    versions/        format 2: file contents other than the final ones
    README.md        optional, free text; vectors/ optional (precomputed embeddings)
    pool.jsonl, pool.json, judgements.jsonl   optional: pooled judging (``memlab.judging``)

``manifest.json``: ``name``, ``description``, ``licence``, ``origin`` (where the
data comes from; importers keep the source's licence and origin), ``as_of``
(default evaluation time, ISO 8601 with an offset, e.g. ``2026-06-30T18:00:00Z``),
``digest``, ``format_version`` (1 or 2); optional ``groups`` = ``[{"id", "as_of"?,
"workspace"?, "root"? (2)}]`` (omitted for a single memory, whose group id is
``"default"``), ``qrels`` = ``[{"level", "file"}]`` (omitted: one level
``"default"`` in ``qrels.tsv``; otherwise the first entry is the default level),
``import`` (free-form provenance written by importers: ``kind``, options, counts,
notes), ``index`` = ``{"tokenizer": "unicode61" | "porter" | "trigram",
"max_bytes", "overlap_chars", "chunking": "c0" | "record" | "file", "roles":
[speaker, ...], "by_tag"?}`` (the index options the dataset is evaluated with by
default; ``--tokenizer``, ``--chunk-bytes``, ``--chunk-overlap``, ``--chunking``,
``--roles`` override them; ``memlab.store.chunking``; ``by_tag`` = ``{TAG:
{option: value}}`` gives the queries with that tag their own index, e.g.
``{"trigram": {"tokenizer": "trigram"}}``, and an explicit tokenizer applies to
every query instead), and in format 2 ``timeline`` = ``{"dream": true | false}``
(session ends run Dream during replay; default false; the evaluation may override
it). Unknown keys are errors (so "license" is caught), and format-2 keys in a
format-1 manifest too.

Rules:

* A group's **workspace** is the one named in its entry, else the only top-level
  directory of its memory root (none: only global memory). An index of the group
  covers the root's ``*.md`` files and every ``*.md`` file of that workspace
  (``MemoryLayout``); other files are reported and ignored. In format 2 a group's
  ``root`` (dataset-relative; default ``groups/<id>/memory``) may be shared by
  several groups that index different workspaces of it (c0 keeps one index per
  workspace, and the global ``MEMORY.md`` is indexed into each).
* **Source ids**: a ``files.jsonl`` line may carry ``origin_id`` (the file's id in
  the source: a session, a document) and ``record_ids`` (the source's ids of the
  file's turns, one per record of ``memlab.store.records``, in file order; the
  validator counts them); importers write both, so evaluation under a paper's
  protocol names units as the source does (``memlab.eval.protocols``).
* **Times (format 1)**: ``files.jsonl`` lines ``{"path", "created_at", "group"?,
  "origin_id"?, "record_ids"?}`` give the logical time at which replay writes and indexes each
  file (``Dataset.groups[g].created_at``, unix seconds). Without ``files.jsonl``
  every file is indexed at its group's ``as_of``. A query's ``as_of`` defaults to
  its group's, which defaults to the manifest's. A file dated after the ``as_of``
  that applies to it is a warning.
* **The timeline (format 2)**: the memory tree holds the *final written content*
  of every file; ``files.jsonl`` lists events, replayed in (``at``, line) order::

      {"path", "at"}                        write the tree's file
      {"path", "at", "bytes": N}            write its first N bytes (a growing log:
                                            N at a character boundary, never shrinking)
      {"path", "at", "content": "versions/X"}  write the dataset file X (a rewrite)
      {"path", "at", "append": "versions/X"}   append X to the current content
                                            (creating the file; composes with Dream)
      {"path", "at", "delete": true}        remove the file
      + "end": true on a session log's write: the session ends (Dream's trigger);
        without any "end", a session log's last write is its end
      + "group": G when the manifest lists groups (an event on a shared root's
        global file applies to every group of that root)

  ``{"path", "created_at"}`` reads as one write. A file with no event is written
  at its group's ``as_of`` (with a warning). Evaluation replays each group's
  events once, in time order, in a working copy (never in the dataset folder):
  an event with ``at`` ≤ a query's ``as_of`` is visible to it, nothing later is;
  file mtimes are the events' times (Dream's gates read them). Each query is
  evaluated against the memory as it stood at its own ``as_of``
  (``memlab.eval.replay.prepared``).
* **Targets** (the qrels' target column, and ``stale_targets``) never name
  chunks: ``path`` (a whole file, root-relative), ``path#L12-L20`` (1-based
  inclusive lines) or ``fact:<id>``. ``resolve_qrels`` maps targets to chunks at
  evaluation time (in format 2: to the chunks that exist at the query's time).

  - Format 1: ``fact:<id>`` is the place where the memory holds the invisible
    marker ``<!-- fact:<id> -->``. Put a marker at the end of the line that states
    the fact (the content-free filter strips comments, so the marker must share a
    chunk with real content) and keep ids opaque (``f017``): the marker's words are
    indexed, so a descriptive id would leak query terms.
  - Format 2: ``facts.jsonl`` lines ``{"fact", "group"?, "path", "text"}`` label
    facts *outside* the text: ``fact:<id>`` resolves to every chunk of the
    query's group whose text contains ``text`` (one exact line or part of one),
    wherever it is then (a session log, or ``MEMORY.md`` after Dream copied it).
    ``path`` is where it is first written (the text must occur in some version of
    it). A fact without ``group`` belongs to every group reading ``path``. Markers
    are errors in format 2.
* **Relevance**: integers; 0 = judged non-relevant, 1 = partial, 2 = the answer.
  Importers map binary source labels to 2 and keep graded ones (BEIR) as they are.
  ``stale_targets`` list targets holding a superseded version of the answer (they
  may also be judged 0). ``abstention: true`` = nothing in memory answers the
  query: it must have no positive judgement. A non-abstention query without a
  positive judgement at some level is a warning (evaluation skips it there).
  Format 2: a relevant target first written after its query's ``as_of`` is a
  warning (the query cannot see it).
* **Nuggets** (format 2): the second qrels column names an information facet;
  ``0`` = a plain judgement (format 1 ignores the column, TREC's "iteration").
  A query judged with nuggets gives every positive target a nugget number;
  several targets may share one (copies of the same answer), and a target may
  carry several. Novelty-aware measures (α-nDCG@k, nugget recall) use them; for
  other measures a target's grade is the maximum over its nuggets.
* **Digest**: ``sha256:<hex>`` of the ``sha256sum``-style listing ``<sha256>  <path>``
  (one line each, sorted by path) of every ``*.md`` under the memory roots,
  ``files.jsonl``, ``queries.jsonl``, ``facts.jsonl``, ``qrels*.tsv`` and every
  file under ``versions/``. ``manifest.json``, ``README.md``, ``vectors/``, the
  judging files (the pool, the judges' sidecar) and stray files (an
  ``index.sqlite``) are not covered.

Writing: ``DatasetWriter`` (importers write format 1; ``format_version=2`` adds
``add_event``, ``add_fact``, ``judge(..., nugget=N)``, group roots and the
manifest's ``index`` / ``timeline``, and validates on ``finish()``).

Entry points: ``load_dataset`` (a folder or a shipped dataset's name, ``resolve_dataset``),
``validate_dataset``, ``resolve_qrels`` (targets →
chunks; ``qrels_by_file`` / ``run_by_file`` for file-level metrics), ``chunk_group``,
the TREC I/O functions, ``import_dataset`` (kinds in
``IMPORTERS``), ``generate_agent_memory`` (the shipped dataset) and
``memlab.datasets.from_memory.dataset_from_memory`` (a real memory folder, to be
judged with ``memlab.judging``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from memlab.datasets.loader import load_dataset, validate_dataset
from memlab.datasets.locate import known_datasets, resolve_dataset
from memlab.datasets.model import DEFAULT_GROUP, Dataset, Event, FactText, MemoryGroup, Query
from memlab.datasets.problems import Problem, ValidationReport
from memlab.datasets.scan import compute_digest
from memlab.datasets.target_chunks import (
    ChunkLike,
    ChunkRecord,
    chunk_group,
    qrels_by_file,
    resolve_qrels,
    resolve_stale_targets,
    resolve_targets,
    run_by_file,
)
from memlab.datasets.targets import Target, fact_marker, parse_target, span_target
from memlab.datasets.trec import read_qrels, read_run, write_qrels, write_run
from memlab.datasets.writer import DatasetWriter, update_digest

if TYPE_CHECKING:
    from memlab.datasets.generator import generate_agent_memory
    from memlab.datasets.importers import IMPORTERS, ImportOptions, ImportResult, import_dataset

# The importers and the generator load on first use: evaluating a dataset needs neither.
_LAZY = {
    "generate_agent_memory": "memlab.datasets.generator",
    **dict.fromkeys(
        ("IMPORTERS", "ImportOptions", "ImportResult", "import_dataset"),
        "memlab.datasets.importers",
    ),
}


def __getattr__(name: str) -> Any:
    if name not in _LAZY:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(_LAZY[name]), name)
    globals()[name] = value
    return value


__all__ = [
    "DEFAULT_GROUP",
    "IMPORTERS",
    "ChunkLike",
    "ChunkRecord",
    "Dataset",
    "DatasetWriter",
    "Event",
    "FactText",
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
