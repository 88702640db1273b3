"""Scaling out from a notebook: a Dask cluster to run sweeps, evaluations and fleet
simulations on (``memlab.cluster``; needs ``pip install 'memlab[dask]'``)."""

from __future__ import annotations

from typing import Any

from memlab.cluster import connect


def cluster(scheduler: str = "local", *, processes: bool = True) -> Any:
    """A ``distributed.Client``: ``"local"`` (one worker per core), ``"local:N"`` or
    ``"tcp://HOST:PORT"``. Shown in a notebook, it displays the dashboard link
    (``client.dashboard_link``); pass it as ``client=`` to ``run_sweep``,
    ``simulate_fleet`` or ``run_compare``."""
    from memlab.dream.sim.fleet import warm_worker as warm_fleet
    from memlab.sweep.work import warm_worker as warm_sweep

    return connect(scheduler, processes=processes, warmers=(warm_sweep, warm_fleet))
