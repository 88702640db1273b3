"""One evaluation or comparison, end to end, and the files it leaves behind.

``run_experiment`` takes a prepared dataset (``prepare_dataset``; a folder or
a ``Dataset`` is prepared with its defaults), gathers every query's candidates
at its own time once per memory at the widest limit the runs need (runs that
share a memory share one replay), runs every ranker with the scoring core,
measures, aggregates, compares against the first run, and (with ``out``)
writes::

    aggregated.csv   run, measure, value, ci_low, ci_high, n
    perquery.csv     run, query_id, category, measure, value   (long)
    compare.csv      every run against the first, per measure (Holm family, verdict, note)
    table.md/.tex    every pair of runs tested, marked as in papers (``eval.stats.significance``)
    per_category.csv mean per run, category and measure
    manifest.json    what produced these numbers (DESIGN invariant 6)
    runs/            every run as TREC files with the judgements it was scored with,
                     at chunk and file level (``memlab.eval.runs.trec_out``)

A run is a ranker name, a configuration (``Run``), or a TREC file from elsewhere
(``memlab.eval.runs.external.RunFile``), scored on the same judgements.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from memlab import progress
from memlab.config import SearchConfig
from memlab.datasets import Dataset
from memlab.errors import ConfigError, unknown_name
from memlab.eval.compare.coverage import gap_warning, pool_depth, pooled_configs, run_coverage
from memlab.eval.compare.manifest import build_manifest, write_json
from memlab.eval.compare.per_query import (
    AGGREGATED_COLUMNS,
    PERQUERY_COLUMNS,
    TESTS,
    UNITS,
    Row,
    aggregate_records,
    compare,
    evaluate_rows,
    measured_qrels,
    per_category,
    unit_qrels,
)
from memlab.eval.measures import DEFAULT_MEASURES, DEFAULT_TOKEN_BUDGET, NUGGET_MEASURES
from memlab.eval.replay.as_of import Timeline
from memlab.eval.replay.memory import Memory
from memlab.eval.replay.prepared import Prepared, prepare_dataset
from memlab.eval.runs.external import RunFile, external_result
from memlab.eval.runs.rankers import (
    DEFAULT_RUNS,
    Run,
    RunResult,
    as_run,
    needed_limit,
    ranker_configs,
    run_config,
)
from memlab.eval.runs.trec_out import write_trec
from memlab.eval.stats.significance import pairwise_table

if TYPE_CHECKING:  # the tables are built with pandas when first read, not by the CLI
    import pandas as pd

log = logging.getLogger("memlab")


@dataclass
class Experiment:
    """One evaluation's results. ``perquery``, ``aggregated``, ``compared`` and
    ``categories`` are pandas tables built when first read (``memlab eval`` prints
    from ``aggregated_records`` and ``compared_records`` and never loads pandas)."""

    dataset: Dataset
    prepared: Prepared
    runs: dict[str, RunResult]
    rows: list[Row]  # perquery's rows (PERQUERY_COLUMNS), in run order
    records: list[dict[str, Any]]  # aggregated's rows (AGGREGATED_COLUMNS)
    manifest: dict[str, Any]
    warnings: list[str] = field(default_factory=list)
    timelines: dict[str, Timeline] = field(default_factory=dict)  # run -> what it ranked
    # {run: {unit: qrels}}: the judgements each run was scored with (runs/<run>.qrels)
    qrels: dict[str, dict[str, dict[str, dict[str, int]]]] = field(default_factory=dict)
    # perquery as run_experiment concatenated it: every evaluated run's rows, in turn
    frames: list[list[Row]] = field(default_factory=list, repr=False)
    test: str = "t"  # compared's test, seed and Holm family
    seed: int = 0
    family: str = "measure"

    @cached_property
    def perquery(self) -> pd.DataFrame:
        """One row per (run, query_id, measure): ``PERQUERY_COLUMNS`` plus category."""
        import pandas as pd

        frames = [pd.DataFrame(rows, columns=PERQUERY_COLUMNS) for rows in self.frames]
        if not frames:
            return pd.DataFrame(self.rows, columns=PERQUERY_COLUMNS)
        perquery = pd.concat(frames, ignore_index=True)
        return pd.concat(
            [perquery[perquery["run"] == name] for name in self.runs], ignore_index=True
        )

    @cached_property
    def aggregated(self) -> pd.DataFrame:
        """Mean, 95% bootstrap CI and n per (run, measure), and NumQ per run."""
        import pandas as pd

        return pd.DataFrame(self.records, columns=AGGREGATED_COLUMNS)

    @cached_property
    def compared(self) -> pd.DataFrame:
        """Every run against the first (``memlab.eval.compare.per_query.compare``)."""
        return compare(
            self.perquery, next(iter(self.runs)), test=self.test, seed=self.seed, family=self.family
        )

    @cached_property
    def categories(self) -> pd.DataFrame:
        """Mean of every measure per run and query category."""
        return per_category(self.perquery)

    def aggregated_records(self) -> list[dict[str, Any]]:
        """``aggregated`` as records, without pandas."""
        return self.records

    def compared_records(self) -> list[dict[str, Any]]:
        """``compared`` as records; one run is compared with nothing (no pandas)."""
        if len(self.runs) < 2 and "compared" not in self.__dict__:
            return []
        return cast("list[dict[str, Any]]", self.compared.to_dict("records"))

    def table(self, measures: Sequence[str] | None = None) -> pd.DataFrame:
        """Aggregated means as a wide table: one row per run, one column per measure."""
        agg = self.aggregated
        if measures is not None:
            agg = agg[agg["measure"].isin(measures)]
        wide = agg.pivot(index="run", columns="measure", values="value")
        return wide.reindex(list(self.runs))


@dataclass(frozen=True)
class Scoring:
    """How runs are measured and compared: the judged ``unit`` (``chunk`` or ``file``),
    the paired ``test`` (``t`` or ``fisher``), the Holm ``family``, the agent measures'
    token ``budget`` and the bootstrap / randomisation ``seed``."""

    unit: str = "chunk"
    test: str = "t"
    family: str = "measure"
    budget: int = DEFAULT_TOKEN_BUDGET
    seed: int = 0


def run_experiment(
    dataset: str | Path | Dataset | Prepared,
    runs: Sequence[str] | Mapping[str, SearchConfig | Run | RunFile] = DEFAULT_RUNS,
    *,
    base: SearchConfig | None = None,
    measures: Sequence[str] = DEFAULT_MEASURES,
    scoring: Scoring | None = None,
    out: str | Path | None = None,
) -> Experiment:
    """Evaluate ``runs`` (names, or {name: config, ``Run`` or ``RunFile``}) on a prepared
    dataset, scored as ``scoring`` says (``Scoring``; None: chunks, t-test).

    ``dataset`` is a ``Prepared`` (``prepare_dataset(path, PrepareOptions(embedder=...,
    tokenizer=..., dream=...))``), or a folder / ``Dataset`` prepared with its defaults
    (shipped vectors, the manifest's index options and Dream setting). See the module
    docstring. In three parts: the runs ranked and measured (``_measure``), the
    ``Experiment`` assembled (``_assemble``), its statistics and files (``_finish``).
    """
    scoring = scoring or Scoring()
    prepared = prepare_dataset(dataset)
    specs, files = _split_runs(runs, base)
    if not specs and not files:
        raise ConfigError("no runs to evaluate; pass e.g. runs=['fts', 'hybrid', 'mmr']")
    measured = _measure(prepared, specs, files, measures, scoring)
    exp = _assemble(prepared, list(runs), specs, files, measured, measures, scoring)
    return _finish(exp, out)


def _split_runs(
    runs: Sequence[str] | Mapping[str, SearchConfig | Run | RunFile], base: SearchConfig | None
) -> tuple[dict[str, Run], dict[str, RunFile]]:
    """The runs memlab ranks and the TREC files from elsewhere."""
    if not isinstance(runs, Mapping):
        return {k: Run(c) for k, c in ranker_configs(runs, base or SearchConfig()).items()}, {}
    files = {k: v for k, v in runs.items() if isinstance(v, RunFile)}
    specs = {k: as_run(v) for k, v in runs.items() if not isinstance(v, RunFile)}
    return specs, files


@dataclass
class _Measured:
    """What ranking and measuring every run left: results, rows, timelines, warnings."""

    results: dict[str, RunResult] = field(default_factory=dict)
    timelines: dict[str, Timeline] = field(default_factory=dict)
    frames: list[list[Row]] = field(default_factory=list)
    qrels: dict[str, dict[str, dict[str, dict[str, int]]]] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)


def _measure(
    prepared: Prepared,
    specs: dict[str, Run],
    files: dict[str, RunFile],
    measures: Sequence[str],
    scoring: Scoring,
) -> _Measured:
    """Every run ranked on its memory's candidates (one replay per memory and way of
    reading the query keywords, ``search.keywords``) and measured."""
    ds = prepared.dataset
    unit, budget = scoring.unit, scoring.budget
    done = _Measured(warnings=_check_vectors(prepared, {n: s.config for n, s in specs.items()}))
    by_memory: dict[tuple[Memory, str], dict[str, Run]] = {}
    for name, spec in specs.items():
        key = (spec.memory_on(prepared.memory), spec.config.keywords)
        by_memory.setdefault(key, {})[name] = spec
    gathered = {
        key: prepared.timeline(
            needed_limit(group),
            vectors=any(r.config.vectors for r in group.values()),
            memory=key[0],
            keywords=key[1],
        )
        for key, group in by_memory.items()
    }
    what = f"ranking and measuring {len(ds.queries)} queries"
    with progress.phase(what, len(specs) + len(files), "run") as bar:
        for (memory, keywords), group in by_memory.items():
            timeline = gathered[(memory, keywords)]
            for name, spec in group.items():
                bar.describe(f"{name}: ranking")
                result = run_config(name, timeline.batch, spec.config, timeline.query_now)
                result.memory = spec.memory or (memory if spec.index else None)
                done.results[name] = result
                done.timelines[name] = timeline
                bar.describe(f"{name}: measures")
                rows = evaluate_rows(timeline, result, measures, unit=unit, budget=budget)
                done.frames.append(rows)
                done.warnings += _gap(timeline, name, spec, result)
                done.qrels[name] = _unit_qrels(timeline)
                bar.advance(detail=name)
        for name, run_file in files.items():
            bar.describe(f"{name}: measures")
            timeline = prepared.judged()
            done.qrels[name] = _unit_qrels(timeline)
            result, notes = external_result(name, run_file, ds, done.qrels[name][unit])
            done.results[name] = result
            done.frames.append(evaluate_rows(timeline, result, measures, unit=unit, budget=budget))
            done.warnings += notes
            bar.advance(detail=name)
    return done


def _assemble(
    prepared: Prepared,
    order: list[str],
    specs: dict[str, Run],
    files: dict[str, RunFile],
    measured: _Measured,
    measures: Sequence[str],
    scoring: Scoring,
) -> Experiment:
    """The ``Experiment``: runs in the order given, its rows, aggregates and manifest."""
    results = {name: measured.results[name] for name in order}
    warnings = measured.warnings
    warnings += [w for w in prepared.warnings if w not in warnings]
    rows = [row for name in order for part in measured.frames for row in part if row[0] == name]
    manifest = build_manifest(
        prepared,
        {name: spec.config for name, spec in specs.items()},
        results,
        measures=measures,
        unit=scoring.unit,
        test=scoring.test,
        seed=scoring.seed,
        budget=scoring.budget,
    )
    manifest["family"] = scoring.family
    for name, run_file in files.items():
        manifest["runs"][name] = {
            "external": {"file": run_file.path.name, "digest": run_file.digest()},
            "degraded_queries": 0,
        }
    return Experiment(
        dataset=prepared.dataset,
        prepared=prepared,
        runs=results,
        rows=rows,
        records=aggregate_records(rows, seed=scoring.seed),
        manifest=manifest,
        warnings=warnings,
        timelines={name: measured.timelines[name] for name in specs},
        qrels=measured.qrels,
        frames=measured.frames,
        test=scoring.test,
        seed=scoring.seed,
        family=scoring.family,
    )


def _finish(exp: Experiment, out: str | Path | None) -> Experiment:
    """The comparison's statistics now (their errors raise here), then the files."""
    if len(exp.runs) > 1:
        with progress.phase(f"significance tests against {next(iter(exp.runs))}"):
            _ = exp.compared
    elif exp.test not in TESTS:
        raise ConfigError(unknown_name("test", str(exp.test), TESTS))
    if out is not None:
        with progress.phase(f"writing the results to {out}"):
            write_outputs(exp, Path(out))
    return exp


