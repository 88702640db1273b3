"""Runs from elsewhere: a TREC run file measured beside memlab's rankers.

``memlab compare DATASET --runs fts,hybrid --run bm25=their.trec`` reads
``their.trec`` (6 columns, ``memlab.datasets.trec``; ids with whitespace
percent-encoded) and scores it on the same judgements, query by query, so the
statistics pair it with memlab's runs. A run names chunks (``path:i``, as
memlab's own ``runs/<run>.trec`` do: at each query's time) or files (``path``:
use ``--unit file``, where chunk ids count at their file). Its documents are
ranked by score (ties by document id, as TREC tools read them). What the file
cannot tell — the snippets, so ``Redundancy`` and ``Tokens`` — is left out for it;
every IR measure, ``Stale`` and the abstention measures are computed.

A run over queries the dataset does not hold, or whose ids match nothing judged,
is measured all the same, with a warning that says so.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from memlab.config import SearchConfig
from memlab.datasets import Dataset
from memlab.datasets.trec import ranked, read_run
from memlab.errors import ConfigError
from memlab.eval.runs.rankers import RUN_NAME, RunResult


@dataclass(frozen=True)
class RunFile:
    """A TREC run to measure as it is, under a name."""

    path: Path
    spec: str = ""

    def digest(self) -> str:
        return "sha256:" + hashlib.sha256(self.path.read_bytes()).hexdigest()


def parse_run_files(items: Sequence[str]) -> dict[str, RunFile]:
    """``["bm25=their.trec", …]`` (``--run NAME=FILE``, repeatable) as named run files."""
    out: dict[str, RunFile] = {}
    for item in items:
        name, sep, file = (part.strip() for part in item.partition("="))
        if not sep or not RUN_NAME.fullmatch(name) or not file:
            raise ConfigError(
                f"--run '{item}': write NAME=FILE.trec with NAME a plain word, e.g. bm25=bm25.trec"
            )
        if name in out:
            raise ConfigError(f"run '{name}' is named twice; give each run its own name")
        out[name] = RunFile(Path(file), item)
    return out


def external_result(
    name: str, run_file: RunFile, dataset: Dataset, judged: Mapping[str, Mapping[str, int]]
) -> tuple[RunResult, list[str]]:
    """The run as a ``RunResult`` over the dataset's queries, and what to warn about.

    ``judged`` (``{query_id: {doc: grade}}`` at the evaluation's unit) is only read to
    warn when none of the run's documents is judged (the wrong unit, or other ids)."""
    data = read_run(run_file.path)
    known = {q.query_id for q in dataset.queries}
    result = RunResult(name, SearchConfig(), {}, {}, {}, {}, source=str(run_file.path))
    for qid in known:
        docs = ranked(data.get(qid, {}))
        result.rankings[qid] = [doc for doc, _ in docs]
        result.scores[qid] = [score for _, score in docs]
        result.degraded[qid] = False
    warnings = []
    extra = sorted(set(data) - known)
    if extra:
        warnings.append(
            f"run {name} ({run_file.path.name}): {len(extra)} of its {len(data)} queries are not "
            f"in the dataset (e.g. '{extra[0]}'); they are left out"
        )
    matched = sum(
        1 for qid, ids in result.rankings.items() for doc in ids if doc in judged.get(qid, {})
    )
    if judged and not matched:
        warnings.append(
            f"run {name} ({run_file.path.name}): none of its documents is judged at this unit; "
            "chunk runs name 'path:i' chunks, file runs name paths (pass --unit file)"
        )
    return result, warnings
