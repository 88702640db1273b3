"""``memlab report``: run notebooks as a regression report.

1. Select the notebooks (default ``regression``) and read their parameters;
   check every ``--param`` against them (unknown names and wrong types fail
   here, before any kernel starts).
2. Plan one job per notebook, and per dataset for notebooks that take one
   (``--datasets``; default: the notebook's own default dataset).
3. Run each job with papermill in the ``memlab`` kernel, into
   ``OUT/<notebook>[-<dataset>]/``: the executed notebook, its HTML copy (absolute
   paths named, code cells left out with ``no_input``) and the files the notebook
   writes (``aggregated.csv``, ``perquery.csv``, ``manifest.json`` for evaluations).
   Several jobs run at once, each in its own process and kernel (``jobs``; by
   default as many as there are cores, at most 2).
4. Check results against the baseline (``baseline.py``), write
   ``summary.txt`` / ``summary.json`` / ``index.html``, and optionally a new
   baseline (``--write-baseline``).

``ReportResult.exit_code`` is 1 when a notebook failed or a metric regressed.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import replace
from pathlib import Path
from typing import Any

from memlab import progress
from memlab.datasets.scan import check_dataset_files
from memlab.errors import ReportError
from memlab.report import baseline as bl
from memlab.report.execute import CellHook, Failure, check_kernel, run_notebook
from memlab.report.html import index_page, machine_paths, notebook_to_html
from memlab.report.jobs import Job, JobResult, ReportOptions, ReportResult
from memlab.report.notebooks import bind, file_assignments, load_notebooks, parse_assignments
from memlab.report.quoted_separation import separation_notes
from memlab.report.shipped_paths import default_baseline, resolve_dataset
from memlab.report.summary import summary_data, summary_text

__all__ = [
    "ReportOptions",
    "ReportResult",
    "baseline_path",
    "plan",
    "run_job",
    "run_report",
    "write_summary",
]

CHECKED_NOTEBOOKS = frozenset({"regression"})


def plan(options: ReportOptions) -> list[Job]:
    """Resolve notebooks, parameters and datasets; every mistake is caught here."""
    notebooks = load_notebooks(options.notebooks, options.notebook_dir)
    from_file = (
        file_assignments(options.params_file, [nb.name for nb in notebooks])
        if options.params_file
        else []
    )
    bound = bind(notebooks, [*from_file, *parse_assignments(options.params)])
    datasets = [resolve_dataset(d) for d in _split(options.datasets)]
    for path in datasets:
        check_dataset_files(path)  # a FIFO or an outside link: refused here, not in a kernel
    if datasets and not any(nb.takes_dataset for nb in notebooks):
        names = ", ".join(nb.name for nb in notebooks)
        raise ReportError(f"--datasets given, but no selected notebook takes a dataset ({names})")
    memory = {k: v for k, v in options.memory.items() if v is not None}
    if memory and not any(k in nb.parameters for nb in notebooks for k in memory):
        names = ", ".join(nb.name for nb in notebooks)
        raise ReportError(
            f"index or Dream options given, but no selected notebook takes them ({names})"
        )
    base = baseline_path(options)
    jobs = []
    for nb in notebooks:
        targets: list[Path | None] = [None]
        if nb.takes_dataset:
            targets = list(datasets) or [resolve_dataset(str(nb.parameters["dataset"].default))]
        for ds in targets:
            folder = nb.name if ds is None else f"{nb.name}-{ds.name}"
            out_dir = (options.out / folder).resolve()
            params = dict(bound[nb.name])
            params.update({k: v for k, v in memory.items() if k in nb.parameters})
            if ds is not None:
                params["dataset"] = str(ds)
            if "out_dir" in nb.parameters:
                params["out_dir"] = str(out_dir)
            if "baseline" in nb.parameters:
                params["baseline"] = str(base) if base else ""
            jobs.append(Job(nb, ds, params, out_dir))
    return jobs


def baseline_path(options: ReportOptions) -> Path | None:
    if options.baseline is not None:
        bl.load_baseline(options.baseline)  # fail early on a missing or malformed file
        return options.baseline.resolve()
    default = default_baseline()
    return default if default.is_file() else None


def _split(values: Sequence[str]) -> list[str]:
    return [v.strip() for item in values for v in item.split(",") if v.strip()]


def run_report(options: ReportOptions, echo: Callable[[str], None] = print) -> ReportResult:
    """Plan, run every job, check against the baseline and write the summary files."""
    with progress.phase("report: reading the notebooks, starting Jupyter"):
        jobs = plan(options)
        check_kernel(options.kernel, echo)
    progress.note(
        f"report: {len(jobs)} notebook run(s), {workers(options, len(jobs))} at a time: "
        + ", ".join(job.key for job in jobs)
    )
    base = baseline_path(options)
    result = ReportResult(options.out.resolve(), [], base)
    ran = run_jobs(jobs, options, echo)
    with progress.phase("report: checking against the baseline, writing the summary"):
        for job, done in zip(jobs, ran, strict=True):
            if done.ok and (job.notebook.name in CHECKED_NOTEBOOKS or _has_entry(base, job.key)):
                done.check = _check(done, base)
            if done.ok:
                result.notes.extend(separation_notes(job.out_dir, job.key))
            result.jobs.append(done)
        if options.write_baseline is not None:
            result.written_baseline = _write_baseline(options.write_baseline, result)
        write_summary(result)
    return result


def workers(options: ReportOptions, jobs: int) -> int:
    """How many notebooks run at once: ``options.jobs``, else the cores (at most 2)."""
    wanted = options.jobs if options.jobs > 0 else min(2, os.cpu_count() or 1)
    return max(1, min(wanted, jobs))


def run_jobs(
    jobs: Sequence[Job], options: ReportOptions, echo: Callable[[str], None]
) -> list[JobResult]:
    """Every job, in order; with several workers each runs in its own process (and
    kernel). A line says when each one starts and ends; in between, its cells count
    up on a bar (``memlab.progress``, shown when the caller reports progress)."""
    n = len(jobs)
    count = workers(options, n)
    if count == 1:
        out = []
        for number, job in enumerate(jobs, start=1):
            if not options.quiet:
                echo(f"[{number}/{n}] {job.key} → {_shown(job.out_dir)}")
            cells = NotebookCells(job.key)
            if progress.active():
                cells.starting()
            try:
                out.append(run_job(job, options, on_cell=cells if progress.active() else None))
            finally:
                cells.end()
            if not options.quiet:
                echo(f"[{number}/{n}] {job.key} {_state(out[-1])} in {out[-1].seconds:.0f} s")
        return out
    quiet = replace(options, quiet=True)
    if not options.quiet:
        echo(f"running {n} notebooks, {count} at a time")
    done: dict[int, JobResult] = {}
    context = multiprocessing.get_context("spawn")
    told = context.Queue() if progress.active() else None
    listener = CellListener(told, jobs, echo if not options.quiet else None)
    with (
        ProcessPoolExecutor(
            max_workers=count, mp_context=context, initializer=_use_queue, initargs=(told,)
        ) as pool,
        listener,
    ):
        futures = {pool.submit(_run_job_at, i, job, quiet): i for i, job in enumerate(jobs)}
        for i in range(count):  # the first ones start now (the workers' start included)
            listener.starting(i)
        for future in as_completed(futures):
            i = futures[future]
            done[i] = future.result()
            listener.finished(i)
            if not options.quiet:
                echo(
                    f"[{len(done)}/{n}] {jobs[i].key} {_state(done[i])} in {done[i].seconds:.0f} s"
                )
    return [done[i] for i in range(n)]


def _state(job: JobResult) -> str:
    return "done" if job.ok else "FAILED"


class NotebookCells:
    """A notebook's cells as a progress phase: opened when papermill says how many there
    are, advanced as each ends, the running cell's first line beside the bar."""

    def __init__(self, key: str) -> None:
        self.key = key
        self.phase: progress.Phase | None = None
        self.waiting: progress.Phase | None = None

    def starting(self) -> None:
        """Until papermill counts the cells: its import, reading the notebook."""
        if self.waiting is None and self.phase is None:
            self.waiting = progress.start(f"{self.key}: starting papermill")

    def __call__(self, done: int, cells: int, running: str) -> None:
        if self.waiting is not None:
            self.waiting.end()
            self.waiting = None
        if self.phase is None:
            self.phase = progress.start(f"{self.key}: cells", cells, "cell")
            self.phase.describe("starting the kernel")
        if done > self.phase.done:
            self.phase.advance(done - self.phase.done, detail="")
        if running:
            self.phase.describe(f"cell {done + 1}: {_short(running)}")

    def end(self) -> None:
        for phase in (self.waiting, self.phase):
            if phase is not None:
                phase.end()
        self.waiting = self.phase = None