def _gap(timeline: Timeline, name: str, spec: Run, result: RunResult) -> list[str]:
    """On a dataset judged by pooling, the warning when most of a run's top k (k: the
    pool's depth) is unjudged (``memlab.eval.compare.coverage``)."""
    ds = timeline.dataset
    k = pool_depth(ds.path)
    if k is None:
        return []
    judged = {qid: j.grades for qid, j in timeline.judgements.items()}
    cov = run_coverage(name, ds, result.rankings, judged, k)
    pooled = spec.config in pooled_configs(ds.path, k)
    warning = gap_warning(cov, ds.path, spec.spec or name, pooled=pooled)
    return [warning] if warning else []


def _unit_qrels(timeline: Timeline) -> dict[str, dict[str, dict[str, int]]]:
    """The judgements the IR measures score, at every unit."""
    return {u: measured_qrels(timeline, unit_qrels(timeline, u)) for u in UNITS}


def _check_vectors(prepared: Prepared, configs: dict[str, SearchConfig]) -> list[str]:
    wants = [n for n, c in configs.items() if c.vectors]
    if wants and prepared.embedder is None:
        message = (
            f"runs {', '.join(wants)} use vectors but no embedder is set and the dataset "
            "ships no vectors; they run FTS-only (pass --embedder hash or minilm)"
        )
        log.warning(message)
        return [message]
    return []


