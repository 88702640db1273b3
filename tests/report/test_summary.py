"""The summary people read: runs × measures, only deviations marked and spelled out."""

from __future__ import annotations

import re
from pathlib import Path

from memlab import __version__
from memlab.eval.measures import good_direction
from memlab.report.baseline import FAIL, NEW, OK, CheckResult, MetricCheck, check_entry
from memlab.report.html import index_page
from memlab.report.jobs import JobResult, ReportResult
from memlab.report.summary import check_lines, direction_text, pivot, summary_data, summary_text

from .test_baseline import configured, entry


def a_check() -> CheckResult:
    checks = [
        MetricCheck("fts", "nDCG@10", 0.61, 0.61, 0.005, OK),
        MetricCheck("fts", "Stale", 0.2, 0.1, 0.005, FAIL, "regression: higher than the baseline"),
        MetricCheck("hybrid", "nDCG@10", 0.70, 0.65, 0.005, OK, "better than the baseline"),
        MetricCheck("hybrid", "Stale", 0.1, 0.1, 0.005, OK),
        MetricCheck("mine", "nDCG@10", 0.5, None, 0.005, NEW, "not in the baseline"),
    ]
    return CheckResult("regression/x", None, checks)


def test_only_deviations_are_marked_and_spelled_out() -> None:
    lines = check_lines(a_check())
    assert lines[1].split() == ["run", "nDCG@10", "Stale"]
    assert lines[2].split() == ["fts", "0.6100", "0.2000", "✗"]
    assert lines[3].split() == ["hybrid", "0.7000", "↑", "0.1000"]
    assert lines[4].split() == ["mine", "0.5000", "+"]
    assert lines[5] == "deviations (3 of 5 values):"
    assert [ln.split()[:3] for ln in lines[6:]] == [
        ["[FAIL]", "fts", "Stale"],
        ["[OK]", "hybrid", "nDCG@10"],
        ["[NEW]", "mine", "nDCG@10"],
    ]
    # the columns line up
    assert lines[2].index("0.6100") == lines[3].index("0.7000") == lines[4].index("0.5000")
    assert lines[2].index("0.2000") == lines[3].index("0.1000")


def test_the_index_page_shows_the_same_table(tmp_path: Path) -> None:
    check = a_check()
    page = index_page(tmp_path / "index.html", [], [check], "FAIL").read_text()
    assert page.count("<tr><td>") == 3  # one row per run
    assert '<td class="num FAIL">0.2000 ✗</td>' in page
    assert '<td class="num OK">0.7000 ↑</td>' in page
    assert '<td class="num ">0.6100</td>' in page
    assert page.count('<td class="FAIL">[FAIL]</td>') == 1  # the deviations, one per line
    assert len(pivot(check).deviations) == 3


def report_of(check: CheckResult, out: Path) -> ReportResult:
    job = JobResult(check.key, "regression", out, out / "regression.ipynb", 1.0, check=check)
    return ReportResult(out, [job], out / "baseline.json", date="2026-08-01T12:00:00Z")


