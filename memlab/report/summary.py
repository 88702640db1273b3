"""The report summary: one line per notebook, then per baseline check a table people read.

Each check is one table — runs × measures, the values of this run — where a cell
is marked only when it deviates: ``✗`` a regression beyond the tolerance, ``↑``
better than the baseline beyond it (refresh the baseline), ``+`` not in the
baseline. The deviations are then spelled out one per line (value, baseline,
delta, tolerance, why); values within tolerance need no line. The same text goes to
the terminal and ``summary.txt``; ``summary.json`` keeps every metric's check, so CI
reads a verdict without parsing notebooks.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

from memlab.report.baseline import FAIL, NEW, OK, CheckResult, MetricCheck
from memlab.report.results import ReportResult


def _rel(path: os.PathLike[str] | str) -> str:
    """``path`` relative to the current directory when it lies below it, else absolute."""
    full = os.path.abspath(path)
    here = os.getcwd()
    return os.path.relpath(full, here) if full.startswith(here + os.sep) else full


def summary_text(result: ReportResult) -> str:
    base = _rel(result.baseline) if result.baseline else "none"
    lines = [f"memlab report: {len(result.jobs)} notebook run(s) in {_rel(result.out)}"]
    lines.append(f"baseline: {base}")
    for job in result.jobs:
        status = "[OK]" if job.ok else "[FAIL]"
        where = _rel(job.html or job.executed)
        lines.append(f"{status:<7}{job.key:<32} {job.seconds:6.1f} s  {where}")
        if job.failure:
            lines.append(f"       {job.failure.describe(job.notebook)}")
    for check in result.checks:
        lines.append("")
        if check.missing_entry:
            lines.append(
                f"[SKIP] no baseline entry for {check.key}; write one with --write-baseline FILE"
            )
            continue
        lines.extend(check_lines(check))
    lines.extend(f"note: {n}" for n in result.notes)
    if result.written_baseline:
        lines.append(f"baseline written: {_rel(result.written_baseline)}")
    lines.append(verdict_line(result))
    return "\n".join(lines)


MARKS = {FAIL: "✗", NEW: "+"}
BETTER = "↑"


def _mark(check: MetricCheck) -> str:
    if check.status == OK and check.note:
        return BETTER  # better than the baseline beyond the tolerance
    return MARKS.get(check.status, "")


def _value(value: float | None) -> str:
    if value is None:
        return "-"
    return f"{value:.0f}" if abs(value) >= 100 or float(value).is_integer() else f"{value:.4f}"


@dataclass(frozen=True)
class Pivot:
    """One check as runs × measures: each cell the value and its mark ('' within
    tolerance), and the checks that deviate."""

    measures: list[str]
    rows: list[tuple[str, list[tuple[str, str]]]]  # run, [(value, mark)] per measure
    deviations: list[MetricCheck]


def pivot(check: CheckResult) -> Pivot:
    runs = list(dict.fromkeys(c.run for c in check.checks))
    measures = list(dict.fromkeys(c.measure for c in check.checks))
    cells = {(c.run, c.measure): (_value(c.value), _mark(c)) for c in check.checks}
    rows = [(run, [cells.get((run, m), ("", "")) for m in measures]) for run in runs]
    return Pivot(measures, rows, [c for c in check.checks if _mark(c)])


LEGEND = (
    "a mark only where a value leaves its tolerance: ✗ regression, ↑ better, + not in the baseline"
)


def check_lines(check: CheckResult) -> list[str]:
    """One check as a runs × measures table, then its deviations one per line."""
    lines = [f"{check.key} against the baseline ({LEGEND})"]
    lines += [f"[FAIL] incomparable with the baseline: {item}" for item in check.incompatible]
    table = pivot(check)
    rows = [["run", *table.measures]] + [
        [run, *(f"{value} {mark or ' '}" for value, mark in cells)] for run, cells in table.rows
    ]
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    for n, row in enumerate(rows):
        padded = [
            c.ljust(w) if i == 0 or n == 0 else c.rjust(w)
            for i, (c, w) in enumerate(zip(row, widths, strict=True))
        ]
        lines.append("  ".join(padded).rstrip())
    if table.deviations:
        lines.append(f"deviations ({len(table.deviations)} of {len(check.checks)} values):")
        lines += [c.line() for c in table.deviations]
    else:
        lines.append(f"no deviation: all {len(check.checks)} values within their tolerance")
    return lines


def verdict_line(result: ReportResult) -> str:
    metrics = [c for check in result.checks for c in check.checks]
    counts = {s: sum(1 for c in metrics if c.status == s) for s in (OK, FAIL, NEW)}
    failed = sum(1 for j in result.jobs if not j.ok)
    incomparable = sum(1 for c in result.checks if c.incompatible)
    parts = [
        f"{len(metrics)} metrics checked: {counts[OK]} OK, {counts[FAIL]} FAIL"
        + (f", {counts[NEW]} new" if counts[NEW] else ""),
        f"{len(result.jobs) - failed} notebook(s) OK, {failed} failed",
    ]
    if incomparable:
        parts.append(f"{incomparable} result(s) incomparable with the baseline")
    return "result: " + ("PASS" if result.ok else "FAIL") + " — " + "; ".join(parts)


def summary_data(result: ReportResult) -> dict[str, Any]:
    return {
        "ok": result.ok,
        "baseline": str(result.baseline) if result.baseline else None,
        "written_baseline": str(result.written_baseline) if result.written_baseline else None,
        "jobs": [
            {
                "key": j.key,
                "notebook": j.notebook,
                "ok": j.ok,
                "seconds": round(j.seconds, 2),
                "executed": str(j.executed),
                "html": str(j.html) if j.html else None,
                "failure": j.failure.describe(j.notebook) if j.failure else None,
            }
            for j in result.jobs
        ],
        "checks": [
            {
                "key": c.key,
                "ok": c.ok,
                "missing_entry": c.missing_entry,
                "incompatible": list(c.incompatible),
                "metrics": [
                    {
                        "run": m.run,
                        "measure": m.measure,
                        "value": m.value,
                        "baseline": m.baseline,
                        "tolerance": m.tolerance,
                        "status": m.status,
                        "note": m.note,
                    }
                    for m in c.checks
                ],
            }
            for c in result.checks
        ],
    }
