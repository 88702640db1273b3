"""The papers' retrieval measures over unit rankings, vectorised over all queries.

A ``UnitTable`` holds, for Q queries, the grade of the unit at each rank 1..depth
(``gains``: Q × depth; 0 for an unjudged unit and past a ranking's end), the
number of relevant units of each query (grade > 0) and its ideal gains (every
positive grade, best first, zero-padded). Rankings hold each unit once. Each
measure is a few column operations on the table (NaN for a query with no
relevant unit, which protocols do not score):

* ``recall_any@k`` — 1 if some relevant unit is in the top k; ``recall_all@k`` — 1
  if every relevant unit is; ``ndcg_any@k`` — binary gains with the discount of
  the LongMemEval evaluation, DCG = g₁ + Σ_{r ≥ 2} g_r / log₂ r (ranks 1 and 2
  weigh the same), over the DCG of the ideal ranking (Wu et al., ICLR 2025; the
  names are the upstream evaluation's);
* ``R@k`` — relevant units in the top k / relevant units: LoCoMo's recall accuracy
  over evidence turns (Maharana et al., ACL 2024) and trec_eval's ``recall_k``
  as BEIR reports it (Thakur et al., NeurIPS 2021);
* ``nDCG@k`` — graded gains, DCG = Σ g_r / log₂(r + 1), over the ideal DCG of all
  positive judgements: trec_eval's ``ndcg_cut_k`` as BEIR reports it (Järvelin &
  Kekäläinen, ACM TOIS 20(4), 2002).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from memlab.arrays import FloatArray
from memlab.errors import ConfigError, unknown_name

_NAME = re.compile(r"([A-Za-z_]+)@(\d+)")


@dataclass(frozen=True)
class UnitTable:
    gains: FloatArray  # Q × depth: grade of the unit at each rank
    relevant: FloatArray  # Q: units with grade > 0
    ideal: FloatArray  # Q × depth: positive grades, best first

    @classmethod
    def build(
        cls,
        rankings: Sequence[Sequence[str]],
        qrels: Sequence[Mapping[str, int]],
        depth: int,
    ) -> UnitTable:
        gains = np.zeros((len(rankings), depth))
        ideal = np.zeros((len(rankings), depth))
        for q, (ranking, judged) in enumerate(zip(rankings, qrels, strict=True)):
            top = [judged.get(u, 0) for u in ranking[:depth]]
            gains[q, : len(top)] = top
            best = sorted((g for g in judged.values() if g > 0), reverse=True)[:depth]
            ideal[q, : len(best)] = best
        relevant = np.array([sum(g > 0 for g in j.values()) for j in qrels], dtype=np.float64)
        return cls(np.maximum(gains, 0.0), relevant, ideal)


def _ratio(num: FloatArray, den: FloatArray) -> FloatArray:
    out = np.full(num.shape, np.nan)
    np.divide(num, den, out=out, where=den > 0)
    return out


def _hits(t: UnitTable, k: int) -> FloatArray:
    counts: FloatArray = (t.gains[:, :k] > 0).sum(axis=1, dtype=np.float64)
    return counts


def recall_any(t: UnitTable, k: int) -> FloatArray:
    return _ratio((_hits(t, k) > 0).astype(np.float64), np.sign(t.relevant))


def recall_all(t: UnitTable, k: int) -> FloatArray:
    return _ratio((_hits(t, k) >= t.relevant).astype(np.float64), np.sign(t.relevant))


def recall(t: UnitTable, k: int) -> FloatArray:
    return _ratio(_hits(t, k), t.relevant)


def _discount_trec(k: int) -> FloatArray:
    out: FloatArray = 1.0 / np.log2(np.arange(2, k + 2))
    return out


def _discount_lme(k: int) -> FloatArray:
    ranks = np.arange(1, k + 1, dtype=np.float64)
    out: FloatArray = 1.0 / np.log2(np.maximum(ranks, 2.0))
    return out


def ndcg(t: UnitTable, k: int) -> FloatArray:
    d = _discount_trec(min(k, t.gains.shape[1]))
    n = len(d)
    return _ratio(t.gains[:, :n] @ d, t.ideal[:, :n] @ d)


def ndcg_any(t: UnitTable, k: int) -> FloatArray:
    d = _discount_lme(min(k, t.gains.shape[1]))
    n = len(d)
    return _ratio((t.gains[:, :n] > 0) @ d, (t.ideal[:, :n] > 0) @ d)


FAMILIES: dict[str, Callable[[UnitTable, int], FloatArray]] = {
    "recall_any": recall_any,
    "recall_all": recall_all,
    "ndcg_any": ndcg_any,
    "R": recall,
    "nDCG": ndcg,
}


def parse(name: str) -> tuple[str, int]:
    """``"recall_all@5"`` → ``("recall_all", 5)``; an unknown name is a ConfigError."""
    match = _NAME.fullmatch(name)
    if match is None or match.group(1) not in FAMILIES or int(match.group(2)) < 1:
        family = match.group(1) if match else name
        raise ConfigError(
            unknown_name("protocol measure", family, [f"{f}@k" for f in FAMILIES])
            if family not in FAMILIES
            else f"measure {name!r}: write FAMILY@k with k ≥ 1, e.g. {family}@10"
        )
    return match.group(1), int(match.group(2))


def depth_of(measures: Sequence[str]) -> int:
    return max(parse(m)[1] for m in measures)


def compute(measures: Sequence[str], table: UnitTable) -> dict[str, FloatArray]:
    """Per-query values of every measure (NaN: the query has no relevant unit)."""
    out = {}
    for name in measures:
        family, k = parse(name)
        out[name] = FAMILIES[family](table, k)
    return out
