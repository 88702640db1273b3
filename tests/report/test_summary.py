"""The summary people read: runs × measures, only deviations marked and spelled out."""

from __future__ import annotations

from pathlib import Path

from memlab.report.baseline import FAIL, NEW, OK, CheckResult, MetricCheck
from memlab.report.html import index_page
from memlab.report.summary import check_lines, pivot


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
