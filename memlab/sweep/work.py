"""The unit of a sweep's work: a pure function of (the work, a chunk of configurations).

``SweepWork`` holds everything scoring needs and nothing else — the candidate
batch's numbers (``BatchArrays``: no text), the judgements of its rows, each
query's time, the measures, the split and the token budget. It is picklable and
built once per sweep; ``score_chunk(work, configs)`` returns the metric columns
of a chunk of configurations (configurations × ``work.columns``, the order of
``Sweep.metric_columns``). Any ``concurrent.futures.Executor`` can run it —
memlab's process pool (``memlab.sweep.fanout``) or a Dask cluster's
(``Client.get_executor()``, or ``client.submit`` with the work scattered once).

``score_chunk`` keeps the per-process scorer of the last work it saw (decays and
signals already computed), so consecutive chunks of one sweep share them; the
values never depend on that cache.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from memlab.arrays import BoolArray, FloatArray
from memlab.config import SearchConfig
from memlab.eval.measures import Judgements, Returned, compute
from memlab.retrieval.many import BatchArrays, ManyScorer


@dataclass(frozen=True)
class SweepWork:
    """What a worker needs to score configurations of one sweep (picklable)."""

    arrays: BatchArrays
    judgements: Judgements
    now: FloatArray  # per query
    measures: tuple[str, ...]
    parts: tuple[tuple[str, BoolArray], ...]  # split part name → query mask
    budget: int
    token: str = field(default_factory=lambda: uuid.uuid4().hex)

    @property
    def columns(self) -> list[str]:
        """Metric column names: ``m`` (all), ``m:dev``, ``m:holdout``, by part then measure."""
        return [
            name + ("" if part == "all" else f":{part}")
            for part, _ in self.parts
            for name in self.measures
        ]


_last: tuple[str, ManyScorer] | None = None  # this process's scorer of the last work


def forget_scorer() -> None:
    """Drop this process's cached scorer (a benchmark's runs then start equal: a process
    pool forked from here would otherwise inherit it already built)."""
    global _last
    _last = None


def scorer_of(work: SweepWork) -> ManyScorer:
    """The scorer of ``work`` in this process (built on first use, then reused)."""
    global _last
    if _last is None or _last[0] != work.token:
        _last = (work.token, ManyScorer(work.arrays, work.now))
    return _last[1]


def per_query(work: SweepWork, configs: Sequence[SearchConfig]) -> dict[str, FloatArray]:
    """Per (configuration, query) values of every measure: configurations × queries,
    NaN where a query is not scored."""
    scorer = scorer_of(work)
    hits = scorer.rank(configs)
    values = compute(
        work.measures,
        Returned.from_hits(hits.rows),
        work.judgements,
        pair_mean=scorer.mean_pair_similarity,
        budget=work.budget,
    )
    shape = (len(configs), work.arrays.n_queries)
    return {name: v.reshape(shape) for name, v in values.items()}


def aggregate(work: SweepWork, values: dict[str, FloatArray]) -> FloatArray:
    """Means over the scored queries of each split part: configurations × columns."""
    n_configs = next(iter(values.values())).shape[0] if values else 0
    out = np.empty((n_configs, len(work.parts), len(work.measures)))
    for m, name in enumerate(work.measures):
        v = values[name]
        scored = ~np.isnan(v)
        for p, (_, mask) in enumerate(work.parts):
            counted = scored & mask
            n = counted.sum(axis=1)
            total = np.where(counted, v, 0.0).sum(axis=1)
            with np.errstate(invalid="ignore", divide="ignore"):
                out[:, p, m] = np.where(n > 0, total / n, np.nan)
    return out.reshape(n_configs, -1)


def score_chunk(work: SweepWork, configs: Sequence[SearchConfig]) -> FloatArray:
    """The metric columns of ``configs`` (configurations × ``work.columns``). Pure."""
    if not configs:
        return np.zeros((0, len(work.columns)))
    return aggregate(work, per_query(work, configs))


def warm_worker() -> None:
    """A worker made ready to score (handed to ``memlab.cluster.connect``): this module
    imported (unpickling the function does it) and the compiled search kernels loaded."""
    from memlab.retrieval.kernels import warm

    warm()
