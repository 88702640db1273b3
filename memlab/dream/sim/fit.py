"""Fitting the simulator to a fleet's session log: a planner has the log, not its parameters.

``fit_events`` reads a replayed fleet (``load_events``) and sets the ``SimParams``
the log determines:

* ``sessions_per_day``: the mean per-user rate; ``rate_shape``: the gamma shape of the
  per-user rates by the method of moments, the Poisson noise of each user's count
  removed (variance of the rates = variance of counts / days² − mean / days; ``None``,
  users alike, when nothing is left);
* ``session_minutes`` / ``session_sigma`` and ``session_bytes`` /
  ``session_bytes_sigma``: the mean and the log-standard deviation of the main
  sessions' lengths and log sizes (lognormal);
* ``subagent_share``: sub-agent ends over all session ends;
* ``arrivals``: of the simulator's profiles (flat, diurnal, weekly), the one nearest
  the log's hour-of-week shares of session starts (total variation distance).

``fit_check`` then says how well the fit reproduces the log: runs per user per day
(and calls per day) of the log replayed against the fitted fleet simulated, under
the same Dream settings.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np
import pandas as pd

from memlab.config import DreamConfig
from memlab.dream.sim.fleet import Fleet, simulate
from memlab.dream.sim.params import ARRIVALS, DIURNAL, WEEKDAYS, SimParams
from memlab.dream.sim.sessions import Sessions

HOURS_OF_WEEK = 168
_EPOCH_WEEKDAY_HOURS = 72  # 1970-01-01 was a Thursday: Monday 00:00 UTC is 72 h before


def hour_of_week(t: np.ndarray) -> np.ndarray:
    """Hour of the week (Monday 00–01 UTC is 0) of unix times ``t``."""
    return ((np.floor(np.asarray(t) / 3600.0).astype(np.int64) + _EPOCH_WEEKDAY_HOURS)
            % HOURS_OF_WEEK)  # fmt: skip


def profile_shares(arrivals: str) -> np.ndarray:
    """The simulator's arrival profile as shares of the 168 hours of a week."""
    day = np.asarray(DIURNAL) if arrivals != "poisson" else np.ones(24)
    week = np.asarray(WEEKDAYS) if arrivals == "weekly" else np.ones(7)
    w = (week[:, None] * day[None, :]).reshape(-1)
    return w / w.sum()


@dataclass(frozen=True)
class Fit:
    params: SimParams
    hour_of_week: np.ndarray  # the log's shares of session starts per hour of the week
    distance: dict[str, float]  # total variation distance of each profile to the log


def _sessions(fleet: Fleet) -> Sessions:
    if len(fleet.blocks) == 1:
        return fleet.blocks[0]
    b = fleet.blocks
    shift = np.cumsum([0, *(x.users for x in b)])[:-1]
    return Sessions(
        fleet.users,
        np.concatenate([x.user + s for x, s in zip(b, shift, strict=True)]),
        np.concatenate([x.start_ms for x in b]),
        np.concatenate([x.end_ms for x in b]),
        np.concatenate([x.nbytes for x in b]),
        np.concatenate([x.manual_ms for x in b]),
        np.concatenate([x.subagent_ends for x in b]),
        b[0].t0,
    )


def _lognormal_fit(values: np.ndarray) -> tuple[float, float]:
    """(mean, sigma of the logs) of the positive values (mean 0, sigma 0 if none)."""
    v = np.asarray(values, dtype=float)
    v = v[v > 0]
    if v.size == 0:
        return 0.0, 0.0
    return float(v.mean()), float(np.log(v).std()) if v.size > 1 else 0.0


def fit_events(fleet: Fleet, base: SimParams | None = None) -> Fit:
    """The ``SimParams`` (``base``'s for what the log does not say) that fit ``fleet``."""
    s = _sessions(fleet)
    days = fleet.days
    subs = s.subagent_ends
    counts = np.bincount(s.user, minlength=s.users) + subs
    mean = float(counts.mean()) / days
    var_rate = float(counts.var()) / days**2 - mean / days
    shape = mean**2 / var_rate if var_rate > 0 else None
    minutes, minutes_sigma = _lognormal_fit((s.end_ms - s.start_ms) / 60_000.0)
    size, size_sigma = _lognormal_fit(s.nbytes)
    starts = s.t0 + s.start_ms / 1000.0
    seen = np.bincount(hour_of_week(starts), minlength=HOURS_OF_WEEK).astype(float)
    shares = seen / seen.sum() if seen.sum() else seen
    distance = {a: 0.5 * float(np.abs(profile_shares(a) - shares).sum()) for a in ARRIVALS}
    total = int(counts.sum())
    params = replace(
        base or SimParams(),
        users=fleet.users,
        days=days,
        start=float(np.floor(s.t0 / 86_400.0) * 86_400.0),
        sessions_per_day=mean,
        rate_shape=shape,
        arrivals=min(distance, key=distance.__getitem__),
        session_minutes=minutes,
        session_sigma=minutes_sigma,
        session_bytes=size,
        session_bytes_sigma=size_sigma,
        subagent_share=float(subs.sum()) / total if total else 0.0,
    )
    return Fit(params, shares, distance)


def fit_check(fleet: Fleet, fit: Fit, config: DreamConfig) -> pd.DataFrame:
    """Runs per user per day and calls per day: the log replayed, the fitted fleet
    simulated (same Dream settings), and their ratio."""
    replayed = simulate(fit.params, config, fleet=fleet).summary()
    fitted = simulate(fit.params, config).summary()
    keys = ("runs_per_user_day_mean", "runs_per_user_day_p90", "calls_per_day")
    return pd.DataFrame(
        [
            {
                "figure": k,
                "log replayed": replayed[k],
                "fitted fleet": fitted[k],
                "fitted / log": fitted[k] / replayed[k] if replayed[k] else None,
            }
            for k in keys
        ]
    )
