"""One compare pipeline: what ``memlab compare`` and the workbench's ``run_compare`` run.

* the runs by name (``compare_runs``): rankers on the comparison's base (its
  profile's search settings unless told otherwise), ``ranker@profile``,
  ``NAME=FILE.yaml`` (``memlab.eval.runs.rankers.parse_run_specs``), the ``mmr`` ranker's λ;
* the one Dream rule (``own_dream``): the replay's Dream settings are the
  comparison's profile's (``PrepareOptions.replay_dream``; on the command line
  refined by the config file's ``dream`` section and ``dream.*`` settings); with
  Dream on, a run on another profile (``hybrid@grok-2026-08``) searches a memory
  replayed with that profile's Dream settings: the profile's candidates apply
  (``memlab.eval.runs.rankers.run_label``), as in the regression report's baseline;
* the evaluation itself (``run_comparison``), with the cyclic garbage collector
  tuned while it runs (``fewer_collections``);
* filtering and ranking taken apart (``separation_of``: on nDCG@10, else the first
  IR measure).
"""

from __future__ import annotations

import gc
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from memlab.config import DEFAULT_PROFILE, MmrConfig, SearchConfig
from memlab.eval.measures import AGENT_MEASURES, DEFAULT_MEASURES

if TYPE_CHECKING:  # loaded when a comparison runs (``memlab eval`` starts light)
    from memlab.eval.compare.experiment import Experiment, Scoring
    from memlab.eval.compare.separation import Separation
    from memlab.eval.replay.memory import Memory
    from memlab.eval.replay.prepared import Prepared
    from memlab.eval.runs.external import RunFile
    from memlab.eval.runs.rankers import Run

_depth = [0]  # fewer_collections blocks open (the outermost one tunes and restores)


@contextmanager
def fewer_collections(gen0: int = 10_000) -> Iterator[None]:
    """While an evaluation runs, the cyclic garbage collector runs less often: it
    allocates hundreds of thousands of small objects (chunks, candidates, judgements)
    that live until it ends, and each collection would walk them again. The modules
    imported so far are frozen out of the collections; the thresholds and the freeze
    are undone afterwards (the process, e.g. a notebook, keeps its own settings).
    Nested blocks leave the outermost one in charge."""
    if _depth[0]:
        _depth[0] += 1
        try:
            yield
        finally:
            _depth[0] -= 1
        return
    before = gc.get_threshold()
    gc.freeze()
    gc.set_threshold(max(before[0], gen0), *before[1:])
    _depth[0] += 1
    try:
        yield
    finally:
        _depth[0] -= 1
        gc.set_threshold(*before)
        gc.unfreeze()


def compare_runs(
    specs: str | Sequence[str],
    *,
    base: SearchConfig | None = None,
    profile_name: str = DEFAULT_PROFILE,
    mmr_lambda: float | None = None,
) -> dict[str, Run]:
    """The named runs of a comparison (``parse_run_specs``); ``mmr_lambda`` replaces the
    λ of the ``mmr`` ranker (0.7 by default). Which Dream each searches is settled when
    the memory is known (``own_dream``)."""
    from memlab.eval.runs.rankers import parse_run_specs

    runs = parse_run_specs(specs, base=base, profile_name=profile_name)
    if mmr_lambda is None:
        return runs
    mmr = MmrConfig(enabled=True, lambda_=float(mmr_lambda))
    return {
        name: replace(run, config=replace(run.config, mmr=mmr))
        if "=" not in run.spec and name.partition("@")[0] == "mmr"
        else run
        for name, run in runs.items()
    }


def own_dream(
    runs: Mapping[str, SearchConfig | Run | RunFile], memory: Memory, profile_name: str
) -> dict[str, SearchConfig | Run | RunFile]:
    """The one Dream rule (module docstring): with Dream on the timeline of ``memory``,
    a ranker on a profile other than ``profile_name`` (``hybrid@grok-2026-08``, as
    ``compare_runs`` names it) searches ``memory`` replayed with that profile's Dream
    settings; every other run searches ``memory``."""
    from memlab.config import profile
    from memlab.eval.runs.rankers import Run

    out: dict[str, SearchConfig | Run | RunFile] = {}
    for name, run in runs.items():
        other = name.partition("@")[2]
        own = memory.dream is not None and other and other != profile_name
        if own and isinstance(run, Run) and run.spec == name and run.memory is None:
            out[name] = replace(run, memory=replace(memory, dream=profile(other).dream))
        else:
            out[name] = run
    return out


def run_comparison(
    prepared: Prepared,
    runs: Mapping[str, SearchConfig | Run | RunFile],
    *,
    profile_name: str = DEFAULT_PROFILE,
    base: SearchConfig | None = None,
    measures: Sequence[str] = DEFAULT_MEASURES,
    scoring: Scoring | None = None,
    out: str | Path | None = None,
    client: Any = None,
) -> Experiment:
    """Evaluate ``runs`` on ``prepared`` (groups replayed on a Dask ``client``'s workers
    when given), with fewer garbage collections (``run_experiment``); ``profile_name``:
    the comparison's profile (the Dream rule, ``own_dream``)."""
    from memlab.eval.compare.experiment import run_experiment

    if client is not None:
        prepared.use_cluster(client)  # groups indexed and searched on the workers
    runs = own_dream(runs, prepared.memory, profile_name)
    with fewer_collections():
        return run_experiment(
            prepared, runs, base=base, measures=measures, scoring=scoring, out=out
        )


def separation_measure(measures: Sequence[str]) -> str | None:
    """The measure filtering and ranking are taken apart on: nDCG@10, else the first IR
    measure (None: none is measured)."""
    ir = [m for m in measures if m not in ("NumQ", *AGENT_MEASURES)]
    if not ir:
        return None
    return "nDCG@10" if "nDCG@10" in ir else ir[0]


def separation_of(exp: Experiment, measures: Sequence[str]) -> Separation | None:
    """Filtering and ranking taken apart (``memlab.eval.compare.separation``), None without an IR
    measure."""
    from memlab.eval.compare.separation import separate

    measure = separation_measure(measures)
    if measure is None:
        return None
    with fewer_collections():
        return separate(exp, measure=measure)
