"""The sweep ranks exactly like the live search: same ids, same scores, every query."""

from __future__ import annotations

import numpy as np
import pytest

from memlab.config import SearchConfig, with_overrides
from memlab.datasets import Query
from memlab.eval.replay.memory import Memory
from memlab.eval.replay.prepared import Prepared
from memlab.retrieval.pipeline import search
from memlab.retrieval.ranking import rank_batch
from memlab.sweep import Sweep
from tests.conftest import campaign_size
from tests.sweep.conftest import draw_overrides


def random_configs(n: int, seed: int) -> list[SearchConfig]:
    rng = np.random.default_rng(seed)
    return [with_overrides(SearchConfig(), draw_overrides(rng)) for _ in range(n)]


def assert_same_as_search(
    prepared: Prepared, configs: list[SearchConfig], queries: list[Query] | None = None
) -> int:
    """Sweep hits = ``search()`` on the memory replayed separately up to each query's time."""
    sweep = Sweep(prepared)
    sweep.prepare_for(configs)  # one batch, at the widest limit any draw needs
    ours = [sweep.hits(cfg) for cfg in configs]
    moments: dict[tuple[str, float, Memory], list[Query]] = {}
    for q in queries if queries is not None else prepared.dataset.queries:  # on its own index
        moments.setdefault((q.group, q.as_of, prepared.memory.for_query(q)), []).append(q)
    checked = 0
    for (gid, at, memory), asked in moments.items():
        with prepared.store_at(gid, at, memory) as store:
            for cfg, hits in zip(configs, ours, strict=True):
                for q in asked:
                    live = search(store, q.text, cfg, q.as_of, record_access=False, sync=False)
                    assert hits[q.query_id] == live.hits, (cfg, q.query_id)
                    checked += len(live.hits)
    return checked


def spread(prepared: Prepared, per_group: int) -> list[Query]:
    """``per_group`` queries of each group, evenly spread over its timeline (each moment is
    a separate replay, so the shipped dataset's ~1,000 query times are sampled), and a
    quarter as many (at least one) gathered from a per-tag index (the Chinese queries:
    trigram)."""
    out: list[Query] = []
    for gid in prepared.dataset.groups:
        asked = sorted(prepared.dataset.queries_in(gid), key=lambda q: (q.as_of, q.query_id))
        default = [q for q in asked if prepared.memory.for_query(q).index == prepared.index_config]
        tagged = [q for q in asked if q not in default]
        for part, n in ((default, per_group), (tagged, max(per_group // 4, 1))):
            step = max(len(part) // n, 1)
            out += part[step // 2 :: step][:n]
    return out


@pytest.mark.slow  # a replay of the whole shipped dataset: CI's slow suite
def test_sweep_equals_search_on_the_shipped_dataset(agent_memory: Prepared) -> None:
    configs = random_configs(12, seed=5)
    assert any(c.mmr.enabled for c in configs) and any(not c.vectors for c in configs)
    queries = spread(agent_memory, 4)
    assert any(agent_memory.memory.for_query(q).index.tokenizer == "trigram" for q in queries)
    assert assert_same_as_search(agent_memory, configs, queries) > 0


def test_sweep_equals_search_on_many_draws_of_a_small_dataset(evalmini: Prepared) -> None:
    assert assert_same_as_search(evalmini, random_configs(150, seed=11)) > 0


@pytest.mark.slow
def test_sweep_equals_search_on_many_draws_of_the_shipped_dataset(agent_memory: Prepared) -> None:
    configs = random_configs(campaign_size(ci=50, soak=200), seed=99)
    assert any(c.mmr.enabled for c in configs) and any(not c.vectors for c in configs)
    queries = spread(agent_memory, campaign_size(ci=8, soak=20))
    assert any(agent_memory.memory.for_query(q).index.tokenizer == "trigram" for q in queries)
    assert assert_same_as_search(agent_memory, configs, queries) > 0


def test_stopping_mmr_early_returns_the_same_hits(agent_memory: Prepared) -> None:
    sweep = Sweep(agent_memory)
    configs = [c for c in random_configs(40, seed=3) if c.mmr.enabled]
    batch = sweep.prepare_for(configs)
    for cfg in configs:
        full = rank_batch(batch, cfg, agent_memory.query_now)
        early = rank_batch(batch, cfg, agent_memory.query_now, full_mmr=False)
        assert np.array_equal(full.final_rank, early.final_rank)
        assert np.array_equal(full.display, early.display)


@pytest.fixture(scope="module")
def dreamy(tmp_path_factory: pytest.TempPathFactory) -> Prepared:
    from memlab.datasets import load_dataset
    from memlab.embeddings.hashing import HashEmbedder
    from memlab.eval.replay.prepared import prepare
    from tests.eval.test_dream_timeline import write_sessions

    path = write_sessions(tmp_path_factory.mktemp("ds") / "dreamy")  # Dream on (c0 gates)
    return prepare(
        load_dataset(path), embedder=HashEmbedder(), work_dir=tmp_path_factory.mktemp("w")
    )


def test_sweep_equals_search_at_each_query_time_with_dream(dreamy: Prepared) -> None:
    """Queries at 9 different times, Dream consolidating and deleting logs in between."""
    configs = random_configs(30, seed=21)
    assert len({q.as_of for q in dreamy.dataset.queries}) == 9
    assert assert_same_as_search(dreamy, configs) > 0
