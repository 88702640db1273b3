"""Dev / holdout split: seeded, disjoint, complete, stratified by category."""

from __future__ import annotations

from collections import Counter

import pytest

from memlab.errors import ConfigError
from memlab.eval.replay.prepared import Prepared
from memlab.sweep import split_queries


def test_split_is_seeded_disjoint_and_complete(agent_memory: Prepared) -> None:
    queries = agent_memory.dataset.queries
    a = split_queries(queries, 0.3, seed=1)
    assert a == split_queries(queries, 0.3, seed=1)
    assert a.holdout != split_queries(queries, 0.3, seed=2).holdout
    assert not set(a.dev) & set(a.holdout)
    assert set(a.dev) | set(a.holdout) == {q.query_id for q in queries}
    assert len(a.holdout) == round(0.3 * len(queries))


def test_split_keeps_each_category_share(agent_memory: Prepared) -> None:
    queries = agent_memory.dataset.queries
    split = split_queries(queries, 0.3, seed=0)
    cat = {q.query_id: q.category for q in queries}
    total = Counter(cat.values())
    held = Counter(cat[q] for q in split.holdout)
    for c, n in total.items():
        assert abs(held[c] - 0.3 * n) < 1.0, c


def test_split_edges() -> None:
    ids = [f"q{i}" for i in range(10)]
    none = split_queries(ids, 0.0)
    assert none.dev == tuple(ids) and none.holdout == () and none.parts == ("all",)
    assert len(split_queries(ids, 0.5, stratify=False).holdout) == 5
    mask = split_queries(ids, 0.5).mask(ids, "holdout")
    assert mask.sum() == 5
    with pytest.raises(ConfigError, match="holdout"):
        split_queries(ids, 1.0)
