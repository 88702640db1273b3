"""Committed baselines and the ``[OK]`` / ``[FAIL]`` check of a run against one.

A baseline file (JSON, sorted keys, no NaN) holds one entry per report result,
keyed ``<notebook>/<dataset>`` (``regression/agent-memory``)::

    {"format": 1,
     "tolerances": {"default": 0.005, "NumQ": 0, "Tokens": {"rel": 0.02}},
     "entries": {"regression/agent-memory": {
         "manifest": {... the run's manifest.json ...},
         "metrics": {"hybrid": {"nDCG@10": 0.1352, ...}, ...}}}}

A metric fails when it moves beyond its tolerance in the bad direction (down
for nDCG, recall, RR …; up for Redundancy, Stale, AbstainHits, OverBudget; either
way for NumQ and Tokens). A tolerance is absolute (a number) or
``{"abs": a, "rel": r}`` = ``max(a, r·|baseline|)``. Moving the good way beyond
the tolerance is ``[OK]`` with a note to refresh the baseline.

Numbers are compared only when the manifests are comparable
(``memlab.eval.compare.manifest.incompatibilities``: dataset digest, level, unit, index
configuration, embedder, measures) and each run's configuration matches;
otherwise every metric concerned fails as *incomparable* rather than being
compared silently (DESIGN invariant 6). A run whose configuration differs carries
the differing settings (``config_diff``: key, baseline value, run value); a
difference the run never reads (``candidate_multiplier`` under ``openclaw``) is
named and the run compared as usual. Runs of the baseline that are not in the
results are listed once (``not_run``), not failed value by value: a report over a
subset of the runs checks that subset. A value better than the baseline is an
invitation to refresh it only when nothing in the entry failed.
"""

from __future__ import annotations

import csv
import math
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from memlab.datafile import load_data
from memlab.errors import ReportError
from memlab.eval.compare.manifest import incompatibilities, write_json
from memlab.eval.measures import better_sign
from memlab.report.config_diff import RunChanges, config_changes

FORMAT = 1
TWO_SIDED = frozenset({"NumQ", "Tokens"})  # checked both ways (before the direction)
DEFAULT_TOLERANCES: dict[str, Any] = {
    "default": 0.005,
    "NumQ": 0,
    "Tokens": {"abs": 1.0, "rel": 0.02},
    "AbstainHits": 0.05,
}
OK, FAIL, NEW = "OK", "FAIL", "NEW"


@dataclass(frozen=True)
class MetricCheck:
    run: str
    measure: str
    value: float | None
    baseline: float | None
    tolerance: float
    status: str  # OK | FAIL | NEW
    note: str = ""
    compared: bool = True  # False: not compared (incomparable manifests or configuration)

    @property
    def delta(self) -> float | None:
        if self.value is None or self.baseline is None:
            return None
        return self.value - self.baseline

    def line(self) -> str:
        value = "-" if self.value is None else f"{self.value:.4f}"
        base = "-" if self.baseline is None else f"{self.baseline:.4f}"
        delta = "" if self.delta is None else f"  Δ {self.delta:+.4f}"
        note = f"  ({self.note})" if self.note else ""
        return (
            f"[{self.status}]".ljust(7)
            + f"{self.run:<22} {self.measure:<11} {value:>9}  baseline {base:>9}{delta}"
            + f"  tol {self.tolerance:g}{note}"
        )


@dataclass
class CheckResult:
    key: str
    baseline_path: Path | None
    checks: list[MetricCheck] = field(default_factory=list)
    incompatible: list[str] = field(default_factory=list)
    missing_entry: bool = False
    config_changes: list[RunChanges] = field(default_factory=list)
    not_run: list[str] = field(default_factory=list)  # in the baseline, not in the results
    new_runs: list[str] = field(default_factory=list)  # in the results, not in the baseline
    baseline_runs: int = 0  # how many runs the baseline entry holds
    dataset: Mapping[str, Any] = field(default_factory=dict)  # the results' dataset

    @property
    def failures(self) -> list[MetricCheck]:
        return [c for c in self.checks if c.status == FAIL]

    @property
    def compared(self) -> list[MetricCheck]:
        return [c for c in self.checks if c.compared]

    @property
    def not_compared(self) -> list[MetricCheck]:
        return [c for c in self.checks if not c.compared]

    @property
    def ok(self) -> bool:
        return not self.failures and not self.incompatible


