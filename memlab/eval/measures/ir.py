"""The IR measures, one function per family, vectorised over every cell.

Each takes the hits (``Returned``), the judgements, the ranks × cells table of
relevant hits and the cutoff ``k`` (None: every rank), and returns one value per
cell. The definitions follow ranx (tests check equality on many random runs):

* ``nDCG@k`` — Järvelin & Kekäläinen, "Cumulated gain-based evaluation of IR
  techniques", ACM TOIS 20(4), 2002: ``Σ grade / log2(rank + 1)`` over the top k,
  divided by the same sum over the ideal order of *all* positive judgements;
* ``R@k`` relevant in the top k / all relevant; ``P@k`` relevant in the top k / k;
* ``RR`` (``RR@k``) 1 / rank of the first relevant hit; ``Success@k`` any relevant
  in the top k; ``MAP`` (``MAP@k``) mean of the precision at each relevant hit
  over all relevant; ``Judged@k`` judged hits in the top k / k.
"""

from __future__ import annotations

import numpy as np

from memlab.arrays import BoolArray, FloatArray
from memlab.eval.measures.judgements import Judgements
from memlab.eval.measures.returned import Returned, first_rank


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
    first = first_rank(rel[:k])
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
