"""The Dream capacity simulator: how often Dream fires in a fleet, and what it costs.

Start here: ``simulate(SimParams(...), DreamConfig())`` → ``SimResult``
(``attempts``, ``users``, ``summary()``); ``sweep`` over Dream settings;
``load_events`` replays real sessions; ``expected_hours_between_runs`` /
``expected_sessions_per_run`` are the closed form of the plain Poisson case.

The modules, in the order data flows through them:

* ``params``    — ``SimParams`` (every assumption beyond SPEC §7 is a named
  parameter) and the model rules shared with the reference;
* ``sessions``  — synthetic sessions per user (independent of the Dream config);
* ``trace``     — the triggers one Dream configuration sees, in processing order;
* ``state``     — the engine's named per-user state, calls in flight, attempts;
* ``gates``     — the gates, fast-forwarded to the next open trigger;
* ``runs``      — a call returns: lock, write, cleanup;
* ``kernel``    — the engine ``simulate`` runs: each user's events in one compiled
  sequential loop (numba, ``memlab.jit``);
* ``engine``    — the same rules as a vectorised event loop over all users at once
  (numpy only; the tests prove the two equal);
* ``reference`` — the same traces event by event through Dream's own functions
  (the tests prove the engine equal to it, run for run);
* ``fleet``     — ``simulate`` (fleets in blocks), ``sweep``; ``summary``, ``events``,
  ``theory``, ``plot`` (matplotlib, imported on demand), ``search``.
"""

from __future__ import annotations

from memlab.dream.sim.events import load_events
from memlab.dream.sim.fleet import Fleet, simulate, sweep
from memlab.dream.sim.params import SimParams
from memlab.dream.sim.summary import SimResult
from memlab.dream.sim.theory import expected_hours_between_runs, expected_sessions_per_run

__all__ = [
    "Fleet",
    "SimParams",
    "SimResult",
    "expected_hours_between_runs",
    "expected_sessions_per_run",
    "load_events",
    "simulate",
    "sweep",
]
