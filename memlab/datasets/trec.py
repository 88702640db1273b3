"""TREC qrels and runs: read and write the standard whitespace-separated formats.

* qrels, 4 columns: ``query_id iteration doc_id relevance`` (iteration is
  usually 0 and is ignored; relevance is an integer, 0 = judged non-relevant);
* runs, 6 columns: ``query_id Q0 doc_id rank score tag``.

In a memlab dataset the ``doc_id`` of the qrels is a target (see
``memlab.datasets.targets``); in runs written by evaluation it is a chunk id.
Readers accept any run of spaces or tabs between columns; writers use tabs for
qrels (the dataset's ``qrels.tsv``) and single spaces for runs, with ``\\n``
line endings. Both readers report every malformed line at once as a
``DatasetError``.

Ids with spaces (a memory file named ``my notes.md``, its chunk ``my notes.md:0``):
the columns are whitespace-separated, so every writer percent-encodes whitespace
and ``%`` in ids (``my%20notes.md``, ``%25`` for a percent sign) and every reader
decodes them (``encode_id`` / ``decode_id``, the one definition). Ids without
whitespace or ``%`` are written as they are, so other tools read memlab's files
unchanged, and ranx (which reads the encoded ids of both files alike) agrees.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping
from pathlib import Path

from memlab.datasets.jsonl import decode_lines
from memlab.datasets.problems import ValidationReport
from memlab.errors import DatasetError
from memlab.safefs import read_bytes

Qrels = dict[str, dict[str, int]]
Run = dict[str, dict[str, float]]

_ENCODE = re.compile(r"[%\s]")
_ESCAPES = re.compile(r"(?:%[0-9A-Fa-f]{2})+")


def encode_id(text: str) -> str:
    """``text`` with whitespace and ``%`` percent-encoded (their UTF-8 bytes), so it is
    one column of a TREC file; every other character is kept."""
    return _ENCODE.sub(lambda m: "".join(f"%{b:02X}" for b in m[0].encode("utf-8")), text)


def decode_id(text: str) -> str:
    """The inverse of ``encode_id``: escapes that spell whitespace or ``%`` are decoded,
    any other escape (``%41``) is kept as written."""
    return _ESCAPES.sub(lambda m: _decode_escapes(m[0]), text) if "%" in text else text


def _decode_escapes(run: str) -> str:
    data = bytes(int(run[i + 1 : i + 3], 16) for i in range(0, len(run), 3))
    out, i = [], 0
    while i < len(data):
        for size in (1, 2, 3, 4):
            try:
                ch = data[i : i + size].decode("utf-8")
            except UnicodeDecodeError:
                continue
            break
        else:
            ch, size = "", 1
        keep = ch == "%" or ch.isspace()
        out.append(ch if keep else run[3 * i : 3 * (i + size)])
        i += size
    return "".join(out)


MAX_TREC_BYTES = 1024 * 1024 * 1024  # a TREC file larger than 1 GiB is refused


def _read(path: Path) -> bytes:
    """A qrels or run file the user names: a regular file (never a FIFO or device), capped."""
    return read_bytes(path, root=None, max_bytes=MAX_TREC_BYTES).data


def _check_ids(qid: str, doc: str, what: str) -> None:
    if not qid or not doc:
        raise DatasetError(f"{what} ids must not be empty: query '{qid}', document '{doc}'")


def parse_qrels(
    lines: Iterable[tuple[int, str]], rel: str, report: ValidationReport
) -> list[tuple[int, str, str, int, str]]:
    """(line, query_id, doc_id, relevance, second column) rows; malformed rows are problems.

    The second column is TREC's iteration (ignored); memlab datasets of format 2
    use it as the nugget (``memlab.datasets``)."""
    rows: list[tuple[int, str, str, int, str]] = []
    for number, text in lines:
        if not text.strip():
            continue
        cols = text.split()
        if len(cols) != 4:
            report.add(
                "malformed_lines",
                rel,
                number,
                f"expected 4 columns, found {len(cols)}",
                "write 'query_id 0 target relevance' separated by tabs",
            )
            continue
        try:
            grade = int(cols[3])
        except ValueError:
            report.add(
                "malformed_lines",
                rel,
                number,
                f"relevance '{cols[3]}' is not an integer",
                "use 0 (judged non-relevant), 1 (partial) or 2 (answer)",
            )
            continue
        rows.append((number, decode_id(cols[0]), decode_id(cols[2]), grade, cols[1]))
    return rows


def _fail(report: ValidationReport, what: str) -> None:
    if report.problems:
        raise DatasetError(f"cannot read {what} {report.path}", problems=map(str, report.problems))


def read_qrels(path: str | Path) -> Qrels:
    """``{query_id: {doc_id: relevance}}`` in file order; duplicates are an error."""
    path = Path(path)
    report = ValidationReport(path)
    qrels: Qrels = {}
    lines = decode_lines(_read(path), path.name, report)
    for number, qid, doc, grade, _ in parse_qrels(lines, path.name, report):
        judged = qrels.setdefault(qid, {})
        if doc in judged:
            report.add(
                "duplicate_ids",
                path.name,
                number,
                f"'{qid} {doc}' is judged twice",
                "keep one line per (query, document)",
            )
        judged[doc] = grade
    _fail(report, "qrels")
    return qrels


def write_qrels(
    path: str | Path, qrels: Mapping[str, Mapping[str, int] | Mapping[tuple[str, int], int]]
) -> None:
    """Write 4-column qrels (tab-separated) in the mapping's order.

    A judgement keyed ``(doc, nugget)`` writes the nugget in the second column
    (format 2); a plain ``doc`` key writes 0."""
    out = []
    for qid, judged in qrels.items():
        for key, grade in judged.items():
            doc, nugget = key if isinstance(key, tuple) else (key, 0)
            _check_ids(qid, doc, "qrels")
            out.append(f"{encode_id(qid)}\t{int(nugget)}\t{encode_id(doc)}\t{int(grade)}\n")
    Path(path).write_bytes("".join(out).encode("utf-8"))


def read_run(path: str | Path) -> Run:
    """``{query_id: {doc_id: score}}``; documents in file order (rank order as written)."""
    path = Path(path)
    report = ValidationReport(path)
    run: Run = {}
    for number, text in decode_lines(_read(path), path.name, report):
        if not text.strip():
            continue
        cols = text.split()
        fix = "write 'query_id Q0 doc_id rank score tag'"
        if len(cols) != 6:
            report.add(
                "malformed_lines", path.name, number, f"expected 6 columns, found {len(cols)}", fix
            )
            continue
        try:
            int(cols[3])
            score = float(cols[4])
        except ValueError:
            report.add("malformed_lines", path.name, number, "rank or score is not a number", fix)
            continue
        if not math.isfinite(score):
            report.add("malformed_lines", path.name, number, f"score {cols[4]} is not finite", fix)
            continue
        qid, doc = decode_id(cols[0]), decode_id(cols[2])
        docs = run.setdefault(qid, {})
        if doc in docs:
            report.add(
                "duplicate_ids",
                path.name,
                number,
                f"'{cols[0]} {cols[2]}' appears twice",
                "list each document once per query",
            )
        docs[doc] = score
    _fail(report, "run")
    return run


def ranked(docs: Mapping[str, float], sort: bool = True) -> list[tuple[str, float]]:
    """Documents best first: by score descending, ties by doc id ascending (deterministic)."""
    items = list(docs.items())
    return sorted(items, key=lambda kv: (-kv[1], kv[0])) if sort else items


def write_run(
    path: str | Path,
    run: Mapping[str, Mapping[str, float]],
    tag: str = "memlab",
    *,
    sort: bool = True,
) -> None:
    """Write a 6-column TREC run.

    With ``sort=True`` (default) each query's documents are ordered by score
    descending, ties broken by doc id; with ``sort=False`` the mapping's order is
    the ranking. Non-finite scores are refused (never write NaN).
    """
    if not tag or any(ch.isspace() for ch in tag):
        raise DatasetError(f"run tag {tag!r} must be a non-empty word without spaces")
    out = []
    for qid, docs in run.items():
        for rank, (doc, score) in enumerate(ranked(docs, sort), start=1):
            if not math.isfinite(score):
                raise DatasetError(f"run score for '{qid} {doc}' is {score}; scores must be finite")
            _check_ids(qid, doc, "run")
            out.append(f"{encode_id(qid)} Q0 {encode_id(doc)} {rank} {float(score)!r} {tag}\n")
    Path(path).write_bytes("".join(out).encode("utf-8"))
