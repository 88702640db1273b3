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
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

from memlab.config import profile
from memlab.datasets import Dataset, load_dataset
from memlab.datasets.untrusted import reading_dataset
from memlab.errors import ConfigError, unknown_name
from memlab.eval.compare.per_query import (
    AGGREGATED_COLUMNS,
    PERQUERY_COLUMNS,
    TESTS,
    Row,
    aggregate_records,
    compare,
    per_category,
)
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

if TYPE_CHECKING:  # the tables are built with pandas when first read (not by --json)
    import pandas as pd


@dataclass
class ProtocolResult:
    """One protocol evaluation. ``perquery``, ``aggregated``, ``compared`` and
    ``categories`` are pandas tables built when first read; ``rows`` (perquery's) and
    ``records`` (aggregated's) hold the same numbers without pandas."""

    protocol: Protocol
    prepared: Prepared
    unit: str
    questions: QuestionSet
    qrels: dict[str, dict[str, int]]  # query id -> unit -> grade (every question)
    rankings: dict[str, dict[str, list[str]]]  # run -> query id -> units, best first
    runs: dict[str, RunResult]
    rows: list[Row]  # perquery's rows (PERQUERY_COLUMNS), run by run
    records: list[dict[str, Any]]  # aggregated's rows (AGGREGATED_COLUMNS)
    warnings: list[str] = field(default_factory=list)
    evidence: str = UPSTREAM
    # run -> query id -> each unit's score (its first chunk's display score), as rankings
    scores: dict[str, dict[str, list[float]]] = field(default_factory=dict)
    test: str = "t"  # compared's test and seed
    seed: int = 0

    @property
    def dataset(self) -> Dataset:
        return self.prepared.dataset

    @cached_property
    def perquery(self) -> pd.DataFrame:
        """One row per (run, scored question, measure): ``PERQUERY_COLUMNS``."""
        import pandas as pd

        frame = pd.DataFrame(self.rows, columns=PERQUERY_COLUMNS)
        frame["value"] = frame["value"].astype("float64")
        return frame

    @cached_property
    def aggregated(self) -> pd.DataFrame:
        """Mean, 95% bootstrap CI and n per (run, measure), and NumQ per run."""
        import pandas as pd

        return pd.DataFrame(self.records, columns=AGGREGATED_COLUMNS)

    @cached_property
    def compared(self) -> pd.DataFrame:
        """Every run against the first on the measures shown (empty with one run)."""
        import pandas as pd

        if len(self.runs) < 2:
            return pd.DataFrame()
        shown = self.perquery[self.perquery["measure"].isin(self.protocol.shown)]
        return compare(shown, next(iter(self.runs)), test=self.test, seed=self.seed)

    @cached_property
    def categories(self) -> pd.DataFrame:
        """Mean and count of every measure per run and question category."""
        return per_category(self.perquery)

    def means(self, measures: Sequence[str] | None = None) -> list[dict[str, Any]]:
        """``table`` without pandas: one dict per run (``run``, each measure's mean, and
        ``NumQ``), in run order; a measure without a value is NaN."""
        chosen = [*(measures or self.protocol.shown), "NumQ"]
        value = {(r["run"], r["measure"]): r["value"] for r in self.records}
        return [
            {"run": run, **{m: value.get((run, m), float("nan")) for m in chosen}}
            for run in self.runs
        ]

    def table(self, measures: Sequence[str] | None = None) -> pd.DataFrame:
        """``means`` as a wide table: one row per run, one column per measure."""
        import pandas as pd

        wide = pd.DataFrame(self.means(measures)).set_index("run")
        wide.columns.name = "measure"
        return wide

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
    if test not in TESTS:
        raise ConfigError(unknown_name("test", str(test), TESTS))
    space = UnitSpace(ds, unit, roles)
    with reading_dataset(ds.path):  # the turns' files: each directory resolved once
        qrels = unit_qrels(space, protocol, evidence)
        questions = question_set(ds, protocol, qrels)
        results, rankings, scores = _rank(prepared, runs, space, protocol)
    rows = _perquery(ds, protocol, questions, qrels, rankings)
    return ProtocolResult(
        protocol,
        prepared,
        unit,
        questions,
        qrels,
        rankings,
        results,
        rows,
        aggregate_records(rows, seed=seed),
        list(prepared.warnings),
        evidence,
        scores,
        test,
        seed,
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
) -> list[Row]:
    """One row per (run, scored question, measure), in ``PERQUERY_COLUMNS`` order."""
    ids = list(questions.scored)
    category = {q.query_id: q.category or "" for q in ds.queries}
    cats = [category[q] for q in ids]
    depth = pm.depth_of(protocol.measures)
    rows: list[Row] = []
    for run, ranked in rankings.items():
        table = pm.UnitTable.build([ranked.get(q, []) for q in ids], [qrels[q] for q in ids], depth)
        for measure, values in pm.compute(protocol.measures, table).items():
            floats = [float(v) for v in values]
            rows += [(run, q, c, measure, v) for q, c, v in zip(ids, cats, floats, strict=True)]
    return rows
