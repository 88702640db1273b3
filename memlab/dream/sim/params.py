"""Parameters of the Dream capacity simulator, and the small model rules it shares.

Everything the simulator assumes beyond SPEC §7 is a named parameter here:

* sessions arrive per user as a Poisson process (``sessions_per_day``; per-user
  rates gamma-distributed with shape ``rate_shape`` when set), flat or shaped by
  ``arrivals`` = "diurnal" (working hours) or "weekly" (diurnal, quiet weekends);
* a share ``subagent_share`` of sessions are sub-agent sessions: they write no
  log and never trigger Dream (SPEC §7.1);
* a main session lasts a lognormal time; at most ``max_concurrent`` run at once
  per user (0: unlimited), later arrivals wait for a free slot; its log appears
  when it ends (flushes during the session are not modelled);
* with probability ``manual_share`` a main session issues ``/dream`` at a uniform
  point of its life;
* a model call takes a lognormal latency; it fails with ``model_failure_rate``
  (lock untouched) or answers NO_REPLY with ``no_reply_rate``;
* the agent process lives until its session has ended and its Dream run is
  done, plus ``linger_secs`` — while it lives, its PID in the lock blocks others;
* the new memory is ``min(existing, 16 kB) + memory_growth × new session bytes``
  characters (at least 3), truncated at ``max_response_chars``;
* logs are named ``sim_stem(rank)`` (23 characters, sorting in write order), so the
  input byte counts use that stem length.

The Dream configuration itself (gates, caps, grace, stale lock, periodic
interval, ``stale_input_check``) is a ``DreamConfig``, applied exactly.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

from memlab.arrays import IntArray as Ints
from memlab.config import DreamConfig
from memlab.dream.inputs import EXISTING_HEADER, SESSION_SEPARATOR, session_header
from memlab.errors import ConfigError, unknown_name
from memlab.timefmt import DAY

ARRIVALS = ("poisson", "diurnal", "weekly")
START = 1_767_571_200.0  # 2026-01-05T00:00:00Z, a Monday

# Relative session arrival intensity per hour of the day (UTC, 00 h first) and per
# weekday (Monday first).
DIURNAL = tuple(
    float(x)
    for x in """0.1 0.05 0.05 0.05 0.05 0.1 0.3 0.6 1.2 1.8 2.0 1.9
                1.3 1.7  2.0  2.0  1.8  1.5 1.0 0.8 0.7 0.6 0.4 0.2""".split()
)
WEEKDAYS = (1.2, 1.2, 1.2, 1.2, 1.1, 0.3, 0.2)


def _check(ok: bool, message: str) -> None:
    if not ok:
        raise ConfigError(message)


def sim_stem(rank: int) -> str:
    """The stem of the simulator's ``rank``-th log of a user: sorts in log order, ends in sid8."""
    return f"{rank:010d}-sim-{rank:08x}"


NO_REPLY_CHARS = len("NO_REPLY")  # the answer of a call that finds nothing to keep
SESSION_COST = len(SESSION_SEPARATOR) + len(session_header(sim_stem(0)))  # + the content bytes
EXISTING_COST = len(EXISTING_HEADER)


@dataclass(frozen=True)
class SimParams:
    users: int = 1000
    days: float = 30.0
    start: float = START
    seed: int = 0
    sessions_per_day: float = 6.0
    rate_shape: float | None = 2.0  # gamma shape of per-user rates; None: every user alike
    arrivals: str = "poisson"
    session_minutes: float = 45.0  # mean
    session_sigma: float = 1.0  # lognormal sigma of the session length
    max_concurrent: int = 1  # main sessions at once per user; 0 = unlimited
    subagent_share: float = 0.0
    manual_share: float = 0.0
    model_failure_rate: float = 0.0
    no_reply_rate: float = 0.0
    latency_secs: float = 60.0  # mean model latency
    latency_sigma: float = 0.5
    session_bytes: float = 3000.0  # mean log size
    session_bytes_sigma: float = 0.8
    memory_bytes: int = 0  # initial MEMORY.md size
    memory_growth: float = 0.3
    linger_secs: float = 0.0
    bytes_per_token: float = 4.0
    prompt_tokens: int = 400  # the instructions sent with every call
    price_input_per_mtok: float = 3.0  # currency per million tokens
    price_output_per_mtok: float = 15.0

    def __post_init__(self) -> None:
        if self.arrivals not in ARRIVALS:
            raise ConfigError(unknown_name("arrivals", self.arrivals, ARRIVALS))
        _check(self.users >= 1, "simulation.users must be >= 1")
        finite = math.isfinite(self.days)
        _check(finite and self.days > 0, "simulation.days must be a finite number > 0")
        _check(self.max_concurrent >= 0, "simulation.max_concurrent must be >= 0 (0 = unlimited)")
        for name in ("subagent_share", "manual_share", "model_failure_rate", "no_reply_rate"):
            value = getattr(self, name)
            _check(0.0 <= value <= 1.0, f"simulation.{name} must be in [0, 1], got {value}")
        _check(
            self.model_failure_rate + self.no_reply_rate <= 1.0,
            "simulation.model_failure_rate + no_reply_rate must be <= 1",
        )
        for name in ("sessions_per_day", "session_minutes", "latency_secs", "session_bytes"):
            value = getattr(self, name)
            _check(math.isfinite(value) and value >= 0, f"simulation.{name} must be >= 0")
        _check(self.bytes_per_token > 0, "simulation.bytes_per_token must be > 0")

    @property
    def end(self) -> float:
        return self.start + self.days * DAY


# The model rules below take numbers or numpy arrays and return int64 values (the
# reference's answer length; the summary's tokens).


def response_chars(
    memory_bytes: ArrayLike, content_bytes: ArrayLike, params: SimParams, config: DreamConfig
) -> Ints:
    """Length of the model's answer before truncation (ASCII: characters = bytes): what it
    saw of the existing memory plus ``memory_growth`` × the new session bytes, at least 3."""
    seen = np.minimum(np.asarray(memory_bytes, dtype=np.int64), config.max_existing_bytes)
    grown = np.ceil(params.memory_growth * np.asarray(content_bytes)).astype(np.int64)
    return np.maximum(3, seen + grown)


def input_tokens(input_bytes: ArrayLike, params: SimParams) -> Ints:
    """Tokens sent with a call: its input plus the instructions."""
    tokens = np.ceil(np.asarray(input_bytes) / params.bytes_per_token).astype(np.int64)
    return tokens + params.prompt_tokens


def output_tokens(chars: ArrayLike, params: SimParams) -> Ints:
    return np.ceil(np.asarray(chars) / params.bytes_per_token).astype(np.int64)
