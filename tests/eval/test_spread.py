"""Groups replayed on a real Dask cluster (a LocalCluster of 2 worker processes): the
same candidates, judgements and per-query results as one process."""

from __future__ import annotations

import pickle
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

from memlab.datasets import load_dataset
from memlab.embeddings.cache import VectorCache
from memlab.eval.compare.experiment import run_experiment
from memlab.eval.replay.prepared import prepare
from tests.sweep.conftest import AGENT_MEMORY, shipped_embedder

RUNS = ["fts", "hybrid", "mmr"]


def test_a_vector_cache_travels_as_its_path_and_mode(tmp_path: Path) -> None:
    cache = VectorCache(tmp_path / "v.sqlite")
    cache.put_many("p", [("k", pytest.importorskip("numpy").ones(3, "float32"))])
    again = pickle.loads(pickle.dumps(cache))
    assert (again.path, again.read_only) == (cache.path, False)
    assert again.get_many("p", ["k"])["k"].tolist() == [1.0, 1.0, 1.0]


@pytest.mark.slow  # a replay of the whole shipped dataset: CI's slow suite
def test_groups_replayed_on_dask_give_the_same_per_query_results(
    dask_client: Any, tmp_path: Path
) -> None:
    ds = load_dataset(AGENT_MEMORY)
    assert len(ds.groups) > 1
    here = prepare(ds, embedder=shipped_embedder(ds), work_dir=tmp_path / "here")
    there = prepare(ds, embedder=shipped_embedder(ds), work_dir=tmp_path / "there")
    there.use_cluster(dask_client)
    from distributed import get_task_stream

    one = run_experiment(here, RUNS)
    with get_task_stream(dask_client) as stream:
        other = run_experiment(there, RUNS)
    ran = [t["key"] for t in stream.data]
    # on the workers: one replay per group and per index its queries use (per-tag options)
    parts = here.memory.split(ds.queries)
    replays = sum(len({q.group for q in queries}) for queries in parts.values())
    assert len(parts) > 1 and replays > len(ds.groups)
    assert sum("replay_group" in str(k) for k in ran) == replays
    assert len(one.perquery) > 0
    pd.testing.assert_frame_equal(one.perquery, other.perquery, check_exact=True)
    for name in RUNS:
        assert one.runs[name].rankings == other.runs[name].rankings
    a, b = here.timeline(), there.timeline()
    assert a.qrels == b.qrels and a.stale == b.stale
    # the replay cache has one writer, the asking process: the products were saved
    assert len(list((tmp_path / "there").glob("*.pkl"))) == replays