def _short(line: str, width: int = 40) -> str:
    return line if len(line) <= width else line[: width - 1] + "…"


_CELLS: Any = None  # in a worker process: the queue its notebooks' cells are told on


def _use_queue(cells: Any) -> None:
    global _CELLS
    _CELLS = cells


def _run_job_at(index: int, job: Job, options: ReportOptions) -> JobResult:
    """``run_job`` in a worker: its cells told to the parent (``CellListener``)."""
    cells = _CELLS
    if cells is None:
        return run_job(job, options)
    cells.put((index, -1, 0, ""))  # started
    return run_job(job, options, on_cell=lambda d, n, line: cells.put((index, d, n, line)))


class CellListener:
    """In the parent: each worker's notebook cells, as told on the queue, shown as that
    notebook's bar; a line when a notebook starts (its bar counts on until it ends)."""

    def __init__(self, cells: Any, jobs: Sequence[Job], echo: Callable[[str], None] | None):
        self.cells = cells
        self.jobs = jobs
        self.echo = echo
        self.bars: dict[int, NotebookCells] = {}
        self.over: set[int] = set()
        self.lock = threading.Lock()
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._listen, daemon=True)

    def __enter__(self) -> CellListener:
        if self.cells is not None:
            self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        if self.cells is not None:
            self.thread.join()
        with self.lock:
            for bar in self.bars.values():
                bar.end()

    def starting(self, index: int) -> None:
        if self.cells is None:
            return
        with self.lock:
            if index not in self.over:
                self.bars.setdefault(index, NotebookCells(self.jobs[index].key)).starting()

    def finished(self, index: int) -> None:
        with self.lock:
            self.over.add(index)
            bar = self.bars.pop(index, None)
        if bar is not None:
            bar.end()

    def _listen(self) -> None:
        import queue

        while not self.stop.is_set():
            try:
                index, done, total, line = self.cells.get(timeout=0.2)
            except queue.Empty:
                continue
            with self.lock:
                if index in self.over:
                    continue
                if done < 0:
                    if self.echo is not None:
                        job = self.jobs[index]
                        self.echo(f"started {job.key} → {_shown(job.out_dir)}")
                    self.bars.setdefault(index, NotebookCells(self.jobs[index].key)).starting()
                    continue
                bar = self.bars.setdefault(index, NotebookCells(self.jobs[index].key))
                bar(done, total, line)


