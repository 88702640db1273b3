"""Paired statistics for comparing rankers (pure functions over per-query scores).

* ``paired_t`` — Student's paired t-test (two-sided), the default;
* ``fisher_randomisation`` — the paired sign-flip randomisation test (seeded;
  hand-written, faster than scipy's ``permutation_test``, which it is tested against);
* ``holm`` — Holm–Bonferroni step-down adjustment across many comparisons
  (hand-written, bit-identical to statsmodels' ``multipletests``, which is slow);
* ``bootstrap_ci`` — percentile bootstrap interval of a mean (seeded);
* ``win_tie_loss`` — per-query counts of b beating, tying and losing to a.

Zero variance (identical runs) gives p = 1, never NaN.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import numpy.typing as npt

Values = Sequence[float] | npt.NDArray[np.floating]


def paired_t(a: Values, b: Values) -> float:
    """Two-sided p-value of the paired t-test of b − a (1.0 when all differences are equal)."""
    d = np.asarray(b, dtype=np.float64) - np.asarray(a, dtype=np.float64)
    if len(d) < 2 or np.allclose(d, d[0]):
        return 1.0 if len(d) < 2 or d[0] == 0 else 0.0
    from scipy import stats  # imported here: scipy.stats takes most of a second to import

    return float(stats.ttest_rel(b, a).pvalue)


def fisher_randomisation(a: Values, b: Values, n_resamples: int = 10_000, seed: int = 0) -> float:
    """Two-sided p-value of the paired randomisation (sign-flip) test on the mean difference:
    ``n_resamples`` random sign flips (seeded), p = (flips at least as extreme + 1) /
    (n_resamples + 1).

    Hand-written because measured: scipy.stats.permutation_test (one sample,
    permutation_type "samples", the same test) costs 7-10x the CPU from 30 queries on
    (10,000 flips: 13 vs 3 ms at 30, 0.73 vs 0.10 s at 1,000; its per-pair shuffles
    dominate), and its tolerance for ties is relative to the observed mean, so a mean
    that is 0 up to rounding counts flips short of it (p 0.906 instead of 1 on 7 graded
    differences). The counting is scipy's, tested against it."""
    d = np.asarray(b, dtype=np.float64) - np.asarray(a, dtype=np.float64)
    if len(d) == 0 or not np.any(d):
        return 1.0
    rng = np.random.default_rng(seed)
    signs = rng.choice(np.array([-1.0, 1.0]), size=(n_resamples, len(d)))
    return float((_as_extreme(d, signs) + 1) / (n_resamples + 1))


def _as_extreme(d: npt.NDArray[np.float64], signs: npt.NDArray[np.float64]) -> int:
    """How many of the sign flips (rows of ``signs``) give a mean of ``d`` at least as far
    from 0 as the observed one (to 1e-12, so that ties by rounding count)."""
    observed = abs(d.mean())
    means = np.abs((signs * d).mean(axis=1))
    return int(np.sum(means >= observed - 1e-12))


def holm(pvalues: Values) -> list[float]:
    """Holm–Bonferroni adjusted p-values (same order as given).

    Hand-written because measured: statsmodels' multipletests(method="holm") gives
    bit-identical values (tested) but runs gc.collect() on every call, 33-36 ms per call
    in a bare process (more with a notebook's objects alive) against 5-28 us here, and
    a table makes one call per measure."""
    p = np.asarray(pvalues, dtype=np.float64)
    m = len(p)
    order = np.argsort(p, kind="stable")
    adjusted = np.empty(m)
    running = 0.0
    for rank, idx in enumerate(order):
        running = max(running, min(1.0, (m - rank) * p[idx]))
        adjusted[idx] = running
    return [float(x) for x in adjusted]


def bootstrap_ci(
    values: Values,
    n_resamples: int = 10_000,
    level: float = 0.95,
    seed: int = 0,
    *,
    draws: SharedDraws | None = None,
) -> tuple[float, float]:
    """Percentile bootstrap interval of the mean of ``values`` (seeded; (nan, nan) if
    empty, the value itself for one value): ``n_resamples`` resamples drawn as
    ``rng.integers(0, n, (n_resamples, n))``, the ``(1 − level)/2`` and
    ``(1 + level)/2`` quantiles of their means — what ``scipy.stats.bootstrap``
    (method "percentile") computes from the same generator, to rounding (tested).
    It is written out here because importing scipy.stats costs most of a second in
    every fresh kernel, before the first metric. ``draws``: resamples shared with the
    other intervals of one table (the same draws, taken once)."""
    x = np.asarray(values, dtype=np.float64)
    if len(x) < 2:
        return (float("nan"), float("nan")) if len(x) == 0 else (float(x[0]), float(x[0]))
    indices = (draws or resample_indices)(len(x), n_resamples, seed)
    means = _resampled_means(x, indices)
    alpha = (1.0 - level) / 2.0
    lo, hi = linear_quantiles(means, (alpha, 1.0 - alpha))
    return (lo, hi)


