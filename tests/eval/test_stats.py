from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memlab.eval.stats import paired as stats


def test_holm_known_values() -> None:
    # classic example: p = [0.01, 0.04, 0.03, 0.005] → [0.03, 0.06, 0.06, 0.02]
    assert stats.holm([0.01, 0.04, 0.03, 0.005]) == pytest.approx([0.03, 0.06, 0.06, 0.02])


@settings(max_examples=100)
@given(st.lists(st.floats(0, 1), min_size=1, max_size=20))
def test_holm_is_monotone_and_bounded(p: list[float]) -> None:
    adj = stats.holm(p)
    assert all(a >= b - 1e-12 for a, b in zip(adj, p, strict=True))
    assert all(0 <= a <= 1 for a in adj)
    order = np.argsort(p, kind="stable")
    assert all(adj[order[i]] <= adj[order[i + 1]] + 1e-12 for i in range(len(p) - 1))


def holm_cases() -> list[np.ndarray]:
    rng = np.random.default_rng(0)
    cases = [np.array([0.01, 0.04, 0.03, 0.005]), np.array([0.2]), np.ones(3), np.zeros(4)]
    for m in (2, 3, 5, 8, 13, 45):
        cases.append(rng.random(m) ** 3)
        cases.append(np.round(rng.random(m), 1))  # tied p-values
        cases.append(np.minimum(1.0, rng.random(m) * 3))  # several at 1
    return cases


def test_holm_is_statsmodels_multipletests_bit_for_bit() -> None:
    """The reference: statsmodels (hand-written here only because its holm branch runs
    gc.collect() on every call)."""
    from statsmodels.stats.multitest import multipletests

    for p in holm_cases():
        assert stats.holm(p) == multipletests(p, method="holm")[1].tolist()


def scipy_sign_flip(d: np.ndarray, n_resamples: int, seed: int = 0) -> float:
    from scipy.stats import permutation_test

    res = permutation_test((d,), lambda x, axis: np.abs(np.mean(x, axis=axis)),
                           permutation_type="samples", vectorized=True, alternative="greater",
                           n_resamples=n_resamples, rng=np.random.default_rng(seed))  # fmt: skip
    return float(res.pvalue)


@pytest.mark.parametrize("n", [3, 6, 9, 12])
def test_fisher_counts_as_scipys_exact_sign_flip_test(n: int) -> None:
    """Over all 2^n sign flips the count of the fast path is scipy's exact p-value."""
    import itertools

    rng = np.random.default_rng(n)
    for d in (rng.normal(0.1, 0.3, n), rng.choice([-1.0, -0.5, 0.0, 0.5, 1.0], n) + 0.01):
        flips = np.array(list(itertools.product([-1.0, 1.0], repeat=n)))
        exact = stats._as_extreme(d, flips) / len(flips)
        assert exact == scipy_sign_flip(d, n_resamples=10_000)


@pytest.mark.parametrize("n, shift", [(14, 0.1), (30, 0.05), (100, 0.02), (100, 0.0)])
def test_fisher_agrees_with_scipys_monte_carlo(n: int, shift: float) -> None:
    """Different random flips, the same test: within 4.5 standard errors of the two."""
    d = np.random.default_rng(n).normal(shift, 0.2, n)
    ours = stats.fisher_randomisation(np.zeros(n), d, n_resamples=4000, seed=1)
    ref = scipy_sign_flip(d, n_resamples=4000, seed=2)
    se = np.sqrt(2 * max(ref, 1e-3) * (1 - ref) / 4000)
    assert abs(ours - ref) <= 4.5 * se + 1e-3


def test_fisher_counts_a_mean_of_zero_up_to_rounding_as_zero() -> None:
    """Where scipy's relative tolerance misses the ties: the mean is 0 up to rounding, so
    every flip is at least as extreme (p = 1; scipy's exact test says 0.906)."""
    d = np.array([0.0, -0.3868528072345416, -0.7, -0.1, 0.7, 0.1, 0.3868528072345416])
    assert stats.fisher_randomisation(np.zeros(7), d) == 1.0
    assert scipy_sign_flip(d, n_resamples=10_000) < 0.95


def test_identical_runs_give_p_one_not_nan() -> None:
    a = [0.1, 0.5, 0.9]
    assert stats.paired_t(a, a) == 1.0
    assert stats.fisher_randomisation(a, a) == 1.0


