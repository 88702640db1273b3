"""The regression notebook's view of the baseline check (the runner makes the same check
from the files the notebook writes; both call ``memlab.report.baseline``)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from memlab.eval.compare.experiment import Experiment
from memlab.report.baseline import FAIL, CheckResult, check_entry, load_baseline
from memlab.report.shipped_paths import default_baseline
from memlab.report.summary import config_lines, run_lines
from memlab.workbench.display import Panel


@dataclass
class BaselineCheck(Panel):
    check: CheckResult | None = None


def current_entry(exp: Experiment) -> dict[str, Any]:
    """The experiment as a baseline entry: its manifest and ``{run: {measure: value}}``."""
    metrics: dict[str, dict[str, float]] = {}
    agg = exp.aggregated
    for run, measure, value in zip(agg["run"], agg["measure"], agg["value"], strict=True):
        if pd.notna(value):
            metrics.setdefault(str(run), {})[str(measure)] = float(value)
    return {"manifest": exp.manifest, "metrics": metrics}


def baseline_check(
    exp: Experiment, baseline: str = "", notebook: str = "regression"
) -> BaselineCheck:
    """``[OK]`` / ``[FAIL]`` per metric against the baseline (default: the committed one)."""
    path = Path(baseline) if baseline else default_baseline()
    key = f"{notebook}/{exp.dataset.path.name}"
    if not path.is_file():
        return BaselineCheck(
            f"no baseline at {path}", ["write one with `memlab report --write-baseline FILE`"]
        )
    data = load_baseline(path)
    check = check_entry(
        key, current_entry(exp), data["entries"].get(key), data.get("tolerances"), path
    )
    notes = [f"baseline {path}, entry {key}"]
    if check.missing_entry:
        notes.append("the baseline has no entry for this dataset; nothing to compare")
    notes += [f"INCOMPARABLE: {item}" for item in check.incompatible]
    notes += [*config_lines(check), *run_lines(check)]
    verdict = (
        "PASS"
        if check.ok and not check.missing_entry
        else "FAIL"
        if not check.ok
        else "no baseline"
    )
    failed = sum(1 for c in check.compared if c.status == FAIL)
    apart = f"; {len(check.not_compared)} not compared" if check.not_compared else ""
    notes.append(f"verdict: {verdict} ({failed} of {len(check.compared)} metrics failed{apart})")
    table = pd.DataFrame(
        [
            {
                "status": f"[{c.status}]",
                "run": c.run,
                "measure": c.measure,
                "value": c.value,
                "baseline": c.baseline,
                "delta": c.delta,
                "tolerance": c.tolerance,
                "note": c.note,
            }
            for c in check.checks
        ]
    )
    return BaselineCheck("baseline check", notes, [("", table)], check)
