"""Measures, vectorised over all queries — and over many configurations — at once.

Every measure memlab reports is computed here: by evaluation
(``memlab.eval.evaluate``) for one run and by sweeps for thousands of
configurations. ranx is the reference: tests compare every IR measure with ranx
on random and real runs (ranx itself is imported only there, as its numba code
compiles in every fresh process). Every measure is a few numpy column operations over a dense
table of returned hits (``Returned``: one line per query, or per query under each
of many configurations; one column per rank), with each row's grade looked up
once per candidate batch (``Judgements``). The definitions follow ranx
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
``Tokens``, ``OverBudget``, ``Hits``. Every function returns one value per query, NaN where
the query is not scored.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from memlab.arrays import BoolArray, FloatArray, IntArray
from memlab.eval.judgements import Judgements
from memlab.eval.measures import AGENT_MEASURES, DEFAULT_TOKEN_BUDGET, parse_measure
from memlab.eval.novelty import nugget_measure

# (rows_a, rows_b) -> Jaccard of each pair of candidate rows of the same query
PairSimilarity = Callable[[IntArray, IntArray], FloatArray]
# hits -> mean pairwise Jaccard of each cell's hits (NaN below two)
PairMean = Callable[["Returned"], FloatArray]


@dataclass(frozen=True)
class Returned:
    """The hits of many *cells* — a cell is one query, or one query under one of many
    configurations — as a dense table by rank: ``ranks[j, c]`` is the candidate row at
    rank ``j + 1`` of cell ``c`` (−1 past its last hit), ``query[c]`` the cell's query.
    Measures are operations over whole ranks (rows of the table): no per-query sorting,
    no per-query loops."""

    ranks: IntArray
    query: IntArray
    grouped: IntArray | None = None  # the cells ordered by query (computed when absent)

    @property
    def by_query(self) -> IntArray:
        """The cells, grouped by query (visiting one query's cells together)."""
        if self.grouped is not None:
            return self.grouped
        order: IntArray = np.argsort(self.query, kind="stable")
        return order

    @classmethod
    def from_final_rank(cls, final_rank: IntArray, segment: IntArray, n: int) -> Returned:
        """One configuration's hits from ``RankedBatch.final_rank`` (1-based, 0 = not)."""
        idx = np.flatnonzero(final_rank > 0)
        width = int(final_rank.max()) if len(idx) else 0
        ranks = np.full((width, n), -1, dtype=np.int64)
        ranks[final_rank[idx] - 1, segment[idx]] = idx
        return cls(ranks, np.arange(n, dtype=np.int64))

    @classmethod
    def from_hits(cls, rows: IntArray) -> Returned:
        """k × configurations × queries hits (``memlab.search.many.HitMatrix.rows``);
        cell ``g · n_queries + q`` is query q under configuration g."""
        k, n_configs, n_q = rows.shape
        cells = np.arange(n_configs * n_q, dtype=np.int64)
        return cls(
            rows.reshape(k, n_configs * n_q),
            np.tile(np.arange(n_q), n_configs),
            cells.reshape(n_configs, n_q).T.ravel(),
        )

    @property
    def n_cells(self) -> int:
        return len(self.query)

    def take(self, values: np.ndarray, k: int | None = None) -> np.ndarray:
        """Per-row ``values`` at the hits of the top ``k`` ranks (0 / False past the end)."""
        padded = np.append(values, np.zeros(1, dtype=values.dtype))  # row −1 reads the 0
        taken: np.ndarray = padded[self.ranks[:k]]
        return taken

    def count(self, k: int | None = None) -> FloatArray:
        """Hits of each cell within the top ``k``."""
        counts: FloatArray = (self.ranks[:k] >= 0).sum(axis=0, dtype=np.float64)
        return counts


def _first(mask: BoolArray) -> FloatArray:
    """1-based rank of each cell's first True (inf where none)."""
    first = np.full(mask.shape[1], np.inf)
    for j in range(mask.shape[0] - 1, -1, -1):
        first[mask[j]] = j + 1.0
    return first


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
    pair_mean: PairMean | None = None,
) -> dict[str, FloatArray]:
    """Per-cell values (NaN = not scored) of every measure in ``measures``.

    ``similarity`` (for Redundancy) gives the Jaccard of row pairs; ``pair_mean``, when
    given, the mean pairwise Jaccard of each cell's hits directly
    (``memlab.search.many.ManyScorer.mean_pair_similarity``, compiled)."""
    out: dict[str, FloatArray] = {}
    relevant = hits.take(judgements.grade > 0)  # ranks × cells, shared
    judged = judgements.judged[hits.query]
    for name in measures:
        if name in AGENT_MEASURES:
            out[name] = _agent(name, hits, judgements, relevant, similarity, budget, pair_mean)
        else:
            m = parse_measure(name)
            if m.nugget:
                out[name] = _nuggets(m.family, hits, judgements, m.cutoff or 10)
                continue
            values = _IR[m.family](hits, judgements, relevant, m.cutoff)
            out[name] = np.where(judged, values, np.nan)
    return out


def _nuggets(family: str, hits: Returned, j: Judgements, k: int) -> FloatArray:
    """alpha-nDCG@k, NR@k, NRAll@k (``memlab.eval.novelty``); NaN without nuggets."""
    if j.nuggets is None:
        return np.full(hits.n_cells, np.nan)
    cell, col = np.nonzero(hits.ranks.T >= 0)  # by cell, then rank
    rows = hits.ranks[col, cell]
    return nugget_measure(family, j.nuggets, rows, cell, col + 1, hits.n_cells, k, cells=hits.query)


