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
* ``state``     — the outcome codes, attempt columns and per-user counters;
* ``kernel``    — the engine ``simulate`` runs: prepares a trace, grows the buffers;
* ``loop``      — each user's events in one compiled sequential loop (numba,
  ``memlab.jit``), one helper per event; ``layout`` names its arrays' entries;
* ``kernels``   — the small compiled passes of ``sessions`` and ``planner``;
* ``reference`` — the same traces event by event through Dream's own functions
  (the tests prove the engine equal to it, run for run);
* ``fleet``     — ``simulate`` (fleets in blocks), ``sweep``; ``summary``, ``events``,
  ``theory``, ``plot`` (matplotlib, imported on demand).
"""

from __future__ import annotations

from memlab.dream.sim.events import load_events
from memlab.dream.sim.figures import SimResult
from memlab.dream.sim.fleet import Fleet, simulate, sweep
from memlab.dream.sim.params import SimParams
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
