"""Sweep benchmark: the sweep engine against the naive way, in one run.

The naive way scores a configuration by running the full ``search()`` (keywords,
FTS5 + evergreen supplement, KNN, the scoring core) for every query. The sweep
gathers every query's candidates once at the widest limit, then rescores each
configuration with the same scoring core over all queries at once and measures
it with vectorised measures.

* ``--configs`` (1,000) random configurations over every sweep axis (half-life or
  no decay, three source weights, MMR on/off and λ, vector/text weights,
  min_score, max_results, strategy) on the shipped dataset's queries. The sweep
  time includes gathering candidates, the MMR similarity matrices and the
  measures. The naive time is measured on ``--naive-sample`` of those
  configurations (search only — no measures, so it is a lower bound) and
  extrapolated to all of them; ``--naive-sample 1000`` runs them all.
* Identical results: for every sampled configuration, each query's hits (ids,
  display and raw scores) from the sweep equal ``search()``'s, and the sweep's
  vectorised measures equal ``evaluate_run`` (ranx) on the naive rankings.
* ``--big`` (10,000) configurations: configurations per second of the sweep.
* ``--json``: one JSON line — ``configs_per_s`` (scoring throughput: ``--configs``
  configurations on the dataset's gathered candidates, every core, measures
  included) and what it was measured on — and nothing else, so the figure can be
  tracked; ``--naive-sample`` configurations are still checked against ``search()``
  (``identical_hits``).

    python benchmarks/bench_sweep.py --configs 1000 --naive-sample 20 --big 10000
    python benchmarks/bench_sweep.py --configs 10000 --json
    python benchmarks/bench_sweep.py --configs 10000 --queries 500 --json   # synthetic
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

from memlab.datasets import load_dataset
from memlab.eval.compare.per_query import evaluate_run
from memlab.eval.replay.embedders import evaluation_embedder
from memlab.eval.replay.memory import Memory
from memlab.eval.replay.prepared import Prepared, prepare
from memlab.eval.runs.rankers import RunResult
from memlab.retrieval.degraded import aggregated
from memlab.retrieval.pipeline import Hit, search
from memlab.sweep import Sweep, SweepPoint, random_configs, run_points, split_queries

DATASET = Path(__file__).resolve().parents[1] / "datasets" / "agent-memory"
sys.path.insert(0, str(Path(__file__).resolve().parent))  # bench_replay's synthetic timeline
MEASURES = ["nDCG@10", "R@5", "P@5", "RR", "Success@5", "Redundancy"]
SPACE: dict[str, Any] = {
    "half_life_days": [None, 1, 3, 7, 14, 30, 60, 90, 180],
    "source_weights.session": [0.3, 0.5, 0.8, 1.0, 1.2],
    "source_weights.global": [0.8, 1.0, 1.2],
    "source_weights.workspace": [0.8, 1.0, 1.2],
    "mmr.enabled": [True, False],
    "mmr.lambda": [0.3, 0.5, 0.7, 0.9],
    "vector_weight": {"uniform": [0.3, 0.9]},
    "text_weight": {"uniform": [0.1, 0.6]},
    "min_score": [0.0, 0.1, 0.2, 0.35, 0.5],
    "max_results": [3, 6, 10],
    "strategy": ["grok", "rrf", "basic-memory", "openclaw"],
}


def naive(prepared: Prepared, points: list[SweepPoint]) -> tuple[list[dict[str, list[Hit]]], float]:
    """Every query's hits for each of ``points`` by the full search on the memory
    replayed up to its time, on the query's own index (per-tag index options) — each
    group replayed once per index, moment by moment, as evaluation does, the points
    searched at each moment — and the seconds the
    searches took (replaying not counted: a lower bound)."""
    import tempfile

    from memlab.eval.replay.working_copy import GroupReplay

    out: list[dict[str, list[Hit]]] = [{} for _ in points]
    moments: dict[tuple[str, Memory], dict[float, list[Any]]] = {}
    for q in prepared.dataset.queries:  # each query on its own index (manifest index.by_tag)
        key = (q.group, prepared.memory.for_query(q))
        moments.setdefault(key, {}).setdefault(q.as_of, []).append(q)
    seconds = 0.0
    for (gid, memory), by_time in moments.items():
        work = Path(tempfile.mkdtemp(prefix="naive-")) / "w"
        group = prepared.dataset.groups[gid]
        with GroupReplay(group, memory, work, prepared.embedder) as replay:
            for at in sorted(by_time):
                replay.advance(at)
                replay.refresh()
                replay.materialise()
                start = time.perf_counter()
                for hits, point in zip(out, points, strict=True):
                    for q in by_time[at]:
                        found = search(replay.store, q.text, point.config, q.as_of,
                                       record_access=False, sync=False)  # fmt: skip
                        hits[q.query_id] = found.hits
                seconds += time.perf_counter() - start
        work.parent.rmdir()
    return out, seconds


def as_run(point: SweepPoint, hits: dict[str, list[Hit]]) -> RunResult:
    run = RunResult("naive", point.config, {}, {}, {}, {})
    for qid, hs in hits.items():
        run.rankings[qid] = [h.chunk_id for h in hs]
        run.scores[qid] = [h.score for h in hs]
        run.snippets[qid] = [h.snippet for h in hs]
        run.degraded[qid] = False
    return run


def measures_agree(prepared: Prepared, sweep: Sweep, point: SweepPoint, run: RunResult) -> bool:
    ours = sweep.per_query(point.config)
    ref = evaluate_run(prepared, run, [m for m in MEASURES if m != "Redundancy"])
    for m in MEASURES:
        expected = ref[ref["measure"] == m].set_index("query_id")["value"].to_dict()
        got = {q: v for q, v in zip(sweep.query_ids, ours[m], strict=True) if not np.isnan(v)}
        if set(got) != set(expected) or any(abs(got[q] - expected[q]) > 1e-12 for q in expected):
            return False
    return True


def compare(prepared: Prepared, sweep: Sweep, sample: list[SweepPoint]) -> dict[str, Any]:
    identical, hits, measures_ok = True, 0, True
    lives, seconds = naive(prepared, sample)
    for point, live in zip(sample, lives, strict=True):
        ours = sweep.hits(point.config)
        identical &= all(ours[q] == live[q] for q in live)
        hits += sum(len(h) for h in live.values())
        measures_ok &= measures_agree(prepared, sweep, point, as_run(point, live))
    return {
        "configs": len(sample),
        "seconds": seconds,
        "seconds_per_config": seconds / len(sample),
        "identical_hits": bool(identical),
        "identical_measures": bool(measures_ok),
        "hits_compared": hits,
    }


def synthetic(queries: int) -> Path:
    """A v2-shaped synthetic timeline (``bench_replay``) with ``queries`` queries and the
    offline hash embedder's vectors, written once under the system's temporary folder."""
    import tempfile

    from bench_replay import write_synthetic

    from memlab.eval.replay.precompute import precompute_vectors

    path = Path(tempfile.gettempdir()) / f"memlab-bench-sweep-{queries}q" / "ds"
    if not (path / "manifest.json").is_file():
        write_synthetic(path, queries, 180)
        precompute_vectors(path, "hash")
    return path


def throughput(args: argparse.Namespace) -> dict[str, Any]:
    """``--json``: configurations per second on the dataset, and identical hits checked."""
    ds = load_dataset(synthetic(args.queries) if args.queries else args.dataset)
    prepared = prepare(ds, embedder=evaluation_embedder(ds, None))
    points = random_configs(SPACE, args.configs, seed=args.seed)
    sweep = Sweep(prepared, measures=MEASURES, split=split_queries(ds.queries, 0.3, seed=0))
    start = time.perf_counter()
    sweep.work(points)  # candidates gathered, judgements and Jaccard blocks: not scoring
    prepare_s = time.perf_counter() - start
    result = run_points(sweep, points, progress=False)
    out: dict[str, Any] = {
        "dataset": ds.name,
        "queries": len(ds.queries),
        "configs": len(points),
        "seconds": round(result.seconds, 3),
        "configs_per_s": round(len(points) / result.seconds, 1),
        "prepare_seconds": round(prepare_s, 3),
    }
    if args.naive_sample:
        step = max(1, len(points) // args.naive_sample)
        checked = compare(prepared, sweep, points[::step][: args.naive_sample])
        out["identical_hits"] = checked["identical_hits"]
        out["identical_measures"] = checked["identical_measures"]
        out["configs_checked"] = checked["configs"]
    return out


def _cpu() -> float:
    """CPU seconds of this process and of its reaped children (the sweep's workers)."""
    import resource

    own, kids = (
        resource.getrusage(resource.RUSAGE_SELF),
        resource.getrusage(resource.RUSAGE_CHILDREN),
    )
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def end_to_end(args: argparse.Namespace, runs: int) -> dict[str, Any]:
    """What a user waits for, ``runs`` times: loading the dataset, preparing it, gathering
    every query's candidates (the replay from its on-disk cache after the first run:
    ``throughput`` ran first), then scoring ``--configs`` configurations — wall and CPU
    seconds (workers included), with the gathering and the scoring apart."""
    path = synthetic(args.queries) if args.queries else Path(args.dataset)
    points = random_configs(SPACE, args.configs, seed=args.seed)
    wall: list[float] = []
    cpu: list[float] = []
    gather: list[float] = []
    scoring: list[float] = []
    for _ in range(runs):
        start, cpu0 = time.perf_counter(), _cpu()
        ds = load_dataset(path)
        prepared = prepare(ds, embedder=evaluation_embedder(ds, None))
        sweep = Sweep(prepared, measures=MEASURES, split=split_queries(ds.queries, 0.3, seed=0))
        g = time.perf_counter()
        sweep.work(points)
        gather.append(time.perf_counter() - g)
        result = run_points(sweep, points, progress=False)
        scoring.append(result.seconds)
        wall.append(time.perf_counter() - start)
        cpu.append(_cpu() - cpu0)

    def spread(values: list[float]) -> dict[str, float]:
        return {"median": round(float(np.median(values)), 3),
                "min": round(min(values), 3), "max": round(max(values), 3)}  # fmt: skip

    return {
        "runs": runs,
        "configs": len(points),
        "wall_s": spread(wall),
        "cpu_s": spread(cpu),
        "gather_s": spread(gather),
        "scoring_s": spread(scoring),
    }


def run(args: argparse.Namespace) -> dict[str, Any]:
    ds = load_dataset(args.dataset)
    prepared = prepare(ds, embedder=evaluation_embedder(ds, None))
    points = random_configs(SPACE, args.configs, seed=args.seed)
    split = split_queries(ds.queries, 0.3, seed=0)

    sweep = Sweep(prepared, measures=MEASURES, split=split)
    result = run_points(sweep, points, progress=False)
    sweep_s = result.seconds
    rng = np.random.default_rng(args.seed)
    picked = rng.choice(len(points), size=min(args.naive_sample, len(points)), replace=False)
    naive_stats = compare(prepared, sweep, [points[i] for i in sorted(picked)])
    naive_total = naive_stats["seconds_per_config"] * len(points)

    big = random_configs(SPACE, args.big, seed=args.seed + 1)
    gather_start = time.perf_counter()
    sweep.prepare_for(big)
    gather_s = time.perf_counter() - gather_start
    big_result = run_points(sweep, big, progress=False)
    return {
        "dataset": ds.name,
        "queries": len(ds.queries),
        "candidate_limit": sweep.prepare_for(points).limit,
        "sweep": {
            "configs": len(points),
            "seconds": sweep_s,
            "configs_per_s": len(points) / sweep_s,
        },
        "naive_sample": naive_stats,
        "naive_extrapolated_seconds": naive_total,
        "speedup": naive_total / sweep_s,
        "big": {
            "configs": len(big),
            "seconds": big_result.seconds,
            "configs_per_s": len(big) / big_result.seconds,
            "extra_gather_seconds": gather_s,
        },
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--dataset", default=str(DATASET))
    ap.add_argument("--configs", type=int, default=1000)
    ap.add_argument("--naive-sample", type=int, default=20)
    ap.add_argument("--big", type=int, default=10_000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--json", action="store_true", help="one JSON line with configs_per_s")
    ap.add_argument(
        "--queries",
        type=int,
        help="with --json: a synthetic timeline with this many queries instead of --dataset",
    )
    args = ap.parse_args()
    with aggregated():  # degraded searches: one line per kind of reason, not per query
        out = throughput(args) if args.json else run(args)
    if args.json:
        print(json.dumps(out))
        return
    print(json.dumps(out, indent=2))
    print(
        f"sweep {out['sweep']['configs']} configs in {out['sweep']['seconds']:.2f} s; naive "
        f"{out['naive_extrapolated_seconds']:.0f} s (from {out['naive_sample']['configs']} "
        f"configs) → {out['speedup']:.0f}× faster; identical hits "
        f"{out['naive_sample']['identical_hits']}, measures "
        f"{out['naive_sample']['identical_measures']}; "
        f"{out['big']['configs_per_s']:.0f} configs/s at {out['big']['configs']}"
    )


if __name__ == "__main__":
    main()
