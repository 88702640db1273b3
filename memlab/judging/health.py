"""Judging health: how far judging got, how much of each run's top k is judged, and
whether two judges agree. Read-only.

``judging_health(dataset)`` ranks every query with each run (the pool's runs by
default, or any ``--runs`` list) at its own time and reports, per run, the
``Judged@k`` measure and the share of its returned top k that is unjudged
(``memlab.eval.compare.coverage``), with a warning and the command to pool and judge
the gap when most of it is; given other qrels files (other judges), Cohen's κ
against the dataset's own (``memlab.judging.agreement``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from memlab.datasets import load_dataset
from memlab.datasets.model import QRELS
from memlab.errors import DatasetError
from memlab.eval.compare.coverage import Coverage, gap_warning, pooled_configs, run_coverage
from memlab.eval.replay.memory import Memory
from memlab.eval.replay.prepared import PrepareOptions, prepare_dataset
from memlab.eval.runs.rankers import Run, needed_limit, parse_run_specs, run_config
from memlab.judging.agreement import Agreement, agreement
from memlab.judging.journal import read_grades
from memlab.judging.pool import DEFAULT_DEPTH, DEFAULT_POOL_RUNS, read_pool, read_settings
from memlab.judging.session import Progress, QueryInfo, count_progress, dataset_folder

if TYPE_CHECKING:
    import pandas as pd


@dataclass
class Health:
    folder: Path
    progress: Progress
    abstentions: int
    runs: tuple[str, ...]
    depth: int
    coverage: list[Coverage] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    agreements: dict[str, Agreement] = field(default_factory=dict)

    def table(self) -> pd.DataFrame:
        """One row per run: Judged@k, the unjudged share of its top k, hits, queries."""
        import pandas as pd

        k = self.depth
        return pd.DataFrame(
            [
                {
                    "run": c.run,
                    f"Judged@{k}": round(c.judged_at_k, 3),
                    f"unjudged in top {k}": round(c.unjudged, 3),
                    "hits": c.hits,
                    "judged queries": c.queries,
                }
                for c in self.coverage
            ]
        )

    def text(self) -> str:
        lines = [
            f"{self.folder.name}: {self.progress.text()} ({self.abstentions} abstention); "
            f"runs {', '.join(self.runs)} at depth {self.depth}"
        ]
        if self.coverage:
            lines.append(self.table().to_string(index=False))
        lines += [f"warning: {w}" for w in self.warnings]
        lines += [f"agreement with {name}: {a.text()}" for name, a in self.agreements.items()]
        return "\n".join(lines)


def _coverage(
    folder: Path, specs: Sequence[str], k: int, embedder: str | None, work_dir: str | Path | None
) -> tuple[list[Coverage], list[str]]:
    ds = load_dataset(folder)
    if not ds.queries:
        return [], []
    named = parse_run_specs(specs)
    prepared = prepare_dataset(ds, PrepareOptions(embedder=embedder, work_dir=work_dir))
    by_memory: dict[Memory, dict[str, Run]] = {}
    for name, run in named.items():
        by_memory.setdefault(run.memory or prepared.memory, {})[name] = run
    found: dict[str, Coverage] = {}
    warnings: list[str] = []
    pooled = pooled_configs(folder, k)
    for memory, group in by_memory.items():
        vectors = any(r.config.vectors for r in group.values())
        timeline = prepared.timeline(needed_limit(group), vectors=vectors, memory=memory)
        judged = {qid: j.grades for qid, j in timeline.judgements.items()}
        for name, run in group.items():
            result = run_config(name, timeline.batch, run.config, timeline.query_now)
            found[name] = run_coverage(name, ds, result.rankings, judged, k)
            warning = gap_warning(found[name], folder, run.spec, pooled=run.config in pooled)
            if warning:
                warnings.append(warning)
    return [found[name] for name in named], warnings + prepared.warnings


def judging_health(
    dataset: str | Path,
    runs: str | Sequence[str] | None = None,
    *,
    depth: int | None = None,
    embedder: str | None = None,
    others: Iterable[str | Path] = (),
    work_dir: str | Path | None = None,
) -> Health:
    """The judging health of a dataset folder (module docstring)."""
    folder = dataset_folder(dataset)
    settings = read_settings(folder)
    if runs is None:
        specs: Sequence[str] = settings.runs if settings else DEFAULT_POOL_RUNS
    else:
        specs = [s for s in (runs.split(",") if isinstance(runs, str) else runs) if s.strip()]
    k = depth or (settings.depth if settings else DEFAULT_DEPTH)
    embedder = embedder if embedder is not None else (settings.embedder if settings else None)
    ds = load_dataset(folder)
    grades = read_grades(folder / QRELS)
    queries = [QueryInfo(q.query_id, q.text, q.group, q.as_of, q.abstention) for q in ds.queries]
    progress = count_progress(queries, read_pool(folder), grades)
    coverage, warnings = _coverage(folder, specs, k, embedder, work_dir)
    health = Health(
        folder,
        progress,
        sum(q.abstention for q in queries),
        tuple(s.partition("=")[0].strip() for s in specs),
        k,
        coverage,
        warnings,
    )
    for other in map(Path, others):
        if not other.is_file():
            raise DatasetError(f"qrels file {other} not found (another judge's qrels.tsv)")
        health.agreements[other.name] = agreement(grades, read_grades(other))
    return health
