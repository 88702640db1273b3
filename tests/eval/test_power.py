"""The minimum detectable difference of a paired comparison, analytic and by bootstrap."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

from memlab.eval.stats.power import analytic_mde, bootstrap_mde, bootstrap_power


def true_power(delta: float, sd: float, n: int, alpha: float = 0.05) -> float:
    """Power of the two-sided paired t-test at a true shift ``delta`` (noncentral t)."""
    df, nc = n - 1, delta / sd * math.sqrt(n)
    critical = stats.t.ppf(1 - alpha / 2, df)
    return float(stats.nct.sf(critical, df, nc) + stats.nct.cdf(-critical, df, nc))


def test_the_analytic_minimum_is_statsmodels_power_solution() -> None:
    from statsmodels.stats.power import TTestPower

    d = np.array([0.0, 0.1, -0.2, 0.3, 0.05, 0.0, 0.15, -0.1])
    n, sd = len(d), d.std(ddof=1)
    for alpha, power in ((0.05, 0.8), (0.05, 0.9), (0.1, 0.8)):
        es = TTestPower().solve_power(nobs=n, alpha=alpha, power=power, alternative="two-sided")
        mde = analytic_mde(d, alpha, power)
        assert mde == pytest.approx(float(es) * sd, rel=1e-12)
        assert true_power(mde, sd, n, alpha) == pytest.approx(power, abs=1e-6)
    assert analytic_mde(d, power=0.9) > analytic_mde(d) > analytic_mde(d, alpha=0.1)


@pytest.mark.parametrize("n", [2, 5, 8, 30, 400])
def test_the_t_quantile_shortcut_falls_short_on_few_queries(n: int) -> None:
    """The shortcut (t(1 - a/2) + t(power)) sd / sqrt(n) used before statsmodels: its
    true power is below 0.8 on few queries (0.73 at 2), right to 0.001 from 30 on."""
    d = np.random.default_rng(n).normal(0.0, 0.2, n)
    sd = d.std(ddof=1)
    shortcut = (stats.t.ppf(0.975, n - 1) + stats.t.ppf(0.8, n - 1)) * sd / math.sqrt(n)
    assert true_power(analytic_mde(d), sd, n) == pytest.approx(0.8, abs=1e-6)
    if n < 30:
        assert shortcut < analytic_mde(d) and true_power(shortcut, sd, n) < 0.8
    else:
        assert true_power(shortcut, sd, n) == pytest.approx(0.8, abs=1e-3)


def test_the_minimum_shrinks_with_the_square_root_of_the_queries() -> None:
    rng = np.random.default_rng(3)
    d = rng.normal(0.0, 0.2, 400)
    assert analytic_mde(np.tile(d, 4)) == pytest.approx(analytic_mde(d) / 2, rel=0.01)


def test_the_bootstrap_agrees_with_the_formula_on_normal_differences() -> None:
    d = np.random.default_rng(1).normal(0.0, 0.2, 500)
    mde = analytic_mde(d)
    assert bootstrap_power(d, mde) == pytest.approx(0.8, abs=0.03)
    assert bootstrap_mde(d) == pytest.approx(mde, rel=0.05)
    assert bootstrap_power(d, 0.0) == pytest.approx(0.05, abs=0.02)  # the test's level


def test_mostly_tied_differences() -> None:
    rng = np.random.default_rng(2)
    d = np.r_[np.zeros(600), rng.uniform(0.1, 1.0, 25), -rng.uniform(0.1, 1.0, 5)]
    mde, boot = analytic_mde(d), bootstrap_mde(d)
    assert 0 < boot < 2 * mde and 0 < mde < 2 * boot
    assert bootstrap_power(d, 2 * mde) > 0.95


def test_mostly_tied_differences_match_statsmodels() -> None:
    from statsmodels.stats.power import TTestPower

    d = np.r_[np.zeros(40), [0.5, -0.25, 1.0]]
    es = TTestPower().solve_power(nobs=len(d), alpha=0.05, power=0.8, alternative="two-sided")
    assert analytic_mde(d) == pytest.approx(float(es) * d.std(ddof=1), rel=1e-12)


def test_no_spread_detects_anything_and_too_few_values_nothing() -> None:
    assert analytic_mde(np.zeros(50)) == 0.0 and bootstrap_mde(np.zeros(50)) == 0.0
    assert analytic_mde(np.full(10, 0.2)) == 0.0  # all tied (sd 0): no noise at all
    assert bootstrap_mde(np.full(10, 0.2)) == 0.0
    assert math.isnan(analytic_mde([0.3])) and math.isnan(bootstrap_mde([0.3]))
    assert math.isnan(bootstrap_power([0.3], 0.1))