def test_tests_detect_a_clear_difference() -> None:
    rng = np.random.default_rng(0)
    a = rng.random(60)
    b = a + 0.2 + rng.normal(0, 0.05, 60)
    assert stats.paired_t(a, b) < 1e-6
    assert stats.fisher_randomisation(a, b, seed=1) < 0.01


def test_bootstrap_ci_contains_the_mean_and_is_seeded() -> None:
    x = np.random.default_rng(1).random(50)
    lo, hi = stats.bootstrap_ci(x, seed=3)
    assert lo < x.mean() < hi
    assert (lo, hi) == stats.bootstrap_ci(x, seed=3)
    assert all(np.isnan(v) for v in stats.bootstrap_ci([]))
    assert stats.bootstrap_ci([0.25]) == (0.25, 0.25)


@pytest.mark.parametrize("n, level", [(40, 0.95), (7, 0.9), (300, 0.99)])
def test_bootstrap_ci_equals_scipys_percentile_bootstrap(n: int, level: float) -> None:
    """scipy's percentile bootstrap (the reference) draws the same resamples from the same
    generator (rng.integers(0, n, (B, n))): the intervals agree to rounding."""
    from scipy.stats import bootstrap

    x = np.random.default_rng(n).random(n)
    ref = bootstrap((x,), np.mean, n_resamples=2000, confidence_level=level,
                    method="percentile", vectorized=True, rng=np.random.default_rng(7))  # fmt: skip
    expected = (ref.confidence_interval.low, ref.confidence_interval.high)
    got = stats.bootstrap_ci(x, n_resamples=2000, level=level, seed=7)
    assert got == pytest.approx(expected, abs=1e-12)


def test_win_tie_loss() -> None:
    w = stats.win_tie_loss([0.5, 0.5, 0.5], [0.6, 0.5, 0.4])
    assert (w.wins, w.ties, w.losses) == (1, 1, 1)


def fresh_bootstrap(x: np.ndarray, n_resamples: int, seed: int) -> tuple[float, float]:
    """The interval from its own draw (what ``bootstrap_ci`` computed before it shared
    one draw between the measures of a query set)."""
    rng = np.random.default_rng(seed)
    means = x[rng.integers(0, len(x), size=(n_resamples, len(x)))].mean(axis=1)
    alpha = (1.0 - 0.95) / 2.0
    lo, hi = np.quantile(means, [alpha, 1.0 - alpha])
    return float(lo), float(hi)


@pytest.mark.parametrize("n, n_resamples", [(300, 2000), (30, 500), (1200, 2000)])
def test_a_shared_draw_gives_the_intervals_of_a_fresh_one(n: int, n_resamples: int) -> None:
    """Small draws are kept (read-only) and shared; large ones (1200 x 2000) are not."""
    rng = np.random.default_rng(n)
    for seed in (0, 5, 0):
        for values in (rng.random(n), rng.integers(0, 2, n).astype(float), rng.random(n)):
            expected = fresh_bootstrap(values, n_resamples, seed)
            assert stats.bootstrap_ci(values, n_resamples, seed=seed) == expected
    kept = stats.resample_indices(n, n_resamples, 0)
    assert (kept is stats.resample_indices(n, n_resamples, 0)) == (n * n_resamples <= 2_000_000)
    if kept is stats.resample_indices(n, n_resamples, 0):
        with pytest.raises(ValueError):
            kept[0, 0] = 1


def test_linear_quantiles_equal_numpys_to_the_last_bit() -> None:
    """The bootstrap's interval ends are ``np.quantile``'s (linear method) bit for bit:
    ties, bounds, tiny values, infinities and NaN included."""
    from memlab.eval.stats.paired import linear_quantiles

    rng = np.random.default_rng(0)
    samples = [
        np.array([1.0]),
        np.array([np.inf, np.inf, 1.0]),
        np.array([-np.inf, 0.0, np.inf]),
        np.array([1.0, np.nan, 2.0]),
    ]
    for trial in range(3000):
        n = int(rng.integers(1, 60))
        kind = trial % 4
        samples.append(
            rng.normal(size=n)
            if kind == 0
            else rng.integers(0, 4, size=n) / 3.0
            if kind == 1
            else rng.random(n) * 1e-300
            if kind == 2
            else np.round(rng.random(n), 2)
        )
    qs = [0.025, 0.975, 0.0, 1.0, 0.5, 0.9999999, 1e-9]
    for x in samples:
        with np.errstate(invalid="ignore"):  # inf - inf, in numpy's formula and ours
            want = np.quantile(x, qs).tolist()
            got = linear_quantiles(x, qs)
        assert np.array_equal(got, want, equal_nan=True), (x, got, want)
