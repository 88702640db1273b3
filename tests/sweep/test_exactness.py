"""The sweep ranks exactly like the live search: same ids, same scores, every query."""

from __future__ import annotations

import numpy as np
import pytest

from memlab.config import SearchConfig, with_overrides
from memlab.eval.prepare import Prepared
from memlab.search.pipeline import search
from memlab.search.ranking import rank_batch
from memlab.sweep import Sweep
from tests.sweep.conftest import draw_overrides


def random_configs(n: int, seed: int) -> list[SearchConfig]:
    rng = np.random.default_rng(seed)
    return [with_overrides(SearchConfig(), draw_overrides(rng)) for _ in range(n)]


def assert_same_as_search(prepared: Prepared, configs: list[SearchConfig]) -> int:
    sweep = Sweep(prepared)
    sweep.prepare_for(configs)  # one batch, at the widest limit any draw needs
    checked = 0
    queries = prepared.dataset.queries
    for cfg in configs:
        ours = sweep.hits(cfg)
        for gid in prepared.dataset.groups:
            with prepared.open_group(gid) as store:
                for q in (q for q in queries if q.group == gid):
                    live = search(store, q.text, cfg, q.as_of, record_access=False, sync=False)
                    assert ours[q.query_id] == live.hits, (cfg, q.query_id)
                    checked += len(live.hits)
    return checked


def test_sweep_equals_search_on_the_shipped_dataset(agent_memory: Prepared) -> None:
    configs = random_configs(12, seed=5)
    assert any(c.mmr.enabled for c in configs) and any(not c.vectors for c in configs)
    assert assert_same_as_search(agent_memory, configs) > 0


def test_sweep_equals_search_on_many_draws_of_a_small_dataset(evalmini: Prepared) -> None:
    assert assert_same_as_search(evalmini, random_configs(150, seed=11)) > 0


@pytest.mark.slow
def test_sweep_equals_search_on_many_draws_of_the_shipped_dataset(agent_memory: Prepared) -> None:
    assert assert_same_as_search(agent_memory, random_configs(200, seed=99)) > 0


def test_stopping_mmr_early_returns_the_same_hits(agent_memory: Prepared) -> None:
    sweep = Sweep(agent_memory)
    configs = [c for c in random_configs(40, seed=3) if c.mmr.enabled]
    batch = sweep.prepare_for(configs)
    for cfg in configs:
        full = rank_batch(batch, cfg, agent_memory.query_now)
        early = rank_batch(batch, cfg, agent_memory.query_now, full_mmr=False)
        assert np.array_equal(full.final_rank, early.final_rank)
        assert np.array_equal(full.display, early.display)
