"""The report summary: one line per notebook, then per baseline check a table people read.

Each check first says what keeps values from being compared, once: the manifests'
differences, then each run whose configuration differs (the differing settings,
baseline value → run value), the baseline's runs that were not run and the runs
new to it. Then one table — runs × measures, the values of this run — where a cell
is marked only when it deviates: ``✗`` a regression beyond the tolerance, ``↑``
better than the baseline beyond it, ``+`` not in the baseline, ``≠`` not compared.
The deviations of the compared values are then spelled out one per line (value,
baseline, delta, tolerance, why); values within tolerance need no line. The same
text goes to the terminal and ``summary.txt``; ``summary.json`` keeps every metric's
check and every configuration difference, so CI reads a verdict without parsing
notebooks.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

from memlab import __version__
from memlab.eval.measures import good_direction
from memlab.report.baseline import FAIL, NEW, OK, TWO_SIDED, CheckResult, MetricCheck
from memlab.report.jobs import ReportResult


def _rel(path: os.PathLike[str] | str) -> str:
    """``path`` relative to the current directory when it lies below it, else absolute."""
    full = os.path.abspath(path)
    here = os.getcwd()
    return os.path.relpath(full, here) if full.startswith(here + os.sep) else full


def summary_text(result: ReportResult) -> str:
    base = _rel(result.baseline) if result.baseline else "none"
    lines = [
        f"memlab report (memlab {__version__}, {result.date}): "
        f"{len(result.jobs)} notebook run(s) in {_rel(result.out)}"
    ]
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
NOT_COMPARED = "≠"


def _mark(check: MetricCheck) -> str:
    if not check.compared:
        return ""  # its run's row is marked, once
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
    apart = {c.run for c in check.not_compared}
    rows = [
        (
            f"{run} {NOT_COMPARED}" if run in apart else run,
            [cells.get((run, m), ("", "")) for m in measures],
        )
        for run in runs
    ]
    return Pivot(measures, rows, [c for c in check.checks if _spelled_out(c, check)])


def _spelled_out(c: MetricCheck, check: CheckResult) -> bool:
    """A deviation gets its own line unless its run is named once already (new to
    the baseline)."""
    return bool(_mark(c)) and not (c.status == NEW and c.run in check.new_runs)


LEGEND = (
    "a mark only where a value leaves its tolerance: ✗ regression, ↑ better, "
    f"+ not in the baseline; {NOT_COMPARED} after a run: its values not compared"
)


def config_lines(check: CheckResult) -> list[str]:
    """Each run whose configuration differs from the baseline's, once: the differing
    settings (baseline → run) and whether its values were compared."""
    if not check.config_changes:
        return []
    runs = len(dict.fromkeys(c.run for c in check.checks))
    affected = sum(1 for c in check.config_changes if c.affected)
    head = (
        f"configuration differs from the baseline's in {len(check.config_changes)} of {runs} runs"
    )
    if affected:
        head += f" ({affected} not compared; after an intended change, refresh the baseline)"
    lines = [head + ":"]
    for change in check.config_changes:
        status = FAIL if change.affected else OK
        why = "values not compared" if change.affected else f"{change.inert}; values compared"
        lines.append(f"[{status}]".ljust(7) + f"{change.run:<22} {change.text()}  ({why})")
    return lines


def run_lines(check: CheckResult) -> list[str]:
    """The baseline's runs that were not run and the runs new to it, one line each kind."""
    lines = []
    if check.not_run:
        lines.append(
            f"not run: {', '.join(check.not_run)} ({len(check.not_run)} of the baseline's "
            f"{check.baseline_runs} runs are not in these results; their values are not checked)"
        )
    if check.new_runs:
        lines.append(f"new runs: {', '.join(check.new_runs)} (not in the baseline; marked +)")
    return lines


