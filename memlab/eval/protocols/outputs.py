"""What a protocol evaluation leaves on disk, with the source's ids throughout::

    qrels.<unit>.tsv          the scored questions' judged units (TREC qrels)
    runs/<run>.<unit>.trec    every run's unit ranking (TREC run; each unit's score is its
                              first chunk's display score, made strictly decreasing so a
                              reader that sorts by score keeps the ranking)
    perquery.csv, aggregated.csv, compare.csv, per_category.csv   (as ``memlab compare``)
    published.csv             memlab's runs beside the reference numbers, if given
    table.md, table.tex       the paper-shaped table (``paper_table``): systems × measures
                              × categories, the reference systems included
    manifest.json             what produced the numbers, with the protocol, the unit,
                              the question set and the index (chunking, roles)

Query ids are the source's (``origin_id`` where memlab had to clean one), so
trec_eval, pytrec_eval or ranx read the qrels and runs beside the paper's files.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from memlab.datasets import write_qrels, write_run
from memlab.eval.compare.manifest import build_manifest, write_json
from memlab.eval.protocols.paper_table import digits_of, paper_table, table_text
from memlab.eval.protocols.published import References
from memlab.eval.protocols.unit_runs import ProtocolResult
from memlab.eval.runs.trec_out import strictly_decreasing

if TYPE_CHECKING:  # pandas loads when a table is built
    import pandas as pd


def protocol_manifest(result: ProtocolResult) -> dict[str, Any]:
    """The run manifest (``memlab.eval.compare.manifest``) with a ``protocol`` section."""
    p = result.protocol
    manifest = build_manifest(
        result.prepared,
        {name: r.config for name, r in result.runs.items()},
        result.runs,
        measures=list(p.measures),
        unit=f"{p.name}:{result.unit}",
        test="t",
        seed=0,
        budget=0,
    )
    qs = result.questions
    manifest["protocol"] = {
        "name": p.name,
        "source": p.source,
        "unit": result.unit,
        "question_set": p.questions,
        "questions": qs.total,
        "scored": len(qs.scored),
        "not_scored": {why: len(ids) for why, ids in qs.excluded.items()},
        "categories": dict(qs.categories),
        "roles": list(result.prepared.index_config.chunking.roles) or "all",
        "evidence": result.evidence,
        "chunking": result.prepared.index_config.chunking.mode,
    }
    return manifest


def write_protocol_outputs(
    result: ProtocolResult,
    out: Path,
    published: pd.DataFrame | None = None,
    refs: References | None = None,
) -> None:
    out.mkdir(parents=True, exist_ok=True)
    ids = result.original_ids()
    scored = list(result.questions.scored)
    unit = result.unit
    write_qrels(out / f"qrels.{unit}.tsv", {ids[q]: result.qrels[q] for q in scored})
    (out / "runs").mkdir(exist_ok=True)
    for name, ranked in result.rankings.items():
        scores = result.scores[name]
        run = {
            ids[q]: dict(zip(ranked[q], strictly_decreasing(scores[q]), strict=True))
            for q in scored
            if ranked.get(q)
        }
        write_run(out / "runs" / f"{name}.{unit}.trec", run, tag=name, sort=False)
    result.perquery.to_csv(out / "perquery.csv", index=False)
    result.aggregated.to_csv(out / "aggregated.csv", index=False)
    result.compared.to_csv(out / "compare.csv", index=False)
    result.categories.to_csv(out / "per_category.csv", index=False)
    if published is not None:
        published.to_csv(out / "published.csv", index=False)
    table = paper_table(result, refs)
    digits = digits_of(result)
    for suffix in (".md", ".tex"):
        (out / f"table{suffix}").write_text(table_text(table, suffix, digits=digits))
    write_json(out / "manifest.json", protocol_manifest(result))
