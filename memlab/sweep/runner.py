"""Running a sweep: progress bar, Ctrl-C keeps finished work, resume from the results file.

``run_points(sweep, points, out=...)`` scores every point not already in
``out/sweep.csv`` (rows are keyed by configuration hash), in chunks of
configurations scored on every core (``memlab.sweep.fanout``; any
``concurrent.futures.Executor`` can run them), saving the file every few seconds
and when it stops. Ctrl-C (``KeyboardInterrupt``) ends the loop: the rows scored so
far are saved and returned (``result.interrupted``); running the same sweep again
resumes. ``run_sweep`` is the one-call version for notebooks
and the CLI: dataset + space (grid or random) → ``SweepResult``.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from memlab import progress
from memlab.config import SearchConfig
from memlab.datasets import Dataset
from memlab.errors import ConfigError
from memlab.eval.measures import DEFAULT_TOKEN_BUDGET, SWEEP_MEASURES
from memlab.eval.replay.prepared import Prepared
from memlab.parallel import available_cores, spare_cores
from memlab.sweep.engine import Sweep, by_engine
from memlab.sweep.fanout import chunk_size, chunked, scored_chunks
from memlab.sweep.results import SweepResult, overrides_column
from memlab.sweep.results_folder import load_results, save_results, sweep_manifest
from memlab.sweep.space import SweepPoint, as_points, grid, load_grid, random_configs
from memlab.sweep.work import SweepWork

CHECKPOINT_SECS = 5.0
PARALLEL_FROM = 1000  # configurations from which a sweep uses every core by default


def axes_of(points: Sequence[SweepPoint]) -> list[str]:
    """The configuration paths the points set, in order of first appearance."""
    seen: dict[str, None] = {}
    for p in points:
        seen.update(dict.fromkeys(p.overrides))
    return list(seen)


def run_points(
    sweep: Sweep,
    points: Sequence[SweepPoint | SearchConfig | Mapping[str, Any]],
    *,
    out: str | Path | None = None,
    progress: bool = True,
    checkpoint_secs: float = CHECKPOINT_SECS,
    workers: int | None = None,
    executor: Executor | None = None,
    client: Any = None,
) -> SweepResult:
    """Score ``points`` (skipping those already in ``out``); see the module docstring.

    ``workers``: processes to score on (default: the spare cores once there are
    ``PARALLEL_FROM`` configurations or more, else this process); ``executor``: any
    ``concurrent.futures.Executor`` to run the chunks on instead; ``client``: a Dask
    ``distributed.Client`` (``memlab.cluster.connect``): the work is shipped once to
    each of its workers and the chunks run there."""
    start = time.perf_counter()
    pts = as_points(points, sweep.base)
    folder = Path(out) if out is not None else None
    manifest = sweep_manifest(sweep)
    done = load_results(folder, manifest) if folder else pd.DataFrame()
    known = set(done["config_hash"]) if "config_hash" in done else set()
    todo = [p for p in pts if p.key not in known]
    fresh: dict[str, dict[str, Any]] = {}
    interrupted = False
    saved = time.perf_counter()
    bar = _bar(len(todo), progress)
    try:
        # the base is scored too (the choice may keep it): gathered with the points
        sweep.prepare_for([*(p for p in todo if not p.index), sweep.base], progress=progress)
        for engine, group in by_engine(sweep, todo):  # one candidate batch per index
            engine.prepare_for(group, progress=progress)
            work = engine.work(group)
            n, pool, ref = _placement(work, len(group), workers, executor, client)
            chunks = chunked(group, chunk_size(len(group), n))
            configs = [[p.config for p in chunk] for chunk in chunks]
            scored = scored_chunks(work, configs, workers=n, executor=pool, work_ref=ref)
            for i, scores in scored:
                for p, row in zip(chunks[i], scores, strict=True):
                    fresh[p.key] = _row(p, dict(zip(work.columns, row.tolist(), strict=True)))
                bar.update(len(chunks[i]))
                if folder and time.perf_counter() - saved > checkpoint_secs:
                    save_results(folder, _file_table(done, fresh), manifest)
                    saved = time.perf_counter()
    except KeyboardInterrupt:
        interrupted = True
    finally:
        bar.close()
        if folder and fresh:
            save_results(folder, _file_table(done, fresh), manifest)
    axes = axes_of(pts)
    table = _result_table(pts, axes, sweep.metric_columns, done, fresh)
    base_scores = None if interrupted else sweep.score(sweep.base)
    return SweepResult(
        table=table,
        points=[p for p in pts if p.key in fresh or p.key in known],
        axes=axes,
        measures=list(sweep.measures),
        split=sweep.split,
        sweep=sweep,
        out=folder,
        evaluated=len(fresh),
        resumed=len(pts) - len(todo),
        interrupted=interrupted,
        seconds=time.perf_counter() - start,
        total=len(pts),
        base_scores=base_scores,
    )


def _placement(
    work: SweepWork, n: int, workers: int | None, executor: Executor | None, client: Any
) -> tuple[int, Executor | None, Any]:
    """(workers, executor, the work's reference on it) for ``n`` configurations."""
    if client is not None:
        from memlab.cluster import executor as executor_of
        from memlab.cluster import scatter, worker_count

        return worker_count(client), executor_of(client), scatter(client, work)
    if executor is not None:
        return available_cores(), executor, None
    return _workers(workers, n), None, None


def _workers(asked: int | None, n_configs: int) -> int:
    if asked is not None:
        return max(1, int(asked))
    return spare_cores() if n_configs >= PARALLEL_FROM else 1


def _row(point: SweepPoint, scores: dict[str, float]) -> dict[str, Any]:
    return {
        "config_hash": point.key,
        **point.overrides,
        **scores,
        "overrides": overrides_column(point),
    }


def _file_table(done: pd.DataFrame, fresh: dict[str, dict[str, Any]]) -> pd.DataFrame:
    new = pd.DataFrame(list(fresh.values()))
    if done.empty:
        return new
    return pd.concat([done, new], ignore_index=True) if len(new) else done


def _result_table(
    points: Sequence[SweepPoint],
    axes: list[str],
    metrics: list[str],
    done: pd.DataFrame,
    fresh: dict[str, dict[str, Any]],
) -> pd.DataFrame:
    """One row per point that has scores, in sweep order; axis values from the points."""
    old = done.set_index("config_hash") if "config_hash" in done else pd.DataFrame()
    old = old[~old.index.duplicated()]
    rows = []
    for p in points:
        if p.key in fresh:
            scores = fresh[p.key]
        elif p.key in old.index:
            scores = old.loc[p.key].to_dict()
        else:
            continue
        rows.append(
            {
                "config_hash": p.key,
                **{a: p.overrides.get(a) for a in axes},
                **{m: scores.get(m) for m in metrics},
                "overrides": scores["overrides"] if p.key in fresh else overrides_column(p),
            }
        )
    return pd.DataFrame(rows, columns=["config_hash", *axes, *metrics, "overrides"])


def _bar(total: int, show: bool) -> Any:
    """The sweep's bar: a ``memlab.progress`` phase when progress is reported (the command
    line), else tqdm's (a notebook)."""
    if progress.active():
        return _PhaseBar(progress.start(f"sweep of {total} configurations", total, "config"))
    from tqdm.auto import tqdm

    return tqdm(total=total, desc="sweep", unit="config", disable=not show or total == 0)


class _PhaseBar:
    def __init__(self, phase: progress.Phase) -> None:
        self.phase = phase

    def update(self, n: int) -> None:
        self.phase.advance(n)

    def close(self) -> None:
        self.phase.end()


@dataclass(frozen=True)
class SweepOptions:
    """How a sweep is drawn and set up: ``random=N`` configurations drawn from the space
    (seeded by ``seed``) instead of the full grid; the ``base`` every point starts from;
    the ``measures`` scored (agent measures at ``budget`` tokens); the share of queries
    held out (``holdout``, split seeded by ``split_seed``, stratified by category
    unless ``stratify`` is False). A ``Sweep`` given to ``run_sweep`` keeps its own
    split, base and measures."""

    random: int | None = None
    seed: int = 0
    base: SearchConfig | None = None
    measures: tuple[str, ...] = SWEEP_MEASURES
    holdout: float = 0.3
    split_seed: int = 0
    stratify: bool = True
    budget: int = DEFAULT_TOKEN_BUDGET

    def __post_init__(self) -> None:
        object.__setattr__(self, "measures", tuple(self.measures))


def run_sweep(
    dataset: str | Path | Dataset | Prepared | Sweep,
    space: Mapping[str, Any] | str | Path | None = None,
    options: SweepOptions | None = None,
    *,
    configs: Sequence[SweepPoint | SearchConfig | Mapping[str, Any]] | None = None,
    out: str | Path | None = None,
    progress: bool = True,
    workers: int | None = None,
    client: Any = None,
) -> SweepResult:
    """Sweep a prepared dataset over ``space`` (a mapping or a grid file) or explicit
    ``configs``, drawn and set up as ``options`` say (``SweepOptions``).

    ``dataset`` is a ``Prepared`` (``prepare_dataset(path, PrepareOptions(embedder=...,
    tokenizer=..., dream=...))``), a folder or ``Dataset`` (prepared with its
    defaults), or a ``Sweep`` (to reuse its gathered candidates across calls).
    ``workers``: processes to score on; ``client``: a Dask cluster to score on
    instead (see ``run_points``).
    """
    options = options or SweepOptions()
    if client is not None and isinstance(dataset, Prepared):
        dataset.use_cluster(client)  # candidates gathered per group on the workers
    if isinstance(dataset, Sweep):
        sweep = dataset
        points = _points(sweep.base, space, configs, options.random, options.seed)
    else:
        base = options.base or SearchConfig()
        points = _points(base, space, configs, options.random, options.seed)  # fail fast
        sweep = Sweep.from_dataset(
            dataset,
            holdout=options.holdout,
            seed=options.split_seed,
            stratify=options.stratify,
            base=options.base,
            measures=options.measures,
            budget=options.budget,
        )
    return run_points(sweep, points, out=out, progress=progress, workers=workers, client=client)


def _points(
    base: SearchConfig,
    space: Mapping[str, Any] | str | Path | None,
    configs: Sequence[SweepPoint | SearchConfig | Mapping[str, Any]] | None,
    random: int | None,
    seed: int,
) -> list[SweepPoint]:
    if configs is not None:
        if space is not None:
            raise ConfigError("give either a space (mapping or grid file) or configs, not both")
        return as_points(configs, base)
    if space is None:
        raise ConfigError("give a space (mapping or grid file) or configs")
    flat = load_grid(space) if isinstance(space, (str, Path)) else space
    return random_configs(flat, random, seed=seed, base=base) if random else grid(flat, base)
