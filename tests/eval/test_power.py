"""The minimum detectable difference of a paired comparison, analytic and by bootstrap."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

from memlab.eval.power import analytic_mde, bootstrap_mde, bootstrap_power


def test_the_analytic_minimum_is_the_textbook_formula() -> None:
    d = np.array([0.0, 0.1, -0.2, 0.3, 0.05, 0.0, 0.15, -0.1])
    n, sd = len(d), d.std(ddof=1)
    expected = (stats.t.ppf(0.975, n - 1) + stats.t.ppf(0.8, n - 1)) * sd / math.sqrt(n)
    assert analytic_mde(d) == pytest.approx(expected)
    assert analytic_mde(d, power=0.9) > analytic_mde(d) > analytic_mde(d, alpha=0.1)


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


def test_no_spread_detects_anything_and_too_few_values_nothing() -> None:
    assert analytic_mde(np.zeros(50)) == 0.0 and bootstrap_mde(np.zeros(50)) == 0.0
    assert bootstrap_mde(np.full(10, 0.2)) == 0.0
    assert math.isnan(analytic_mde([0.3])) and math.isnan(bootstrap_mde([0.3]))
    assert math.isnan(bootstrap_power([0.3], 0.1))
