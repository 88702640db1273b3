"""The sweep engine: candidates once, then the one scoring core for every configuration.

``Sweep`` gathers every query's candidates once, at its own time and at the
widest candidate limit any configuration needs (``Prepared.timeline``: one
replay of the memory; DESIGN invariants 2 and 9), looks up the
judgements of every candidate row once, and then scores configurations with the
scoring core's many-configuration form (``memlab.retrieval.many``: the stage
functions of ``rank_batch``, the function the live search calls — invariant 1 —
computed for many configurations and all queries at once, with no SQL). Measures
are vectorised over configurations and queries (``metrics``). A sweep's hits for
a configuration equal ``search()``'s with that configuration, hit for hit
(``Sweep.hits``; tests check it on many random configurations).

The numbers a worker needs are one picklable ``SweepWork`` (``Sweep.work``);
``memlab.sweep.work.score_chunk`` scores a chunk of configurations from it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from memlab.arrays import FloatArray
from memlab.config import SearchConfig
from memlab.datasets import Dataset
from memlab.eval.measures import (
    COST_MEASURES,
    DEFAULT_TOKEN_BUDGET,
    SWEEP_MEASURES,
    Judgements,
    check_measures,
    judgements_for,
)
from memlab.eval.replay.memory import Memory
from memlab.eval.replay.prepared import Prepared, prepare_dataset
from memlab.eval.runs.rankers import RunResult, keyword_mode, needed_limit, run_of
from memlab.retrieval.candidates_batch import CandidateBatch
from memlab.retrieval.many import BatchArrays
from memlab.retrieval.pipeline import Hit
from memlab.retrieval.ranking import RankedBatch, rank_batch
from memlab.sweep.indexes import index_key, index_memory
from memlab.sweep.space import SweepPoint, as_points
from memlab.sweep.split import Split, split_queries
from memlab.sweep.work import SweepWork, aggregate, per_query, score_chunk, scorer_of


class Sweep:
    """Score many search configurations of one prepared dataset, fast and exactly.

    ``measures`` are measure names (``nDCG@10``, ``R@5``, ``RR``, ``Redundancy``, …);
    ``split`` says which queries are dev and which holdout (default: all dev);
    ``memory`` the memory searched (default: the prepared dataset's).
    """

    def __init__(
        self,
        prepared: Prepared,
        *,
        base: SearchConfig | None = None,
        measures: Sequence[str] = SWEEP_MEASURES,
        split: Split | None = None,
        budget: int = DEFAULT_TOKEN_BUDGET,
        memory: Memory | None = None,
    ) -> None:
        self.prepared = prepared
        self.memory = memory or prepared.memory
        self.base = base or SearchConfig()
        self.measures = check_measures([*measures, *COST_MEASURES])  # every row: its costs
        self.split = split or split_queries(prepared.dataset.queries, 0.0)
        self.budget = budget
        self.now = prepared.query_now
        self.query_ids = [q.query_id for q in prepared.dataset.queries]
        self._state: tuple[CandidateBatch, Judgements] | None = None
        self._work: SweepWork | None = None
        self._masks = {p: self.split.mask(self.query_ids, p) for p in self.split.parts}
        self._siblings: dict[str, Sweep] = {}

    @classmethod
    def from_dataset(
        cls,
        dataset: str | Path | Dataset | Prepared,
        *,
        holdout: float = 0.3,
        seed: int = 0,
        stratify: bool = True,
        base: SearchConfig | None = None,
        measures: Sequence[str] = SWEEP_MEASURES,
        budget: int = DEFAULT_TOKEN_BUDGET,
    ) -> Sweep:
        """Prepare ``dataset`` (a folder or ``Dataset``: with its defaults; or a
        ``Prepared`` from ``prepare_dataset``) and split its queries."""
        prepared = prepare_dataset(dataset)
        split = split_queries(prepared.dataset.queries, holdout, seed=seed, stratify=stratify)
        return cls(prepared, split=split, base=base, measures=measures, budget=budget)

    def for_index(self, options: Mapping[str, Any]) -> Sweep:
        """This sweep on another index (options of ``memlab.sweep.indexes``: tokenizer,
        chunk_bytes, …): the same prepared dataset, split, base, measures and budget;
        built once per index (its replay cached like any other)."""
        if not options:
            return self
        key = index_key(options)
        if key not in self._siblings:
            memory = index_memory(self.memory, options)
            self._siblings[key] = (
                self
                if memory == self.memory
                else Sweep(
                    self.prepared,
                    base=self.base,
                    measures=self.measures,
                    split=self.split,
                    budget=self.budget,
                    memory=memory,
                )
            )
        return self._siblings[key]

    def engine_of(self, point: SweepPoint) -> Sweep:
        """The engine that scores ``point`` (its index's)."""
        return self.for_index(point.index)

    # ------------------------------------------------------------------ candidates

    def ensure_limit(self, limit: int, *, progress: bool = False) -> CandidateBatch:
        """The candidate batch, gathered (once) at ``limit`` or wider."""
        if self._state is None or self._state[0].limit < limit:
            timeline = self.prepared.timeline(
                limit, memory=self.memory, keywords=self.base.keywords
            )
            self._state = (timeline.batch, judgements_for(timeline.batch, timeline))
            self._work = None
        return self._state[0]

    def prepare_for(
        self, points: Iterable[SweepPoint | SearchConfig], *, progress: bool = False
    ) -> CandidateBatch:
        """Gather candidates at the widest limit any of these configurations needs."""
        configs = [p.config if isinstance(p, SweepPoint) else p for p in points]
        keyword_mode([self.base, *configs])  # one keyword reading per candidate batch
        return self.ensure_limit(needed_limit(configs) if configs else 1, progress=progress)

    @property
    def judgements(self) -> Judgements:
        """Grades of the current candidate batch's rows (gathers for the base if none)."""
        if self._state is None:
            self.ensure_limit(needed_limit([self.base]))
        return self._state[1]  # type: ignore[index]

    # --------------------------------------------------------------------- scoring

    def work(self, configs: Iterable[SweepPoint | SearchConfig] = ()) -> SweepWork:
        """The numbers a worker needs to score these configurations (gathers first)."""
        configs = list(configs)
        if configs:
            self.prepare_for(configs)
        elif self._state is None:
            self.ensure_limit(needed_limit([self.base]))
        if self._work is None:
            batch, judgements = self._state  # type: ignore[misc]
            self._work = SweepWork(
                arrays=BatchArrays.of(batch),
                judgements=judgements,
                now=np.asarray(self.now, dtype=np.float64),
                measures=tuple(self.measures),
                parts=tuple(self._masks.items()),
                budget=self.budget,
            )
        return self._work

    def rank(self, config: SearchConfig) -> RankedBatch:
        """Every query ranked under ``config`` by ``rank_batch`` with its stage-by-stage
        values (no SQL)."""
        batch = self.prepare_for([config])
        return rank_batch(batch, config, self.now, full_mmr=False)

    def per_query(self, config: SearchConfig) -> dict[str, FloatArray]:
        """Per-query values of every measure (NaN where a query is not scored)."""
        work = self.work([config])
        return {name: v[0] for name, v in per_query(work, [config]).items()}

    def per_query_many(
        self, configs: Sequence[SearchConfig], chunk: int = 256
    ) -> dict[str, FloatArray]:
        """Per (configuration, query) values of every measure: configurations × queries
        (NaN where a query is not scored), scored ``chunk`` configurations at a time."""
        configs = list(configs)
        if not configs:
            return {name: np.zeros((0, len(self.query_ids))) for name in self.measures}
        work = self.work(configs)
        parts = [per_query(work, configs[i : i + chunk]) for i in range(0, len(configs), chunk)]
        return {name: np.concatenate([part[name] for part in parts]) for name in self.measures}

    def aggregate(self, values: dict[str, FloatArray]) -> dict[str, float]:
        """Means per measure and split part: ``m`` (all), ``m:dev``, ``m:holdout``."""
        work = self.work()
        row = aggregate(work, {name: v[None, :] for name, v in values.items()})[0]
        return {c: float(v) for c, v in zip(work.columns, row, strict=True)}

    @property
    def metric_columns(self) -> list[str]:
        """Names of the metric columns ``aggregate`` produces, in table order."""
        return [
            name + ("" if part == "all" else f":{part}")
            for part in self.split.parts
            for name in self.measures
        ]

    def score(self, config: SearchConfig) -> dict[str, float]:
        """The metric columns of one configuration."""
        work = self.work([config])
        row = score_chunk(work, [config])[0]
        return {c: float(v) for c, v in zip(work.columns, row, strict=True)}

    def hits(self, config: SearchConfig) -> dict[str, list[Hit]]:
        """Every query's hits under ``config`` — what ``search()`` returns, hit for hit."""
        batch = self.prepare_for([config])
        found = scorer_of(self.work()).rank([config])
        out: dict[str, list[Hit]] = {}
        for q, qid in enumerate(batch.query_ids):
            rows, raw = found.of(0, q)
            out[qid] = [
                Hit(
                    chunk_id=str(batch.chunk_id[i]),
                    path=str(batch.path[i]),
                    start_line=int(batch.start_line[i]),
                    end_line=int(batch.end_line[i]),
                    source=str(batch.source[i]),
                    score=float(np.clip(r, 0.0, 1.0)),
                    raw=float(r),
                    snippet=str(batch.text[i]),
                )
                for i, r in zip(rows, raw, strict=True)
            ]
        return out

    def run_result(self, config: SearchConfig, name: str = "sweep") -> RunResult:
        """The rankings of ``config`` as an evaluation run (for ``evaluate_run``)."""
        return run_of(name, self.rank(config))

    def long(self, points: Iterable[SweepPoint | SearchConfig]) -> pd.DataFrame:
        """Per-query long form: config_hash, query_id, category, part, measure, value."""
        pts = as_points(points, self.base)
        for engine, group in by_engine(self, pts):
            engine.prepare_for(group)  # one batch per index, at the widest limit
        cats = [q.category or "" for q in self.prepared.dataset.queries]
        part = np.where(self.split.mask(self.query_ids, "holdout"), "holdout", "dev")
        frames = []
        for p in pts:
            for name, v in self.engine_of(p).per_query(p.config).items():
                keep = ~np.isnan(v)
                frames.append(
                    pd.DataFrame(
                        {
                            "config_hash": p.key,
                            "query_id": np.array(self.query_ids, dtype=object)[keep],
                            "category": np.array(cats, dtype=object)[keep],
                            "part": part[keep],
                            "measure": name,
                            "value": v[keep],
                        }
                    )
                )
        columns = ["config_hash", "query_id", "category", "part", "measure", "value"]
        return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame(columns=columns)


def by_engine(sweep: Sweep, points: Sequence[SweepPoint]) -> list[tuple[Sweep, list[SweepPoint]]]:
    """The points grouped by the engine (index) that scores them, in order of first
    appearance."""
    groups: dict[int, tuple[Sweep, list[SweepPoint]]] = {}
    for p in points:
        engine = sweep.engine_of(p)
        groups.setdefault(id(engine), (engine, []))[1].append(p)
    return list(groups.values())