# ------------------------------------------------------------------ IR measures
# Each takes the hits, the judgements and the ranks × cells relevance table.


def _discount(width: int) -> FloatArray:
    discount: FloatArray = 1.0 / np.log2(np.arange(1, width + 1) + 1.0)
    return discount


def ndcg(hits: Returned, j: Judgements, rel: BoolArray, k: int | None) -> FloatArray:
    grade = hits.take(j.grade, k)
    dcg = (grade * _discount(grade.shape[0])[:, None]).sum(axis=0)
    ideal = j.idcg(k)[hits.query]
    return np.where(ideal > 0, dcg / np.where(ideal > 0, ideal, 1.0), 0.0)


def _found(rel: BoolArray, k: int | None) -> FloatArray:
    found: FloatArray = rel[:k].sum(axis=0, dtype=np.float64)
    return found


def recall(hits: Returned, j: Judgements, rel: BoolArray, k: int | None) -> FloatArray:
    n = j.n_relevant[hits.query]
    return np.where(n > 0, _found(rel, k) / np.maximum(n, 1.0), 0.0)


def precision(hits: Returned, j: Judgements, rel: BoolArray, k: int | None) -> FloatArray:
    found = _found(rel, k)
    if k is None:  # P without a cutoff: over everything returned
        n = hits.count()
        return np.where(n > 0, found / np.maximum(n, 1.0), 0.0)
    return found / k


def reciprocal_rank(hits: Returned, j: Judgements, rel: BoolArray, k: int | None) -> FloatArray:
    first = _first(rel[:k])
    return np.where(np.isfinite(first), 1.0 / first, 0.0)


def success(hits: Returned, j: Judgements, rel: BoolArray, k: int | None) -> FloatArray:
    found: FloatArray = np.asarray(rel[:k].any(axis=0), dtype=np.float64)
    return found


def average_precision(hits: Returned, j: Judgements, rel: BoolArray, k: int | None) -> FloatArray:
    """Σ over relevant hits in the top k of (relevant hits up to its rank) / rank, / R."""
    top = rel[:k].astype(np.float64)
    ranks = np.arange(1, top.shape[0] + 1, dtype=np.float64)[:, None]
    total = np.where(top > 0, np.cumsum(top, axis=0) / ranks, 0.0).sum(axis=0)
    n = j.n_relevant[hits.query]
    return np.where(n > 0, total / np.maximum(n, 1.0), 0.0)


def judged_share(hits: Returned, j: Judgements, rel: BoolArray, k: int | None) -> FloatArray:
    judged = hits.take(j.judged_doc, k).sum(axis=0, dtype=np.float64)
    return judged / (k or 10)


_IR: dict[str, Callable[[Returned, Judgements, BoolArray, int | None], FloatArray]] = {
    "nDCG": ndcg,
    "R": recall,
    "P": precision,
    "RR": reciprocal_rank,
    "Success": success,
    "MAP": average_precision,
    "Judged": judged_share,
}


# --------------------------------------------------------------- agent measures


def _agent(
    name: str,
    hits: Returned,
    j: Judgements,
    relevant: BoolArray,
    similarity: PairSimilarity | None,
    budget: int,
    pair_mean: PairMean | None,
) -> FloatArray:
    if name == "Redundancy":
        if pair_mean is not None:
            return pair_mean(hits)
        if similarity is None:
            raise ValueError("Redundancy needs the candidates' pairwise similarity")
        return redundancy(hits, similarity)
    if name == "Stale":
        return stale_above(hits, j, relevant)
    if name == "Hits":
        return hits.count()
    abstention = j.abstention[hits.query]
    if name == "AbstainHits":
        return np.where(abstention, hits.count(), np.nan)
    if name == "Abstained":
        return np.where(abstention, (hits.count() == 0).astype(np.float64), np.nan)
    tokens = hits.take(j.tokens).sum(axis=0)
    return tokens if name == "Tokens" else (tokens > budget).astype(np.float64)


def redundancy(hits: Returned, similarity: PairSimilarity) -> FloatArray:
    """Mean pairwise Jaccard of each cell's returned snippets (NaN with < 2 hits)."""
    out = np.full(hits.n_cells, np.nan)
    width = hits.ranks.shape[0]
    if width < 2:
        return out
    ia, ib = np.triu_indices(width, 1)
    a, b = hits.ranks[ia], hits.ranks[ib]
    valid = b >= 0  # ranks fill from the top: b present → a present
    sims = np.zeros(a.shape)
    sims[valid] = similarity(a[valid], b[valid])
    pairs = valid.sum(axis=0)
    has = pairs > 0
    out[has] = sims.sum(axis=0)[has] / pairs[has]
    return out


def stale_above(hits: Returned, j: Judgements, relevant: BoolArray) -> FloatArray:
    """1 if a stale chunk ranks above every relevant one (or none relevant is returned)."""
    first_stale = _first(hits.take(j.stale))
    first_good = _first(relevant)
    value = np.where(np.isfinite(first_stale) & (first_stale < first_good), 1.0, 0.0)
    return np.where(j.has_stale[hits.query], value, np.nan)
