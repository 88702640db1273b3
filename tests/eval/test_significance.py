"""Significance that reads right: the Holm family named and sized, verdicts with their
direction, notes where CI and verdict seem to disagree, and the paper table."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from memlab.errors import ConfigError
from memlab.eval.stats import paired as stats
from memlab.eval.stats.significance import adjust, family_sentence, pairwise_table


def comparison_rows() -> pd.DataFrame:
    """Two runs against a baseline on two measures (p-values as given)."""
    return pd.DataFrame(
        {
            "run": ["b", "c", "b", "c"],
            "measure": ["nDCG@10", "nDCG@10", "Redundancy", "Redundancy"],
            "delta": [0.05, 0.01, -0.04, 0.0],
            "ci_low": [0.017, -0.01, -0.06, 0.0],
            "ci_high": [0.078, 0.03, -0.02, 0.0],
            "p": [0.03, 0.02, 0.001, 1.0],
        }
    )


def test_holm_within_each_measure_by_default() -> None:
    out = adjust(comparison_rows())
    assert list(out["family"]) == ["nDCG@10", "nDCG@10", "Redundancy", "Redundancy"]
    assert list(out["family_size"]) == [2, 2, 2, 2]
    assert list(out["p_holm"]) == pytest.approx(stats.holm([0.03, 0.02]) + stats.holm([0.001, 1.0]))
    every = adjust(comparison_rows(), "all")
    assert set(every["family_size"]) == {4}
    assert list(every["p_holm"]) == pytest.approx(stats.holm([0.03, 0.02, 0.001, 1.0]))
    plain = adjust(comparison_rows(), "none")
    assert list(plain["p_holm"]) == list(plain["p"]) and set(plain["family_size"]) == {1}
    with pytest.raises(ConfigError, match="did you mean 'measure'"):
        adjust(comparison_rows(), "measures")


def test_verdicts_know_which_way_is_better() -> None:
    out = adjust(comparison_rows()).set_index(["run", "measure"])
    assert out.loc[("b", "Redundancy"), "verdict"] == "better"  # less redundancy
    assert out.loc[("b", "nDCG@10"), "verdict"] == "better"  # p 0.03 → Holm 0.04
    assert out.loc[("c", "Redundancy"), "verdict"] == "no difference"


def test_a_ci_that_excludes_zero_beside_no_difference_is_explained() -> None:
    table = comparison_rows()
    table.loc[0, "p"], table.loc[1, "p"] = 0.004, 0.004  # a row like the issue's
    table.loc[2:3, "p"] = [0.004, 0.9]
    all_tests = pd.concat([table] * 8, ignore_index=True)  # a family of many tests
    out = adjust(all_tests, "all")
    row = out.iloc[0]
    assert not row["significant"] and row["ci_low"] > 0
    assert "excludes 0 and p = 0.004, but Holm over the 32 tests of the table" in row["note"]
    per_measure = adjust(table)
    assert per_measure.loc[0, "significant"] and per_measure.loc[0, "note"] == ""
    touching = table.copy()
    touching.loc[0, "ci_low"] = -0.001
    assert "touches 0" in adjust(touching).loc[0, "note"]


def test_the_family_is_named_in_one_line() -> None:
    assert "each measure's 2 comparisons with the baseline" in family_sentence("measure", 3, 9)
    assert "18 tests: 2 run(s) × 9 measure(s)" in family_sentence("all", 3, 9)
    assert "no correction" in family_sentence("none", 3, 9)


def perquery(n: int = 40, seed: int = 1) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    base = rng.uniform(0.2, 0.8, n)
    values = {"a": base, "b": base + 0.2 + rng.normal(0, 0.02, n), "c": base.copy()}
    rows = [
        (run, f"q{i}", m, float(v[i] if m == "nDCG@10" else 1 - v[i]))
        for run, v in values.items()
        for i in range(n)
        for m in ("nDCG@10", "Redundancy")
    ]
    return pd.DataFrame(rows, columns=["run", "query_id", "measure", "value"])


def test_the_paper_table_marks_whom_each_run_beats() -> None:
    table = pairwise_table(perquery(), ["a", "b", "c"], ["nDCG@10", "Redundancy"])
    assert table.beats[("b", "nDCG@10")] == ["a", "c"]
    assert table.beats[("a", "nDCG@10")] == table.beats[("c", "nDCG@10")] == []
    # Redundancy is lower for b: lower is better there, so b beats a and c again
    assert table.beats[("b", "Redundancy")] == ["a", "c"]
    text = table.to_text()
    assert "ᵃᶜ" in text and "Holm-adjusted within each measure over its 3 pairs" in text
    md = table.to_markdown()
    assert "| b | b | **" in md and "<sup>ac</sup>" in md
    tex = table.to_latex()
    assert "\\toprule" in tex and "$^{ac}$" in tex and "\\textbf{" in tex
    assert "nDCG@10" in tex


def test_the_paper_table_p_values_are_scipys_paired_t() -> None:
    from scipy.stats import ttest_rel

    data = perquery(12, seed=3)
    wide = data[data["measure"] == "nDCG@10"].pivot(index="query_id", columns="run", values="value")
    noisy = wide["a"] + np.random.default_rng(0).normal(0.01, 0.05, len(wide))
    data.loc[(data["run"] == "c") & (data["measure"] == "nDCG@10"), "value"] = noisy.to_numpy()
    table = pairwise_table(data, ["a", "b", "c"], ["nDCG@10"], family="none")
    p_ca = ttest_rel(noisy.to_numpy(), wide["a"].to_numpy()).pvalue
    p_bc = ttest_rel(wide["b"].to_numpy(), noisy.to_numpy()).pvalue
    assert p_ca > 0.05 and p_bc < 0.05  # one pair each side of the line
    assert table.beats[("c", "nDCG@10")] == [] and "c" in table.beats[("b", "nDCG@10")]
