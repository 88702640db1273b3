"""BEIR (Thakur et al., 2021) folder → memlab dataset.

Input: ``corpus.jsonl`` (``_id``, ``title``, ``text``), ``queries.jsonl``
(``_id``, ``text``) and ``qrels/<split>.tsv`` (header ``query-id corpus-id
score``), as the BEIR datasets are distributed.

Mapping: **one memory file per document**, so a document is a whole-file target
and long documents are chunked as the engine would chunk any memory file. The
memory root holds one workspace ``<slug(name)>-<hash8(name)>``; document
``_id`` becomes ``sessions/<as_of date>-<slug(_id)>-<hash8(_id)>.md`` (the
``_id`` is kept as ``origin_id`` in files.jsonl), holding ``# <title>`` (when
there is one), a blank line and the text. BEIR has no time: every document is
indexed at ``as_of`` (default 1970-01-01T00:00:00Z, so decay plays no part).
The text is kept as written (CRLF normalised, surrounding blank lines dropped; a
line that would read as a speaker line gets one leading space, so a document is
always one record of ``memlab.store.records``). A query id that is not a usable
id is cleaned (``safe_id``) and the original kept as the query's ``origin_id``.
Only queries judged in the chosen split are kept; grades are kept as in the
source (0 = judged non-relevant). Judgements on unknown documents are dropped
and reported.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

from memlab.datasets.importers._common import (
    ImportOptions,
    ImportResult,
    body_lines,
    hash8,
    option_as_of,
    progress,
    safe_id,
    slugify,
)
from memlab.datasets.writer import DatasetWriter
from memlab.errors import DatasetError
from memlab.timefmt import utc_date


def _jsonl(path: Path) -> list[dict[str, Any]]:
    if not path.is_file():
        raise DatasetError(f"BEIR file {path} not found")
    rows, problems = [], []
    for number, line in enumerate(
        path.read_text(encoding="utf-8", errors="replace").split("\n"), start=1
    ):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as exc:
            problems.append(f"{path.name}:{number}: not valid JSON ({exc.msg})")
            continue
        if not isinstance(obj, dict) or not isinstance(obj.get("_id"), (str, int)):
            problems.append(f"{path.name}:{number}: expected an object with an '_id'")
            continue
        rows.append(obj)
    if problems:
        raise DatasetError(f"{path} is not BEIR JSON lines", problems=problems)
    return rows


def _qrels(path: Path) -> list[tuple[str, str, int]]:
    if not path.is_file():
        found = sorted(p.stem for p in path.parent.glob("*.tsv"))
        raise DatasetError(
            f"{path} not found; splits here: {', '.join(found) or 'none'} (use --split)"
        )
    rows, problems = [], []
    for number, line in enumerate(path.read_text(encoding="utf-8").split("\n"), start=1):
        cols = line.split("\t") if "\t" in line else line.split()
        if not line.strip() or (number == 1 and cols[0].lower() in ("query-id", "query_id", "qid")):
            continue
        try:
            rows.append((str(cols[0]), str(cols[1]), int(float(cols[2]))))
        except (IndexError, ValueError):
            problems.append(f"{path.name}:{number}: expected 'query-id<TAB>corpus-id<TAB>score'")
    if problems:
        raise DatasetError(f"{path} is not a BEIR qrels file", problems=problems)
    return rows


def import_beir(src: Path, dest: Path, options: ImportOptions) -> ImportResult:
    """Convert a BEIR dataset folder into a single-memory dataset at ``dest``."""
    corpus = _jsonl(src / "corpus.jsonl")
    queries = {str(q["_id"]): str(q.get("text", "")) for q in _jsonl(src / "queries.jsonl")}
    judgements = _qrels(src / "qrels" / f"{options.split}.tsv")
    name = options.name or slugify(src.name)
    as_of = option_as_of(options, 0.0)
    workspace = f"{slugify(name, 30)}-{hash8(name)}"
    result, counts = ImportResult(dest), Counter[str]()
    writer = DatasetWriter(
        dest,
        name=name,
        licence=options.licence or "see the licence of the BEIR source dataset",
        origin=options.origin or f"BEIR-format dataset '{src.name}' (qrels split {options.split})",
        description=options.description
        or f"BEIR dataset {src.name}, one memory file per document.",
        as_of=as_of,
        force=options.force,
        import_info={"kind": "beir", "source": src.name, "options": {"split": options.split}},
    )
    files: dict[str, str] = {}
    for doc in progress(corpus, "beir", "doc"):
        doc_id = str(doc["_id"])
        if doc_id in files:
            result.notes.append(f"document {doc_id} appears twice in corpus.jsonl: kept the first")
            continue
        rel = f"{workspace}/sessions/{utc_date(as_of)}-{slugify(doc_id, 30)}-{hash8(doc_id)}.md"
        title, text = str(doc.get("title") or "").strip(), str(doc.get("text") or "").strip()
        lines = body_lines(text) or ["(empty)"]
        body = (f"# {title}\n\n" if title else "") + "\n".join(lines) + "\n"
        writer.add_file(rel, body, as_of, origin_id=doc_id)
        files[doc_id] = rel
    counts["documents"] = len(files)
    _write_queries(writer, queries, judgements, files, counts, result.notes)
    writer.manifest["import"]["counts"] = dict(sorted(counts.items()))
    writer.manifest["import"]["notes"] = result.notes[:100]
    writer.finish()
    result.counts = dict(sorted(counts.items()))
    return result


def _write_queries(
    writer: DatasetWriter,
    queries: dict[str, str],
    judgements: list[tuple[str, str, int]],
    files: dict[str, str],
    counts: Counter[str],
    notes: list[str],
) -> None:
    judged: dict[str, list[tuple[str, int]]] = {}
    for qid, doc_id, grade in judgements:
        if qid not in queries:
            notes.append(f"qrels name query {qid}, which queries.jsonl lacks: dropped")
        elif doc_id not in files:
            notes.append(f"qrels of query {qid} name document {doc_id}, not in the corpus: dropped")
        else:
            judged.setdefault(qid, []).append((doc_id, grade))
    for qid, docs in judged.items():
        writer.add_query(safe_id(qid), queries[qid], origin_id=None if safe_id(qid) == qid else qid)
        for doc_id, grade in docs:
            writer.judge(safe_id(qid), files[doc_id], grade)
    counts["queries"] = len(judged)
    counts["judgements"] = sum(len(d) for d in judged.values())
    counts["unjudged_queries_skipped"] = len(queries) - len(judged)
