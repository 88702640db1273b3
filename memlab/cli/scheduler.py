"""``--scheduler``: run the work of a command on a Dask cluster (``memlab.cluster``)."""

from __future__ import annotations

import argparse
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

HELP = (
    "run the work on Dask: local (a worker per core), local:N, or tcp://HOST:PORT "
    "(an existing scheduler); needs pip install 'memlab[dask]'"
)


def add_scheduler_arg(p: argparse.ArgumentParser) -> None:
    p.add_argument("--scheduler", metavar="WHERE", help=HELP)


@contextmanager
def scheduler_client(args: argparse.Namespace) -> Iterator[Any]:
    """The ``distributed.Client`` of ``--scheduler`` (closed afterwards), or None."""
    spec = getattr(args, "scheduler", None)
    if not spec:
        yield None
        return
    from memlab.cluster import connect
    from memlab.dream.sim.fleet import warm_worker as warm_fleet
    from memlab.sweep.work import warm_worker as warm_sweep

    client = connect(spec, dashboard=False, warmers=(warm_sweep, warm_fleet))
    try:
        yield client
    finally:
        client.close()
