"""The report summary quotes a notebook's separation files (power, reachability)."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from memlab.eval.compare.separation import FILES
from memlab.report.quoted_separation import separation_notes


def test_notes_quote_the_range_of_minimums_and_the_ceiling(tmp_path: Path) -> None:
    assert separation_notes(tmp_path, "regression/x") == []  # no separation written
    pd.DataFrame(
        [
            {
                "view": "end to end",
                "run": "hybrid",
                "reference": "fts",
                "measure": "nDCG@10",
                "MDE analytic": 0.010,
                "MDE bootstrap": 0.012,
            },
            {
                "view": "ranking only",
                "run": "rrf",
                "reference": "hybrid",
                "measure": "nDCG@10",
                "MDE analytic": 0.031,
                "MDE bootstrap": 0.029,
            },
        ]
    ).to_csv(tmp_path / FILES["power"], index=False)
    pd.DataFrame(
        [
            {
                "run": "fts",
                "filters": "decay 7 d, min_score 0.35",
                "judged": 10,
                "reachable": 7,
                "reachable share": 0.7,
                "answer gone": 2,
            }
        ]
    ).to_csv(tmp_path / FILES["summary"], index=False)
    power, reach = separation_notes(tmp_path, "regression/x")
    assert "ranges from 0.012 (hybrid vs fts, end to end)" in power
    assert "to 0.031 (rrf vs hybrid, ranking only) over 2 comparisons" in power
    assert reach.startswith("regression/x: 7 of 10 judged queries (70.0%) reachable under fts")
    assert "2 answers gone" in reach
