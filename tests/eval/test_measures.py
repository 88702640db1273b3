"""Measures on hand-made rankings: ranx numbers and the agent-memory measures."""

from __future__ import annotations

import math

import pytest

from memlab.errors import ConfigError
from memlab.eval.measures import (
    judged_at,
    parse_measure,
    ranx_backend,
    redundancy,
    stale_above,
    tokens_of,
)


def test_measure_names() -> None:
    assert parse_measure("nDCG@10").ranx_name == "ndcg@10"
    assert parse_measure("R@5").ranx_name == "recall@5"
    assert parse_measure("RR").ranx_name == "mrr"
    assert parse_measure("Success@5").ranx_name == "hit_rate@5"
    assert parse_measure("Judged@10").ranx_name is None
    with pytest.raises(ConfigError, match="did you mean 'nDCG@10'"):
        parse_measure("ndcg@10")
    with pytest.raises(ConfigError, match="valid: AbstainHits, Abstained, Hits, Judged@k, MAP"):
        parse_measure("bleu")  # every family in the hint, written as users write it
    with pytest.raises(ConfigError, match="did you mean 'Redundancy'"):
        parse_measure("redundancy")
    with pytest.raises(ConfigError, match="takes no cutoff"):
        parse_measure("Tokens@5")
    with pytest.raises(ConfigError, match="the cutoff is a number: R@k"):
        parse_measure("R@five")
    with pytest.raises(ConfigError, match="needs a cutoff"):
        parse_measure("R")


def test_ranx_values_and_empty_runs_score_zero() -> None:
    qrels = {"a": {"d1": 2, "d2": 1}, "b": {"d3": 1}, "c": {"d9": 2}, "z": {"x": 0}}
    rankings = {"a": ["d1", "dx", "d2"], "b": ["d4"], "c": []}
    out = ranx_backend.evaluate(qrels, rankings, ["ndcg@10", "recall@5", "mrr", "precision@5"])
    assert set(out["ndcg@10"]) == {"a", "b", "c"}  # z has no positive judgement
    # ranx's ndcg is Järvelin–Kekäläinen: gain = grade, discount = log2(rank + 1)
    ideal = 2 / math.log2(2) + 1 / math.log2(3)
    got = 2 / math.log2(2) + 1 / math.log2(4)
    assert out["ndcg@10"]["a"] == pytest.approx(got / ideal, abs=1e-6)
    assert out["recall@5"] == {"a": 1.0, "b": 0.0, "c": 0.0}
    assert out["mrr"]["a"] == 1.0 and out["precision@5"]["a"] == pytest.approx(0.4)


def test_judged_at() -> None:
    assert judged_at(["a", "b", "c"], {"a": 2, "c": 0}, 10) == pytest.approx(0.2)
    assert judged_at([], {"a": 1}, 10) == 0.0


def test_redundancy() -> None:
    assert redundancy(["a b"]) is None
    assert redundancy(["a b", "a b"]) == 1.0
    assert redundancy(["a b", "c d", "a b"]) == pytest.approx(1 / 3)


def test_stale_above() -> None:
    assert stale_above(["old", "new"], {"old"}, {"new"}) == 1.0
    assert stale_above(["new", "old"], {"old"}, {"new"}) == 0.0
    assert stale_above(["old"], {"old"}, {"new"}) == 1.0
    assert stale_above(["x"], {"old"}, {"new"}) == 0.0
    assert stale_above(["x"], set(), {"new"}) is None


def test_tokens() -> None:
    assert tokens_of(["abcd", "abcde", "记"]) == 1 + 2 + 1
