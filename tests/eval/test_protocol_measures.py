"""The papers' measures, vectorised, against plain per-query definitions."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest

from memlab.errors import ConfigError
from memlab.eval.protocols import paper_measures as pm

# ----------------------------------------------------------------- plain references


def _recall_any(ranking: list[str], qrels: dict[str, int], k: int) -> float:
    relevant = {u for u, g in qrels.items() if g > 0}
    return float(any(u in relevant for u in ranking[:k]))


def _recall_all(ranking: list[str], qrels: dict[str, int], k: int) -> float:
    relevant = {u for u, g in qrels.items() if g > 0}
    return float(all(u in ranking[:k] for u in relevant))


def _recall(ranking: list[str], qrels: dict[str, int], k: int) -> float:
    relevant = {u for u, g in qrels.items() if g > 0}
    return sum(u in relevant for u in ranking[:k]) / len(relevant)


def _dcg_lme(rels: list[float]) -> float:
    """LongMemEval's DCG: the first gain undiscounted, then gain / log2(rank)."""
    return sum(r if i == 0 else r / math.log2(i + 1) for i, r in enumerate(rels))


def _ndcg_any(ranking: list[str], qrels: dict[str, int], k: int) -> float:
    rel = [1.0 if qrels.get(u, 0) > 0 else 0.0 for u in ranking[:k]]
    ideal = [1.0] * min(k, sum(g > 0 for g in qrels.values()))
    return _dcg_lme(rel) / _dcg_lme(ideal)


def _ndcg(ranking: list[str], qrels: dict[str, int], k: int) -> float:
    dcg = sum(max(qrels.get(u, 0), 0) / math.log2(i + 2) for i, u in enumerate(ranking[:k]))
    best = sorted((g for g in qrels.values() if g > 0), reverse=True)[:k]
    return dcg / sum(g / math.log2(i + 2) for i, g in enumerate(best))


PLAIN = {
    "recall_any": _recall_any,
    "recall_all": _recall_all,
    "ndcg_any": _ndcg_any,
    "R": _recall,
    "nDCG": _ndcg,
}


def _random_case(rng: random.Random) -> tuple[list[str], dict[str, int]]:
    units = [f"u{i}" for i in range(rng.randint(1, 40))]
    ranking = rng.sample(units, rng.randint(0, len(units)))
    qrels = {u: rng.choice([0, 1, 2, 2]) for u in rng.sample(units, rng.randint(1, len(units)))}
    return ranking, qrels


def test_every_measure_equals_its_plain_definition() -> None:
    rng = random.Random(7)
    cases = [_random_case(rng) for _ in range(400)]
    measures = [f"{f}@{k}" for f in PLAIN for k in (1, 2, 3, 5, 10, 30, 50)]
    table = pm.UnitTable.build([c[0] for c in cases], [c[1] for c in cases], pm.depth_of(measures))
    values = pm.compute(measures, table)
    for name in measures:
        family, k = pm.parse(name)
        for q, (ranking, qrels) in enumerate(cases):
            if not any(g > 0 for g in qrels.values()):
                assert math.isnan(values[name][q])  # not scored
            else:
                assert values[name][q] == pytest.approx(PLAIN[family](ranking, qrels, k)), name


def test_worked_examples() -> None:
    ranking = ["a", "b", "c", "d"]
    qrels = {"b": 1, "d": 1, "e": 1}
    table = pm.UnitTable.build([ranking], [qrels], 50)
    v = {m: float(x[0]) for m, x in pm.compute(["R@2", "R@4", "recall_all@4"], table).items()}
    assert v == {"R@2": 1 / 3, "R@4": 2 / 3, "recall_all@4": 0.0}
    # LongMemEval weighs ranks 1 and 2 alike: a relevant unit second scores like first
    second = pm.UnitTable.build([["x", "a"]], [{"a": 1}], 5)
    first = pm.UnitTable.build([["a", "x"]], [{"a": 1}], 5)
    assert pm.ndcg_any(second, 5)[0] == pm.ndcg_any(first, 5)[0] == 1.0
    assert pm.ndcg(second, 5)[0] == pytest.approx(1 / math.log2(3))  # trec_eval's does not
    graded = pm.UnitTable.build([["a", "b"]], [{"a": 1, "b": 2}], 10)
    assert pm.ndcg(graded, 10)[0] == pytest.approx((1 + 2 / math.log2(3)) / (2 + 1 / math.log2(3)))
    assert np.isnan(pm.recall(pm.UnitTable.build([["a"]], [{"a": 0}], 5), 5)[0])


def test_measure_names() -> None:
    assert pm.parse("recall_all@5") == ("recall_all", 5)
    with pytest.raises(ConfigError, match="did you mean 'recall_all@k'"):
        pm.parse("recall_al@5")
    with pytest.raises(ConfigError, match="FAMILY@k"):
        pm.parse("nDCG@0")
