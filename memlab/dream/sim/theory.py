"""Closed-form expectations for the plain Poisson case (to check the simulator against).

Assume one user whose session ends form a Poisson process of rate λ per hour,
model latency 0, no failures, and the c0 gates: a session end runs Dream when
``floor(hours since the last run) >= min_hours`` and at least ``n =
min_sessions`` logs are newer than the last run, its own excluded. Right after
a run the lock's mtime equals the triggering log's mtime, so that log never
counts again. With H = ceil(min_hours) hours (the floor makes a fractional
threshold round up), the next run is at the K-th later session end, K the first
k >= n + 1 with T_k >= H. T_{n+1} is Gamma(n + 1, λ); if T_{n+1} < H the run
comes at the first end after H (memoryless: H + 1/λ on average). Hence

    E[D] = E[T_{n+1}; T_{n+1} >= H] + P(T_{n+1} < H) · (H + 1/λ),
    E[T_k; T_k >= H] = (k/λ) · P(Poisson(λH) <= k),  P(T_k < H) = P(Poisson(λH) >= k),

and by Wald's identity the sessions a run consolidates (K − 1) average λ·E[D] − 1.
"""

from __future__ import annotations

import math


def _poisson_cdf(k: int, mean: float) -> float:
    """P(Poisson(mean) <= k)."""
    if k < 0:
        return 0.0
    term = total = math.exp(-mean)
    for i in range(1, k + 1):
        term *= mean / i
        total += term
    return min(total, 1.0)


def expected_hours_between_runs(rate_per_hour: float, min_hours: float, min_sessions: int) -> float:
    """E[time between two consolidations] in hours, for the plain Poisson case."""
    if rate_per_hour <= 0:
        raise ValueError("rate_per_hour must be > 0")
    lam, k = rate_per_hour, max(min_sessions, 0) + 1
    h = float(math.ceil(min_hours)) if min_hours > 0 else 0.0
    tail = (k / lam) * _poisson_cdf(k, lam * h)  # E[T_k; T_k >= H]
    early = 1.0 - _poisson_cdf(k - 1, lam * h)  # P(T_k < H)
    return tail + early * (h + 1.0 / lam)


def expected_sessions_per_run(rate_per_hour: float, min_hours: float, min_sessions: int) -> float:
    """E[logs consolidated per run] (no input cap), for the plain Poisson case."""
    return rate_per_hour * expected_hours_between_runs(rate_per_hour, min_hours, min_sessions) - 1.0
