"""Evaluation under a published protocol: rankers' chunk rankings as the paper's units.

``run_protocol(prepared, runs, protocol)`` gathers every query's candidates at its
own time (as ``run_experiment`` does: once per memory, at the widest limit the
runs need), ranks them with each run through the scoring core, turns each chunk
ranking into a unit ranking with the source's ids (first occurrence,
``memlab.eval.protocols.units``), and measures the scored questions with the
paper's measures (``memlab.eval.protocols.paper_measures``). The tables are long and
tidy like ``run_experiment``'s, and the statistics are the same functions
(``memlab.eval.compare.per_query.aggregate`` / ``compare`` / ``per_category``).
``prepare_protocol`` prepares a dataset with the protocol's index defaults.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from memlab.config import profile
from memlab.datasets import Dataset, load_dataset
from memlab.errors import ConfigError
from memlab.eval.compare.per_query import PERQUERY_COLUMNS, aggregate, compare, per_category
from memlab.eval.protocols import paper_measures as pm
from memlab.eval.protocols.spec import UNIT_CHUNKING, Protocol, check_dataset
from memlab.eval.protocols.units import (
    UPSTREAM,
    QuestionSet,
    Span,
    UnitSpace,
    original_query_ids,
    question_set,
    unit_qrels,
)
from memlab.eval.replay.prepared import Prepared, PrepareOptions, prepare_dataset
from memlab.eval.runs.rankers import Run, RunResult, hit_rows, needed_limit, run_of
from memlab.retrieval.candidates_batch import CandidateBatch
from memlab.retrieval.ranking import rank_batch


@dataclass
class ProtocolResult:
    protocol: Protocol
    prepared: Prepared
    unit: str
    questions: QuestionSet
    qrels: dict[str, dict[str, int]]  # query id -> unit -> grade (every question)
    rankings: dict[str, dict[str, list[str]]]  # run -> query id -> units, best first
    runs: dict[str, RunResult]
    perquery: pd.DataFrame
    aggregated: pd.DataFrame
    compared: pd.DataFrame
    categories: pd.DataFrame
    warnings: list[str] = field(default_factory=list)
    evidence: str = UPSTREAM
    # run -> query id -> each unit's score (its first chunk's display score), as rankings
    scores: dict[str, dict[str, list[float]]] = field(default_factory=dict)

    @property
    def dataset(self) -> Dataset:
        return self.prepared.dataset

    def table(self, measures: Sequence[str] | None = None) -> pd.DataFrame:
        """Means as a wide table: one row per run, one column per measure."""
        chosen = list(measures or self.protocol.shown)
        agg = self.aggregated[self.aggregated["measure"].isin([*chosen, "NumQ"])]
        wide = agg.pivot(index="run", columns="measure", values="value")
        return wide.reindex(index=list(self.runs), columns=[*chosen, "NumQ"])

    def original_ids(self) -> dict[str, str]:
        return original_query_ids(self.dataset, [q.query_id for q in self.dataset.queries])


def prepare_protocol(
    dataset: str | Path | Dataset,
    protocol: Protocol,
    *,
    level: str | None = None,
    profile_name: str | None = None,
    tokenizer: str | None = None,
    roles: str | tuple[str, ...] | None = None,
    **options: Any,
) -> Prepared:
    """A dataset prepared for ``protocol`` at ``level`` (default: the protocol's):
    where neither the arguments nor the dataset's manifest say otherwise, the index
    takes the protocol's roles (LongMemEval: user turns only), the paper's unit as its
    chunk (``UNIT_CHUNKING``; chunk sizes without a chunking choose c0's chunker) and
    the profile's tokenizer; ``options`` go to
    ``prepare_dataset`` (embedder, chunking, …)."""
    ds = dataset if isinstance(dataset, Dataset) else load_dataset(dataset)
    wanted = level or protocol.default_level
    if wanted != ds.level and (level is not None or wanted in ds.levels):
        ds = ds.with_level(wanted)
    unit = check_dataset(protocol, ds)
    chosen = ("chunking", "chunk_bytes", "chunk_overlap")  # sizes alone choose c0's chunker
    if all(options.get(k) is None for k in chosen) and "chunking" not in ds.index:
        options["chunking"] = UNIT_CHUNKING[unit]
    if tokenizer is None and "tokenizer" not in ds.index and profile_name is not None:
        tokenizer = profile(profile_name).index.tokenizer
    if roles is None and "roles" not in ds.index and protocol.roles:
        roles = protocol.roles
    return prepare_dataset(ds, PrepareOptions(tokenizer=tokenizer, roles=roles, **options))


def run_protocol(
    prepared: Prepared,
    runs: Mapping[str, Run],
    protocol: Protocol,
    *,
    evidence: str = UPSTREAM,
    measures: Sequence[str] | None = None,
    test: str = "t",
    seed: int = 0,
) -> ProtocolResult:
    """Evaluate ``runs`` on ``prepared`` under ``protocol`` (see the module docstring);
    ``evidence``: the session evidence rule (``units.EVIDENCE_RULES``); ``measures``:
    the measures shown (default: the paper's), computed beside the paper's."""
    if measures:
        for name in measures:
            pm.parse(name)
        protocol = protocol.with_measures(tuple(measures))
    ds = prepared.dataset
    unit = check_dataset(protocol, ds)
    if not runs:
        raise ConfigError("no runs to evaluate; name some, e.g. fts,hybrid")
    roles = prepared.index_config.chunking.roles
    for name, spec in runs.items():
        if spec.memory is not None and spec.memory.index.chunking.roles != roles:
            raise ConfigError(f"run {name} indexes other roles; evaluate it separately")
    space = UnitSpace(ds, unit, roles)
    qrels = unit_qrels(space, protocol, evidence)
    questions = question_set(ds, protocol, qrels)
    results, rankings, scores = _rank(prepared, runs, space, protocol)
    perquery = _perquery(ds, protocol, questions, qrels, rankings)
    shown = perquery[perquery["measure"].isin(protocol.shown)]
    first = next(iter(runs))
    return ProtocolResult(
        protocol,
        prepared,
        unit,
        questions,
        qrels,
        rankings,
        results,
        perquery,
        aggregate(perquery, seed=seed),
        compare(shown, first, test=test, seed=seed) if len(runs) > 1 else pd.DataFrame(),
        per_category(perquery),
        list(prepared.warnings),
        evidence,
        scores,
    )


def _rank(
    prepared: Prepared, runs: Mapping[str, Run], space: UnitSpace, protocol: Protocol
) -> tuple[
    dict[str, RunResult], dict[str, dict[str, list[str]]], dict[str, dict[str, list[float]]]
]:
    """Every run's chunk rankings, and the same as unit rankings with the units' scores."""
    by_memory: dict[tuple[Any, str], dict[str, Run]] = {}
    for name, spec in runs.items():
        by_memory.setdefault((spec.memory or prepared.memory, spec.config.keywords), {})[name] = (
            spec
        )
    ds = prepared.dataset
    group = {q.query_id: q.group for q in ds.queries}
    own = original_query_ids(ds, list(group)) if protocol.drop_own_id else {}
    results: dict[str, RunResult] = {}
    rankings: dict[str, dict[str, list[str]]] = {}
    scores: dict[str, dict[str, list[float]]] = {}
    for (memory, keywords), specs in by_memory.items():
        timeline = prepared.timeline(
            needed_limit(specs),
            vectors=any(s.config.vectors for s in specs.values()),
            memory=memory,
            keywords=keywords,
        )
        batch = timeline.batch
        for name, spec in specs.items():
            ranked = rank_batch(batch, spec.config, timeline.query_now)
            results[name] = run = run_of(name, ranked)
            rows, bounds = hit_rows(ranked)
            paths = batch.path[rows].tolist()
            starts, stops = batch.start_line[rows].tolist(), batch.end_line[rows].tolist()
            ends = bounds.tolist()
            rankings[name], scores[name] = {}, {}
            for q, qid in enumerate(batch.query_ids):
                a, b = ends[q], ends[q + 1]  # one query's spans at a time (a small peak)
                spans = list(zip(paths[a:b], starts[a:b], stops[a:b], strict=True))
                units, unit_scores = space.scored_units(
                    group[qid], spans, run.scores[qid], drop=own.get(qid)
                )
                rankings[name][qid], scores[name][qid] = units, unit_scores
    return (
        {n: results[n] for n in runs},
        {n: rankings[n] for n in runs},
        {n: scores[n] for n in runs},
    )


def chunk_spans(batch: CandidateBatch) -> dict[str, dict[str, Span]]:
    """Query id -> chunk id -> (path, first line, last line) of its candidates (to read
    a run's chunk rankings as spans)."""
    out: dict[str, dict[str, Span]] = {}
    for q, qid in enumerate(batch.query_ids):
        rows = range(int(batch.offsets[q]), int(batch.offsets[q + 1]))
        out[qid] = {
            str(batch.chunk_id[i]): (
                str(batch.path[i]),
                int(batch.start_line[i]),
                int(batch.end_line[i]),
            )
            for i in rows
        }
    return out


def _perquery(
    ds: Dataset,
    protocol: Protocol,
    questions: QuestionSet,
    qrels: Mapping[str, Mapping[str, int]],
    rankings: Mapping[str, Mapping[str, list[str]]],
) -> pd.DataFrame:
    """One row per (run, scored question, measure)."""
    ids = list(questions.scored)
    category = {q.query_id: q.category or "" for q in ds.queries}
    depth = pm.depth_of(protocol.measures)
    frames = []
    for run, ranked in rankings.items():
        table = pm.UnitTable.build([ranked.get(q, []) for q in ids], [qrels[q] for q in ids], depth)
        for measure, values in pm.compute(protocol.measures, table).items():
            frames.append(
                pd.DataFrame(
                    {
                        "run": run,
                        "query_id": ids,
                        "category": [category[q] for q in ids],
                        "measure": measure,
                        "value": np.asarray(values, dtype=np.float64),
                    }
                )
            )
    if not frames:
        return pd.DataFrame(columns=PERQUERY_COLUMNS)
    return pd.concat(frames, ignore_index=True)[PERQUERY_COLUMNS]