# ------------------------------------------------------------------------ reading


def load_baseline(path: Path) -> dict[str, Any]:
    if not path.is_file():
        raise ReportError(
            f"baseline {path} not found; write one with `memlab report --write-baseline {path}`"
        )
    data = load_data(path, what="baseline", kind="json", error=ReportError)
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ReportError(f"baseline {path}: expected a memlab baseline of format {FORMAT}")
    if not isinstance(data.get("entries"), dict):
        raise ReportError(f"baseline {path}: 'entries' must be a mapping")
    return data


def read_metrics(out_dir: Path) -> dict[str, dict[str, float]]:
    """``aggregated.csv`` as ``{run: {measure: value}}`` (NaN values left out)."""
    path = out_dir / "aggregated.csv"
    if not path.is_file():
        raise ReportError(f"{path} not found: the notebook wrote no aggregated results")
    out: dict[str, dict[str, float]] = {}
    with path.open(newline="", encoding="utf-8") as fh:
        for row in csv.DictReader(fh):
            value = float(row["value"]) if row["value"] not in ("", "nan", "NaN") else math.nan
            if math.isfinite(value):
                out.setdefault(row["run"], {})[row["measure"]] = value
    return out


def read_manifest(out_dir: Path) -> dict[str, Any]:
    path = out_dir / "manifest.json"
    if not path.is_file():
        raise ReportError(f"{path} not found: the notebook wrote no manifest")
    data = load_data(path, what="manifest", kind="json", error=ReportError)
    if not isinstance(data, dict):
        raise ReportError(f"{path}: expected a JSON object")
    return data


def entry_from_outputs(out_dir: Path) -> dict[str, Any]:
    return {"manifest": read_manifest(out_dir), "metrics": read_metrics(out_dir)}


# ----------------------------------------------------------------------- checking


def tolerance_for(measure: str, tolerances: Mapping[str, Any], baseline: float) -> float:
    spec = tolerances.get(measure, tolerances.get("default", DEFAULT_TOLERANCES["default"]))
    if isinstance(spec, Mapping):
        return max(float(spec.get("abs", 0.0)), float(spec.get("rel", 0.0)) * abs(baseline))
    return float(spec)


BETTER_NOTE = "better than the baseline"


def judge(measure: str, value: float, baseline: float, tol: float) -> tuple[str, str]:
    """Status and note for one metric (see the module docstring for the directions)."""
    delta = value - baseline
    if abs(delta) <= tol + 1e-12:
        return OK, ""
    if measure in TWO_SIDED:
        return FAIL, "changed beyond tolerance"
    worse = delta * better_sign(measure) < 0
    if worse:
        return FAIL, "regression: " + ("higher" if delta > 0 else "lower") + " than the baseline"
    return OK, BETTER_NOTE + "; refresh it with --write-baseline"