def write_outputs(exp: Experiment, out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    exp.aggregated.to_csv(out / "aggregated.csv", index=False)
    exp.perquery.to_csv(out / "perquery.csv", index=False)
    exp.compared.to_csv(out / "compare.csv", index=False)
    exp.categories.to_csv(out / "per_category.csv", index=False)
    write_json(out / "manifest.json", exp.manifest)
    for name, result in exp.runs.items():
        write_trec(out / "runs", result, exp.qrels.get(name, {}))
    if len(exp.runs) > 1:
        table = pairwise_table(
            exp.perquery,
            list(exp.runs),
            [m for m in exp.manifest["measures"] if m != "NumQ"],
            test=str(exp.manifest["test"]),
            family=str(exp.manifest.get("family", "measure")),
        )
        (out / "table.md").write_text(table.to_markdown() + "\n", encoding="utf-8")
        (out / "table.tex").write_text(table.to_latex() + "\n", encoding="utf-8")


def summary_text(exp: Experiment, measures: Sequence[str] = ("nDCG@10", "R@5", "RR")) -> str:
    lines = [
        f"dataset {exp.dataset.name} ({len(exp.dataset.queries)} queries), "
        f"embedder {exp.prepared.embedder_id or 'none'}"
    ]
    agg = exp.aggregated.set_index(["run", "measure"])
    nuggets = [m for m in exp.aggregated["measure"].unique() if m in NUGGET_MEASURES]
    memory = exp.prepared.memory.label()
    lines[0] += f", memory {memory}"
    for run in exp.runs:
        cells = []
        for m in [*measures, *nuggets, "Redundancy", "Stale", "NumQ"]:
            if (run, m) in agg.index:
                row = agg.loc[(run, m)]
                cells.append(
                    f"{m} {row['value']:.3f}"
                    + (f" [{row['ci_low']:.3f}, {row['ci_high']:.3f}]" if m in measures else "")
                    + (f" (NumQ {int(row['n'])})" if m in nuggets else "")
                )
        degraded = sum(exp.runs[run].degraded.values())
        lines.append(
            f"  {run:<13} " + "  ".join(cells) + (f"  degraded {degraded}" if degraded else "")
        )
    return "\n".join(lines)