def test_a_subset_report_lists_the_runs_not_run_once(tmp_path: Path) -> None:
    """A 3-of-7 report: the one real regression stands out, the 4 runs not run are one
    line, and a better value of the regressed run is no invitation to refresh."""
    base, current = entry(), entry()
    for run in ("rrf", "openclaw", "basic-memory", "hybrid@grok-2026-08"):
        base["metrics"][run] = dict(base["metrics"]["hybrid"])
    base["metrics"]["mmr"] = dict(base["metrics"]["hybrid"])
    current["metrics"]["mmr"] = dict(base["metrics"]["hybrid"])
    current["metrics"]["hybrid"]["nDCG@10"] = 0.50  # the one real regression
    current["metrics"]["hybrid"]["Redundancy"] = 0.05  # … with less redundancy
    text = summary_text(report_of(check_entry("regression/x", current, base), tmp_path))
    lines = text.splitlines()
    assert [ln.split()[1:3] for ln in lines if ln.startswith("[FAIL]")] == [["hybrid", "nDCG@10"]]
    assert [ln for ln in lines if ln.startswith("not run")] == [
        "not run: rrf, openclaw, basic-memory, hybrid@grok-2026-08 (4 of the baseline's 7 runs "
        "are not in these results; their values are not checked)"
    ]
    assert "missing from the results" not in text
    assert "refresh it with --write-baseline" not in text
    better = next(ln for ln in lines if ln.startswith("[OK]") and "Redundancy" in ln)
    assert better.endswith(
        "(better than the baseline, but this run failed on nDCG@10: do not refresh the baseline)"
    )
    assert lines[-1] == (
        "result: FAIL — 9 metrics checked: 8 OK, 1 FAIL; 4 baseline run(s) not run; "
        "1 notebook(s) OK, 0 failed"
    )
    data = summary_data(report_of(check_entry("regression/x", current, base), tmp_path))
    assert data["checks"][0]["not_run"] == [
        "rrf",
        "openclaw",
        "basic-memory",
        "hybrid@grok-2026-08",
    ]


def test_the_summary_names_a_changed_configuration_once_per_run(tmp_path: Path) -> None:
    check = check_entry("regression/x", configured(candidate_multiplier=2), configured())
    lines = summary_text(report_of(check, tmp_path)).splitlines()
    assert lines[0].startswith(f"memlab report (memlab {__version__}, 2026-08-01T12:00:00Z): ")
    assert "dataset tiny, digest sha256:aaa" in lines
    assert [ln for ln in lines if "candidate_multiplier" in ln] == [
        "[FAIL] fts                    candidate_multiplier 3 → 2  (values not compared)",
        "[OK]   openclaw               candidate_multiplier 3 → 2  (not read by this run: its "
        "candidate limit 24 either way; values compared)",
    ]
    rows = [ln.split()[:2] for ln in lines if ln.startswith(("fts", "openclaw"))]
    assert rows == [["fts", "≠"], ["openclaw", "0.6000"]]  # the run's row marked, once
    assert "no deviation among the 3 compared values (3 not compared)" in lines
    page = index_page(tmp_path / "index.html", [], [check], "FAIL").read_text()
    assert "<pre>configuration differs from the baseline&#39;s in 2 of 2 runs" in page
    assert "\n[FAIL] fts                    candidate_multiplier 3 → 2  (values" in page
    assert "<tr><td>fts ≠</td>" in page and "<tr><td>openclaw</td>" in page


def test_the_index_page_states_date_version_digest_and_directions(tmp_path: Path) -> None:
    checks = [
        MetricCheck(run, m, 1.0, 1.0, 0.005, OK)
        for run in ("fts", "hybrid")
        for m in ("nDCG@10", "Redundancy", "Tokens", "NumQ")
    ]
    check = CheckResult(
        "regression/x", None, checks, dataset={"name": "tiny", "digest": "sha256:ab"}
    )
    page = index_page(
        tmp_path / "index.html", [], [check], "PASS", date="2026-08-01T12:00:00Z"
    ).read_text()
    assert f"2026-08-01T12:00:00Z · memlab {__version__} · dataset tiny" in page
    assert "<code>sha256:ab</code>" in page
    shown = dict(re.findall(r'<tr class="measure"><td>([^<]+)</td><td>([^<]+)</td>', page))
    assert list(shown) == ["nDCG@10", "Redundancy", "Tokens", "NumQ"]
    assert shown == {m: direction_text(m) for m in shown}  # the text of memlab.eval.measures
    assert shown["nDCG@10"] == "higher is better"
    assert shown["Redundancy"] == "lower is better"
    assert shown["Tokens"] == "lower is better; a change either way beyond the tolerance fails"
    assert shown["NumQ"].startswith("no better direction")
    assert {m for m in shown if good_direction(m) == "lower"} == {"Redundancy", "Tokens"}