def check_entry(
    key: str,
    current: Mapping[str, Any],
    baseline: Mapping[str, Any] | None,
    tolerances: Mapping[str, Any] | None = None,
    baseline_path: Path | None = None,
) -> CheckResult:
    """Compare one result (``entry_from_outputs``) with its baseline entry."""
    result = CheckResult(key, baseline_path, dataset=_dataset(current["manifest"]))
    if baseline is None:
        result.missing_entry = True
        return result
    tols = {**DEFAULT_TOLERANCES, **(tolerances or {})}
    result.incompatible = incompatibilities(baseline["manifest"], current["manifest"])
    base_metrics, metrics = baseline["metrics"], current["metrics"]
    result.baseline_runs = len(base_metrics)
    result.not_run = [r for r in base_metrics if r not in metrics]
    result.new_runs = [r for r in metrics if r not in base_metrics]
    both = [r for r in metrics if r in base_metrics]
    result.config_changes = config_changes(baseline["manifest"], current["manifest"], both)
    differs = {c.run: c for c in result.config_changes if c.affected}
    for run in metrics:  # the results' order
        have, want = metrics[run], base_metrics.get(run, {})
        for measure in [*have, *(m for m in want if m not in have)]:
            check = _check_one(run, measure, have.get(measure), want.get(measure), tols)
            if run in differs and check.status != NEW:
                keys = ", ".join(differs[run].keys) or "config_hash"
                note = f"incomparable: the configuration differs ({keys})"
                check = replace(check, status=FAIL, note=note, compared=False)
            result.checks.append(check)
    if result.incompatible:
        note = "incomparable: " + "; ".join(result.incompatible)
        result.checks = [replace(c, status=FAIL, note=note, compared=False) for c in result.checks]
    result.checks = _refresh_advice(result.checks)
    return result


def _dataset(manifest: Mapping[str, Any]) -> dict[str, Any]:
    data = manifest.get("dataset") or {}
    return {k: data[k] for k in ("name", "digest") if k in data}


def _check_one(
    run: str,
    measure: str,
    value: float | None,
    base: float | None,
    tols: Mapping[str, Any],
) -> MetricCheck:
    tol = tolerance_for(measure, tols, base or 0.0)
    if base is None:
        return MetricCheck(run, measure, value, None, tol, NEW, "not in the baseline")
    if value is None:
        return MetricCheck(run, measure, None, base, tol, FAIL, "missing from the results")
    status, note = judge(measure, value, base, tol)
    return MetricCheck(run, measure, value, base, tol, status, note)


def _refresh_advice(checks: list[MetricCheck]) -> list[MetricCheck]:
    """A better value invites a refresh of the baseline only when nothing in the entry
    failed: ``--write-baseline`` rewrites the whole entry, regressions included."""
    failed: dict[str, list[str]] = {}
    for c in checks:
        if c.status == FAIL:
            failed.setdefault(c.run, []).append(c.measure)
    if not failed:
        return checks
    out = []
    for c in checks:
        if c.status == OK and c.note.startswith(BETTER_NOTE):
            if c.run in failed:
                worse = ", ".join(failed[c.run])
                note = f"{BETTER_NOTE}, but this run failed on {worse}: do not refresh the baseline"
            else:
                note = (
                    f"{BETTER_NOTE}; refresh it only once the failures of the other runs are "
                    "resolved (--write-baseline rewrites the whole entry)"
                )
            c = replace(c, note=note)
        out.append(c)
    return out


def check_outputs(out_dir: Path, key: str, baseline_path: Path | None) -> CheckResult:
    """Check the files a notebook wrote against the baseline file's entry ``key``."""
    if baseline_path is None:
        return CheckResult(key, None, missing_entry=True)
    data = load_baseline(baseline_path)
    return check_entry(
        key,
        entry_from_outputs(out_dir),
        data["entries"].get(key),
        data.get("tolerances"),
        baseline_path,
    )


# ------------------------------------------------------------------------ writing


def write_baseline(path: Path, entries: Mapping[str, Mapping[str, Any]]) -> Path:
    """Add or replace ``entries`` in the baseline at ``path`` (others are kept)."""
    data: dict[str, Any] = (
        load_baseline(path)
        if path.is_file()
        else {"format": FORMAT, "tolerances": dict(DEFAULT_TOLERANCES), "entries": {}}
    )
    data["entries"].update({k: dict(v) for k, v in entries.items()})
    data["note"] = (
        "memlab regression baseline: written by `memlab report --write-baseline`; "
        "see memlab/report/baseline.py for the format and tolerances"
    )
    path.parent.mkdir(parents=True, exist_ok=True)
    write_json(path, data)
    return path