def _shown(path: Path) -> str:
    try:
        return str(path.relative_to(Path.cwd()))
    except ValueError:
        return str(path)


def run_job(job: Job, options: ReportOptions, on_cell: CellHook | None = None) -> JobResult:
    """Run one notebook (``on_cell``: told as its cells start and end)."""
    job.out_dir.mkdir(parents=True, exist_ok=True)
    executed = job.out_dir / f"{job.notebook.name}.ipynb"
    start = time.perf_counter()
    failure = run_notebook(
        job.notebook.path,
        executed,
        job.params,
        kernel=options.kernel,
        start_timeout=options.start_timeout,
        cell_timeout=options.cell_timeout,
        progress=not options.quiet,
        cwd=job.out_dir,
        on_cell=on_cell,
    )
    seconds = time.perf_counter() - start
    (job.out_dir / "parameters.json").write_text(
        json.dumps(job.params, indent=2, sort_keys=True, default=str) + "\n", encoding="utf-8"
    )
    done = JobResult(job.key, job.notebook.name, job.out_dir, executed, seconds, failure)
    if options.html and executed.is_file():
        datasets = [job.dataset] if job.dataset is not None else []
        paths = machine_paths(job.out_dir, options.out, datasets)
        done.html = notebook_to_html(executed, no_input=options.no_input, paths=paths)
    return done


def _has_entry(base: Path | None, key: str) -> bool:
    return base is not None and key in bl.load_baseline(base)["entries"]


def _check(job: JobResult, base: Path | None) -> bl.CheckResult:
    try:
        return bl.check_outputs(job.out_dir, job.key, base)
    except ReportError as exc:  # the notebook ran but wrote no results
        job.failure = Failure(None, 0, None, "", "", str(exc))
        return bl.CheckResult(job.key, base, missing_entry=True)


def _write_baseline(path: Path, result: ReportResult) -> Path | None:
    entries = {
        j.key: bl.entry_from_outputs(j.out_dir)
        for j in result.jobs
        if j.ok and (j.out_dir / "aggregated.csv").is_file()
    }
    if not entries:
        result.notes.append(f"no evaluation results to write to {path}")
        return None
    return bl.write_baseline(path, entries)


def write_summary(result: ReportResult) -> None:
    """``summary.txt``, ``summary.json`` and ``index.html`` in the report folder."""
    out = result.out
    out.mkdir(parents=True, exist_ok=True)
    (out / "summary.txt").write_text(summary_text(result) + "\n", encoding="utf-8")
    (out / "summary.json").write_text(
        json.dumps(summary_data(result), indent=2, sort_keys=True) + "\n", encoding="utf-8"
    )
    verdict = "PASS" if result.ok else "FAIL"
    index_page(out / "index.html", result.jobs, result.checks, verdict, date=result.date)
