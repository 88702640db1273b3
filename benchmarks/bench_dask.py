"""Dask benchmark: one process against a LocalCluster of N workers, side by side.

Three kinds of work, each timed in this process (``workers=1``), on memlab's own
process pool of as many processes (what the machine itself allows: the cores are
shared) and on a ``LocalCluster`` (``memlab.cluster.connect("local:N")``; its start-up is timed
apart), with the results checked equal:

* a sweep: ``--configs`` (10,000) random configurations on the shipped dataset's
  1,533 queries (``--queries N``: a synthetic timeline of N queries instead), candidates
  gathered once before the runs (the scoring is what is spread); every run starts
  without a scorer built in this process (``forget_scorer``), so the forked pool
  does not inherit one. The cluster is timed warm (started before, as a notebook
  keeps it) and cold: a fresh ``LocalCluster`` started, the sweep run and the
  cluster closed — what one CLI command with ``--scheduler local`` pays. The small
  size (``--small``, 200 configurations) shows the overhead; the large one
  (``--big``, 40,000 configurations, warm; ``--big 0`` leaves it out) what the
  cluster's fixed costs (the work shipped, each worker's first chunk, the last
  chunks' tail) come to once a sweep is the size its users run (10^5–10^6);
* a many-group evaluation: ``run_experiment`` (fts, hybrid, mmr) on the shipped
  dataset's groups, replayed from scratch (no replay cache) in each run;
* a fleet simulation: ``simulate_summary`` of ``--users`` (40,000) × ``--days``
  (30) users.

The machines are shared: the load average is printed before and after.

    python benchmarks/bench_dask.py [--workers 2] [--configs 10000] [--big 40000] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))  # bench_sweep's synthetic data

import pandas as pd
from bench_sweep import MEASURES, SPACE, synthetic

from memlab.cluster import connect, executor
from memlab.config import profile
from memlab.datasets import load_dataset
from memlab.dream.sim.params import SimParams
from memlab.dream.sim.stream import simulate_summary
from memlab.eval.compare.experiment import run_experiment
from memlab.eval.replay.embedders import evaluation_embedder
from memlab.eval.replay.prepared import prepare
from memlab.sweep import Sweep, random_configs, run_points, split_queries
from memlab.sweep.work import forget_scorer

DATASET = Path(__file__).resolve().parents[1] / "datasets" / "agent-memory"


def timed(fn: Any) -> tuple[float, Any]:
    start = time.perf_counter()
    out = fn()
    return time.perf_counter() - start, out


def row(
    name: str,
    one: float,
    many: float,
    equal: bool,
    pool: float | None = None,
    cold: float | None = None,
) -> dict[str, Any]:
    """One line: one process, memlab's own pool of as many processes (the machine's
    share of the cluster's gain), the cluster (warm; ``cold``: started, run and closed
    for this work alone), and the speed-ups of the cluster over one process."""
    return {
        "work": name,
        "one_process_s": round(one, 2),
        "memlab_pool_s": round(pool, 2) if pool is not None else None,
        "cluster_s": round(many, 2),
        "cluster_cold_s": round(cold, 2) if cold is not None else None,
        "speedup": round(one / many, 2) if many else None,
        "speedup_cold": round(one / cold, 2) if cold else None,
        "identical": equal,
    }


def sweep_of(configs: int, queries: int) -> tuple[Sweep, list[Any], str]:
    """The sweep, its points (candidates gathered) and its name."""
    ds = load_dataset(synthetic(queries) if queries else DATASET)
    prepared = prepare(ds, embedder=evaluation_embedder(ds, None))
    sweep = Sweep(prepared, measures=MEASURES, split=split_queries(ds.queries, 0.3, seed=0))
    points = random_configs(SPACE, configs, seed=0)
    sweep.work(points)  # candidates gathered once, before the runs
    return sweep, points, f"sweep {configs} configs × {len(ds.queries)} queries"


def fresh(run: Any) -> Any:
    forget_scorer()
    return run()


def bench_sweep(
    client: Any, configs: int, queries: int, workers: int, cold: bool = False
) -> dict[str, Any]:
    sweep, points, name = sweep_of(configs, queries)

    def on_cluster(c: Any) -> Any:
        return run_points(sweep, points, progress=False, client=c)

    def started() -> Any:  # a fresh cluster for this sweep alone, as one CLI command
        with connect(f"local:{workers}", dashboard=False) as own:
            return on_cluster(own)

    cold_s, cold_run = timed(lambda: fresh(started)) if cold else (None, None)
    one_s, one = timed(lambda: fresh(lambda: run_points(sweep, points, progress=False, workers=1)))
    pool_s, pool = timed(
        lambda: fresh(lambda: run_points(sweep, points, progress=False, workers=workers))
    )
    many_s, many = timed(lambda: fresh(lambda: on_cluster(client)))
    equal = one.table.equals(many.table) and one.table.equals(pool.table)
    if cold_run is not None:
        equal = equal and one.table.equals(cold_run.table)
    return row(name, one_s, many_s, equal, pool_s, cold_s)


def bench_groups(client: Any) -> dict[str, Any]:
    ds = load_dataset(DATASET)
    runs = ["fts", "hybrid", "mmr"]

    def once(use_cluster: bool) -> Any:
        with tempfile.TemporaryDirectory() as work:  # no replay cache: every group replayed
            prepared = prepare(ds, embedder=evaluation_embedder(ds, None), work_dir=work)
            if use_cluster:
                prepared.use_cluster(client)
            return run_experiment(prepared, runs).perquery

    one_s, one = timed(lambda: once(False))
    many_s, many = timed(lambda: once(True))
    equal = bool(pd.DataFrame.equals(one, many))
    return row(f"compare {len(ds.groups)} groups × {len(runs)} runs", one_s, many_s, equal)


def bench_fleet(client: Any, users: int, days: float, workers: int) -> dict[str, Any]:
    params, config = SimParams(users=users, days=days), profile("grok-c0").dream
    one_s, one = timed(lambda: simulate_summary(params, config, workers=1).summary())
    on = executor(client)
    many_s, many = timed(lambda: simulate_summary(params, config, executor=on).summary())
    pool_s, pool = timed(lambda: simulate_summary(params, config, workers=workers).summary())
    name = f"fleet {users} users × {days:g} days"
    return row(name, one_s, many_s, one == many == pool, pool_s)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--configs", type=int, default=10_000)
    p.add_argument("--small", type=int, default=200)
    p.add_argument("--big", type=int, default=40_000, help="a larger sweep, warm (0: none)")
    p.add_argument(
        "--queries", type=int, default=0, help="synthetic queries (0: the shipped dataset)"
    )
    p.add_argument("--users", type=int, default=40_000)
    p.add_argument("--days", type=float, default=30)
    p.add_argument("--json", action="store_true")
    args = p.parse_args()
    load_before = os.getloadavg()[0]
    start_s, client = timed(lambda: connect(f"local:{args.workers}", dashboard=False))
    try:
        rows = [
            bench_sweep(client, args.small, args.queries, args.workers),
            bench_sweep(client, args.configs, args.queries, args.workers, cold=True),
            *([bench_sweep(client, args.big, args.queries, args.workers)] if args.big else []),
            bench_groups(client),
            bench_fleet(client, args.users, args.days, args.workers),
        ]
    finally:
        client.close()
    out = {
        "workers": args.workers,
        "cluster_start_s": round(start_s, 2),
        "load_before": round(load_before, 2),
        "load_after": round(os.getloadavg()[0], 2),
        "rows": rows,
    }
    if args.json:
        print(json.dumps(out))
        return
    print(
        f"LocalCluster({args.workers}) started in {out['cluster_start_s']} s; "
        f"load {out['load_before']} → {out['load_after']}"
    )
    print(pd.DataFrame(rows).to_string(index=False))


if __name__ == "__main__":
    main()
