"""An experiment's rankings and judgements as TREC files other tools read.

Beside every run, at both units::

    runs/<run>.trec        the chunk ranking, best first   (query Q0 chunk rank score run)
    runs/<run>.qrels       the judgements it was scored with, chunks as resolved at each
                           query's time                      (query 0 chunk grade)
    runs/<run>.file.trec   the file ranking (each file at its best chunk)
    runs/<run>.file.qrels  the judgements at file level

The qrels hold exactly the queries the IR measures score (a positive grade, not
an abstention query; ``memlab.eval.compare.per_query.measured_qrels``), so ranx — or
trec_eval — reading a run with its qrels reproduces memlab's numbers. A judged
query with no hits has no line in the run (TREC cannot write an empty ranking)
and scores 0 in memlab: load with ``ranx.evaluate(..., make_comparable=True)``
(trec_eval: ``-c``). Scores are memlab's display scores made strictly decreasing,
so a reader that sorts by score keeps memlab's order; ids with spaces are
percent-encoded in both files alike (``memlab.datasets.trec``).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from memlab.datasets import write_qrels, write_run
from memlab.eval.runs.rankers import RunResult, to_file_level

Qrels = Mapping[str, Mapping[str, int]]


def run_files(folder: Path, name: str, unit: str) -> tuple[Path, Path]:
    """The run and qrels files of ``name`` at ``unit`` in ``folder``."""
    stem = name if unit == "chunk" else f"{name}.{unit}"
    return folder / f"{stem}.trec", folder / f"{stem}.qrels"


def write_trec(folder: Path, result: RunResult, qrels: Mapping[str, Qrels]) -> None:
    """The run at chunk and file level, each with the qrels of that unit (``qrels[unit]``)."""
    folder.mkdir(parents=True, exist_ok=True)
    for unit, ranking in (("chunk", result), ("file", to_file_level(result))):
        run_path, qrels_path = run_files(folder, result.name, unit)
        run = {
            qid: dict(zip(ids, strictly_decreasing(ranking.scores[qid]), strict=True))
            for qid, ids in ranking.rankings.items()
            if ids
        }
        write_run(run_path, run, tag=result.name, sort=False)
        if unit in qrels:
            write_qrels(qrels_path, qrels[unit])


def strictly_decreasing(scores: list[float]) -> list[float]:
    """Display scores rounded to 6 decimals and made strictly decreasing (clamped ties
    at 1.0 become 0.999999, …), so a TREC reader that sorts by score keeps memlab's order."""
    out: list[float] = []
    for s in scores:
        s = round(s, 6)
        if out and s >= out[-1]:
            s = round(out[-1] - 1e-6, 6)
        out.append(s)
    return out