def check_lines(check: CheckResult) -> list[str]:
    """One check: what was not compared and why, a runs × measures table, then its
    deviations one per line."""
    lines = [f"{check.key} against the baseline ({LEGEND})"]
    if check.dataset:
        lines.append(
            f"dataset {check.dataset.get('name', '?')}, digest {check.dataset.get('digest', '?')}"
        )
    lines += [f"[FAIL] incomparable with the baseline: {item}" for item in check.incompatible]
    lines += config_lines(check)
    lines += run_lines(check)
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
    lines.append(_deviations_head(check, len(table.deviations)))
    lines += [c.line() for c in table.deviations]
    return lines


def _deviations_head(check: CheckResult, count: int) -> str:
    compared, skipped = len(check.compared), len(check.not_compared)
    if not skipped:
        if count:
            return f"deviations ({count} of {compared} values):"
        return f"no deviation: all {compared} values within their tolerance"
    if count:
        return f"deviations ({count} of {compared} compared values; {skipped} not compared):"
    if compared:
        return f"no deviation among the {compared} compared values ({skipped} not compared)"
    return f"no value compared ({skipped} not compared)"


def verdict_line(result: ReportResult) -> str:
    metrics = [c for check in result.checks for c in check.checks]
    compared = [c for c in metrics if c.compared]
    counts = {s: sum(1 for c in compared if c.status == s) for s in (OK, FAIL, NEW)}
    failed = sum(1 for j in result.jobs if not j.ok)
    incomparable = sum(1 for c in result.checks if c.incompatible)
    differing = sum(1 for c in result.checks for r in c.config_changes if r.affected)
    not_run = sum(len(c.not_run) for c in result.checks)
    parts = [
        f"{len(compared)} metrics checked: {counts[OK]} OK, {counts[FAIL]} FAIL"
        + (f", {counts[NEW]} new" if counts[NEW] else "")
    ]
    if len(metrics) > len(compared):
        parts.append(f"{len(metrics) - len(compared)} not compared with the baseline")
    if incomparable:
        parts.append(f"{incomparable} result(s) incomparable with the baseline")
    if differing:
        parts.append(f"configuration differs in {differing} run(s)")
    if not_run:
        parts.append(f"{not_run} baseline run(s) not run")
    parts.append(f"{len(result.jobs) - failed} notebook(s) OK, {failed} failed")
    return "result: " + ("PASS" if result.ok else "FAIL") + " — " + "; ".join(parts)


def direction_text(measure: str) -> str:
    """Which way ``measure`` is better (``memlab.eval.measures``) and how the baseline
    check reads it."""
    way = good_direction(measure)
    text = "no better direction (a count)" if way == "neither" else f"{way} is better"
    if measure in TWO_SIDED:
        text += "; a change either way beyond the tolerance fails"
    return text


def directions(checks: list[CheckResult]) -> dict[str, str]:
    """Every measure of ``checks``, in order, with ``direction_text``."""
    names = dict.fromkeys(c.measure for check in checks for c in check.checks)
    return {m: direction_text(m) for m in names}


def summary_data(result: ReportResult) -> dict[str, Any]:
    return {
        "ok": result.ok,
        "date": result.date,
        "memlab_version": __version__,
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
        "directions": directions(result.checks),
        "checks": [
            {
                "key": c.key,
                "ok": c.ok,
                "missing_entry": c.missing_entry,
                "dataset": dict(c.dataset),
                "incompatible": list(c.incompatible),
                "config_changes": [r.to_json() for r in c.config_changes],
                "not_run": list(c.not_run),
                "new_runs": list(c.new_runs),
                "metrics": [
                    {
                        "run": m.run,
                        "measure": m.measure,
                        "value": m.value,
                        "baseline": m.baseline,
                        "tolerance": m.tolerance,
                        "status": m.status,
                        "note": m.note,
                        "compared": m.compared,
                    }
                    for m in c.checks
                ],
            }
            for c in result.checks
        ],
    }