def linear_quantiles(values: npt.NDArray[np.float64], qs: Sequence[float]) -> list[float]:
    """``np.quantile(values, qs)`` (its default, linear method), to the last bit (tested):
    the same virtual index ``(n - 1)·q``, neighbours, weight and interpolation, without the
    ``np.unique`` inside ``np.quantile`` that imports ``numpy.ma`` (8 ms before the first
    interval of a fresh process)."""
    n = len(values)
    ordered = np.sort(values)
    if np.isnan(ordered[-1]):  # NaN sorts last: numpy's quantiles are NaN then
        return [float("nan")] * len(qs)
    out = []
    for q in qs:
        virtual = np.float64(n - 1) * np.float64(q)
        if virtual >= n - 1:  # numpy: both neighbours the last value, weight virtual + 1
            below = above = -1
        elif virtual < 0:
            below = above = 0
        else:
            below = math.floor(virtual)
            above = below + 1
        a, b = ordered[below], ordered[above]
        t = virtual - np.float64(below)
        diff = b - a
        out.append(float(b - diff * (1 - t) if t >= 0.5 else a + diff * t))
    return out


def _resampled_means(
    x: npt.NDArray[np.float64], indices: npt.NDArray[np.int64], rows: int = 128
) -> npt.NDArray[np.float64]:
    """``x[indices].mean(axis=1)``, ``rows`` resamples at a time: each resample's mean is
    taken on its own either way (the same values), and a block of them stays in the
    CPU's cache instead of one array the size of the whole draw."""
    out = np.empty(len(indices), dtype=np.float64)
    for start in range(0, len(indices), rows):
        out[start : start + rows] = np.take(x, indices[start : start + rows]).mean(axis=1)
    return out


CACHED_DRAWS = 2_000_000  # index matrices up to this size are kept (16 MB each)


def resample_indices(n: int, n_resamples: int, seed: int) -> npt.NDArray[np.int64]:
    """The bootstrap's resamples of ``n`` values: ``default_rng(seed).integers(0, n,
    (n_resamples, n))``. They depend on nothing else, so the measures of one query set
    share one draw (kept, read-only, when small)."""
    if type(seed) is int and n * n_resamples <= CACHED_DRAWS:
        return _kept_indices(n, n_resamples, seed)
    return _draw_indices(n, n_resamples, seed)


def _draw_indices(n: int, n_resamples: int, seed: int) -> npt.NDArray[np.int64]:
    rng = np.random.default_rng(seed)
    return rng.integers(0, n, size=(n_resamples, n))


@lru_cache(maxsize=4)
def _kept_indices(n: int, n_resamples: int, seed: int) -> npt.NDArray[np.int64]:
    drawn = _draw_indices(n, n_resamples, seed)
    drawn.flags.writeable = False
    return drawn


class SharedDraws:
    """``resample_indices`` keeping its last draw while the caller holds it: the
    intervals of one table over the same queries (every measure of a run) share one
    draw, whatever its size, and nothing is kept after the table."""

    def __init__(self) -> None:
        self._key: tuple[int, int, int] | None = None
        self._drawn: npt.NDArray[np.int64] | None = None

    def __call__(self, n: int, n_resamples: int, seed: int) -> npt.NDArray[np.int64]:
        if type(seed) is not int:
            return resample_indices(n, n_resamples, seed)
        key = (n, n_resamples, seed)
        if self._drawn is None or key != self._key:
            self._drawn = None  # the former draw is freed before the next is taken
            self._drawn, self._key = resample_indices(n, n_resamples, seed), key
        return self._drawn


@dataclass(frozen=True)
class WinTieLoss:
    wins: int
    ties: int
    losses: int


def win_tie_loss(a: Values, b: Values, tol: float = 1e-9) -> WinTieLoss:
    d = np.asarray(b, dtype=np.float64) - np.asarray(a, dtype=np.float64)
    return WinTieLoss(int(np.sum(d > tol)), int(np.sum(np.abs(d) <= tol)), int(np.sum(d < -tol)))
