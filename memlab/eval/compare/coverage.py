"""How much of what a run returns is judged: Judged@k per run, and the gap warning.

Pooled judging (``memlab.judging``) judges the top k of the rankers that were
pooled; a ranker that was not pooled may return chunks nobody judged, and its
measures then count them as non-relevant (they are *unjudged*, not known to be
wrong). ``run_coverage`` measures, over the queries that have judgements at
all (abstention queries left out: everything they return is non-relevant by
definition), the ``Judged@k`` measure (``memlab.eval.measures.judged_at``: the
share of the k positions holding a judged chunk) and the share of the hits a
run actually returns in its top k that are unjudged. ``gap_warning`` says when
most are, and names the command that pools and judges the gap.
"""

from __future__ import annotations

import json
import shlex
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from memlab.config import SearchConfig
from memlab.datasets import Dataset
from memlab.datasets.model import POOL_SETTINGS
from memlab.errors import MemlabError
from memlab.eval.measures import judged_at
from memlab.eval.runs.rankers import parse_run_specs

MOSTLY = 0.5  # a run whose returned top k is more than half unjudged gets the warning


@dataclass(frozen=True)
class Coverage:
    run: str
    k: int
    judged_at_k: float  # mean Judged@k over the judged queries
    unjudged: float  # share of the returned top-k hits without a judgement
    hits: int  # returned top-k hits counted
    queries: int  # judged queries counted


def run_coverage(
    run: str,
    dataset: Dataset,
    rankings: Mapping[str, Sequence[str]],
    judged: Mapping[str, Mapping[str, int]],
    k: int,
) -> Coverage:
    """Coverage of one run's ``rankings`` (query -> chunk ids) by ``judged`` (query ->
    chunk -> grade, resolved at each query's time)."""
    queries = [q.query_id for q in dataset.queries if judged.get(q.query_id) and not q.abstention]
    values, hits, unjudged = [], 0, 0
    for qid in queries:
        top = list(rankings.get(qid, []))[:k]
        values.append(judged_at(top, judged[qid], k))
        hits += len(top)
        unjudged += sum(1 for c in top if c not in judged[qid])
    mean = sum(values) / len(values) if values else 0.0
    return Coverage(run, k, mean, unjudged / hits if hits else 0.0, hits, len(queries))


def pool_depth(dataset_dir: str | Path) -> int | None:
    """The depth the dataset was pooled to (``pool.json``), or None if it was not pooled."""
    path = Path(dataset_dir) / POOL_SETTINGS
    try:
        return int(json.loads(path.read_text(encoding="utf-8"))["depth"])
    except (OSError, ValueError, KeyError, TypeError):
        return None


def pooled_configs(dataset_dir: str | Path, k: int) -> list[SearchConfig]:
    """The configurations the dataset was pooled with to depth ``k`` or deeper
    (``pool.json``); [] if it was not pooled (or not that deep)."""
    path = Path(dataset_dir) / POOL_SETTINGS
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        if int(data["depth"]) < k:
            return []
        return [run.config for run in parse_run_specs([str(s) for s in data["runs"]]).values()]
    except (OSError, ValueError, KeyError, TypeError, MemlabError):
        return []


def gap_command(dataset_dir: str | Path, spec: str, k: int) -> str:
    """The commands that pool a run's top k and judge what is new."""
    folder = shlex.quote(str(dataset_dir))
    return f"memlab pool {folder} --runs {shlex.quote(spec)} --depth {k} && memlab judge {folder}"


def gap_warning(
    cov: Coverage, dataset_dir: str | Path, spec: str = "", *, pooled: bool = False
) -> str | None:
    """A warning when most of a run's returned top k is unjudged (None otherwise);
    ``pooled``: the run's top k is in the pool already (only judging is missing)."""
    if cov.hits == 0 or cov.unjudged <= MOSTLY:
        return None
    if pooled:
        todo = f"its pooled candidates are not all judged yet: memlab judge {dataset_dir}"
    else:
        todo = f"pool and judge the gap: {gap_command(dataset_dir, spec or cov.run, cov.k)}"
    return (
        f"run '{cov.run}': {cov.unjudged:.0%} of its top-{cov.k} hits on {cov.queries} judged "
        f"queries are unjudged (Judged@{cov.k} {cov.judged_at_k:.2f}), so its measures count "
        f"them as misses; {todo}"
    )
