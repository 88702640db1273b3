"""Index options as grid axes: one replay per distinct index, every search setting rescored
on it, exactly what ``search()`` returns on that index."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from memlab.config import SearchConfig
from memlab.errors import ConfigError
from memlab.eval.replay.prepared import Prepared
from memlab.retrieval.pipeline import search
from memlab.sweep import Sweep, grid, run_sweep, split_queries
from memlab.sweep.indexes import index_memory

SPACE = {"tokenizer": ["unicode61", "porter"], "half_life_days": [1.0, 7.0, 30.0, None]}


@pytest.fixture(scope="module")
def engine(evalmini: Prepared) -> Sweep:
    split = split_queries(evalmini.dataset.queries, 0.4, seed=0)
    return Sweep(evalmini, split=split, base=SearchConfig(min_score=0.0))


def test_a_grid_varies_the_tokenizer_and_the_half_life_in_one_sweep(engine: Sweep) -> None:
    result = run_sweep(engine, SPACE, progress=False)
    t = result.table
    assert len(t) == 8 and list(t.columns[1:3]) == ["tokenizer", "half_life_days"]
    assert t["config_hash"].is_unique  # the index is part of a row's key
    engines = {id(engine.engine_of(p)) for p in result.points}
    assert len(engines) == 2  # one engine (one replay) per tokenizer
    porter = engine.for_index({"tokenizer": "porter"})
    assert porter.memory.index.tokenizer == "porter" and porter is engine.for_index(
        {"tokenizer": "porter"}
    )
    for p, (_, row) in zip(result.points, t.iterrows(), strict=True):
        scores = engine.engine_of(p).score(p.config)
        for column in ("nDCG@10:holdout", "AbstainHits:dev", "Tokens"):
            assert row[column] == pytest.approx(scores[column], nan_ok=True), (p.key, column)
    # two replays: the stemmer matches "charges" for "charge", so BM25 ranks differ
    plain = engine.for_index({"tokenizer": "unicode61"}).prepare_for([engine.base])
    stemmed = porter.prepare_for([engine.base])
    same = len(plain.fts_rank) == len(stemmed.fts_rank) and np.array_equal(
        plain.fts_rank, stemmed.fts_rank, equal_nan=True
    )
    assert not same


def test_each_index_ranks_as_search_does_on_it(evalmini: Prepared, engine: Sweep) -> None:
    checked = 0
    for point in grid(SPACE, engine.base):
        sub = engine.engine_of(point)
        hits = sub.hits(point.config)
        assert sub.memory == index_memory(engine.memory, point.index)
        for q in evalmini.dataset.queries:
            with evalmini.store_at(q.group, q.as_of, sub.memory.for_query(q)) as store:
                live = search(store, q.text, point.config, q.as_of, record_access=False, sync=False)
            assert hits[q.query_id] == live.hits, (point.overrides, q.query_id)
            checked += len(live.hits)
    assert checked > 0


def test_resuming_keeps_the_rows_of_every_index(engine: Sweep, tmp_path: Path) -> None:
    first = run_sweep(engine, SPACE, out=tmp_path, progress=False)
    again = run_sweep(engine, SPACE, out=tmp_path, progress=False)
    assert (first.evaluated, again.evaluated, again.resumed) == (8, 0, 8)
    assert again.table["tokenizer"].tolist() == first.table["tokenizer"].tolist()


@pytest.mark.parametrize(
    ("space", "message"),
    [
        ({"tokenizer": ["porterr"]}, "did you mean 'porter'"),
        ({"chunk_bytes": [0]}, "chunk_bytes must be a whole number >= 1"),
        ({"chunk_overlap": [1.5]}, "chunk_overlap must be a whole number >= 0"),
        ({"chunking": ["lines"]}, "unknown chunking mode 'lines'"),
        ({"chunk_bytes": {"randint": [100, 900]}}, "takes a list of values"),
    ],
)
def test_bad_index_values_are_clear_errors(space: dict[str, object], message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        grid(space)


@pytest.mark.slow
def test_the_shipped_index_grid_is_exact_on_the_shipped_dataset(agent_memory: Prepared) -> None:
    """``--grid index`` (unicode61 and porter × half-lives): every point ranks as
    ``search()`` does on its own index, for queries spread over every group's timeline
    (one replay of each query's moment per index, every half-life checked on it)."""
    from memlab.sweep import load_grid, shipped_grids
    from memlab.sweep.engine import by_engine
    from tests.sweep.test_exactness import spread

    engine = Sweep(agent_memory)
    points = grid(load_grid(shipped_grids()["index"]), engine.base)
    assert {p.index["tokenizer"] for p in points} == {"unicode61", "porter"}
    queries = spread(agent_memory, 2)
    checked = 0
    for sub, group in by_engine(engine, points):
        hits = [sub.hits(p.config) for p in group]
        for q in queries:
            with agent_memory.store_at(q.group, q.as_of, sub.memory.for_query(q)) as store:
                for point, found in zip(group, hits, strict=True):
                    live = search(
                        store, q.text, point.config, q.as_of, record_access=False, sync=False
                    )
                    assert found[q.query_id] == live.hits, (point.overrides, q.query_id)
                    checked += len(live.hits)
    assert checked > 0
