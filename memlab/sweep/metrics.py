"""Measures for sweeps, vectorised over all queries at once.

``memlab.eval.evaluate.evaluate_run`` (ranx) is the reference; it is correct but
builds Python dictionaries per query, far too slow to call for thousands of
configurations. Here every measure is a few numpy operations over the returned
hits of all queries (their rows, query and 1-based rank), with each row's grade
looked up once per candidate batch (``Judgements``). The definitions follow ranx
(tests check equality on many random runs):

* ``nDCG@k`` — Järvelin & Kekäläinen, "Cumulated gain-based evaluation of IR
  techniques", ACM TOIS 20(4), 2002: ``Σ grade / log2(rank + 1)`` over the top k,
  divided by the same sum over the ideal order of *all* positive judgements;
* ``R@k`` relevant in the top k / all relevant; ``P@k`` relevant in the top k / k;
* ``RR`` (``RR@k``) 1 / rank of the first relevant hit; ``Success@k`` any relevant
  in the top k; ``MAP`` (``MAP@k``) mean of the precision at each relevant hit
  over all relevant; ``Judged@k`` judged hits in the top k / k;
* ``alpha-nDCG@k``, ``NR@k``, ``NRAll@k`` over nuggets (``memlab.eval.novelty``),
  for the queries judged with nuggets.

IR measures score the judged queries (not abstentions, at least one positive
judgement); a judged query with no hits scores 0. Agent-memory measures follow
``memlab.eval.measures``: ``Redundancy`` (mean pairwise Jaccard of the returned
snippets, queries with ≥ 2 hits), ``Stale``, ``AbstainHits``, ``Abstained``,
``Tokens``, ``OverBudget``. Every function returns one value per query, NaN where
the query is not scored.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from memlab.arrays import BoolArray, FloatArray, IntArray
from memlab.eval.measures import AGENT_MEASURES, DEFAULT_TOKEN_BUDGET, parse_measure
from memlab.eval.novelty import nugget_measure
from memlab.sweep.judgements import Judgements

SWEEP_MEASURES = ("nDCG@10", "R@5", "P@5", "RR", "Success@5", "Redundancy")
# (rows_a, rows_b) -> Jaccard of each pair of candidate rows of the same query
PairSimilarity = Callable[[IntArray, IntArray], FloatArray]


@dataclass(frozen=True)
class Returned:
    """The hits of every query: candidate row, query index and 1-based rank, sorted by
    query then rank (so per-query sums add up in rank order, as ranx does)."""

    rows: IntArray
    seg: IntArray
    rank: IntArray
    n_queries: int

    @classmethod
    def from_final_rank(cls, final_rank: IntArray, segment: IntArray, n: int) -> Returned:
        rows = np.flatnonzero(final_rank > 0)
        rows = rows[np.lexsort((final_rank[rows], segment[rows]))]
        return cls(rows, segment[rows], final_rank[rows], n)

    def count(self, weights: FloatArray | BoolArray | None = None) -> FloatArray:
        """Per query: number of hits (or the sum of ``weights`` over its hits)."""
        w = None if weights is None else np.asarray(weights, dtype=np.float64)
        counts: FloatArray = np.bincount(self.seg, w, minlength=self.n_queries).astype(np.float64)
        return counts


def check_measures(measures: Sequence[str]) -> list[str]:
    """Validate measure names (ConfigError with a hint for unknown ones)."""
    out = []
    for name in measures:
        if name not in AGENT_MEASURES and name != "NumQ":
            parse_measure(name)
        if name != "NumQ" and name not in out:
            out.append(name)
    return out


def compute(
    measures: Sequence[str],
    hits: Returned,
    judgements: Judgements,
    *,
    similarity: PairSimilarity | None = None,
    budget: int = DEFAULT_TOKEN_BUDGET,
) -> dict[str, FloatArray]:
    """Per-query values (NaN = not scored) of every measure in ``measures``."""
    out: dict[str, FloatArray] = {}
    for name in measures:
        if name in AGENT_MEASURES:
            out[name] = _agent(name, hits, judgements, similarity, budget)
        else:
            m = parse_measure(name)
            if m.nugget:
                out[name] = _nuggets(m.family, hits, judgements, m.cutoff or 10)
                continue
            values = _IR[m.family](hits, judgements, m.cutoff)
            out[name] = np.where(judgements.judged, values, np.nan)
    return out


def _nuggets(family: str, hits: Returned, j: Judgements, k: int) -> FloatArray:
    """alpha-nDCG@k, NR@k, NRAll@k (``memlab.eval.novelty``); NaN without nuggets."""
    if j.nuggets is None:
        return np.full(hits.n_queries, np.nan)
    return nugget_measure(family, j.nuggets, hits.rows, hits.seg, hits.rank, hits.n_queries, k)


# ------------------------------------------------------------------ IR measures


def _top(hits: Returned, k: int | None) -> BoolArray:
    within: BoolArray = np.ones(len(hits.rows), dtype=bool) if k is None else hits.rank <= k
    return within


def _relevant_in_top(hits: Returned, j: Judgements, k: int | None) -> FloatArray:
    return hits.count(_top(hits, k) & (j.grade[hits.rows] > 0))


def ndcg(hits: Returned, j: Judgements, k: int | None) -> FloatArray:
    gain = np.where(_top(hits, k), j.grade[hits.rows] / np.log2(hits.rank + 1.0), 0.0)
    ideal = j.idcg(k)
    dcg = hits.count(gain)
    return np.where(ideal > 0, dcg / np.where(ideal > 0, ideal, 1.0), 0.0)


def recall(hits: Returned, j: Judgements, k: int | None) -> FloatArray:
    n = j.n_relevant
    return np.where(n > 0, _relevant_in_top(hits, j, k) / np.maximum(n, 1.0), 0.0)


def precision(hits: Returned, j: Judgements, k: int | None) -> FloatArray:
    rel = _relevant_in_top(hits, j, k)
    if k is None:  # P without a cutoff: over everything returned
        return np.where(hits.count() > 0, rel / np.maximum(hits.count(), 1.0), 0.0)
    return rel / k


def reciprocal_rank(hits: Returned, j: Judgements, k: int | None) -> FloatArray:
    first = _first_rank(hits, _top(hits, k) & (j.grade[hits.rows] > 0))
    return np.where(np.isfinite(first), 1.0 / first, 0.0)


def success(hits: Returned, j: Judgements, k: int | None) -> FloatArray:
    return (_relevant_in_top(hits, j, k) > 0).astype(np.float64)


def average_precision(hits: Returned, j: Judgements, k: int | None) -> FloatArray:
    """Σ over relevant hits in the top k of (relevant hits up to its rank) / rank, / R."""
    seg, rank = hits.seg, hits.rank
    rel = (_top(hits, k) & (j.grade[hits.rows] > 0)).astype(np.float64)
    cum = np.cumsum(rel)
    starts = np.r_[0, np.flatnonzero(np.diff(seg)) + 1]
    before = np.repeat(cum[starts] - rel[starts], np.diff(np.r_[starts, len(seg)]))
    prec = np.where(rel > 0, (cum - before) / rank, 0.0)
    total = np.bincount(seg, prec, minlength=hits.n_queries)
    n = j.n_relevant
    return np.where(n > 0, total / np.maximum(n, 1.0), 0.0)


def judged_share(hits: Returned, j: Judgements, k: int | None) -> FloatArray:
    judged = hits.count(_top(hits, k) & j.judged_doc[hits.rows])
    return judged / (k or 10)


_IR: dict[str, Callable[[Returned, Judgements, int | None], FloatArray]] = {
    "nDCG": ndcg,
    "R": recall,
    "P": precision,
    "RR": reciprocal_rank,
    "Success": success,
    "MAP": average_precision,
    "Judged": judged_share,
}


def _first_rank(hits: Returned, mask: BoolArray) -> FloatArray:
    first = np.full(hits.n_queries, np.inf)
    np.minimum.at(first, hits.seg[mask], hits.rank[mask].astype(np.float64))
    return first


# --------------------------------------------------------------- agent measures


def _agent(
    name: str,
    hits: Returned,
    j: Judgements,
    similarity: PairSimilarity | None,
    budget: int,
) -> FloatArray:
    n_hits = hits.count()
    if name == "Redundancy":
        if similarity is None:
            raise ValueError("Redundancy needs the candidates' pairwise similarity")
        return redundancy(hits, similarity)
    if name == "Stale":
        return stale_above(hits, j)
    if name == "AbstainHits":
        return np.where(j.abstention, n_hits, np.nan)
    if name == "Abstained":
        return np.where(j.abstention, (n_hits == 0).astype(np.float64), np.nan)
    tokens = hits.count(j.tokens[hits.rows])
    return tokens if name == "Tokens" else (tokens > budget).astype(np.float64)


def redundancy(hits: Returned, similarity: PairSimilarity) -> FloatArray:
    """Mean pairwise Jaccard of each query's returned snippets (NaN with < 2 hits)."""
    seg, rows = hits.seg, hits.rows
    counts = np.bincount(seg, minlength=hits.n_queries)
    out = np.full(hits.n_queries, np.nan)
    if not len(rows) or counts.max() < 2:
        return out
    starts = np.r_[0, np.cumsum(counts)[:-1]]
    grid = np.full((hits.n_queries, int(counts.max())), -1, dtype=np.int64)
    grid[seg, np.arange(len(rows)) - starts[seg]] = rows
    ia, ib = np.triu_indices(grid.shape[1], 1)
    a, b = grid[:, ia], grid[:, ib]
    valid = (a >= 0) & (b >= 0)
    q = np.nonzero(valid)[0]
    sims = similarity(a[valid], b[valid])
    pairs = np.bincount(q, minlength=hits.n_queries)
    total = np.bincount(q, sims, minlength=hits.n_queries)
    has = pairs > 0
    out[has] = total[has] / pairs[has]
    return out


def stale_above(hits: Returned, j: Judgements) -> FloatArray:
    """1 if a stale chunk ranks above every relevant one (or none relevant is returned)."""
    first_stale = _first_rank(hits, j.stale[hits.rows])
    first_good = _first_rank(hits, j.grade[hits.rows] > 0)
    value = np.where(np.isfinite(first_stale) & (first_stale < first_good), 1.0, 0.0)
    return np.where(j.has_stale, value, np.nan)
