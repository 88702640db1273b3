"""What a report run is made of: its options, its jobs and their results (data only).

``runner`` fills these in; ``summary`` and ``html`` render them.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from memlab.report import baseline as bl
from memlab.report.execute import DEFAULT_KERNEL, Failure
from memlab.report.notebooks import Notebook
from memlab.timefmt import format_iso


@dataclass
class ReportOptions:
    notebooks: Sequence[str] = ("regression",)
    datasets: Sequence[str] = ()
    params: Sequence[str] = ()  # "name=value" or "notebook.name=value"
    baseline: Path | None = None  # None: the committed baseline, if there is one
    out: Path = Path("out/report")
    quiet: bool = False
    kernel: str = DEFAULT_KERNEL
    start_timeout: float = 120.0
    cell_timeout: float = 900.0
    write_baseline: Path | None = None
    notebook_dir: Path | None = None
    html: bool = True
    # index options and Dream on the timeline (--tokenizer, --chunk-bytes, --chunk-overlap,
    # --chunking, --roles, --dream): set in every selected notebook that declares it
    memory: Mapping[str, Any] = field(default_factory=dict)
    params_file: Path | None = None  # -f FILE: parameters as papermill's YAML (then --param)
    no_input: bool = False  # HTML without code cells
    jobs: int = 0  # notebooks run at once (0: as many as cores allow, at most 2)


@dataclass(frozen=True)
class Job:
    notebook: Notebook
    dataset: Path | None
    params: dict[str, Any]
    out_dir: Path

    @property
    def key(self) -> str:
        return f"{self.notebook.name}/{self.dataset.name}" if self.dataset else self.notebook.name


@dataclass
class JobResult:
    key: str
    notebook: str
    out_dir: Path
    executed: Path
    seconds: float
    failure: Failure | None = None
    html: Path | None = None
    check: bl.CheckResult | None = None

    @property
    def ok(self) -> bool:
        return self.failure is None


@dataclass
class ReportResult:
    out: Path
    jobs: list[JobResult]
    baseline: Path | None
    written_baseline: Path | None = None
    notes: list[str] = field(default_factory=list)
    date: str = field(default_factory=lambda: format_iso(int(time.time())))  # when it ran (UTC)

    @property
    def checks(self) -> list[bl.CheckResult]:
        return [j.check for j in self.jobs if j.check is not None]

    @property
    def ok(self) -> bool:
        return all(j.ok for j in self.jobs) and all(c.ok for c in self.checks)

    @property
    def exit_code(self) -> int:
        return 0 if self.ok else 1
